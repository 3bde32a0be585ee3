#!/usr/bin/env bash
# End-to-end checks of the rfguard command line: exit codes, formats, and
# hostile input (empty, binary, deep nesting, 10 MB) ending in a located error.
set -u
RFGUARD=${1:?usage: cli_test.sh path/to/rfguard}
. "$(dirname "$0")/cli_lib.sh"

schema='CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);'

check "tpch plans" 0 '^-- q22 ' -- "$RFGUARD" plan corpus/examples/tpch.sql
[ "$(grep -c '^-- q' "$tmp/out")" -eq 22 ] && pass=$((pass + 1)) || { echo "FAIL tpch count"; fail=$((fail + 1)); }
check "ssb plans" 0 '^-- q4.3 ' -- "$RFGUARD" plan corpus/examples/ssb.sql
[ "$(grep -c '^-- q' "$tmp/out")" -eq 13 ] && pass=$((pass + 1)) || { echo "FAIL ssb count"; fail=$((fail + 1)); }
check "list rules" 0 '^SimplifyOuterJoin' -- "$RFGUARD" plan --list-rules
check "list rf rules" 0 '^PassThroughJoinNullGeneratingSide	' -- "$RFGUARD" plan --list-rules
check "show rules" 0 'PushFilterIntoJoin\([0-9]+\)' -- "$RFGUARD" plan --show-rules corpus/examples/tpch.sql
check "verify rewrites" 0 '' -- "$RFGUARD" plan --verify-rewrites corpus/examples/tpch.sql corpus/examples/ssb.sql

echo "$schema SELECT * FROM a, b WHERE a.k = b.k;" > "$tmp/q.sql"
check "runtime filters placed" 0 'RF1 <- b.k \(a.k =, bloom\+min_max, global\)' -- "$RFGUARD" plan "$tmp/q.sql"
check "filter target at scan" 0 'Scan #3 a columns=\[k, v\]; RF1 -> a.k' -- "$RFGUARD" plan "$tmp/q.sql"
check "explain" 0 'entered the NULL-generating side of left join #3 with `coalesce\(b.k, 0\)`' -- "$RFGUARD" plan --explain corpus/examples/seeds.sql
check "profile starrocks" 0 'Scan #4 a columns=\[k, v\]; RF1 -> a.k' -- "$RFGUARD" plan --profile starrocks corpus/examples/seeds.sql
check "compare" 0 '^  starrocks  2  RF1 a.k, b.k' -- "$RFGUARD" plan --compare corpus/examples/seeds.sql
check "unknown profile" 2 '' -- "$RFGUARD" plan --profile oracle corpus/examples/seeds.sql
if "$RFGUARD" plan --no-runtime-filters corpus/examples/seeds.sql | grep -q 'RF1'; then
  echo "FAIL --no-runtime-filters still placed filters"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
check "stdin" 0 'JOIN ON a.k = b.k' -- sh -c "\"$RFGUARD\" plan - < \"$tmp/q.sql\""
check "disable" 0 'CROSS JOIN' -- "$RFGUARD" plan --disable PushFilterIntoJoin "$tmp/q.sql"
check "unknown rule" 2 'unknown rule' -- "$RFGUARD" plan --disable NoSuchRule "$tmp/q.sql"
check "bad format" 2 '' -- "$RFGUARD" plan --format yaml "$tmp/q.sql"
check "no subcommand" 2 '' -- "$RFGUARD"
check "missing file" 2 'cannot open' -- "$RFGUARD" plan "$tmp/nope.sql"

# JSON out, JSON back in, JSON out again: identical.
check "json out" 0 '"format": "rfguard-plan"' -- "$RFGUARD" plan --format json corpus/examples/tpch.sql
cp "$tmp/out" "$tmp/tpch.json"
check "json back" 0 '' -- "$RFGUARD" plan --format json --disable PruneScanColumns "$tmp/tpch.json"
if cmp -s "$tmp/out" "$tmp/tpch.json"; then pass=$((pass + 1)); else echo "FAIL json round trip differs"; fail=$((fail + 1)); fi
check "dot" 0 '^digraph rfguard' -- "$RFGUARD" plan --format dot corpus/examples/seeds.sql
if command -v dot >/dev/null; then
  cp "$tmp/out" "$tmp/plan.dot"
  check "dot renders" 0 '<svg' -- dot -Tsvg "$tmp/plan.dot"
fi

# Hostile input: a clear located message and exit 2, never a crash or a hang.
printf '{"format": "rfguard-plan", "\xcc\x00bue"' > "$tmp/badutf.json"
for fmt in json sarif gitlab; do
  # (the report goes beside the input, never over it: badutf.json is the input)
  "$RFGUARD" lint --no-config --format $fmt "$tmp/badutf.json" > "$tmp/badutf_report.$fmt" 2>/dev/null
  [ $? -eq 2 ] && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/badutf_report.$fmt" \
    && pass=$((pass + 1)) || { echo "FAIL lint --format $fmt of an error quoting invalid UTF-8"; fail=$((fail + 1)); }
done
: > "$tmp/empty.sql"
check "empty file" 2 'empty.sql:1:1: error: empty input' -- "$RFGUARD" plan "$tmp/empty.sql"
[ "$(wc -l < "$tmp/err")" -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL empty file: a caret under nothing"; cat "$tmp/err"; fail=$((fail + 1)); }
printf 'SELECT 1;\n\xff\xfe\x00\x81garbage' > "$tmp/bin.sql"
check "binary garbage" 2 'bin.sql:2:1: error: input is not valid UTF-8' -- "$RFGUARD" plan "$tmp/bin.sql"
printf 'SELECT 1 FROM a\x00;' > "$tmp/nul.sql"
check "NUL byte" 2 'nul.sql:1:16: error: syntax error' -- "$RFGUARD" plan "$tmp/nul.sql"
python3 -c "print('SELECT ' + '(' * 10000 + '1' + ')' * 10000)" > "$tmp/deep.sql"
check "10000 parentheses" 2 'deep.sql:1:136: error: expression nested more than 128 levels deep' -- "$RFGUARD" plan "$tmp/deep.sql"
python3 -c "print('SELECT ' + 'NOT ' * 10000 + 'true')" > "$tmp/nots.sql"
check "10000 NOTs" 2 'nested more than 128 levels' -- "$RFGUARD" plan "$tmp/nots.sql"

python3 -c "print('$schema SELECT 1 FROM a WHERE a.k IN (' + ','.join(str(i) for i in range(1500000)) + ')')" > "$tmp/big.sql"
[ "$(stat -c %s "$tmp/big.sql")" -gt 10000000 ] && pass=$((pass + 1)) || { echo "FAIL big file is not 10 MB"; fail=$((fail + 1)); }
check "10 MB IN list" 2 'big.sql:1:[0-9]+: error: input too large: more than 1000000 tokens' -- "$RFGUARD" plan "$tmp/big.sql"
python3 -c "print('$schema SELECT 1 FROM a WHERE a.k IN (' + ','.join(str(i) for i in range(100000)) + ')')" > "$tmp/mid.sql"
check "100,000-item IN list" 0 'Filter #2 a.k IN \(0, 1, 2' -- "$RFGUARD" plan "$tmp/mid.sql"
python3 -c "print('$schema SELECT ' + '+'.join(['a.k'] * 5000) + ' FROM a')" > "$tmp/chain.sql"
check "5000-term operator chain" 2 'chain.sql:1:[0-9]+: error: expression too deeply nested' -- "$RFGUARD" plan "$tmp/chain.sql"
echo '{"format": "rfguard-plan", "version": 1, "catalog": {"tables": []}, "queries": [{"name": "q", "plan": {"id": 1, "op": "scan"' > "$tmp/cut.json"
check "truncated json" 2 'cut.json: error at /queries/0/plan: malformed JSON' -- "$RFGUARD" plan "$tmp/cut.json"
python3 -c "print('[' * 100000 + ']' * 100000)" > "$tmp/deep.json"
check "deep json" 2 'deep.json: error' -- "$RFGUARD" plan "$tmp/deep.json"

# lint: exit 0 clean, 1 findings, 2 input errors.
check "lint sound clean" 0 '3 files, 45 queries, 0 findings' -- "$RFGUARD" lint corpus/examples/seeds.sql corpus/examples/tpch.sql corpus/examples/ssb.sql
check "lint starrocks" 1 'seeds.sql:15:16: error \[unsafe-equality-copy\] null_safe_parent' -- "$RFGUARD" lint --profile starrocks corpus/examples/seeds.sql
check "lint coalesce plan" 1 '\[unsafe-null-generating-side\]' -- "$RFGUARD" lint corpus/lint/coalesce_into_left_join.json
check "lint sarif" 1 '"ruleId": "unsafe-null-generating-side"' -- "$RFGUARD" lint --format sarif corpus/lint/coalesce_into_left_join.json
check "lint json" 1 '"format": "rfguard-lint"' -- "$RFGUARD" lint --format json corpus/lint/coalesce_into_left_join.json
check "lint stdin" 0 '0 findings' -- sh -c "\"$RFGUARD\" lint - < \"$tmp/q.sql\""
check "lint bad sql" 2 'bad.sql:1:' -- sh -c "echo 'SELEC 1;' > \"$tmp/bad.sql\"; \"$RFGUARD\" lint \"$tmp/bad.sql\""
check "lint counts unread files" 2 '^-- 2 files, 10 queries, 0 findings \(0 errors\), 1 file with input errors$' -- "$RFGUARD" lint fuzz/regressions/sql/order-by-0.sql corpus/examples/seeds.sql
check "lint no files" 2 'no input files' -- "$RFGUARD" lint
check "lint bad profile" 2 '' -- "$RFGUARD" lint --profile oracle corpus/examples/seeds.sql

# Input that must not pass silently (issue 13): several plans as JSON are JSON
# Lines that read back line by line; missing files and directories say why;
# directories given to lint are walked; flags that would do nothing are refused.
check "plan json lines" 0 '' -- "$RFGUARD" plan --format json corpus/examples/seeds.sql corpus/lint/coalesce_into_left_join.json
cp "$tmp/out" "$tmp/two.jsonl"
[ "$(wc -l < "$tmp/two.jsonl")" -eq 2 ] && python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$tmp/two.jsonl" \
  && pass=$((pass + 1)) || { echo "FAIL plan json: two inputs, two JSON lines"; fail=$((fail + 1)); }
check "json lines read back" 1 'two.jsonl:2 /queries/0/plan/children/0/children/0/children/1\]' -- "$RFGUARD" lint "$tmp/two.jsonl"
grep -q -- '-- 1 file, 11 queries, 1 finding' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL json lines: every line linted"; fail=$((fail + 1)); }
{ head -1 "$tmp/two.jsonl"; echo garbage; } > "$tmp/garbage.jsonl"
check "json lines garbage line" 2 'garbage.jsonl:2: error at /: malformed JSON' -- "$RFGUARD" lint "$tmp/garbage.jsonl"
check "plan json one input" 0 '^  "format": "rfguard-plan",' -- "$RFGUARD" plan --format json corpus/examples/seeds.sql
check "missing file says why" 2 'none.sql: error: cannot open: No such file or directory' -- "$RFGUARD" lint "$tmp/none.sql"
check "plan of a directory" 2 'corpus: error: is a directory' -- "$RFGUARD" plan corpus
check "lint walks a directory" 1 '^-- 2 files, 2 queries, 1 finding \(1 error\)$' -- "$RFGUARD" lint corpus/lint
check "lint --exclude" 0 '^-- 1 file, 1 query, 0 findings' -- "$RFGUARD" lint --exclude 'coalesce*.json' corpus/lint
mkdir -p "$tmp/nothing/.hidden" && cp corpus/lint/coalesce_into_left_join.json "$tmp/nothing/.hidden/"
check "lint skips hidden folders" 2 'nothing: error: no .sql, .json, .jsonl or .plan.txt files in this directory' -- "$RFGUARD" lint "$tmp/nothing"
check "unknown command" 2 'rfguard: unknown command "frob" \(commands: plan, lint,' -- "$RFGUARD" frob
check "unknown duckdb command" 2 'rfguard duckdb: unknown command "frob" \(commands: run, compare, diff' -- "$RFGUARD" duckdb frob
check "compare json" 0 '"format": "rfguard-compare"' -- "$RFGUARD" plan --compare --format json corpus/examples/seeds.sql
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['queries']) == 10 and all(len(q['profiles']) >= 5 for q in d['queries'])" "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL compare json shape"; fail=$((fail + 1)); }
check "compare dot refused" 2 '--compare prints consumers per profile as text or json' -- "$RFGUARD" plan --compare --format dot corpus/examples/seeds.sql
check "explain json refused" 2 '--explain adds the decisions to the text plan; it has no json form' -- "$RFGUARD" plan --explain --format json corpus/examples/seeds.sql
check "explain dot refused" 2 'it has no dot form' -- "$RFGUARD" plan --explain --format dot corpus/examples/seeds.sql
check "explain on a given plan" 2 'rfguard plan: --explain applies to plans rfguard places' -- "$RFGUARD" plan --explain corpus/lint/coalesce_into_left_join.json
check "profile on a given plan" 2 'rfguard lint: --profile starrocks applies to plans rfguard places' -- "$RFGUARD" lint --profile starrocks corpus/lint/coalesce_into_left_join.json
check "profile on a mix" 1 'coalesce_into_left_join.json: note: --profile starrocks passed by' -- "$RFGUARD" lint --profile starrocks corpus/lint

