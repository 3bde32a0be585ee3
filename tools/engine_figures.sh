#!/usr/bin/env bash
# The figures of the engines' own plans (issue 46), per engine of
# corpus/engines/: plans imported / total, filters imported, import losses by
# kind, lint findings by code, compare totals and profile agreement, join
# trees the same as rfguard's, and lint throughput over every plan, one
# process per engine (median of 5 runs).
# usage: tools/engine_figures.sh RFGUARD
set -uo pipefail
rfguard=${1:?usage: tools/engine_figures.sh RFGUARD}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

all=()
for engine in doris starrocks trino; do
  dir=corpus/engines/$engine
  schema=corpus/examples/tpch.sql
  [ -f "$dir/tpch.sql" ] && schema=$dir/tpch.sql
  case $engine in
    doris) plans=("$dir"/*.out) ;;
    starrocks) plans=($(grep -l '^\[sql\]\|fragment statistics' "$dir"/*.sql)) ;;
    trino) plans=("$dir"/*.plan.txt) ;;
  esac
  all+=("${plans[@]}")
  "$rfguard" lint --verbose --format json --schema "$schema" --from "$engine" "${plans[@]}" \
    >"$tmp/lint.json" 2>"$tmp/lint.err"
  echo "== $engine: ${#plans[@]} plan files"
  python3 - "$tmp/lint.json" <<'EOF'
import collections, json, sys
d = json.load(open(sys.argv[1]))
queries = [q for f in d["files"] for q in f["queries"]]
codes = collections.Counter(x["code"] + " (" + x.get("judge", "rules") + ")"
                            for q in queries for x in q["findings"])
print(f"   queries imported and linted: {len(queries)}; findings: {sum(codes.values())}"
      + "".join(f"\n     {n} {c}" for c, n in codes.most_common()))
EOF
  echo "   import losses (notes): $(grep -c 'not imported faithfully' "$tmp/lint.err"), by kind:"
  grep 'not imported faithfully' "$tmp/lint.err" |
    sed 's/.*faithfully: //; s/"[^"]*"/"…"/g; s/RF[0-9][0-9]*/RFn/g; s/line [0-9][0-9]*/line n/g;
         s/[0-9][0-9]*/n/g; s/[a-z_]*\.[a-z_]*/X/g; s/:.*//' |
    sort | uniq -c | sort -rn | sed 's/^/     /'
  "$rfguard" compare --schema "$schema" --queries corpus/examples/tpch.sql --from "$engine" \
    "${plans[@]}" >"$tmp/cmp" 2>/dev/null
  grep '^-- [0-9]* queries\|^-- join trees' "$tmp/cmp" | sed 's/^-- /   /'
done

# Lint throughput: every engine's plans in one process each (Trino's TPC-H
# schema names columns differently), the times added up; median of 5 runs.
times=()
files=0
for run in 1 2 3 4 5; do
  total=0
  files=0
  for engine in doris starrocks trino; do
    dir=corpus/engines/$engine
    schema=corpus/examples/tpch.sql
    [ -f "$dir/tpch.sql" ] && schema=$dir/tpch.sql
    plans=()
    for p in "${all[@]}"; do [[ $p == "$dir"/* ]] && plans+=("$p"); done
    files=$((files + ${#plans[@]}))
    start=$(date +%s.%N)
    "$rfguard" lint --schema "$schema" --from "$engine" "${plans[@]}" >/dev/null 2>&1
    end=$(date +%s.%N)
    total=$(awk -v t="$total" -v a="$start" -v b="$end" 'BEGIN { print t + b - a }')
  done
  times+=("$total")
done
median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)
echo "== lint over all $files plan files, one process per engine: median of 5 runs" \
  "$(awk -v t="$median" 'BEGIN { printf "%.3f", t }') s," \
  "$(awk -v n="$files" -v t="$median" 'BEGIN { printf "%.0f", n / t }') plan files/s"
