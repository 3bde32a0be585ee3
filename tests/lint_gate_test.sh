#!/usr/bin/env bash
# lint as a CI gate (issue 47): baselines that count and fingerprints that
# identify a finding by what it is about, files a hook passes that are no
# plans, paths in each report format, the rules' help, escaped input bytes,
# suppression comments, "did you mean", summaries, and the docs that promise
# each of these. Run from the source folder: lint_gate_test.sh path/to/rfguard
set -u
RFGUARD=${1:?usage: lint_gate_test.sh path/to/rfguard}
. "$(dirname "$0")/cli_lib.sh"
src=$PWD

four_tables='CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);
CREATE TABLE d (k int, v int);'
two_findings='SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k'

# 1. A new unsafe filter that reads like a baselined one is new: the baseline
# absorbs the two findings it recorded, not the two the JOIN d adds.
mkdir -p "$tmp/b1" && cd "$tmp/b1" || exit 2
printf '%s\n-- name: q1\n%s;\n' "$four_tables" "$two_findings" > q.sql
check "baseline recorded" 0 '' -- "$RFGUARD" lint --no-config --profile starrocks --write-baseline base.json q.sql
check "baseline version 2" 0 '"version": 2' -- cat base.json
printf '%s\n-- name: q1\n%s JOIN d ON b.k <=> d.k;\n' "$four_tables" "$two_findings" > q.sql
check "without the baseline: 4" 1 '^-- 1 file, 1 query, 4 findings \(4 errors\)$' -- "$RFGUARD" lint --no-config --profile starrocks q.sql
check "with it: the 2 new ones" 1 '^-- 1 file, 1 query, 2 findings \(2 errors\), 2 in the baseline$' -- "$RFGUARD" lint --no-config --profile starrocks --baseline base.json q.sql
ok "the new ones are d's filter (RF1 now)" test "$(grep -c '^q.sql:.* q1: RF1 ' "$tmp/out")" -eq 2
# An entry absorbs one finding: the same query twice brings its second copy's.
printf '%s\n%s;\n' "$four_tables" "$two_findings" > q.sql
"$RFGUARD" lint --no-config --profile starrocks --write-baseline base.json q.sql > /dev/null
printf '%s\n%s;\n%s;\n' "$four_tables" "$two_findings" "$two_findings" > q.sql
check "a baseline counts" 1 '^-- 1 file, 2 queries, 2 findings \(2 errors\), 2 in the baseline$' -- "$RFGUARD" lint --no-config --profile starrocks --baseline base.json q.sql
check "gitlab fingerprints distinct" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --format gitlab q.sql
ok "gitlab: 4 issues, 4 fingerprints" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==4 and len({x['fingerprint'] for x in d})==4, d" "$tmp/out"
check "sarif fingerprints distinct" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --format sarif q.sql
ok "sarif: 4 results, 4 fingerprints" python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]['results']; assert len({x['partialFingerprints']['rfguardFinding/v2'] for x in r})==4" "$tmp/out"

# 2. An unnamed query is known by its text: a query inserted above it, or a
# reformatting, keeps its findings in the baseline.
printf '%s\n%s;\n' "$four_tables" "$two_findings" > q.sql
"$RFGUARD" lint --no-config --profile starrocks --write-baseline base.json q.sql > /dev/null
printf '%s\nSELECT * FROM a;\n-- the same query, laid out otherwise\n%s\n ;\n' "$four_tables" "$(echo "$two_findings" | sed 's/ JOIN c/\n  JOIN c/')" > q.sql
check "an inserted query changes nothing" 0 '^-- 1 file, 2 queries, 0 findings \(0 errors\), 2 in the baseline$' -- "$RFGUARD" lint --no-config --profile starrocks --baseline base.json q.sql
printf '{"format": "rfguard-baseline", "version": 3, "findings": []}\n' > v3.json
check "a baseline of an unknown version" 2 'v3.json: error at /version: expected 1 or 2' -- "$RFGUARD" lint --no-config --baseline v3.json q.sql

