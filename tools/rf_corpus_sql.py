#!/usr/bin/env python3
"""Writes each corpus/rf/*.test as a SQL file (its schema, then every `rf`
query, named by line) so that `rfguard duckdb compare` can run the rf corpus
in DuckDB:

    tools/rf_corpus_sql.py OUTDIR corpus/rf/*.test
    for f in OUTDIR/*.sql; do build/rfguard duckdb compare "$f"; done
"""
import os
import sys


def convert(path):
    lines = open(path).read().split('\n')
    out, i = [], 0
    while i < len(lines):
        words = lines[i].split()
        if words and words[0] in ('schema', 'rf'):
            j, body = i + 1, []
            while j < len(lines) and lines[j] != '----':
                body.append(lines[j])
                j += 1
            text = '\n'.join(body).strip()
            if words[0] == 'schema':
                out.append(text)
            elif not any(w.startswith('profile=') for w in words[1:]):
                out.append(f'-- name: line{i + 1}\n' + text.rstrip(';') + ';')
            i = j
        i += 1
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    os.makedirs(sys.argv[1], exist_ok=True)
    for p in sys.argv[2:]:
        name = os.path.splitext(os.path.basename(p))[0]
        open(os.path.join(sys.argv[1], name + '.sql'), 'w').write(convert(p))