# lint in CI (issue 13): suppressions, baselines, --fail-on, --quiet, --output,
# --stdin-filename, colour, and .rfguard.toml.
mkdir -p "$tmp/ci/sub"
cat > "$tmp/ci/q.sql" <<'SQL'
CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);
-- rfguard-disable-next-line unsafe-null-generating-side
SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k;
-- rfguard-disable-next-line producer-without-consumer, no-such-code
SELECT * FROM a JOIN b ON a.k = b.k;
SQL
ci="$tmp/ci/q.sql"
check "suppression honoured" 1 '^-- 1 file, 2 queries, 3 findings \(1 error\), 1 suppressed$' -- "$RFGUARD" lint --no-config --profile starrocks "$ci"
grep -q 'q.sql:5:16: error \[unsafe-equality-copy\]' "$tmp/out" && ! grep -q 'unsafe-null-generating-side\] query1' "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL suppression: the next line's code only"; fail=$((fail + 1)); }
grep -q 'q.sql:6:1: warning \[unused-suppression\] the suppression of `producer-without-consumer` suppresses nothing' "$tmp/out" \
  && grep -q '`no-such-code` names no finding code' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL unused suppressions reported"; fail=$((fail + 1)); }
check "show suppressed" 1 'unsafe-null-generating-side\] query1: .*\(suppressed\)$' -- "$RFGUARD" lint --no-config --profile starrocks --show-suppressed "$ci"
sed 's/-- rfguard-disable-next-line unsafe-null-generating-side/-- rfguard-disable-file unsafe-equality-copy, unsafe-null-generating-side/' "$ci" > "$tmp/ci/file.sql"
check "file-level suppression" 1 '^-- 1 file, 2 queries, 2 findings \(0 errors\), 2 suppressed$' -- "$RFGUARD" lint --no-config --profile starrocks "$tmp/ci/file.sql"
check "fail-on error" 0 '3 findings \(0 errors\)' -- "$RFGUARD" lint --no-config --fail-on error "$ci"
check "fail-on error with an error" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --fail-on error "$ci"
check "fail-on never" 0 '' -- "$RFGUARD" lint --no-config --profile starrocks --fail-on never "$ci"
check "quiet: errors only" 1 '^-- 1 file, 2 queries, 1 finding \(1 error\), 1 suppressed$' -- "$RFGUARD" lint --no-config --profile starrocks --quiet "$ci"
check "write baseline" 0 '' -- "$RFGUARD" lint --no-config --profile starrocks --write-baseline "$tmp/ci/base.json" "$ci"
check "baseline: nothing new" 0 '0 findings \(0 errors\), 1 suppressed, 3 in the baseline' -- "$RFGUARD" lint --no-config --profile starrocks --baseline "$tmp/ci/base.json" "$ci"
check "baseline: a new finding" 1 '^-- 1 file, 10 queries, 2 findings' -- "$RFGUARD" lint --no-config --profile starrocks --baseline "$tmp/ci/base.json" corpus/examples/seeds.sql
# Fingerprints hold the code, file, query and message, not the line: a finding
# that moves down a line stays in the baseline.
mkdir -p "$tmp/moved" && cp "$ci" "$tmp/moved/q.sql"
check "baseline in place" 0 '' -- sh -c "cd '$tmp/moved' && \"$RFGUARD\" lint --no-config --profile starrocks --write-baseline base.json q.sql"
{ echo; cat "$ci"; } > "$tmp/moved/q.sql"
check "baseline survives a moved line" 0 '0 findings \(0 errors\), 1 suppressed, 3 in the baseline' -- sh -c "cd '$tmp/moved' && \"$RFGUARD\" lint --no-config --profile starrocks --baseline base.json q.sql"
echo '{"format": "nope"}' > "$tmp/ci/notbase.json"
check "bad baseline" 2 'notbase.json: error at /format: not an rfguard baseline' -- "$RFGUARD" lint --no-config --baseline "$tmp/ci/notbase.json" "$ci"
check "output file" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --output "$tmp/ci/report.txt" "$ci"
[ ! -s "$tmp/out" ] && grep -q '^-- 1 file, 2 queries, 3 findings' "$tmp/ci/report.txt" && pass=$((pass + 1)) || { echo "FAIL --output: the report goes to the file"; fail=$((fail + 1)); }
check "output unwritable" 2 'cannot write: No such file or directory' -- "$RFGUARD" lint --no-config --output "$tmp/none/r.txt" "$ci"
check "stdin filename" 1 '^mine.sql:5:16: error \[unsafe-equality-copy\]' -- sh -c "\"$RFGUARD\" lint --no-config --profile starrocks --stdin-filename mine.sql - < \"$ci\""
check "stdin suppressions" 1 '1 suppressed' -- sh -c "\"$RFGUARD\" lint --no-config --profile starrocks - < \"$ci\""
check "colour always" 1 "$(printf '\033')\\[1;31merror" -- "$RFGUARD" lint --no-config --profile starrocks --color always "$ci"
check "no colour in a pipe" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks "$ci"
! grep -q "$(printf '\033')" "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL colour only on a terminal"; fail=$((fail + 1)); }
cat > "$tmp/ci/.rfguard.toml" <<'TOML'
profile = "starrocks"
fail-on = "error"
paths = ["q.sql"]

[codes]
disable = ["unsafe-equality-copy"]

[codes.levels]
unused-suppression = "error"
TOML
check "config found upwards" 1 '^-- 1 file, 2 queries, 2 findings \(2 errors\), 1 suppressed$' -- sh -c "cd '$tmp/ci/sub' && \"$RFGUARD\" lint"
grep -q 'q.sql:6:1: error \[unused-suppression\]' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL config levels"; fail=$((fail + 1)); }
check "command line wins" 1 '3 findings \(1 error\)' -- sh -c "cd '$tmp/ci' && \"$RFGUARD\" lint --profile starrocks --fail-on warning --config /dev/null q.sql"
printf 'profile = "sound"\nfoo = 1\n' > "$tmp/ci/bad.toml"
check "config unknown key" 2 'bad.toml:2:7: error: unknown key `foo`' -- "$RFGUARD" lint --config "$tmp/ci/bad.toml" "$ci"
printf '[codes]\ndisable = ["not-a-code"]\n' > "$tmp/ci/bad.toml"
check "config unknown code" 2 'bad.toml:2:11: error: no finding code "not-a-code"' -- "$RFGUARD" lint --config "$tmp/ci/bad.toml" "$ci"
printf 'profile = \n' > "$tmp/ci/bad.toml"
check "config syntax" 2 'bad.toml:1:11: error: ' -- "$RFGUARD" lint --config "$tmp/ci/bad.toml" "$ci"
python3 - "$tmp/ci/sup.json" <<'PY'
import json, sys
d = json.load(open("corpus/lint/coalesce_into_left_join.json"))
d["queries"][0]["suppress"] = ["unsafe-null-generating-side", "crossed-limit"]
json.dump(d, open(sys.argv[1], "w"))
PY
check "plan json suppress" 1 'sup.json: warning \[unused-suppression\] coalesce_into_left_join: the suppression of `crossed-limit` suppresses nothing \[.*sup.json /queries/0/suppress\]' -- "$RFGUARD" lint --no-config "$tmp/ci/sup.json"
grep -q '1 finding (0 errors), 1 suppressed' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL plan json suppress count"; fail=$((fail + 1)); }
check "suppress round-trips" 0 '"suppress": \[' -- "$RFGUARD" plan --format json "$tmp/ci/sup.json"

# Input errors reach every output: JSON per file, SARIF as the run's notifications.
printf 'CREATE TABLE a (k int);\nSELECT x FROM a;\n' > "$tmp/badcol.sql"
check "json carries input errors" 2 '' -- "$RFGUARD" lint --no-config --format json "$tmp/badcol.sql"
python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['files'][0]['errors'][0]; assert e['message']=='unknown column \"x\"' and e['line']==2 and e['column']==8, e" "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL lint json input errors"; fail=$((fail + 1)); }
check "sarif notifications" 2 '' -- "$RFGUARD" lint --no-config --format sarif --docs-url https://example.org/rfguard/ "$tmp/badcol.sql" corpus/lint/coalesce_into_left_join.json
python3 - "$tmp/out" <<'PY' && pass=$((pass + 1)) || { echo "FAIL sarif invocations, helpUri, uriBaseId"; fail=$((fail + 1)); }
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
inv = run["invocations"][0]
assert inv["executionSuccessful"] is False
n = inv["toolExecutionNotifications"][0]
assert n["level"] == "error" and 'unknown column "x"' in n["message"]["text"]
assert n["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 8}
driver = run["tool"]["driver"]
assert driver["informationUri"] == "https://example.org/rfguard/"
assert all(r["helpUri"] == "https://example.org/rfguard/findings.md#" + r["id"] for r in driver["rules"])
loc = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
assert loc == {"uri": "corpus/lint/coalesce_into_left_join.sql", "uriBaseId": "%SRCROOT%"}, loc
assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///")
PY
check "sarif clean run succeeds" 0 '"executionSuccessful": true' -- "$RFGUARD" lint --no-config --format sarif corpus/examples/seeds.sql

# SQL errors show the line with a caret; every statement's error is reported, up to 50 a file.
printf 'CREATE TABLE orders (o_orderkey int);\nSELECT * FRM orders;\nSELECT o_orderky FROM orders;\n' > "$tmp/typo.sql"
check "caret and did you mean" 2 '^typo.sql:3:8: error: unknown column "o_orderky"; did you mean "o_orderkey"\?$' -- sh -c "cd '$tmp' && \"$RFGUARD\" lint --no-config typo.sql"
grep -q "^  SELECT \* FRM orders;$" "$tmp/err" && grep -qx "           ^" "$tmp/err" \
  && grep -q '^typo.sql:2:10: error: syntax error at' "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL source line and caret under FRM"; fail=$((fail + 1)); }
