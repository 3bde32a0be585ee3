#!/usr/bin/env bash
# The DuckDB link's figures, per suite: queries run / imported / linted clean,
# import losses by kind, JOIN ON true where DuckDB printed a condition, dynamic
# filters printed / imported, `duckdb compare` agreement, peak memory and time
# of `duckdb run`, and `duckdb diff` queries per second.
# usage: tools/duckdb_figures.sh RFGUARD [SCALE] FILE.sql...
#   e.g. tools/duckdb_figures.sh build/rfguard 1 corpus/examples/{tpch,ssb,job}.sql
set -uo pipefail
rfguard=${1:?usage: tools/duckdb_figures.sh RFGUARD [SCALE] FILE.sql...}
shift
scale=1
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9.]+$ ]]; then scale=$1; shift; fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$@"; do
  suite=$(basename "$f" .sql)
  /usr/bin/time -f '%M %e' -o "$tmp/time" "$rfguard" duckdb run --scale "$scale" "$f" >"$tmp/run" 2>"$tmp/err"
  rc=$?
  read -r kb secs < <(tail -1 "$tmp/time")  # after "Command exited with ..." when it did
  declared=$(grep -c '^-- q\|^-- query' "$tmp/run")
  refused=$(grep -c 'error: DuckDB: ' "$tmp/err")
  summary=$(tail -1 "$tmp/run")
  echo "== $suite (scale $scale): duckdb run exit $rc, $(awk -v k="$kb" 'BEGIN { printf "%.0f MB", k / 1024 }') peak, ${secs} s"
  echo "   $summary"
  echo "   queries imported: $declared; refused by DuckDB: $refused; JOIN ON true: $(grep -c 'JOIN ON true' "$tmp/run")"
  echo "   import losses (notes): $(grep -c 'not imported faithfully' "$tmp/err"), by kind:"
  grep 'not imported faithfully' "$tmp/err" | sed 's/.*faithfully: //; s/"[^"]*"/"…"/g; s/#[0-9][0-9]*/#n/g; s/rows_[0-9]*/rows_n/g; s/[a-z_0-9]*\.[a-z_0-9]*/X/g' |
    sort | uniq -c | sort -rn | head -8 | sed 's/^/     /'
  "$rfguard" duckdb compare --scale "$(awk -v s="$scale" 'BEGIN { print (s > 0.01 ? 0.01 : s) }')" "$f" >"$tmp/cmp" 2>/dev/null
  echo "   compare (scale <= 0.01): $(tail -1 "$tmp/cmp" | sed 's/^-- //')"
done
start=$(date +%s.%N)
"$rfguard" duckdb diff --queries 200 --shrink-tests 0 >"$tmp/diff" 2>&1  # exit 1 on a difference
end=$(date +%s.%N)
echo "== duckdb diff: 200 queries in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f s, %.0f queries/s", b - a, 200 / (b - a) }')"
tail -1 "$tmp/diff" | sed 's/^/   /'