# 3. JSON that is no plan, named by a hook or found by a walk, is skipped with a
# note; a file that claims to be a plan and is malformed is still an error.
mkdir -p "$tmp/b3/sub" && cd "$tmp/b3" || exit 2
printf '%s\n%s;\n' "$four_tables" "$two_findings" > sub/q.sql
echo '{"name": "app", "version": "1.0.0"}' > package.json
echo '[1, 2]' > sub/list.json
check "package.json named" 0 'package.json: note: JSON without a plan.s "format": "rfguard-plan": not linted' -- "$RFGUARD" lint --no-config package.json
check "not counted as a file" 0 '^-- 0 files, 0 queries, 0 findings' -- "$RFGUARD" lint --no-config package.json sub/list.json
check "a walk skips them" 0 '^-- 1 file, 1 query, 0 findings' -- "$RFGUARD" lint --no-config .
grep -q 'sub/list.json: note: JSON that is no plan document (not an object): not linted' "$tmp/err" \
  && pass=$((pass + 1)) || { echo "FAIL the walk's skip note"; fail=$((fail + 1)); }
printf '{"format": "rfguard-plan", "version": 1, ' > cut.json
check "a malformed plan is an error" 2 'cut.json: error at /: malformed JSON' -- "$RFGUARD" lint --no-config cut.json package.json
check "--from json reads every file as a plan" 2 'package.json: error at /name: unknown field' -- "$RFGUARD" lint --no-config --from json package.json
# exclude applies to files named on the command line (a hook names them all).
check "exclude on a named file" 0 'sub/q.sql: note: excluded \(--exclude or exclude in .rfguard.toml\): not linted' -- "$RFGUARD" lint --no-config --profile starrocks --exclude 'q.sql' sub/q.sql
printf 'exclude = ["q.sql"]\nprofile = "starrocks"\n' > .rfguard.toml
check "exclude from the config" 0 '^-- 0 files' -- "$RFGUARD" lint sub/q.sql
rm .rfguard.toml

# 4. A profile from .rfguard.toml is silent on plans that carry their filters.
mkdir -p "$tmp/b4" && cp "$src/corpus/lint/coalesce_into_left_join.json" "$tmp/b4/" && cd "$tmp/b4" || exit 2
printf 'profile = "starrocks"\n' > .rfguard.toml
check "config profile, plan JSON only" 1 '^-- 1 file, 1 query, 1 finding' -- "$RFGUARD" lint coalesce_into_left_join.json
! grep -q -- '--profile' "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL a config profile blamed as --profile"; fail=$((fail + 1)); }
check "the command line's profile is still refused" 2 '--profile starrocks applies to plans rfguard places' -- "$RFGUARD" lint --profile starrocks coalesce_into_left_join.json

# 8. Paths as each format wants them: GitLab a plain path, SARIF a URI.
mkdir -p "$tmp/b8/dir with space" && cd "$tmp/b8/dir with space" || exit 2
printf '%s\n%s;\n' "$four_tables" "$two_findings" > "q one.sql"
check "gitlab path" 1 '"path": "q one.sql"' -- "$RFGUARD" lint --no-config --profile starrocks --format gitlab "q one.sql"
check "sarif" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --format sarif "q one.sql"
cp "$tmp/out" "$tmp/space.sarif"
ok "sarif URIs percent-encoded" python3 - "$tmp/space.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert root.startswith("file:///") and root.endswith("/dir%20with%20space/") and " " not in root, root
assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "q%20one.sql"
PY

# 9. Each rule's whole help in SARIF and from `rfguard rule`; links only to a
# published copy of the docs. The output validates against SARIF 2.1.0.
cd "$src" || exit 2
check "sarif without --docs-url" 1 '' -- "$RFGUARD" lint --no-config --profile starrocks --format sarif corpus/examples/seeds.sql
cp "$tmp/out" "$tmp/plain.sarif"
ok "sarif help, no dead links" python3 - "$tmp/plain.sarif" <<'PY'
import json, sys
driver = json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]
assert "informationUri" not in driver
for r in driver["rules"]:
    assert "helpUri" not in r, r["id"]
    md = r["help"]["markdown"]
    assert md.startswith("## " + r["id"] + "\n") and "Fix" in md, r["id"]
    assert "```" not in r["help"]["text"]