python3 -c "print('CREATE TABLE t (k int);'); [print('SELECT x%d FROM t;' % i) for i in range(120)]" > "$tmp/many.sql"
check "errors capped" 2 'many.sql: 70 more errors not shown \(the first 50 are\)' -- "$RFGUARD" lint --no-config "$tmp/many.sql"
[ "$(grep -c ': error: unknown column' "$tmp/err")" -eq 50 ] && pass=$((pass + 1)) || { echo "FAIL 50 errors shown"; fail=$((fail + 1)); }

# CI integration (docs/ci.md): the workflow files parse, and their lint commands
# run as written on the bundled corpus (plans/ -> corpus/lint).
python3 - examples/ci/github-actions.yml examples/ci/gitlab-ci.yml .pre-commit-hooks.yaml "$tmp/ci-cmds" <<'PY' \
  && pass=$((pass + 1)) || { echo "FAIL CI files"; fail=$((fail + 1)); }
import sys, yaml
gh, gl, hooks, out = sys.argv[1:5]
steps = yaml.safe_load(open(gh))["jobs"]["lint-plans"]["steps"]
lint = next(s["run"] for s in steps if s.get("name") == "Lint plans")
upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
assert "--output rfguard.sarif" in lint and upload["with"]["sarif_file"] == "rfguard.sarif"
script = yaml.safe_load(open(gl))["rfguard"]["script"]
cmds = [lint] + [c.split("/build/", 1)[1] for c in script if "rfguard lint" in c]
assert yaml.safe_load(open(gl))["rfguard"]["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
hook = yaml.safe_load(open(hooks))[0]
assert hook["id"] == "rfguard-lint" and hook["entry"].startswith("rfguard lint")
cmds.append(hook["entry"] + " corpus/lint/coalesce_into_left_join.sql")
open(out, "w").write("\n".join(c.replace("plans/", "corpus/lint") for c in cmds) + "\n")
PY
ci_dir="$tmp/cirun" && mkdir -p "$ci_dir" && cp -r corpus "$ci_dir/"
while read -r cmd; do
  (cd "$ci_dir" && eval "\"$RFGUARD\" ${cmd#rfguard }") >/dev/null 2>&1
  code=$?
  [ "$code" -le 1 ] && pass=$((pass + 1)) || { echo "FAIL CI command exits $code: $cmd"; fail=$((fail + 1)); }
done < "$tmp/ci-cmds"
python3 -c "import json,sys; json.load(open(sys.argv[1]))['runs'][0]['results']" "$ci_dir/rfguard.sarif" \
  && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[0]['check_name']=='unsafe-null-generating-side' and d[0]['location']['path']=='corpus/lint/coalesce_into_left_join.sql', d" "$ci_dir/gl-code-quality-report.json" \
  && pass=$((pass + 1)) || { echo "FAIL CI reports"; fail=$((fail + 1)); }
check "help: exit codes and examples" 0 'Examples:' -- "$RFGUARD" lint --help
for sub in plan check replay equiv; do
  "$RFGUARD" $sub --help | grep -q '^Exit codes: ' && pass=$((pass + 1)) || { echo "FAIL $sub --help: exit codes"; fail=$((fail + 1)); }
done
check "version" 0 '^rfguard 0\.1\.0$' -- "$RFGUARD" --version

# Pictures: every runtime filter is a coloured edge from its join to each consuming
# scan; Graphviz renders the DOT of TPC-H q5; Mermaid for Markdown.
{ grep '^CREATE TABLE' corpus/examples/tpch.sql; awk '/-- name: q5/{f=1} /-- name: q6/{f=0} f' corpus/examples/tpch.sql; } > "$tmp/q5.sql"
check "dot filter edges" 0 'q0_4 -> q0_14 \[color="#d62728", fontcolor="#d62728", penwidth=2, label="RF1", constraint=false\]' -- "$RFGUARD" plan --join-order from --format dot "$tmp/q5.sql"
[ "$(grep -c 'penwidth=2, label="RF' "$tmp/out")" -eq "$("$RFGUARD" plan --join-order from "$tmp/q5.sql" | grep -o 'RF[0-9]* -> ' | wc -l)" ] \
  && pass=$((pass + 1)) || { echo "FAIL dot: one edge per consumer"; fail=$((fail + 1)); }
cp "$tmp/out" "$tmp/q5.dot"
check "graphviz renders it" 0 '' -- dot -Tsvg "$tmp/q5.dot" -o "$tmp/q5.svg"
grep -q '>RF6<' "$tmp/q5.svg" && grep -q 'Scan #11 (~1.5M rows) orders' "$tmp/q5.svg" && pass=$((pass + 1)) || { echo "FAIL svg holds the filter labels and nodes"; fail=$((fail + 1)); }
check "mermaid" 0 '^    q0_8 ==>\|RF7\| q0_9$' -- "$RFGUARD" plan --join-order from --format mermaid "$tmp/q5.sql"
grep -q '^flowchart TD$' "$tmp/out" && grep -q '^  linkStyle [0-9]* stroke:#d62728,stroke-width:2px$' "$tmp/out" && ! grep -q 'RF1 <-' "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL mermaid: header, link styles, escaped <"; fail=$((fail + 1)); }

# The project's JSON Schemas (schemas/): what rfguard writes validates, and
# what the reader refuses for shape the schema refuses too.
"$RFGUARD" plan --format json corpus/examples/tpch.sql > "$tmp/s-tpch.json"
"$RFGUARD" plan --format json corpus/examples/ssb.sql > "$tmp/s-ssb.json"
"$RFGUARD" plan --format json corpus/examples/seeds.sql > "$tmp/s-seeds.json"
"$RFGUARD" lint --no-config --format json corpus/lint "$tmp/badcol.sql" > "$tmp/s-lint.json" 2>/dev/null
"$RFGUARD" lint --no-config --profile starrocks --format json "$ci" > "$tmp/s-lint2.json" 2>/dev/null
python3 - "$tmp" <<'PY' && pass=$((pass + 1)) || { echo "FAIL JSON Schemas"; fail=$((fail + 1)); }
import copy, glob, json, sys, jsonschema
tmp = sys.argv[1]
plan = jsonschema.Draft202012Validator(json.load(open("schemas/plan.schema.json")))
lint = jsonschema.Draft202012Validator(json.load(open("schemas/lint.schema.json")))
docs = [tmp + "/s-tpch.json", tmp + "/s-ssb.json", tmp + "/s-seeds.json"]
docs += [f for f in glob.glob("corpus/**/*.json", recursive=True) if json.load(open(f)).get("format") == "rfguard-plan"]
for f in docs:
    plan.validate(json.load(open(f)))
for f in ("s-lint.json", "s-lint2.json"):
    lint.validate(json.load(open(tmp + "/" + f)))
d = json.load(open(tmp + "/s-seeds.json"))
bad = copy.deepcopy(d); bad["queries"][0]["plan"]["colour"] = "red"
assert not plan.is_valid(bad)
bad = copy.deepcopy(d); bad["queries"][0]["plan"]["op"] = "merge"
assert not plan.is_valid(bad)
bad = copy.deepcopy(d); bad["queries"][0]["plan"]["exprs"][0]["expr"] = {"column": 1}
assert not plan.is_valid(bad)
assert len(docs) >= 10
PY

# replay: exit 0, 1 when the query fails, 2 on input errors with a JSON pointer.
check "replay worked" 0 '^pairs 17$' -- "$RFGUARD" replay corpus/replay/worked.json
check "replay partial-or" 0 '^pairs 9$' -- "$RFGUARD" replay --strategy partial-or corpus/replay/worked.json
check "replay json" 0 '"retained_digest_bytes": 16' -- "$RFGUARD" replay --format json corpus/replay/worked.json
check "replay conflict" 1 '^state FAILED$' -- "$RFGUARD" replay corpus/replay/conflict.json
check "replay bad strategy" 2 '' -- "$RFGUARD" replay --strategy xor corpus/replay/worked.json
sed 's/"bits": \[9, 14\]/"bits": [99]/' corpus/replay/duplicates.json > "$tmp/bits.json"
check "replay bit beyond m" 2 'bits.json: error at /messages/2/bits/0: bit position beyond m' -- "$RFGUARD" replay "$tmp/bits.json"
echo '{"hash": {"m": 0}}' > "$tmp/m0.json"
check "replay m zero" 2 'error at /hash/m: must be at least 1' -- "$RFGUARD" replay "$tmp/m0.json"
echo '{"hash": {"m": 16}, "execution": {"query": "q", "epoch": 1, "snapshot": 1, "join": "J"}, "shards": {}, "probe": [1.5], "messages": []}' > "$tmp/probe.json"
check "replay probe type" 2 'error at /probe/0: expected an integer or null' -- "$RFGUARD" replay "$tmp/probe.json"
check "replay truncated" 2 'error at /: malformed JSON' -- sh -c "head -c 40 corpus/replay/worked.json > \"$tmp/cut.json\"; \"$RFGUARD\" replay \"$tmp/cut.json\""
check "replay missing" 2 'cannot open' -- "$RFGUARD" replay "$tmp/none.json"
check "replay in <=> null-unaware" 0 'correct protocol: READY, 5 pairs' -- "$RFGUARD" replay --strategy null-unaware corpus/replay/in_null_safe.json
check "replay min_max json" 0 '"accepts_null":true' -- sh -c "\"$RFGUARD\" replay --format json corpus/replay/min_max_null_safe.json | tr -d ' \n'"
sed 's/"filter": "in",/"filter": "in", "hash": {"m": 16},/' corpus/replay/in_null_safe.json > "$tmp/in_hash.json"
check "replay hash on in" 2 'in_hash.json: error at /hash: hash applies to bloom filters only' -- "$RFGUARD" replay "$tmp/in_hash.json"
sed 's/{"shard": "B1"}/{"shard": "B1", "bits": [1]}/' corpus/replay/in_null_safe.json > "$tmp/in_bits.json"
check "replay bits on in" 2 'error at /messages/1/bits: bits applies to bloom filters only' -- "$RFGUARD" replay "$tmp/in_bits.json"
sed 's/"<=>"/"=="/' corpus/replay/in_null_safe.json > "$tmp/in_eq.json"
check "replay bad equality" 2 'error at /equality: equality must be "=" or "<=>"' -- "$RFGUARD" replay "$tmp/in_eq.json"
sed 's/"min_max"/"zone"/' corpus/replay/min_max_null_safe.json > "$tmp/zone.json"
check "replay bad filter" 2 'error at /filter: filter must be' -- "$RFGUARD" replay "$tmp/zone.json"

# check: exit 0 safe, 1 counterexample, 2 input errors.
check "check coalesce" 1 'c: 1 row: \(0, 1000003\)' -- "$RFGUARD" check corpus/lint/coalesce_into_left_join.json
# Every filter of the example corpus proven over every value (limit_blocks's TopN too).
check "check sound seeds" 0 'RF1, RF2\): safe up to bound 2 over every value' -- "$RFGUARD" check --seconds 600 --oracle sqlite corpus/examples/seeds.sql
grep -q '^RF2: safe up to bound 2 over every value' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL check sound seeds: the TopN filter not proven"; fail=$((fail + 1)); }
check "check starrocks" 1 'UNSAFE at bound 1' -- "$RFGUARD" check --profile starrocks corpus/examples/seeds.sql
check "check json" 1 '"verdict": "unsafe"' -- "$RFGUARD" check --format json corpus/check/not_in_probe.json
check "check rewrites" 0 'normalisation: safe up to bound 2 over every value' -- "$RFGUARD" check --seconds 600 --rewrites corpus/examples/seeds.sql
check "check by slices" 0 'by slices: safe up to bound 2 over every value \(2 slices, 144 databases\)' -- "$RFGUARD" check --seconds 600 --method slices corpus/examples/seeds.sql
check "check slices json" 0 '"by_slices":\{"bound":2,"slices":2,"databases_checked":144,"every_value":true\}' -- sh -c "\"$RFGUARD\" check --method slices --format json corpus/examples/seeds.sql | tr -d ' \n'"
# A slice that differs on free inputs is no counterexample, and no verdict either.
check "check slice differs" 4 "RF1's slice: differs at bound 1" -- "$RFGUARD" check --method slices corpus/lint/coalesce_into_left_join.json
grep -q '^RF1: INCONCLUSIVE: safe up to bound 0 of 2' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL check slice differs: not INCONCLUSIVE"; head -3 "$tmp/out"; fail=$((fail + 1)); }
# A budget too small for the bound: INCONCLUSIVE, exit 4, "inconclusive" in JSON.
check "check budget short" 4 'INCONCLUSIVE: safe up to bound [01] of 3' -- "$RFGUARD" check --bound 3 --databases 50 --method whole corpus/examples/seeds.sql
check "check budget short json" 4 '"verdict":"inconclusive"' -- bash -c 'set -o pipefail; "$0" check --bound 3 --databases 50 --method whole --format json corpus/examples/seeds.sql | tr -d " \n"' "$RFGUARD"
# An aggregate outside the solver's fragment: inconclusive (exit 4), with the domain searched.
printf 'CREATE TABLE a (k int, v int);\nCREATE TABLE b (k int, v int);\nSELECT a.k, stddev_samp(a.v) AS sd FROM a JOIN b ON a.k = b.k GROUP BY a.k;\n' > "$tmp/open.sql"
check "check values open" 4 '^RF1: INCONCLUSIVE: safe up to bound 2 on values from \{NULL, 1, 2\} \(the solver does not encode aggregate stddev_samp at aggregate #2\)' -- "$RFGUARD" check --seconds 600 "$tmp/open.sql"
check "check values json" 4 '"every_value":false,"domain":"\{NULL,1,2\}","values_open":"thesolverdoesnotencodeaggregatestddev_sampataggregate#2"' -- bash -c 'set -o pipefail; "$0" check --seconds 600 --format json "$1" | tr -d " \n"' "$RFGUARD" "$tmp/open.sql"
check "check bad method" 2 '' -- "$RFGUARD" check --method guess corpus/examples/seeds.sql
check "check bad oracle" 2 'oracle' -- "$RFGUARD" check --oracle postgres corpus/examples/seeds.sql
check "check bad bound" 2 '' -- "$RFGUARD" check --bound 0 corpus/examples/seeds.sql
check "check missing" 2 'cannot open' -- "$RFGUARD" check "$tmp/none.sql"
check "check --emit-sql" 1 '' -- "$RFGUARD" check --profile starrocks --emit-sql "$tmp/cx-dir" corpus/examples/seeds.sql
[ "$(ls "$tmp/cx-dir")" = "null_safe_parent_RF1.sql" ] && sqlite3 :memory: < "$tmp/cx-dir/null_safe_parent_RF1.sql" > "$tmp/cx-run" \
  && [ "$(wc -l < "$tmp/cx-run")" -eq 1 ] && pass=$((pass + 1)) || { echo "FAIL --emit-sql: one script that sqlite3 runs (original 1 row, rewritten none)"; fail=$((fail + 1)); }
# --seconds: under a sanitizer on a busy machine a search can outlast the default
# 10 s and end INCONCLUSIVE (exit 4); this case is about the progress lines.
check "check progress on request" 4 'limit_blocks: bound 3, [0-9]+ databases, [0-9.]+ s' -- "$RFGUARD" check --progress always --bound 3 --seconds 600 corpus/examples/seeds.sql
check "no progress into a file" 0 '' -- "$RFGUARD" check corpus/examples/seeds.sql
! grep -q 'databases, [0-9.]* s' "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL progress only on a terminal"; fail=$((fail + 1)); }

