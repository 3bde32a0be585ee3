#!/usr/bin/env python3
"""Keeps the examples of docs/findings.md equal to what rfguard prints.

Each example in docs/findings.md is introduced by a line `Bad (TITLE):` (or
`Example (TITLE):`, or `Bad:` for a case titled by its code alone) under the
section `## CODE`, and is the corpus case titled `CODE: TITLE` in
corpus/lint/findings.test. Its first fenced block is the plan as `rfguard plan`
prints it, its second the case's expected lint output: the finding with the
counterexample database the bounded check found. An example that is not a
corpus case (an SQL one, as unused-suppression's) must say so by a ```sql block.

    tools/sync_findings_docs.py build/rfguard          # rewrite the examples
    tools/sync_findings_docs.py --check build/rfguard  # exit 1 when they differ
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "findings.md")
CORPUS = os.path.join(ROOT, "corpus", "lint", "findings.test")
INTRO = re.compile(r"^(?:Bad|Example)(?: \((.*)\))?:$")


def corpus_cases():
    """title -> (plan JSON text, expected output lines) of every `lint` case."""
    cases, lines, i = {}, open(CORPUS).read().split("\n"), 0
    title = None
    while i < len(lines):
        line = lines[i]
        if line.startswith("# "):
            title = line[2:]
        elif line == "lint" and title is not None:
            j = lines.index("----", i)
            k = j + 1
            while k < len(lines) and lines[k] != "":
                k += 1
            cases[title] = ("\n".join(lines[i + 1:j]), lines[j + 1:k])
            i = k
            title = None
        i += 1
    return cases


def plan_text(rfguard, plan_json):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(plan_json)
    try:
        out = subprocess.run([rfguard, "plan", f.name], capture_output=True, text=True, check=True)
    finally:
        os.unlink(f.name)
    lines = out.stdout.rstrip("\n").split("\n")
    return lines[1:] if lines and lines[0].startswith("-- ") else lines


def fenced(lines, start):
    """(opening index, closing index, language) of the first fenced block at or after start."""
    i = start
    while not lines[i].startswith("```"):
        i += 1
    j = i + 1
    while lines[j] != "```":
        j += 1
    return i, j, lines[i][3:]


def synced(rfguard):
    cases = corpus_cases()
    lines = open(DOC).read().split("\n")
    out, problems, code, i = [], [], None, 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        if line.startswith("## "):
            code = line[3:]
        m = INTRO.match(line)
        if not m or code is None:
            i += 1
            continue
        key = code + (": " + m.group(1) if m.group(1) else "")
        o1, c1, lang = fenced(lines, i + 1)
        if lang == "sql":  # an SQL example: not a plan JSON case
            i += 1
            continue
        if key not in cases:
            problems.append(f"docs/findings.md:{i + 1}: no case `# {key}` in corpus/lint/findings.test")
            i += 1
            continue
        plan, expected = cases[key]
        o2, c2, _ = fenced(lines, c1 + 1)
        out += lines[i + 1:o1 + 1] + plan_text(rfguard, plan) + lines[c1:o2 + 1] + expected + ["```"]
        i = c2 + 1
    return "\n".join(out), problems


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 1:
        sys.exit("usage: tools/sync_findings_docs.py [--check] RFGUARD")
    text, problems = synced(args[0])
    for p in problems:
        print(p, file=sys.stderr)
    if "--check" in sys.argv:
        if text != open(DOC).read():
            print("docs/findings.md: the examples differ from corpus/lint/findings.test; run "
                  "tools/sync_findings_docs.py build/rfguard", file=sys.stderr)
            sys.exit(1)
    else:
        open(DOC, "w").write(text)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
