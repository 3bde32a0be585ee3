#!/bin/sh
# The corpus runner fails a case whose expect= / expect-not= does not hold, or
# names no rule, or whose equiv verdict disagrees with its sound=, also under --rewrite (a rewrite must never record a failure as
# the expectation). Usage: corpus_alarm_test.sh RFGUARD_CORPUS
set -u
runner=${1:?usage: corpus_alarm_test.sh RFGUARD_CORPUS}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.test" <<'CASES'
schema
CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);
----
ok

plan expect=SimplifyOuterJoin
SELECT 1 FROM a LEFT JOIN b ON a.k = b.k
----

rf expect-not=ConsumeAtScan
SELECT 1 FROM a JOIN b ON a.k = b.k
----

plan expect=NoSuchRule
SELECT 1 FROM a
----

rf expect=ConsumeAtScan expect-not=SimplifyOuterJoin
SELECT 1 FROM a JOIN b ON a.k = b.k
----

equiv rule=test:Unsound sound=false
SELECT k FROM a WHERE v > 1;
SELECT k FROM a WHERE 1 < v;
----

equiv rule=test:Sound sound=true
SELECT k FROM a;
SELECT v FROM a;
----

equiv rule=test:Refuted sound=false
SELECT k FROM a;
SELECT v FROM a;
----

CASES
"$runner" --rewrite "$tmp/a.test" > "$tmp/out" 2> "$tmp/err"
code=$?
fail=0
[ "$code" -eq 1 ] || { echo "expected exit 1, got $code"; fail=1; }
grep -q "EXPECTED RULE SimplifyOuterJoin DID NOT FIRE" "$tmp/err" || { echo "missing: did not fire"; fail=1; }
grep -q "RULE ConsumeAtScan FIRED, EXPECTED NOT" "$tmp/err" || { echo "missing: fired"; fail=1; }
grep -q "UNKNOWN RULE NoSuchRule" "$tmp/err" || { echo "missing: unknown rule"; fail=1; }
grep -q "UNSOUND VARIANT NOT REFUTED" "$tmp/err" || { echo "missing: unsound not refuted"; fail=1; }
grep -q "SOUND REWRITE REFUTED" "$tmp/err" || { echo "missing: sound refuted"; fail=1; }
grep -q "^3 passed, 5 failed$" "$tmp/out" || { echo "expected 3 passed, 5 failed:"; cat "$tmp/out"; fail=1; }
[ $fail -eq 0 ] && echo "corpus alarms: ok"
cat "$tmp/err"
exit $fail