PY
check "sarif with --docs-url" 2 '' -- "$RFGUARD" lint --no-config --format sarif --docs-url https://example.org/rfguard/ "$tmp/b3/cut.json" corpus/lint/coalesce_into_left_join.json
cp "$tmp/out" "$tmp/linked.sarif"
check "sarif of a clean run" 0 '' -- "$RFGUARD" lint --no-config --format sarif corpus/examples/tpch.sql
cp "$tmp/out" "$tmp/clean.sarif"
ok "SARIF 2.1.0 schema" python3 - "$tmp" <<'PY'
import json, sys, jsonschema
schema = json.load(open("schemas/vendor/sarif-2.1.0-rtm.5.json"))
v = jsonschema.Draft4Validator(schema)
for f in ("plain", "linked", "clean", "space"):
    doc = json.load(open(sys.argv[1] + "/" + f + ".sarif"))
    errors = list(v.iter_errors(doc))
    assert not errors, (f, [e.message for e in errors[:3]])
linked = json.load(open(sys.argv[1] + "/linked.sarif"))["runs"][0]["tool"]["driver"]
assert linked["informationUri"] == "https://example.org/rfguard/"
assert all(r["helpUri"] == "https://example.org/rfguard/findings.md#" + r["id"] for r in linked["rules"])
PY
check "rule explains a code" 0 '^Fix: ' -- "$RFGUARD" rule unsafe-null-generating-side
grep -q '^unsafe-null-generating-side$' "$tmp/out" && grep -q '^    Join #5 JOIN ON coalesce(b.k, 0) = c.k' "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL rule: heading and the bad example"; fail=$((fail + 1)); }
check "rule --list" 0 '^unsafe-equality-copy	error	' -- "$RFGUARD" rule --list
ok "rule --list: every code" test "$(wc -l < "$tmp/out")" -eq "$(grep -c '^## ' docs/findings.md)"
check "rule json" 0 '"markdown": "## producer-join-type' -- "$RFGUARD" rule --format json producer-join-type
check "rule: a typo" 2 'no finding code "unsafe-equality-cpy"; did you mean "unsafe-equality-copy"\?' -- "$RFGUARD" rule unsafe-equality-cpy
check "rule: nothing asked" 2 'give a finding code, or --list' -- "$RFGUARD" rule

# 10. Input bytes a terminal acts on are escaped in error context.
printf 'CREATE TABLE t (a int);\nSELECT a \033[31mFROM t;\n' > "$tmp/esc.sql"
check "escape sequence shown escaped" 2 '^  SELECT a \\x1b\[31mFROM t;$' -- "$RFGUARD" plan "$tmp/esc.sql"
! grep -q "$(printf '\033')" "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL a raw ESC byte on stderr"; fail=$((fail + 1)); }
printf 'SELECT 1 \001\002 FROM\n' > "$tmp/ctl.sql"
check "control bytes shown escaped" 2 '\\x01\\x02' -- "$RFGUARD" plan "$tmp/ctl.sql"

# 11. Suppressions: block comments, the same-line form, malformed ones reported.
cat > "$tmp/sup.sql" <<'SQL'
CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);
/* rfguard-disable-next-line unsafe-null-generating-side, unsafe-equality-copy */
SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k;
SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k; -- rfguard-disable-line unsafe-null-generating-side, unsafe-equality-copy
-- rfguard-disable-nextline unsafe-equality-copy
SELECT '-- rfguard-disable-line x' AS s;
-- rfguard-disable-line unsafe-equality-cpy
SQL
check "suppression forms" 1 '^-- 1 file, 3 queries, 2 findings \(0 errors\), 4 suppressed$' -- "$RFGUARD" lint --no-config --profile starrocks "$tmp/sup.sql"
grep -q 'sup.sql:7:1: warning \[unused-suppression\] a malformed suppression: `rfguard-disable-nextline` is none of' "$tmp/out" \
  && grep -q 'sup.sql:9:1: warning \[unused-suppression\] `unsafe-equality-cpy` names no finding code; did you mean "unsafe-equality-copy"?' "$tmp/out" \
  && pass=$((pass + 1)) || { echo "FAIL malformed suppressions reported"; fail=$((fail + 1)); }

