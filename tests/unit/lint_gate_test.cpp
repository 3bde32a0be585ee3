// lint as a CI gate (issue 47): suppression comments, fingerprints that
// identify a finding by what it is about, baselines that count, import notes
// by kind, escaped input bytes, keyword typos and the rules' help.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "grammar/sql.h"
#include "ir/diagnostics.h"
#include "tools/cli/input_options.h"
#include "tools/cli/lint_policy.h"
#include "tools/cli/rule_help.h"
#include "verifier/findings.h"

using namespace rfguard;

namespace {

LintResult result(const std::string& code, const std::string& file, const std::string& query,
                  const std::string& message, const std::string& anchor = "") {
  LintResult r;
  r.finding = makeFinding(code, message, 1, {}, {});
  r.site.file = file;
  r.query = query;
  r.anchor = anchor;
  return r;
}

}  // namespace

TEST_CASE("suppression comments: three forms, both comment kinds, malformed ones kept") {
  const std::string sql =
      "-- rfguard-disable-next-line unsafe-equality-copy, unsafe-null-generating-side\n"  // 1
      "SELECT 1; -- rfguard-disable-line producer-join-type\n"                            // 2
      "/* rfguard-disable-next-line target-not-derivable */\n"                            // 3
      "/* rfguard-disable-line\n   producer-join-type */ SELECT '-- rfguard-disable-file "
      "x';\n"                                                 // 4-5
      "-- rfguard-disable-nextline producer-join-type\n"      // 6
      "-- rfguard-disable-file\n"                             // 7
      "-- rfguard-disable-file a b\n"                         // 8
      "-- an ordinary comment about rfguard-disable-file\n";  // 9
  auto ds = parseDirectives("q.sql", sql);
  REQUIRE(ds.size() == 7);
  CHECK(ds[0].scope == Directive::Scope::NextLine);
  CHECK(ds[0].codes ==
        std::vector<std::string>{"unsafe-equality-copy", "unsafe-null-generating-side"});
  CHECK(ds[0].covers(2));
  CHECK(!ds[0].covers(1));
  CHECK(ds[1].scope == Directive::Scope::SameLine);
  CHECK(ds[1].covers(2));
  CHECK(!ds[1].covers(3));
  CHECK(ds[2].line == 3);
  CHECK(ds[2].covers(4));
  // A block comment over lines 4 and 5: its own lines are both.
  CHECK(ds[3].line == 4);
  CHECK(ds[3].lastLine == 5);
  CHECK(ds[3].covers(4));
  CHECK(ds[3].covers(5));
  CHECK(!ds[3].covers(6));
  CHECK(ds[3].malformed.empty());
  // The string on line 5 holds no comment.
  CHECK(ds[4].line == 6);
  CHECK(ds[4].malformed.find("`rfguard-disable-nextline` is none of") == 0);
  CHECK(ds[5].malformed.find("names no code") != std::string::npos);
  CHECK(ds[6].malformed.find("separated by commas") != std::string::npos);
}

TEST_CASE("a query named by its position is known by its normalised text") {
  Query a;
  a.name = "query2";
  a.namedByPosition = true;
  a.sql = "SELECT *\n  FROM a -- all of it\n  WHERE a.k = 'X  y';";
  Query b = a;
  b.name = "query7";
  b.sql = "select * /* moved */ from A where a.k = 'X  y'";
  CHECK(queryKey(a) == queryKey(b));
  CHECK(queryKey(a) == "sql:select * from a where a.k = 'X  y'");
  Query c = b;
  c.sql = "select * from a where a.k = 'x  y'";  // a different constant
  CHECK(queryKey(c) != queryKey(b));
  Query named = a;
  named.namedByPosition = false;
  CHECK(queryKey(named) == "query2");
}

TEST_CASE("fingerprints: distinct per finding, and a baseline entry absorbs one finding") {
  std::vector<LintFile> files(1);
  files[0].path = "q.sql";
  files[0].queries = {"q"};
  auto same = result("unsafe-equality-copy", "q.sql", "q", "RF1 -> a.k at scan #4: copied",
                     "at inner join: a.k = b.k; to scan a: a.k; path");
  auto other = same;
  other.anchor = "at inner join: a.k = d.k; to scan a: a.k; path";
  other.finding.message = "RF7 -> a.k at scan #9: copied";  // the same message shape
  files[0].results = {same, same, other};
  assignFingerprints(files);
  std::set<std::string> prints;
  for (const auto& r : files[0].results) prints.insert(r.fingerprint);
  CHECK(prints.size() == 3);
  // A baseline written when there was one such finding absorbs one of two.
  LintPolicy policy;
  policy.baseline[files[0].results[0].fingerprint] = 1;
  std::vector<LintFile> run = files;
  for (auto& r : run[0].results) r.fingerprint.clear();
  applyLintPolicy(run, policy, {{"q.sql", "SELECT 1;"}}, {});
  CHECK(run[0].baselined == 1);
  CHECK(run[0].results.size() == 2);
  // A version 1 baseline (message shape) still reads, and counts too.
  LintPolicy legacy;
  legacy.legacyBaseline = true;
  legacy.baseline[legacyFingerprint(same)] = 1;
  std::vector<LintFile> again = files;
  applyLintPolicy(again, legacy, {{"q.sql", "SELECT 1;"}}, {});
  CHECK(again[0].baselined == 1);  // `other` has the same message shape: once only
  CHECK(again[0].results.size() == 2);
}

