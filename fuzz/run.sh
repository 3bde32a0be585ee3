#!/usr/bin/env bash
# Runs the libFuzzer targets built in BUILD (cmake -DRFGUARD_FUZZ=ON): first
# every regression input of a target once (each must pass), then coverage-guided
# fuzzing for SECONDS from the seed corpus. Exits non-zero on any finding: a
# crash, a broken invariant, an input over 10 s or over 2 GB.
# The mutation seed is FUZZ_SEED (default 1), so that a finding in CI comes back
# with the same command on the same commit; FUZZ_SEED=0 lets libFuzzer pick one.
# usage: fuzz/run.sh BUILD [SECONDS] [TARGET...]   (targets: sql plan_json replay check duckdb_import doris_import starrocks_import trino_import)
set -euo pipefail
build=${1:?usage: fuzz/run.sh BUILD [SECONDS] [TARGET...]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
targets=${*:-sql plan_json replay check duckdb_import doris_import starrocks_import trino_import}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$build/fuzz-work
limits=(-timeout=10 -rss_limit_mb=2048)
seed=${FUZZ_SEED:-1}

# After a finding, what a CI log's last lines must carry to reproduce it on
# another machine: the broken invariant or sanitizer report, the innermost
# stack frames, and the input itself in base64 (libFuzzer's inputs are at
# most 4 KiB here): `base64 -d > x && build-fuzz/fuzz_T x` replays it.
report() {
  local log=$1 prefix=$2
  echo "== the finding"
  grep -m2 -A1 -E 'rfguard fuzz invariant broken|^==[0-9]+==ERROR|runtime error:|terminate called' "$log" || true
  grep -m12 -E '^ +#[0-9]+ ' "$log" || true
  for f in "$prefix"crash-* "$prefix"leak-* "$prefix"timeout-* "$prefix"oom-* "$prefix"slow-unit-*; do
    [ -f "$f" ] || continue
    echo "input ${f##*/} ($(wc -c <"$f") bytes, base64):"
    if [ "$(wc -c <"$f")" -le 8192 ]; then base64 -w0 "$f"; echo; else echo "(over 8 KiB, not shown)"; fi
  done
}

for t in $targets; do
  exe=$build/fuzz_$t
  [ -x "$exe" ] || { echo "fuzz/run.sh: $exe is not built (make fuzz builds it)" >&2; exit 2; }
  regs=$root/fuzz/regressions/$t
  [ "$t" = check ] && regs=$root/fuzz/regressions/sql
  if [ -d "$regs" ]; then
    echo "== fuzz_$t: regression inputs in ${regs#"$root"/}"
    mkdir -p "$work"
    if ! "$exe" "${limits[@]}" "$regs"/* >"$work/$t-regressions.log" 2>&1; then
      tail -40 "$work/$t-regressions.log"
      echo "fuzz_$t: a regression input fails" >&2
      exit 1
    fi
    grep -c '^Executed' "$work/$t-regressions.log" | sed 's/$/ inputs passed/' 
  fi
  mkdir -p "$work/$t"
  dict=()
  case $t in sql | check) dict=(-dict="$root/fuzz/sql.dict") ;; esac
  echo "== fuzz_$t: fuzzing for $seconds s (seed $seed)"
  "$exe" "${limits[@]}" "${dict[@]}" -seed="$seed" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$work/$t-" "$work/$t" "$root/fuzz/seeds/$t" 2>"$work/$t.log" ||
    { tail -40 "$work/$t.log"; report "$work/$t.log" "$work/$t-"; echo "fuzz_$t: a finding, input saved as $work/$t-*" >&2; exit 1; }
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|cov: ' "$work/$t.log" | tail -4
done