# 12. "Did you mean" for commands, options, rule names, config keys and codes,
# and keywords.
check "command typo" 2 'unknown command "lnt"; did you mean "lint"\?' -- "$RFGUARD" lnt x.sql
check "option typo" 2 'rfguard lint: unknown option --formt; did you mean "--format"\?' -- "$RFGUARD" lint --formt json x.sql
check "rule name typo" 2 'unknown rule SimplifyOuterJoins in --disable; did you mean "SimplifyOuterJoin"\?' -- "$RFGUARD" plan --disable SimplifyOuterJoins corpus/examples/seeds.sql
printf 'profil = "starrocks"\n' > "$tmp/k1.toml"
check "config key typo" 2 'k1.toml:1:10: error: unknown key `profil`; did you mean "profile"\?' -- "$RFGUARD" lint --config "$tmp/k1.toml" corpus/examples/seeds.sql
printf '[codes]\ndisable = ["unsafe-null-generating-sid"]\n' > "$tmp/k2.toml"
check "config code typo" 2 'no finding code "unsafe-null-generating-sid"; did you mean "unsafe-null-generating-side"\?' -- "$RFGUARD" lint --config "$tmp/k2.toml" corpus/examples/seeds.sql
printf 'from = "dorris"\n' > "$tmp/k3.toml"
check "config from typo" 2 'from must be one of auto, sql, json, duckdb, doris, starrocks, trino; did you mean "doris"\?' -- "$RFGUARD" lint --config "$tmp/k3.toml" corpus/examples/seeds.sql
printf 'CREATE TABLE t (a int);\nSELEC a FROM t;\n' > "$tmp/kw1.sql"
check "keyword typo" 2 "kw1.sql:2:1: error: syntax error at 'SELEC'; did you mean \"SELECT\"\?" -- "$RFGUARD" plan "$tmp/kw1.sql"
printf 'CREATE TABLE t (a int);\nSELECT a FORM t;\n' > "$tmp/kw2.sql"
check "keyword typo taken for an alias" 2 '"FORM" is no keyword; did you mean "FROM"\?' -- "$RFGUARD" plan "$tmp/kw2.sql"

# 14. Rough edges: a missing config, --show-rules with another format, check's
# summary, --compare's columns, "~1 row".
check "missing config" 2 'missing.toml: error: cannot open: No such file or directory' -- "$RFGUARD" lint --config "$tmp/missing.toml" corpus/examples/seeds.sql
! grep -q '0:0' "$tmp/err" && pass=$((pass + 1)) || { echo "FAIL a missing config at 0:0"; fail=$((fail + 1)); }
check "--show-rules with json" 2 '--show-rules adds the rules that fired to the text plan; it has no json form' -- "$RFGUARD" plan --show-rules --format json corpus/examples/seeds.sql
check "check summary" 1 '^-- 1 file, 10 queries, 10 checks: 3 safe, 1 unsafe, 6 with nothing placed$' -- "$RFGUARD" check --profile starrocks corpus/examples/seeds.sql
check "check summary json" 1 '"nothing_placed": 6' -- "$RFGUARD" check --profile starrocks --format json corpus/examples/seeds.sql
check "compare columns" 0 '' -- "$RFGUARD" plan --compare corpus/examples/tpch.sql
ok "compare: a query's counts end in one column" python3 - "$tmp/out" <<'PY'
import re, sys
ends = {}
query = None
for line in open(sys.argv[1]):
    if line.startswith("-- "):
        query = line
    m = re.match(r"^  (\S+)( +)(\d+)", line)
    if m:
        ends.setdefault(query, set()).add(len(m.group(1)) + len(m.group(2)) + len(m.group(3)))
