#!/usr/bin/env bash
# Installs rfguard into a scratch prefix, builds examples/consumer against the
# installed package with find_package(rfguard), and runs it.
set -euo pipefail
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
set +e
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" \
  "$work/loop/rfguard_optimizer_loop" "$src/examples/optimizer_loop/queries.sql" > "$work/loop.out"
code=$?
set -e
cat "$work/loop.out"
[ "$code" -eq 1 ] || { echo "optimizer loop: expected exit 1, got $code"; exit 1; }
grep -q '^inner_chain: PushFiltersToScans: sound$' "$work/loop.out"
grep -q '^null_safe_parent: PushFiltersToScans: UNSOUND$' "$work/loop.out"
grep -q 'unsafe-null-generating-side at /queries/1/plan/' "$work/loop.out"
grep -q '^CREATE TABLE' "$work/loop.out"
grep -q '^stopped at the first unsound step$' "$work/loop.out"
