#!/usr/bin/env python3
"""Writes the fuzz seed corpora (fuzz/seeds/<target>/) and the SQL dictionary
(fuzz/sql.dict) from the project's own corpus: one small input per query, so
that each fuzz execution is cheap. Run from the repository root; commit the
output. The reproducers in fuzz/regressions/ are kept by hand."""
import glob, hashlib, json, os, re

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "fuzz", "seeds")


def write(target, text):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(text.encode()).hexdigest()[:16]
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def statements(sql):
    return [s.strip() for s in re.split(r";\s*\n", sql) if s.strip()]


def is_ddl(stmt):
    body = "\n".join(l for l in stmt.splitlines() if not l.strip().startswith("--"))
    return body.lstrip().upper().startswith("CREATE")


# SQL: each example file's DDL with one query at a time.
for path in sorted(glob.glob("corpus/examples/*.sql")) + sorted(glob.glob("corpus/**/*.sql", recursive=True)):
    stmts = statements(open(path).read())
    ddl = [s for s in stmts if is_ddl(s)]
    for q in (s for s in stmts if not is_ddl(s)):
        write("sql", ";\n".join(ddl + [q]) + ";\n")

# SQL and plan JSON from the data-driven cases: each file's schema with each case's input.
for path in sorted(glob.glob("corpus/**/*.test", recursive=True)):
    schema, lines = [], open(path).read().split("\n")
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if not words or lines[i].startswith("#"):
            i += 1
            continue
        directive = words[0]
        body = []
        i += 1
        while i < len(lines) and lines[i] != "----":
            body.append(lines[i])
            i += 1
        while i < len(lines) and lines[i].strip() != "":  # skip the expected output
            i += 1
        text = "\n".join(body).strip()
        if not text:
            continue
        if directive == "schema":
            schema.append(text)
        elif text.startswith("{"):
            write("plan_json", text + "\n")
        elif directive in ("plan", "rf", "bound", "error", "lint", "check", "roundtrip"):
            write("sql", "\n".join(schema + [text]) + "\n")
            if directive in ("check", "rf", "lint") and len(text) < 600:
                write("check", "\n".join(schema + [text]) + "\n")

for path in sorted(glob.glob("corpus/**/*.json", recursive=True)):
    text = open(path).read()
    doc = json.loads(text)
    write("replay" if "hash" in doc else "plan_json", text)

# The dictionary: the grammar's keywords and the operators and functions of the catalog.
words = set()
for line in open("grammar/RfSql.g4"):
    m = re.match(r"^([A-Z_]+) : ((?:[A-Z_] )+);", line)
    if m:
        words.add(m.group(1))
for op in ["=", "<=>", "<>", "!=", "<", "<=", ">", ">=", "(", ")", ",", ";", "'", "\"", "--", "||",
           "IS NOT DISTINCT FROM", "LEFT JOIN", "FULL OUTER JOIN", "NOT IN", "ORDER BY", "GROUP BY"]:
    words.add(op)
for fn in re.findall(r'\{"([a-z_]+)"', open("ir/functions.cpp").read()):
    words.add(fn + "(")
with open(os.path.join(ROOT, "fuzz", "sql.dict"), "w") as f:
    f.write("# SQL tokens for the sql and check fuzz targets (tools/gen_fuzz_seeds.py)\n")
    for w in sorted(words):
        f.write('"' + w.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