# equiv: exit 0 equivalent, 1 different, 2 input error (docs/equiv.md).
eq=corpus/examples/equiv
check "equiv coalesce pushed" 1 '^DIFFERENT at bound 1 \(9 databases' -- "$RFGUARD" equiv --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_pushed.sql
grep -q '^  rewritten: 1 row: (1, NULL)$' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL equiv rows"; fail=$((fail + 1)); }
# The counterexample script runs as is in sqlite3 and shows the two results.
sed -n 's/^  | //p' "$tmp/out" > "$tmp/cx.sql"
check "equiv script in sqlite3" 0 '^1\|0$' -- sh -c "sqlite3 :memory: < \"$tmp/cx.sql\""
grep -qx '1|' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL equiv script: rewritten row"; fail=$((fail + 1)); }
check "equiv sound" 0 '^equivalent on every database: the same normal form \(constants folded.*coalesce and nullif as CASE' -- "$RFGUARD" equiv --seconds 600 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
# --dialect (docs/dialects.md): 7 / 2 is 3, except in DuckDB.
printf 'CREATE TABLE t (k int, v int);\nSELECT k FROM t WHERE k / 2 = 1;\n' > "$tmp/div.sql"
printf 'CREATE TABLE t (k int, v int);\nSELECT k FROM t WHERE k IN (2, 3);\n' > "$tmp/div_in.sql"
check "equiv dialect default" 0 'equivalent up to bound 2 over every value' -- "$RFGUARD" equiv "$tmp/div.sql" "$tmp/div_in.sql"
check "equiv dialect duckdb" 1 '^  t: 1 row: \(3, ' -- "$RFGUARD" equiv --dialect DuckDB "$tmp/div.sql" "$tmp/div_in.sql"
check "unknown dialect" 2 'dialect' -- "$RFGUARD" equiv --dialect mysql "$tmp/div.sql" "$tmp/div_in.sql"
printf 'CREATE TABLE t (k int, v int);\nSELECT k / v FROM t;\n' > "$tmp/div_v.sql"
check "plan dialect postgres" 0 'nonzero_divisor\(t.v, t.k\)' -- "$RFGUARD" plan --dialect postgres "$tmp/div_v.sql"
check "equiv sound searched" 0 '^equivalent up to bound 2 over every value \(759 databases' -- "$RFGUARD" equiv --no-proof --seconds 600 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
check "equiv oracle" 0 'sqlite: 1518 queries, all agree' -- "$RFGUARD" equiv --no-proof --seconds 600 --oracle sqlite --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
check "equiv json" 1 '"verdict": "different"' -- "$RFGUARD" equiv --format json --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_pushed.sql
python3 - "$tmp/out" <<'PY' && pass=$((pass + 1)) || { echo "FAIL equiv json shape"; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "rfguard-equiv" and d["bound"] == 1 and d["requested_bound"] == 2
assert d["databases"] == 9
c = d["counterexample"]
assert c["tables"] == {"orders": [[1, 1000001, 1000001]], "returns": []}
assert c["original"] == [[1, 0]] and c["rewritten"] == [[1, None]] and "SELECT" in c["sql"]
PY
# A filter moved below a LIMIT under four more tables: with a budget too small
# for the whole space, the solver finds the difference (a LIMIT below the root
# is in its fragment); the search around the changed LIMIT is tested in
# tests/unit/equiv_search_test.cpp.
check "equiv limit below the root, by the solver" 1 '^DIFFERENT at bound 2 \(0 databases' -- "$RFGUARD" equiv --databases 5000 --seconds 600 --schema $eq/shop_schema.sql $eq/limit_original.sql $eq/limit_pushed.sql
grep -q '^  orders: 2 rows: (0, 101) (1, NULL)$' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL equiv limit: the LIMIT's two rows"; fail=$((fail + 1)); }
grep -q '^  rewritten: 1 row: (0, -1, 0, NULL)$' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL equiv limit: the rewritten row"; fail=$((fail + 1)); }
check "equiv limit json" 1 '"limit": "bound 1 has about 34048 databases, over the budget"' -- "$RFGUARD" equiv --format json --databases 5000 --seconds 600 --schema $eq/shop_schema.sql $eq/limit_original.sql $eq/limit_pushed.sql
# The schema from the original's own DDL; plan JSON on one side.
cat $eq/schema.sql $eq/coalesce_original.sql > "$tmp/orig.sql"
"$RFGUARD" plan --no-runtime-filters --format json "$tmp/orig.sql" > "$tmp/orig.json"
check "equiv sql vs its plan json" 0 '^equivalent on every database: the same normal form \(scans list other columns\)$' -- "$RFGUARD" equiv "$tmp/orig.sql" "$tmp/orig.json"
check "equiv --no-proof searches" 0 '^equivalent up to bound 2' -- "$RFGUARD" equiv --no-proof "$tmp/orig.sql" "$tmp/orig.json"
"$RFGUARD" equiv --format json "$tmp/orig.sql" "$tmp/orig.json" > "$tmp/out"
python3 - "$tmp/out" <<'PY' && pass=$((pass + 1)) || { echo "FAIL equiv json proof"; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "equivalent" and d["proof"] == "scans list other columns"
assert d["databases"] == 0 and d["bound"] == 2
PY
check "equiv rewritten over original's tables" 1 '^DIFFERENT' -- "$RFGUARD" equiv "$tmp/orig.sql" $eq/coalesce_pushed.sql
check "equiv bound 1" 0 '^equivalent up to bound 1 ' -- "$RFGUARD" equiv --no-proof --bound 1 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
# Inconclusive exits 4 in every format, as check's does: a gate tells "equivalent" from
# "did not finish" by the code alone. --databases alone is the budget: the same on any machine.
# A narrowing CAST is outside the solver's fragment: the search's budget decides,
# and the verdict names the values it drew from.
echo "SELECT o_cust, CAST(o_total AS smallint) FROM orders WHERE o_cust > 0;" > "$tmp/lim.sql"
check "equiv inconclusive" 4 '^inconclusive: equivalent up to bound [0-2] of the 3 asked for on values from \{NULL, .*the solver does not encode a narrowing CAST.*by bound: 1: [0-9]+, 2: [0-9]+' -- "$RFGUARD" equiv --no-proof --bound 3 --databases 100 --schema $eq/schema.sql "$tmp/lim.sql" "$tmp/lim.sql"
check "equiv inconclusive json" 4 '"verdict": "inconclusive"' -- "$RFGUARD" equiv --no-proof --format json --bound 3 --databases 100 --schema $eq/schema.sql "$tmp/lim.sql" "$tmp/lim.sql"
# Over every value the solver decides what the budget of the search cannot.
check "equiv every value" 0 '^equivalent up to bound 3 over every value' -- "$RFGUARD" equiv --no-proof --bound 3 --databases 100 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
"$RFGUARD" equiv --no-proof --format json --bound 3 --databases 100 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql > "$tmp/a.json"
"$RFGUARD" equiv --no-proof --format json --bound 3 --databases 100 --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql > "$tmp/b.json"
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' && pass=$((pass + 1)) || { echo "FAIL equiv --databases deterministic"; fail=$((fail + 1)); }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b): d.pop("ms"); d.pop("solver_ms")
assert a == b, (a, b)
assert sum(a["databases_per_bound"]) <= a["databases"] and len(a["databases_per_bound"]) >= 2
PY
# CAST to boolean has an oracle form in SQLite (whose own CAST keeps 5 as 5) and DuckDB.
echo "CREATE TABLE a (k int, v int, s varchar); SELECT a.k FROM a WHERE CAST(a.v AS boolean);" > "$tmp/cb1.sql"
echo "CREATE TABLE a (k int, v int, s varchar); SELECT a.k FROM a WHERE a.v <> 0;" > "$tmp/cb2.sql"
check "equiv cast to boolean, sqlite oracle" 0 'sqlite: [0-9]+ queries, all agree' -- "$RFGUARD" equiv --no-proof --oracle sqlite "$tmp/cb1.sql" "$tmp/cb2.sql"
check "equiv cast to boolean, duckdb oracle" 0 'duckdb: [0-9]+ queries, all agree' -- "$RFGUARD" equiv --no-proof --oracle duckdb "$tmp/cb1.sql" "$tmp/cb2.sql"
check "equiv trace" 1 '^-- first unsound step: 2 \(PushProjectionBelowOuterJoin\)$' -- "$RFGUARD" equiv --trace $eq/trace.jsonl
check "plan writes normalisation traces" 0 '' -- "$RFGUARD" plan --trace "$tmp/traces" corpus/examples/seeds.sql
check "rfguard's own steps are sound" 0 '^-- no unsound step: 0 equivalent up to bound 2, 2 equivalent by normal form, 1 structurally identical$' -- "$RFGUARD" equiv --seconds 600 --trace "$tmp/traces/not_in_probe.jsonl"
check "rfguard's own steps are sound, searched" 0 '^-- no unsound step: 2 equivalent up to bound 2, 1 structurally identical$' -- "$RFGUARD" equiv --no-proof --seconds 600 --trace "$tmp/traces/not_in_probe.jsonl"
# Steps with subqueries still in expressions (TPC-H q22) read back and check.
"$RFGUARD" plan --trace "$tmp/tpch-traces" corpus/examples/tpch.sql > /dev/null
check "tpch q22's own steps are sound" 0 '^-- no unsound step: 2 equivalent up to bound 2, 5 equivalent by normal form, 1 structurally identical$' -- "$RFGUARD" equiv --seconds 600 --trace "$tmp/tpch-traces/q22.jsonl"
check "tpch q21's trace reads back" 0 '^-- no unsound step' -- "$RFGUARD" equiv --databases 2000 --trace "$tmp/tpch-traces/q21.jsonl"
check "equiv trace json" 1 '"first_unsound": \{' -- "$RFGUARD" equiv --format json --trace $eq/trace.jsonl
check "equiv one file" 2 'needs two inputs' -- "$RFGUARD" equiv $eq/coalesce_original.sql
check "equiv trace and files" 2 'not both' -- "$RFGUARD" equiv --trace $eq/trace.jsonl $eq/coalesce_original.sql $eq/coalesce_case.sql
check "equiv missing" 2 'cannot open' -- "$RFGUARD" equiv --schema $eq/schema.sql "$tmp/none.sql" $eq/coalesce_case.sql
check "equiv two queries" 2 'seeds.sql:12:1: error: holds 10 queries; each side of a comparison is one query' -- "$RFGUARD" equiv corpus/examples/seeds.sql $eq/coalesce_case.sql
echo "CREATE TABLE orders (o_id varchar, o_cust int, o_total int); CREATE TABLE returns (r_order int, r_amount int); SELECT o_id, 1 FROM orders;" > "$tmp/other.sql"
check "equiv two schemas" 2 'table orders is \(o_id int, o_cust int, o_total int\) in the original and \(o_id varchar' -- "$RFGUARD" equiv "$tmp/orig.sql" "$tmp/other.sql"
"$RFGUARD" check corpus/lint/coalesce_into_left_join.json | sed -n 's/^  | //p' > "$tmp/cex.sql"
if command -v sqlite3 >/dev/null; then
  check "counterexample script runs in sqlite3" 0 '^1\|1000001\|\|\|0\|1000003$' -- sqlite3 "$tmp/db" ".read $tmp/cex.sql"
fi

# Fuzzing and held-out suites found these (fuzz/regressions/, docs/fuzzing.md):
# each ends in a located error with exit 2, or runs, and never crashes.
reg=fuzz/regressions
for c in plan lint check; do
  check "ORDER BY 0 ($c)" 2 'order-by-0.sql:1:50: error: ORDER BY position 0 is not in the select list' -- "$RFGUARD" $c $reg/sql/order-by-0.sql
done
check "ORDER BY 1, 0" 2 'order-by-1-0.sql:1:53: error: ORDER BY position 0 is not' -- "$RFGUARD" plan $reg/sql/order-by-1-0.sql
check "ORDER BY 000" 2 'ORDER BY position 000 is not' -- "$RFGUARD" lint $reg/sql/order-by-000.sql
check "UTF-8 F6 lead byte" 2 'utf8-f6-after-first-statement.sql:3:36: error: input is not valid UTF-8 text \(byte 97\)' -- "$RFGUARD" lint $reg/sql/utf8-f6-after-first-statement.sql
check "UTF-8 F6 in set operation" 2 'utf8-f6-in-set-operation.sql:2:80: error: input is not valid UTF-8' -- "$RFGUARD" plan $reg/sql/utf8-f6-in-set-operation.sql
check "UTF-8 surrogate" 2 'utf8-surrogate-in-literal.sql:1:9: error: input is not valid UTF-8' -- "$RFGUARD" plan --format json $reg/sql/utf8-surrogate-in-literal.sql
check "UTF-8 overlong" 2 'utf8-overlong.sql:1:9: error: input is not valid UTF-8' -- "$RFGUARD" plan $reg/sql/utf8-overlong.sql
check "UTF-8 above U+10FFFF" 2 'utf8-above-10ffff.sql:1:9: error: input is not valid UTF-8' -- "$RFGUARD" plan $reg/sql/utf8-above-10ffff.sql
printf "SELECT '\xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF' AS s;\n" > "$tmp/utf8ok.sql"
check "UTF-8 euro, emoji, U+D7FF" 0 'q.s := ' -- "$RFGUARD" plan "$tmp/utf8ok.sql"
check "3000 chained WITH queries" 2 'cte-chain-3000.sql:2938:25: error: WITH queries nested more than 64 deep' -- "$RFGUARD" plan $reg/sql/cte-chain-3000.sql
check "14 self-joining WITH queries" 2 'cte-self-join-14.sql:6:24: error: the query references more than 5000 tables' -- "$RFGUARD" lint $reg/sql/cte-self-join-14.sql
check "newline in a quoted name" 2 'sql/newline-in-quoted-identifier.sql:2:8: error: unknown column "a\\nb"$' -- "$RFGUARD" plan $reg/sql/newline-in-quoted-identifier.sql
# One line of message, then the source line and the caret.
[ "$(grep -c 'error:' "$tmp/err")" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL newline error is not one line"; fail=$((fail + 1)); }
check "5000-deep plan JSON" 2 'plan-5000-deep.json: error at /queries/0/plan(/children/0)+/predicate: nested more than 2048 levels deep' -- "$RFGUARD" lint $reg/plan_json/plan-5000-deep.json
check "10000 nested not in plan JSON" 2 'not-10000-deep.json: error at /queries/0/plan/predicate(/args/0)+: nested more than 2048' -- "$RFGUARD" plan $reg/plan_json/not-10000-deep.json
check "two WHERE-true filters" 0 '^Scan #1 t columns=\[k\]$' -- "$RFGUARD" plan $reg/plan_json/two-true-filters.json
check "two WHERE-true filters merged" 0 'Filter #1 true' -- "$RFGUARD" plan --disable RemoveTrueFilter $reg/plan_json/two-true-filters.json
# fuzz_plan_json: a double probe with an int build key got MinMax, flagged on the probe's type.
printf 'CREATE TABLE d (x double) WITH (rows = 1000000); CREATE TABLE c (k int) WITH (rows = 10);\nSELECT 1 FROM d JOIN c ON d.x = c.k;\n' > "$tmp/mixed.sql"
check "double = int: no MinMax" 0 'RF1 <- c.k \(d.x =, in, local\)$' -- "$RFGUARD" plan "$tmp/mixed.sql"
check "double = int lints clean" 0 '1 query, 0 findings' -- "$RFGUARD" lint "$tmp/mixed.sql"
check "replay huge m" 2 'huge-m-1.json: error at /hash/m: m is above 2\^32 bits' -- "$RFGUARD" replay $reg/replay/huge-m-1.json
check "replay huge m 2" 2 'huge-m-2.json: error at /hash/m: m is above 2\^32 bits' -- "$RFGUARD" replay $reg/replay/huge-m-2.json
check "replay huge m in a message" 2 'error at /messages/2/m: m is above 2\^32 bits' -- "$RFGUARD" replay $reg/replay/huge-m-in-message.json
sed 's/"m": 16,/"m": 1073741824,/' corpus/replay/worked.json > "$tmp/budget.json"
check "replay bitmap budget" 2 'budget.json: error at /messages/0: the scenario.s bitmaps would take more than 256 MiB' -- "$RFGUARD" replay "$tmp/budget.json"
python3 -c "
n = 1000
print(''.join(f'CREATE TABLE t{i} (k int);' for i in range(n)))
print('SELECT t0.k FROM t0' + ''.join(f' JOIN t{i} ON t{i-1}.k = t{i}.k' for i in range(1, n)) + ';')" > "$tmp/chain1000.sql"
check "1000-join chain lints" 0 '1 query, 0 findings' -- "$RFGUARD" lint "$tmp/chain1000.sql"
check "1000-join chain: 64 consumers a filter" 0 'ConsumerCap: RF1 already has 64 consumers' -- "$RFGUARD" plan --explain "$tmp/chain1000.sql"

# The walk: a folder it cannot read (here: a path over PATH_MAX, which even
# root cannot open) is reported and the rest is linted; the configured schema
# is never an input; an empty file holds no query (a note, exit 0).
mkdir -p "$tmp/walk/ok" && echo "CREATE TABLE a (k int); SELECT k FROM a;" > "$tmp/walk/ok/a.sql"
(cd "$tmp/walk" && long=$(printf 'y%.0s' $(seq 120)) && for i in $(seq 36); do mkdir "$long" && cd "$long"; done && echo "SELECT 1;" > q.sql)
check "lint walks past an unreadable folder" 2 'cannot read the directory: File name too long \(the rest of the walk goes on\)' -- "$RFGUARD" lint "$tmp/walk"
check "lint lints the rest of the walk" 2 '^-- 1 file, 1 query, 0 findings' -- "$RFGUARD" lint "$tmp/walk"
mkdir -p "$tmp/schemadir" && echo "CREATE TABLE a (k int, v int);" > "$tmp/schemadir/schema.sql" && echo "SELECT k FROM a WHERE v > 1;" > "$tmp/schemadir/q.sql"
printf 'schema = "schema.sql"\npaths = ["."]\n' > "$tmp/schemadir/.rfguard.toml"
check "lint: the configured schema is no input" 0 '^-- 1 file, 1 query, 0 findings' -- sh -c "cd \"$tmp/schemadir\" && \"$RFGUARD\" lint 2>&1"
check "lint: the schema found by a walk is noted" 0 'schema.sql: note: the schema \(--schema, or schema in .rfguard.toml\): not linted' -- sh -c "cd \"$tmp/schemadir\" && \"$RFGUARD\" lint 2>&1"
: > "$tmp/empty_lint.sql" && printf '  \n\n' > "$tmp/blank_lint.sql"
check "lint: an empty file holds no query" 0 'empty_lint.sql: note: an empty file: no query to lint' -- "$RFGUARD" lint "$tmp/empty_lint.sql" "$tmp/blank_lint.sql"
check "lint: an empty file is counted, clean" 0 '^-- 2 files, 0 queries, 0 findings' -- "$RFGUARD" lint "$tmp/empty_lint.sql" "$tmp/blank_lint.sql"

# A plan JSON whose SQL file is not there: the finding points at the plan
# JSON and its pointer, not at a file nobody can open.
sed 's#"file": "corpus/lint/coalesce_into_left_join.sql"#"file": "gone/q.sql"#' corpus/lint/coalesce_into_left_join.json > "$tmp/moved.json"
check "lint: a plan JSON whose SQL is gone points at itself" 1 "^$tmp/moved.json: error \[unsafe-null-generating-side\] .*\[$tmp/moved.json /queries/0/plan/children/0/children/0/children/1\]$" -- "$RFGUARD" lint "$tmp/moved.json"
check "lint: a plan JSON whose SQL is there points at the SQL" 1 '^corpus/lint/coalesce_into_left_join.sql:6:27: error \[unsafe-null-generating-side\]' -- "$RFGUARD" lint corpus/lint/coalesce_into_left_join.json

# lint --jobs: files linted in parallel, reported in the order of the inputs,
# stdout and stderr alike, whatever the number of threads.
"$RFGUARD" lint --jobs 1 corpus/ corpus/examples/tpch.sql > "$tmp/j1.out" 2> "$tmp/j1.err"
j1=$?
"$RFGUARD" lint --jobs 4 corpus/ corpus/examples/tpch.sql > "$tmp/j4.out" 2> "$tmp/j4.err"
j4=$?
if [ "$j1" -eq 2 ] && [ "$j4" -eq 2 ] && cmp -s "$tmp/j1.out" "$tmp/j4.out" && cmp -s "$tmp/j1.err" "$tmp/j4.err" \
   && grep -q '^-- 73 files, ' "$tmp/j1.out"; then pass=$((pass + 1)); else
  echo "FAIL lint --jobs 4 reports differently from --jobs 1 (exit $j1, $j4)"; fail=$((fail + 1)); fi
check "lint --jobs negative" 2 '' -- "$RFGUARD" lint --jobs -1 corpus/examples/seeds.sql

# DuckDB's plans: imported (--from duckdb or detected), and DuckDB in the loop.
fx=tests/fixtures/duckdb
check "duckdb profile detected" 0 'RF1 <- u.k \(t.k =, bloom\+in\+min_max, global\)' -- "$RFGUARD" plan $fx/inner_join.json
check "duckdb lint clean" 0 '1 query, 0 findings' -- "$RFGUARD" lint --from duckdb $fx/right_join.json
check "duckdb lint unsafe" 1 'error \[producer-join-type\] unsafe_left_join: RF1 at left join #2.*\[tests/fixtures/duckdb/unsafe_left_join.json /children/0/children/0\]' -- "$RFGUARD" lint $fx/unsafe_left_join.json
check "duckdb 1.5.6 filters below OFFSET" 1 'warning \[crossed-limit\] offset_below_join: RF1 -> ordered_probe.flag at scan #6' -- "$RFGUARD" lint $fx/offset_below_join.json
check "check says what the import lost" 4 '^-- checked as imported: the import lost 3 things' -- "$RFGUARD" check $fx/offset_below_join.json
check "duckdb lint sarif" 1 '"ruleId": "producer-join-type"' -- "$RFGUARD" lint --format sarif $fx/unsafe_left_join.json
echo "CREATE TABLE t (k int, v int); CREATE TABLE u (k int, w varchar);" > "$tmp/tu.sql"
check "duckdb schema" 0 '1 query, 0 findings' -- sh -c "\"$RFGUARD\" lint --schema \"$tmp/tu.sql\" $fx/right_join.json 2>&1"
if grep -q 'not in a schema' "$tmp/out"; then echo "FAIL --schema still reports unknown tables"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
check "duckdb notes name the loss" 0 'note: right_join: not imported faithfully: table t is not in a schema' -- "$RFGUARD" lint $fx/right_join.json
echo '{"children": [{"operator_name": "CTE", "extra_info": {"Table Index": "1"}, "children": [{"operator_name": "CTE_SCAN", "extra_info": {"CTE Index": "1"}, "children": []}, {"operator_name": "CTE_SCAN", "extra_info": {"CTE Index": "1"}, "children": []}]}]}' > "$tmp/cte.json"
check "duckdb CTE scanning itself" 2 'cte.json: error at /children/0/children/0: CTE_SCAN 1 inside its own CTE' -- "$RFGUARD" lint --from duckdb "$tmp/cte.json"
python3 -c "print('[' * 5000 + ']' * 5000)" > "$tmp/deep.json"
check "duckdb JSON nested 5000 deep" 2 'deep.json:1:2049: error: nested more than 2048 levels deep' -- "$RFGUARD" lint --from duckdb "$tmp/deep.json"
# A DuckDB plan without dynamic filters is what DuckDB ran: shown as given, never re-planned.
check "duckdb plan without filters as given" 0 'Scan #3 t columns=\[k\]$' -- "$RFGUARD" plan $fx/no_dynamic_filters.json
if grep -q 'RF1' "$tmp/out"; then echo "FAIL plan placed rfguard's filters on DuckDB's plan"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
# DuckDB trims a join's output to the columns used above and prints #n over it (JOB 3a):
# the names above tell which, else the join above read ON true. job_q3a.json is the
# profile DuckDB v1.5.6 printed for corpus/examples/job.sql's q3a under
# `rfguard duckdb run --scale 0.01`, its metrics removed.
check "duckdb #n over a trimmed join" 0 'Join #7 JOIN ON movie_keyword.movie_id = p13.0_movie_id' -- "$RFGUARD" plan --schema corpus/examples/job.sql $fx/job_q3a.json
grep -q 'not imported faithfully: #0 counts the columns of a join DuckDB trimmed' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL the trimmed join's inference is not said"; fail=$((fail + 1)); }
# A quoted table name (DuckDB quotes keywords: memory.main."name") is the table's name.
sed 's/"memory.main.t"/"memory.main.\\"t\\""/' $fx/inner_join.json > "$tmp/quoted_table.json"
check "duckdb quoted table name" 0 '1 query, 0 findings' -- "$RFGUARD" lint --schema "$tmp/tu.sql" "$tmp/quoted_table.json"
if grep -q 'not in a schema' "$tmp/err"; then echo "FAIL a quoted table name is not resolved"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
# DuckDB's date + 5 counts days: a date, ordered, so its min/max filter (TPC-DS q72) is eligible.
check "duckdb date + n" 0 '1 query, 0 findings' -- "$RFGUARD" lint --schema $fx/date_plus_days.sql $fx/date_plus_days.json
check "duckdb date + n as days" 0 "RF2 <- b.d \+ INTERVAL '5' day \(a.d >, min_max, global\)" -- "$RFGUARD" plan --schema $fx/date_plus_days.sql $fx/date_plus_days.json
# DuckDB's compressed materialization above a join it trimmed: #0 and a compression
# of #1 count the kept columns (s_qty, i_item_id), not the scans' (s_item_sk, s_qty).
check "duckdb compression over a trimmed join" 0 'Project #5 \[p5.0_s_qty := sales.s_qty, p5.1_i_item_id := item.i_item_id\]' -- "$RFGUARD" plan --schema $fx/compressed_join_output.sql $fx/compressed_join_output.json
# Doris's TPC-H shape plans as its regression suites print them
# (corpus/engines/doris, docs/doris.md): detected by content, imported, linted.
# No finding: q9's part and partsupp scans would each wait for the other's
# filter, but Doris's RF8 is a decoupled filter, imported non-blocking (Doris
# makes it or RF6/RF7 non-blocking); with both blocking, lint warns.
dr=corpus/engines/doris
check "doris lint tpch" 0 '^-- 23 files, 23 queries, 0 findings \(0 errors\)$' -- sh -c "\"$RFGUARD\" lint --schema corpus/examples/tpch.sql $dr/*.out 2>/dev/null"
check "doris q9 decoupled filter non-blocking" 0 'RF9 <- part.p_partkey \(lineitem.l_partkey =, in\+bloom\+min_max, global, non-blocking\)' -- "$RFGUARD" plan --schema corpus/examples/tpch.sql --from doris $dr/tpch_sf1000_shape_q9.out
"$RFGUARD" plan --format json --schema corpus/examples/tpch.sql $dr/tpch_sf1000_shape_q9.out 2>/dev/null | sed 's/"non_blocking": true/"non_blocking": false/' > "$tmp/q9blocking.json"
check "doris q9 wait cycle when RF8 blocks" 1 'warning \[filter-wait-cycle\] select: RF8 waits on RF9 waits on RF8' -- "$RFGUARD" lint --schema corpus/examples/tpch.sql "$tmp/q9blocking.json"
check "doris plan detected" 0 'Join #13 JOIN \[bucket_shuffle\] ON customer.c_custkey = orders.o_custkey AND customer.c_nationkey = supplier.s_nationkey; RF5 <- supplier.s_nationkey' -- "$RFGUARD" plan --schema corpus/examples/tpch.sql $dr/tpch_sf1000_shape_q5.out
check "doris loss named" 0 'tpch_sf1000_shape_q17.out: note at line 10: select: not imported faithfully: PhysicalWindow prints no functions: imported with the 1 window functions the operators above read' -- "$RFGUARD" lint --schema corpus/examples/tpch.sql $dr/tpch_sf1000_shape_q17.out
# compare: Doris's consumers against the sound profile's and the doris
# profile's on Doris's own join trees. Both place q9's sideways filter
# (Doris's decoupled RF8 p_partkey -> ps_partkey); the sound profile also
# q18's RF3 (o_custkey -> c_custkey, beside its join only) and 8 more. The
# doris profile differs on q18: its estimate prunes RF3 (docs/doris.md).
check "compare doris" 0 "^-- 23 queries: the engines placed 69 consumers, the sound profile 77 \\(69 both, 0 the engines' only, 8 sound only\\); the engines' profiles agree on 22 of 23$" -- sh -c "\"$RFGUARD\" compare --schema corpus/examples/tpch.sql $dr/*.out 2>/dev/null"
check "compare doris q9 sideways" 0 'q9.out\): Doris 9, sound 9: 9 both, 0 Doris only, 0 sound only; the doris profile agrees$' -- "$RFGUARD" compare --schema corpus/examples/tpch.sql $dr/tpch_sf1000_shape_q9.out
check "compare json" 0 '"profile_agrees": true' -- "$RFGUARD" compare --format json --schema corpus/examples/tpch.sql $dr/tpch_sf1000_shape_q9.out
check "compare SQL: nothing to compare" 0 'not an engine.s plan \(SQL or plan JSON\): nothing to compare' -- "$RFGUARD" compare corpus/examples/seeds.sql
check "doris: bytes of no UTF-8 character" 2 'invalid_utf8.out:11:205: error: not valid UTF-8' -- "$RFGUARD" lint --from doris fuzz/regressions/doris_import/invalid_utf8.out
check "--from doris on SQL" 2 'seeds.sql:4:1: error: not Doris.s shape plan text' -- "$RFGUARD" lint --from doris corpus/examples/seeds.sql
# StarRocks's TPC-H plans (corpus/engines/starrocks, docs/starrocks.md):
# detected by content, fragments joined at exchanges, linted, compared.
sr=corpus/engines/starrocks
check "starrocks lint tpch" 0 '^-- 3 files, 3 queries, 0 findings \(0 errors\)$' -- sh -c "\"$RFGUARD\" lint --schema corpus/examples/tpch.sql $sr/*.sql 2>/dev/null"
check "starrocks plan detected" 0 'Join #7 JOIN \[broadcast\] ON customer.c_acctbal > g6.a0; RF1 <- g6.a0 \(customer.c_acctbal >, min_max, local\)' -- "$RFGUARD" plan --schema corpus/examples/tpch.sql $sr/tpch-histogram-cost_q22.sql
check "starrocks exchange filter said" 0 'filter 2 \(RF3\) is applied at exchange 3: imported at the scan below it, through the group keys of an aggregate' -- "$RFGUARD" plan --schema corpus/examples/tpch.sql $sr/tpch-histogram-cost_q20.sql
check "compare starrocks" 0 "^-- 3 queries: the engines placed 13 consumers, the sound profile 17 \\(13 both, 0 the engines' only, 4 sound only\\); the engines' profiles agree on 3 of 3$" -- sh -c "\"$RFGUARD\" compare --schema corpus/examples/tpch.sql $sr/*.sql 2>/dev/null"
check "compare names the import's loss" 0 'the import lost 2 things \(notes on stderr\): a difference may be the import.s, not StarRocks.s' -- "$RFGUARD" compare --schema corpus/examples/tpch.sql $sr/tpch-histogram-cost_q20.sql
check "starrocks without a schema" 1 'kind-unsuitable\] tpch-histogram-cost_q22: RF1 at inner join #7: min_max on double' -- "$RFGUARD" lint --from starrocks $sr/tpch-histogram-cost_q22.sql
check "--from starrocks on SQL" 2 'seeds.sql:1:1: error: not StarRocks.s plan text' -- "$RFGUARD" lint --from starrocks corpus/examples/seeds.sql
# Trino's TPC-H plans (corpus/engines/trino, docs/trino.md): detected by
# content, each dynamic filter attributed to a join, conditions rebuilt,
# linted, compared, checked.
tr=corpus/engines/trino
check "trino lint tpch" 0 '^-- 21 files, 21 queries, 0 findings \(0 errors\)$' -- sh -c "\"$RFGUARD\" lint --schema $tr/tpch.sql $tr/*.plan.txt 2>/dev/null"
check "trino plan detected" 0 'Join #11 JOIN \[shuffle\] ON customer.nationkey = supplier.nationkey AND lineitem.suppkey = supplier.suppkey; RF2 <- supplier.suppkey' -- "$RFGUARD" plan --schema $tr/tpch.sql $tr/tpch_iceberg_unpartitioned_q05.plan.txt
check "trino filter through an equality" 0 'Scan #4 nation columns=\[nationkey, name, regionkey, comment\]; RF4 -> nation.nationkey; RF6 -> nation.regionkey' -- "$RFGUARD" plan --schema $tr/tpch.sql $tr/tpch_iceberg_unpartitioned_q05.plan.txt
check "trino lost filter said" 0 'dynamic filter acctbal::GREATER_THAN: its build side.s value is computed by an operator the plan does not print' -- "$RFGUARD" plan --schema $tr/tpch.sql $tr/tpch_iceberg_unpartitioned_q22.plan.txt
check "trino ambiguity said" 0 'ambiguous producer: dynamic filter nationkey_19::EQUAL may come from the joins at lines 27, 9, 8: attributed to the nearest \(line 27\)' -- "$RFGUARD" plan --schema $tr/tpch.sql $tr/tpch_iceberg_unpartitioned_q08.plan.txt
check "compare trino" 0 "^-- 21 queries: the engines placed 66 consumers, the sound profile 66 \\(66 both, 0 the engines' only, 0 sound only\\); the engines' profiles agree on 21 of 21$" -- sh -c "\"$RFGUARD\" compare --schema $tr/tpch.sql $tr/*.plan.txt 2>/dev/null"
# Join trees: rfguard's for the same TPC-H query beside the engine's.
check "compare join trees doris" 0 '^-- join trees: 23 compared with rfguard.s, 11 the same \(10 with the same build sides\)$' -- sh -c "\"$RFGUARD\" compare --schema corpus/examples/tpch.sql --queries corpus/examples/tpch.sql $dr/*.out 2>/dev/null"
check "compare join trees trino" 0 '^-- join trees: 21 compared with rfguard.s, 7 the same \(6 with the same build sides\)$' -- sh -c "\"$RFGUARD\" compare --schema $tr/tpch.sql --queries corpus/examples/tpch.sql $tr/*.plan.txt 2>/dev/null"
check "compare join tree printed" 0 '^    Trino:   \(\(customer JOIN \(lineitem JOIN orders\)\) JOIN nation\)$' -- "$RFGUARD" compare --schema $tr/tpch.sql --queries corpus/examples/tpch.sql $tr/tpch_iceberg_unpartitioned_q10.plan.txt
check "compare join tree json" 0 '"same_build_sides": true' -- "$RFGUARD" compare --format json --schema $tr/tpch.sql --queries corpus/examples/tpch.sql $tr/tpch_iceberg_unpartitioned_q13.plan.txt
# q13 with its RIGHT join turned LEFT: orders, filtered, is then the
# preserved side. lint flags it and check shows the wrong result.
sed 's/join (RIGHT, PARTITIONED)/join (LEFT, PARTITIONED)/' $tr/tpch_iceberg_unpartitioned_q13.plan.txt > "$tmp/q13left.plan.txt"
check "trino unsafe placement flagged" 1 'error \[producer-join-type\] q13left: RF1 at left join #3' -- "$RFGUARD" lint --schema $tr/tpch.sql "$tmp/q13left.plan.txt"
check "trino unsafe placement refuted" 1 '^RF1: UNSAFE at bound 1' -- "$RFGUARD" check --from trino --schema $tr/tpch.sql "$tmp/q13left.plan.txt"
check "trino real placement not refuted" 0 '^RF1: safe up to bound 2 over every value' -- "$RFGUARD" check --schema $tr/tpch.sql $tr/tpch_iceberg_unpartitioned_q13.plan.txt
printf 'join (INNER, PARTITIONED):\n   scan a\n' > "$tmp/bad.plan.txt"
check "trino malformed plan located" 2 'bad.plan.txt:2:4: error: indented by 3 spaces' -- "$RFGUARD" lint "$tmp/bad.plan.txt"
check "trino: bytes of no UTF-8 character" 2 'invalid_utf8.plan.txt:23:83: error: not valid UTF-8' -- "$RFGUARD" lint --from trino fuzz/regressions/trino_import/invalid_utf8.plan.txt
check "--from trino on SQL" 2 'seeds.sql:1:1: error: not Trino.s plan text' -- "$RFGUARD" lint --from trino corpus/examples/seeds.sql
# Profiles that crashed or escaped as internal errors: each a located input error.
rx=fuzz/regressions/duckdb_import
check "duckdb 5000 parentheses" 2 'conditions_5000_parentheses.json: error at /children/0/children/0/extra_info/Conditions: cannot read "\(+ \.\.\. \)+": expression nested more than 500 levels deep' -- "$RFGUARD" lint --from duckdb $rx/conditions_5000_parentheses.json
check "duckdb 10000 ANDs" 2 'error at /children/0/children/0/extra_info/Conditions: .*nested more than 500 levels deep' -- "$RFGUARD" lint --from duckdb $rx/conditions_10000_and.json
check "duckdb 10000 ORs" 2 'error at /children/0/children/0/extra_info/Conditions: .*nested more than 500 levels deep' -- "$RFGUARD" lint --from duckdb $rx/conditions_10000_or.json
check "duckdb 1e999" 2 'number_1e999.json:1:690: error: a JSON number out of range' -- "$RFGUARD" lint --from duckdb $rx/number_1e999.json
check "plan JSON 1e999 by pointer" 2 'error at /children/0/children/0/children/0/rows: malformed JSON at byte 690' -- "$RFGUARD" lint --from json $rx/number_1e999.json
check "duckdb #n out of range" 2 'column reference #99999999999 out of range' -- "$RFGUARD" lint --from duckdb $rx/reference_out_of_range.json
check "--from duckdb on SQL" 2 'seeds.sql:1:[0-9]+: error: not JSON' -- "$RFGUARD" lint --from duckdb corpus/examples/seeds.sql
check "--from json on a profile" 2 'error at ' -- "$RFGUARD" lint --from json $fx/right_join.json
check "--schema missing" 2 'cannot open' -- "$RFGUARD" lint --schema "$tmp/none.sql" $fx/right_join.json
if "$RFGUARD" duckdb run --scale 0.001 corpus/examples/ssb.sql >/dev/null 2>&1; then
  check "duckdb run ssb" 0 '1 file, 13 queries, 0 findings' -- "$RFGUARD" duckdb run --scale 0.01 corpus/examples/ssb.sql
  check "duckdb run shows plans" 0 '^-- q1.1 \(corpus/examples/ssb.sql:[0-9]+:1\): DuckDB v1.5.6, 1 rows' -- "$RFGUARD" duckdb run --scale 0.01 corpus/examples/ssb.sql
  check "duckdb run json" 0 '"format": "rfguard-lint"' -- "$RFGUARD" duckdb run --scale 0.01 --format json corpus/examples/ssb.sql
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['files'][0]['queries']) == 13" "$tmp/out" \
    && pass=$((pass + 1)) || { echo "FAIL duckdb run json: 13 queries"; fail=$((fail + 1)); }
  check "duckdb run save plans" 0 '' -- "$RFGUARD" duckdb run --scale 0.01 --save-plans "$tmp/plans" corpus/examples/ssb.sql
  check "saved profile re-lints" 0 '1 query, 0 findings' -- "$RFGUARD" lint --schema corpus/examples/ssb.sql "$tmp/plans/q2.1.json"
  echo "CREATE TABLE a (k int); SELECT * FROM a WHERE k = 'x' || ;" > "$tmp/bad.sql"
  check "duckdb run: rfguard's own error first" 2 'bad.sql:1:' -- "$RFGUARD" duckdb run "$tmp/bad.sql"
  printf "CREATE TABLE a (k int);\nSELECT k FROM a ORDER BY 1 LIMIT 1;\nSELECT * FROM a RIGHT SEMI JOIN a AS b ON a.k = b.k;\n" > "$tmp/refused.sql"
  check "duckdb run: DuckDB's refusal located" 2 'refused.sql:3:1: error: DuckDB: Parser Error' -- "$RFGUARD" duckdb run "$tmp/refused.sql"
  grep -q '1 file, 1 query, 0 findings (0 errors), 1 file with input errors' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL the query DuckDB ran is linted"; fail=$((fail + 1)); }
  # SELECT * over a join prints `k, v, k, v`: each name is the child's column at its place.
  printf "CREATE TABLE a (k int, v int) WITH (rows = 50);\nCREATE TABLE b (k int, v int) WITH (rows = 50);\nSELECT * FROM a JOIN b ON a.k = b.k ORDER BY a.v;\n" > "$tmp/star.sql"
  check "duckdb run: SELECT * over a join" 0 'Project #4 \[p4.0_k := a.k, p4.1_v := a.v, p4.2_k := b.k, p4.3_v := b.v\]' -- "$RFGUARD" duckdb run "$tmp/star.sql"
  if grep -q 'names 2 columns' "$tmp/err"; then echo "FAIL the qualified ORDER BY key is ambiguous"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
  # A query that explodes is interrupted at its time limit, an error at its position.
  printf "CREATE TABLE big (k int) WITH (rows = 20000);\nSELECT count(*) FROM big x, big y, big z;\n" > "$tmp/explode.sql"
  check "duckdb run: --timeout" 2 'explode.sql:2:1: error: DuckDB: the statement ran over its time limit of 0.5 s \(--timeout\) and was interrupted' -- "$RFGUARD" duckdb run --timeout 0.5 "$tmp/explode.sql"
  check "duckdb run: --memory-limit too small" 2 'memory-limit' -- "$RFGUARD" duckdb run --memory-limit 1 corpus/examples/ssb.sql
  check "duckdb run: bad threads" 2 '' -- "$RFGUARD" duckdb run --threads 0 corpus/examples/ssb.sql
  # DuckDB's profile shows no grouping sets: a ROLLUP imported as a plain GROUP BY is said so.
  printf "CREATE TABLE s (store int, qty int) WITH (rows = 50);\nSELECT store, var_pop(qty) FROM s GROUP BY ROLLUP(store);\n" > "$tmp/rollup.sql"
  check "duckdb run: ROLLUP lost in import is named" 0 'query1: not imported faithfully: the query groups by ROLLUP, CUBE or GROUPING SETS' -- "$RFGUARD" duckdb run "$tmp/rollup.sql"
  # DuckDB is opened on first use: a library that cannot be loaded is an error
  # of the commands that need it, and no other command notices.
  # Operators that print no columns: a VALUES list, a long IN list, a subtree
  # DuckDB proved empty. Each is imported (with a note) and linted.
  python3 -c "
print('CREATE TABLE a (k INT, v INT) WITH (rows = 2000); CREATE TABLE b (k INT NOT NULL, v INT) WITH (rows = 50);')
print('SELECT a.v FROM a, (VALUES (1, 2), (3, 4)) AS t(x, y) WHERE a.k = t.x AND a.v < t.y;')
print('SELECT count(*) FROM a WHERE a.k IN (' + ', '.join(str(i * 7) for i in range(200)) + ');')
print('SELECT a.k, b.v FROM a LEFT JOIN b ON a.k = b.k AND b.k IS NULL;')" > "$tmp/opaque.sql"
  check "duckdb run: VALUES, IN lists, empty results" 0 '^-- 1 file, 3 queries, 0 findings' -- "$RFGUARD" duckdb run "$tmp/opaque.sql"
  check "duckdb run: an empty result is no rows" 0 'imported as no rows of the columns the operator above reads \(k\)' -- "$RFGUARD" duckdb run "$tmp/opaque.sql"
  check "duckdb not loadable" 2 'cannot load DuckDB \(/nonexistent/libduckdb.so\): .*No such file' -- env RFGUARD_DUCKDB_LIBRARY=/nonexistent/libduckdb.so "$RFGUARD" duckdb run corpus/examples/ssb.sql
  check "oracle duckdb not loadable" 2 'oracle duckdb: cannot load DuckDB' -- env RFGUARD_DUCKDB_LIBRARY=/nonexistent/libduckdb.so "$RFGUARD" check --oracle duckdb corpus/examples/seeds.sql
  check "no DuckDB needed" 0 '0 findings' -- env RFGUARD_DUCKDB_LIBRARY=/nonexistent/libduckdb.so "$RFGUARD" lint corpus/examples/seeds.sql
  # DuckDB as the oracle: the same queries as SQLite, all agreeing with the evaluator.
  # (--seconds 600: the search ends by reaching bound 2, not by the clock, also
  # under ASan on a loaded machine.)
  check "equiv oracle duckdb" 0 'duckdb: 1518 queries, all agree' -- "$RFGUARD" equiv --no-proof --seconds 600 --oracle duckdb --schema $eq/schema.sql $eq/coalesce_original.sql $eq/coalesce_case.sql
  check "check oracle duckdb" 1 'duckdb: [0-9]+ queries, all agree' -- "$RFGUARD" check --oracle duckdb --oracle-databases 50 corpus/lint/coalesce_into_left_join.json
  check "check oracle duckdb json" 0 '"name":"DuckDB"' -- sh -c "\"$RFGUARD\" check --oracle duckdb --oracle-databases 20 --format json corpus/examples/seeds.sql | tr -d ' \n'"
  # The duckdb profile against DuckDB itself, on DuckDB's own join trees (one
  # thread, seed 1, scale 0.01): every difference has its reason.
  check "duckdb compare ssb" 0 '^-- 13 queries: 13 agree, 0 differ \(0 unexplained differences\), 0 unknown \(a dynamic filter lost in the import\); DuckDB printed 36 dynamic filters, 36 imported; DuckDB reported 36 consumers, the profile placed 36$' -- "$RFGUARD" duckdb compare corpus/examples/ssb.sql
  # q15's filter is lost with its join condition (a CTE's column names): unknown, never "0 = 0, agree".
  check "duckdb compare tpch" 0 '^-- 22 queries: 13 agree, 8 differ \(0 unexplained differences\), 1 unknown \(a dynamic filter lost in the import\); DuckDB printed 47 dynamic filters, 46 imported; DuckDB reported 46 consumers, the profile placed 77$' -- "$RFGUARD" duckdb compare corpus/examples/tpch.sql
  grep -q '^-- q15: DuckDB 0, profile 0, unknown: the import lost 1 scan.s dynamic filters$' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL q15 compares as unknown"; fail=$((fail + 1)); }
  # rfguard's join tree for each query beside DuckDB's executed one.
  grep -q "^-- join trees: 22 compared with rfguard's, 11 the same (9 with the same build sides)$" "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL duckdb join trees counted"; fail=$((fail + 1)); }
  grep -A3 '^-- q19: ' "$tmp/out" | grep -q "^  join tree: DuckDB's, the build side swapped at 1 of 1 joins$" && pass=$((pass + 1)) || { echo "FAIL duckdb join tree of q19"; fail=$((fail + 1)); }
  check "duckdb compare seeds" 0 '^-- 10 queries: 10 agree, 0 differ \(0 unexplained differences\)' -- "$RFGUARD" duckdb compare corpus/examples/seeds.sql
  # The differential run: a short fixed-seed run; its JSON holds every query
  # and every difference with both results and the lint of DuckDB's plan.
  "$RFGUARD" duckdb diff --queries 25 --seed 11 --big 20000 --format json --out "$tmp/diffs" > "$tmp/diff.json"
  code=$?
  python3 - "$tmp/diff.json" "$code" <<'PY' && pass=$((pass + 1)) || { echo "FAIL duckdb diff json"; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["engine"] == "v1.5.6" and d["seed"] == 11 and d["threads"] == 2
assert d["queries"] + d["refused"] == 25 and d["queries"] > 0
for x in d["differences"]:
    assert set(x) >= {"sql", "with_pushdown", "without_pushdown", "findings", "script"}
    assert x["with_pushdown"] != x["without_pushdown"]
# rfguard's evaluator: the same 25 queries over the tables of at most 2000
# rows, each run by rfguard as bound, normalised and filtered.
e = d["evaluator"]
assert e["max_rows"] == 2000
assert e["agree"] + e["disagree"] + e["declined"] == d["queries"]
assert e["declined"] == 0, e
# rfguard's evaluator is never the one that is wrong: where it disagrees with
# DuckDB (two threads: DuckDB's filters race its scans), DuckDB without its
# pushdown gives rfguard's rows.
for x in e["disagreements"]:
    assert x["without_pushdown"]["verdict"] == "agrees", x
for x in d["differences"]:
    assert x["evaluator"]["verdict"] in ("agrees", "disagrees", "declined")
assert int(sys.argv[2]) == (1 if d["differences"] or e["disagreements"] else 0)
PY
  # One thread: DuckDB runs its pipelines in one order, and the counts are exact.
  check "duckdb diff evaluator off" 0 '0 differences$' -- sh -c "\"$RFGUARD\" duckdb diff --threads 1 --queries 5 --seed 2 --big 5000 --evaluator-rows 0 | tail -1"
  check "duckdb diff evaluator text" 0 "rfguard's evaluator on the same queries over the tables of at most 200 rows: 10 agree, 0 disagree, 0 declined" -- "$RFGUARD" duckdb diff --threads 1 --queries 10 --seed 2 --big 5000 --evaluator-rows 200
  check "duckdb compare json" 0 '"unexplained": 0' -- "$RFGUARD" duckdb compare --format json corpus/examples/ssb.sql
  grep -q '"same_build_sides": 4' "$tmp/out" && pass=$((pass + 1)) || { echo "FAIL duckdb compare json join trees"; fail=$((fail + 1)); }
else
  echo "FAIL: this rfguard cannot run DuckDB"; fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
