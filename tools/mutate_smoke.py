#!/usr/bin/env python3
"""Mutation smoke test: takes the statements of the bundled examples, mutates
their tokens at random (drop, duplicate, swap, insert a keyword or symbol)
and runs `rfguard plan` on each mutant. Every run must exit 0 or 2 with no
crash (ideally under the ASan build). Usage:
  tools/mutate_smoke.py build-asan/rfguard [count] [seed]"""
import random
import re
import subprocess
import sys
import tempfile

rfguard = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
texts = [open(f"corpus/examples/{n}.sql").read() for n in ("tpch", "ssb", "seeds")]
schema = {t: ";".join(s for s in t.split(";") if "CREATE" in s.upper()) for t in texts}
queries = [(t, s) for t in texts for s in t.split(";") if "select" in s.lower() and "create" not in s.lower()]
extra = ["(", ")", ",", "NULL", "JOIN", "LEFT", "ON", "AND", "OR", "NOT", "<=>", "=", "IN", "EXISTS",
         "SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT 1", "'x'", "1", "CASE", "END", "*", "||"]
bad = 0
for i in range(count):
    text, q = rng.choice(queries)
    toks = re.findall(r"'[^']*'|\w+|<=>|<=|>=|<>|\|\||\S", q)
    for _ in range(rng.randint(1, 4)):
        if not toks:
            break
        j = rng.randrange(len(toks))
        op = rng.randrange(4)
        if op == 0:
            del toks[j]
        elif op == 1:
            toks.insert(j, toks[j])
        elif op == 2:
            k = rng.randrange(len(toks))
            toks[j], toks[k] = toks[k], toks[j]
        else:
            toks.insert(j, rng.choice(extra))
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(schema[text] + ";\n" + " ".join(toks) + ";\n")
        path = f.name
    r = subprocess.run([rfguard, "plan", "--explain", path], capture_output=True, text=True)
    if r.returncode not in (0, 2) or "Sanitizer" in r.stderr or "internal error" in r.stderr:
        bad += 1
        print(f"FAIL exit {r.returncode}: {path}\n{r.stderr[-800:]}")
print(f"{count - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