assert ends and all(len(e) == 1 for e in ends.values()), ends
PY
printf 'CREATE TABLE f (k int) WITH (rows = 1);\nSELECT * FROM f;\n' > "$tmp/one.sql"
check "one row" 0 'Scan #[0-9]+ \(~1 row\) f' -- "$RFGUARD" plan "$tmp/one.sql"

# 15. An engine's import notes: one line per kind, --verbose for each.
dr=corpus/engines/doris
check "import notes summarised" 0 '\(and 32 more like it: --verbose lists each\)$' -- "$RFGUARD" lint --schema corpus/examples/tpch.sql $dr/*.out
ok "a few lines, not 46" test "$(grep -c ': note' "$tmp/err")" -lt 10
check "import notes verbose" 0 '' -- "$RFGUARD" lint --verbose --schema corpus/examples/tpch.sql $dr/*.out
ok "verbose: each of the 46" test "$(grep -c ': note' "$tmp/err")" -eq 46

# 16. The docs say what the tool does.
check "lint help" 0 '' -- "$RFGUARD" lint --help
ok "the synopsis names every option" python3 - "$tmp/out" <<'PY'
import re, sys
synopsis = open("docs/lint.md").read().split("```")[1]
options = set(re.findall(r"^  (?:-\w, )?(--[a-z-]+)", open(sys.argv[1]).read(), re.M)) - {"--help"}
missing = [o for o in options if o not in synopsis]
assert not missing, missing
for fmt in ("text", "json", "sarif", "gitlab"):
    assert fmt in synopsis, fmt
PY
ok "docs/ci.md pins the version rfguard reports" grep -q "rev: v$("$RFGUARD" --version | cut -d' ' -f2)\$" docs/ci.md
! grep -q 'make install\([^-]\|$\)' .pre-commit-hooks.yaml docs/*.md README.md && pass=$((pass + 1)) || { echo "FAIL a make install that does not exist"; fail=$((fail + 1)); }
check "json: errors on a clean file" 0 '' -- "$RFGUARD" lint --no-config --format json corpus/examples/seeds.sql
ok "files[].errors, findings, suppressed always there" python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['files'][0]; assert f['errors']==[] and f['findings']==[] and f['suppressed']==0, f" "$tmp/out"
printf 'CREATE TABLE f (k int) WITH (rows = 25);\nCREATE TABLE g (k int) WITH (rows = 5);\nSELECT * FROM f JOIN g ON f.k = g.k;\n' > "$tmp/in.sql"
check "in filter for a 5-row build side by statistics" 0 'RF1 <- g.k \(f.k =, in\+min_max, global\)' -- "$RFGUARD" plan "$tmp/in.sql"
sed 's/ WITH (rows = [0-9]*)//' "$tmp/in.sql" > "$tmp/nostats.sql"
check "bloom without statistics" 0 'RF1 <- g.k \(f.k =, bloom\+min_max, global\)' -- "$RFGUARD" plan "$tmp/nostats.sql"

# 17, 18. The demo builds the executable only; containers and CI caches use it.
ok "make demo builds the executable only" grep -q '^demo: build-cli$' Makefile
ok "build-cli builds one target" grep -q -- '--target rfguard$' Makefile
ok "the image builds from Debian 12 with install-cli" sh -c "grep -q '^FROM debian:12' examples/ci/Dockerfile && grep -q 'make -C /src install-cli' examples/ci/Dockerfile"
ok "the workflow caches the build by rfguard's commit" python3 - <<'PY'
import yaml
steps = yaml.safe_load(open("examples/ci/github-actions.yml"))["jobs"]["lint-plans"]["steps"]
cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
assert "steps.rfguard.outputs.commit" in cache["with"]["key"], cache
build = next(s for s in steps if s.get("name") == "Build rfguard")
assert build["if"] == "steps.cache.outputs.cache-hit != 'true'" and "install-cli" in build["run"]
PY

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
