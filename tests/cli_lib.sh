# Sourced by the command-line tests: a scratch folder, pass/fail counters and
# check NAME EXPECTED_EXIT PATTERN -- command..., which runs the command with
# its output in $tmp/out and $tmp/err and passes when the exit code is the one
# expected and the pattern (an extended regular expression, or '' for none)
# matches the output. `ok NAME CONDITION...` counts a condition of its own.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

check() {  # check NAME EXPECTED_EXIT PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; head -5 "$tmp/err"; fail=$((fail + 1)); return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/out" "$tmp/err"; then
    echo "FAIL $name: output lacks /$pattern/"; head -5 "$tmp/out" "$tmp/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

ok() {  # ok NAME command...: passes when the command succeeds
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