TEST_CASE("the anchor names the producer's filter, the consumer and the path") {
  Catalog catalog;
  std::vector<Query> queries;
  Diagnostics diags;
  REQUIRE(
      loadSql("CREATE TABLE a (k int, v int); CREATE TABLE b (k int, v int);"
              "SELECT * FROM a JOIN b ON a.k = b.k WHERE a.v > 1;",
              "q.sql", catalog, queries, diags));
  REQUIRE(queries.size() == 1);
  CHECK(queries[0].namedByPosition);
  // Find the join and the scan of a in the bound plan, by walking it.
  const PlanNode* join = nullptr;
  const PlanNode* scanA = nullptr;
  forEachNode(*queries[0].plan, [&](const PlanNode& n) {
    if (n.op == PlanOp::Join) join = &n;
    if (n.op == PlanOp::Scan && n.table == "a") scanA = &n;
  });
  REQUIRE(join);
  REQUIRE(scanA);
  Finding f = makeFinding("target-not-derivable", "m", 1, {join->id, scanA->id}, {});
  const std::string anchor = findingAnchor(*queries[0].plan, f);
  CHECK(anchor.rfind("at inner join; to scan a; path", 0) == 0);
  CHECK(anchor.find('#') == std::string::npos);  // no node numbers
  CHECK(findingAnchor(*queries[0].plan, makeFinding("target-not-derivable", "m", 1, {}, {})) == "");
}

TEST_CASE("import notes of one cause share a kind") {
  CHECK(importNoteKind("hashAgg prints neither its group keys nor its aggregates: grouped by the "
                       "1 columns the operators above name (l_orderkey), with the 0 aggregates "
                       "they read") ==
        importNoteKind("hashAgg prints neither its group keys nor its aggregates: grouped by the "
                       "0 columns the operators above name, with the 2 aggregates they read"));
  CHECK(importNoteKind("projection \"o_year\": DuckDB printed only its alias") ==
        importNoteKind("projection \"revenue\": DuckDB printed only its alias"));
  CHECK(importNoteKind("projection \"o_year\": DuckDB printed only its alias") !=
        importNoteKind("first(): any value of the group, imported as min()"));
}

TEST_CASE("input bytes a terminal would act on are escaped in error context") {
  Diagnostics diags;
  diags.error("e.sql", {1, 8}, "syntax error at 'x'");
  const std::string text = std::string("SELECT \x1b[31mx FROM t;") + "\n";
  const std::string shown = renderErrors(diags, {{"e.sql", text}});
  CHECK(shown.find('\x1b') == std::string::npos);
  CHECK(shown.find("  SELECT \\x1b[31mx FROM t;\n") != std::string::npos);
  // The caret stays under column 8, the escape's first character.
  CHECK(shown.find("\n" + std::string(9, ' ') + "^\n") != std::string::npos);
  // Messages escape C1 controls and DEL as well.
  CHECK(oneLine("a\xc2\x9b"
                "b\x7f") == "a\\xc2\\x9bb\\x7f");
}

TEST_CASE("a mistyped keyword gets the keyword") {
  Catalog catalog;
  std::vector<Query> queries;
  Diagnostics diags;
  CHECK(!loadSql("CREATE TABLE t (a int);\nSELEC a FROM t;", "k.sql", catalog, queries, diags));
  CHECK(diags.render().find("did you mean \"SELECT\"?") != std::string::npos);
  Diagnostics again;
  CHECK(!loadSql("CREATE TABLE t (a int);\nSELECT a FORM t;", "k.sql", catalog, queries, again));
  CHECK(again.render().find("\"FORM\" is no keyword; did you mean \"FROM\"?") != std::string::npos);
}

TEST_CASE("every finding code has its help compiled in") {
  for (const auto& c : findingCodes()) {
    CAPTURE(c.id);
    auto md = ruleHelpMarkdown(c.id);
    REQUIRE(md);
    CHECK(md->rfind(std::string("## ") + c.id + "\n", 0) == 0);
    CHECK(md->find("\n## ") == std::string::npos);  // one section only
    const std::string text = markdownAsText(*md);
    CHECK(text.find("```") == std::string::npos);
    CHECK(text.find("**") == std::string::npos);
  }
  CHECK(!ruleHelpMarkdown("no-such-code"));
}
