#!/usr/bin/env bash
# Installs rfguard into a scratch prefix, builds examples/consumer against the
# installed package with find_package(rfguard), and runs it.
set -euo pipefail
trap 'echo "install test: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
build=${1:?usage: install_test.sh BUILD_DIR SOURCE_DIR}
src=${2:?usage: install_test.sh BUILD_DIR SOURCE_DIR}
work="$build/install-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" \
  "$work/build/rfguard_consumer" "$src/corpus/examples/seeds.sql"

# The optimizer-loop example stops at the first unsound rewrite, with a counterexample.
cmake -S "$src/examples/optimizer_loop" -B "$work/loop" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/loop" >/dev/null
code=0
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" \
  "$work/loop/rfguard_optimizer_loop" "$src/examples/optimizer_loop/queries.sql" > "$work/loop.out" ||
  code=$?
cat "$work/loop.out"
[ "$code" -eq 1 ] || { echo "optimizer loop: expected exit 1, got $code"; exit 1; }
grep -q '^inner_chain: PushFiltersToScans: sound$' "$work/loop.out"
grep -q '^null_safe_parent: PushFiltersToScans: UNSOUND$' "$work/loop.out"
grep -q 'unsafe-null-generating-side at /queries/1/plan/' "$work/loop.out"
grep -q '^CREATE TABLE' "$work/loop.out"
grep -q '^stopped at the first unsound step$' "$work/loop.out"

prefix="$work/prefix"
libdir=$(ls -d "$prefix"/lib/x86_64-linux-gnu 2>/dev/null || echo "$prefix/lib")
fail() { echo "install test: $*"; exit 1; }
# Whether a command's whole output matches: never `cmd | grep -q` under pipefail,
# where grep's early exit can kill the command with SIGPIPE and fail the check.
outputs() {
  local pattern=$1 out
  shift
  out=$("$@" 2>&1) || true
  grep -q -- "$pattern" <<<"$out"
}

# pkg-config: a build without CMake finds the installed library (the .pc file
# is relocatable, so the scratch prefix works).
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(pkg-config --modversion rfguard)" = "0.1.0" ] || fail "pkg-config --modversion rfguard"
# shellcheck disable=SC2046
g++ -std=c++17 -o "$work/consumer_pc" "$src/examples/consumer/main.cpp" \
  $(pkg-config --cflags --libs rfguard) || fail "building the consumer with pkg-config"
LD_LIBRARY_PATH="$libdir" "$work/consumer_pc" "$src/corpus/examples/seeds.sql" > "$work/pc.out" ||
  fail "the pkg-config-built consumer failed"
LD_LIBRARY_PATH="$libdir" "$work/build/rfguard_consumer" "$src/corpus/examples/seeds.sql" > "$work/cmake.out"
cmp -s "$work/pc.out" "$work/cmake.out" || fail "pkg-config and CMake consumers differ"

# Man pages: one per command, rendering without a warning.
for page in rfguard rfguard-plan rfguard-lint rfguard-check rfguard-equiv rfguard-replay \
            rfguard-duckdb rfguard-duckdb-run rfguard-duckdb-compare rfguard-duckdb-diff \
            rfguard-completion; do
  f="$prefix/share/man/man1/$page.1"
  [ -f "$f" ] || fail "no man page $page.1"
  warnings=$(groff -man -ww -z "$f" 2>&1)
  [ -z "$warnings" ] || fail "$page.1 renders with warnings: $warnings"
done
grep -q '^\.SH "EXIT STATUS"' "$prefix/share/man/man1/rfguard-lint.1" || fail "rfguard-lint.1 has no EXIT STATUS"
grep -q 'fail\\-on' "$prefix/share/man/man1/rfguard-lint.1" || fail "rfguard-lint.1 lacks --fail-on"

# Shell completions where each shell looks for them.
[ -s "$prefix/share/bash-completion/completions/rfguard" ] || fail "no bash completion"
[ -s "$prefix/share/zsh/vendor-completions/_rfguard" ] || fail "no zsh completion"
[ -s "$prefix/share/fish/vendor_completions.d/rfguard.fish" ] || fail "no fish completion"
# The JSON Schemas the readers' tests validate against.
[ -s "$prefix/share/rfguard/schemas/plan.schema.json" ] || fail "no plan schema"

# Debug information: split off by build id, the installed binaries stripped of it.
for bin in "$prefix/bin/rfguard" "$(readlink -f "$libdir/librfguard.so")"; do
  outputs '\.debug_info' readelf -S "$bin" && fail "$bin still carries .debug_info"
  outputs '\.gnu_debuglink' readelf -S "$bin" || fail "$bin has no debuglink"
  id=$(readelf -n "$bin" | sed -n 's/.*Build ID: //p')
  debug="$prefix/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
  [ -f "$debug" ] || fail "no debug file $debug for $bin"
  outputs '\.debug_info' readelf -S "$debug" || fail "$debug has no .debug_info"
  [ "$(readelf -n "$debug" 2>/dev/null | sed -n 's/.*Build ID: //p')" = "$id" ] || fail "$debug: other build id"
done
# The debug file maps the stripped binary's code back to source lines.
id=$(readelf -n "$prefix/bin/rfguard" | sed -n 's/.*Build ID: //p')
debug="$prefix/lib/debug/.build-id/${id:0:2}/${id:2}.debug"
main=$(nm "$debug" | awk '$3 == "main" { print $1 }')
[ -n "$main" ] || fail "no symbol main in $debug"
outputs 'tools/main.cpp:' addr2line -e "$debug" "0x$main" || fail "addr2line: main is not in tools/main.cpp"
if command -v gdb > /dev/null; then
  outputs 'tools/main.cpp' gdb -nx -batch -iex "set debug-file-directory $prefix/lib/debug" \
    -ex 'info line main' "$prefix/bin/rfguard" || fail "gdb does not find main's source line"
fi
# Stripped, the installed tool still runs.
outputs '^rfguard 0.1.0$' env LD_LIBRARY_PATH="$libdir" "$prefix/bin/rfguard" --version || fail "installed rfguard --version"
# It opens the DuckDB installed beside it (../lib from the executable), with no
# library path set.
if [ -f "$libdir/libduckdb.so" ]; then
  env -u LD_LIBRARY_PATH "$prefix/bin/rfguard" duckdb run --scale 0.001 "$src/corpus/examples/seeds.sql" \
    > "$work/duckdb.out" 2>&1 || fail "installed rfguard cannot run DuckDB: $(tail -3 "$work/duckdb.out")"
  grep -q '10 queries, 0 findings' "$work/duckdb.out" || fail "installed duckdb run: $(tail -3 "$work/duckdb.out")"
fi
echo "install test: package complete"
