#!/usr/bin/env bash
# The shell completions `rfguard completion SHELL` prints, exercised in bash,
# zsh and fish: commands, nested commands, options, option values (choices,
# --opt=value), files for file arguments, nothing for numbers.
set -u
RFGUARD=${1:?usage: completion_test.sh path/to/rfguard}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
mkdir -p "$tmp/files/corpus_dir" "$tmp/zsh" "$tmp/home"
# No user configuration of any shell takes part.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share"
touch "$tmp/files/queries.sql"

expect() {  # expect NAME GOT WANT
  if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
    echo "FAIL $1: got [$2], expected [$3]"; fail=$((fail + 1)); fi
}

for shell in bash zsh fish; do
  if ! "$RFGUARD" completion "$shell" > "$tmp/$shell.out" 2>"$tmp/err"; then
    echo "FAIL rfguard completion $shell: $(cat "$tmp/err")"; fail=$((fail + 1))
  fi
done
"$RFGUARD" completion tcsh > /dev/null 2>&1
expect "unknown shell exit" "$?" 2

# bash: call the function as readline would, with the words split as
# COMP_WORDBREAKS splits them (= is a word of its own).
bash_complete() {
  (cd "$tmp/files" && bash -c 'source "$1"; shift; COMP_WORDS=("$@");
     COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _rfguard; printf "%s\n" "${COMPREPLY[@]}" | sort' \
     sh "$tmp/bash.out" "$@" | paste -sd' ')
}
expect "bash commands" "$(bash_complete rfguard '')" "check compare completion duckdb equiv lint plan replay rule"
expect "bash prefix" "$(bash_complete rfguard li)" "lint"
expect "bash nested" "$(bash_complete rfguard duckdb '')" "compare diff run"
expect "bash option" "$(bash_complete rfguard lint --fa)" "--fail-on"
expect "bash choices" "$(bash_complete rfguard lint --format '')" "gitlab json sarif text"
expect "bash choices prefix" "$(bash_complete rfguard check --oracle s)" "sqlite"
expect "bash --opt=value" "$(bash_complete rfguard lint --format = s)" "sarif"
expect "bash after value" "$(bash_complete rfguard lint --format json --prof)" "--profile"
expect "bash nested option" "$(bash_complete rfguard duckdb run --th)" "--threads"
expect "bash files" "$(bash_complete rfguard lint q)" "queries.sql"
expect "bash file option" "$(bash_complete rfguard lint --output corp)" "corpus_dir"
expect "bash number" "$(bash_complete rfguard check --bound '')" ""
expect "bash positional choices" "$(bash_complete rfguard completion '')" "bash fish zsh"
if bash -c "source '$tmp/bash.out'; complete -p rfguard" | grep -q -- '-F _rfguard rfguard'; then
  pass=$((pass + 1)); else echo "FAIL bash: complete -F _rfguard rfguard not registered"; fail=$((fail + 1)); fi

# The same command lines in zsh (its completion system, _arguments, in a
# pseudo-terminal) and fish (`complete -C`): "line|expected candidates".
cases=(
  "rfguard |check compare completion duckdb equiv lint plan replay rule"
  "rfguard duckdb |compare diff run"
  "rfguard lint --fa|--fail-on"
  "rfguard lint --format |gitlab json sarif text"
  "rfguard duckdb run --th|--threads"
  "rfguard completion |bash fish zsh"
  "rfguard lint q|queries.sql"
)
cp "$tmp/zsh.out" "$tmp/zsh/_rfguard"
zsh_complete() { timeout 90 zsh "$here/zsh_complete.zsh" "$tmp/zsh" "$1"; }
fish_complete() { fish -c "source '$tmp/fish.out'; complete -C '$1'" | cut -f1; }
for shell in zsh fish; do
  if ! command -v "$shell" > /dev/null; then
    echo "FAIL $shell is not installed (make deps installs it)"; fail=$((fail + 1)); continue
  fi
  for c in "${cases[@]}"; do
    line=${c%%|*}
    expect "$shell [$line]" "$(cd "$tmp/files" && "${shell}_complete" "$line" | sort | paste -sd' ')" "${c#*|}"
  done
done
expect "fish number" "$(cd "$tmp/files" && fish_complete 'rfguard check --bound ')" ""

echo "completion tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
