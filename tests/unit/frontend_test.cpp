// Types, the binder's errors, normalisation invariants and the JSON round trip.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "rules/normalize.h"
#include "tests/unit/frontend_test_support.h"

using namespace rfguard;
using namespace rfguard::frontend_testing;

TEST_CASE("type names parse and print canonically") {
  CHECK(parseType("INTEGER")->toString() == "int");
  CHECK(parseType("decimal(15,2)")->toString() == "decimal(15,2)");
  CHECK(parseType("varchar(25)")->toString() == "varchar(25)");
  CHECK(parseType("float")->kind == TypeKind::Double);
  CHECK(parseType("string")->kind == TypeKind::Text);
  CHECK_FALSE(parseType("decimal(2,5)").has_value());
  CHECK_FALSE(parseType("int(3)").has_value());
  CHECK_FALSE(parseType("blob").has_value());
  CHECK_FALSE(parseType("decimal(1,2,3)").has_value());
  CHECK(Type::of(TypeKind::Double).isFloating());
  CHECK(Type::of(TypeKind::Boolean).isOrdered());  // false < true
  CHECK_FALSE(Type::of(TypeKind::Interval).isOrdered());
}

TEST_CASE("binder errors name file:line:col") {
  CHECK(firstError("SELECT nosuch FROM a") == "t.sql:2:8: error: unknown column \"nosuch\"");
  CHECK(firstError("SELECT k FROM a, b") ==
        "t.sql:2:8: error: column reference \"k\" is ambiguous (a.k, b.k)");
  CHECK(firstError("SELECT * FROM zz") == "t.sql:2:15: error: unknown table \"zz\"");
  CHECK(firstError("SELECT k FROM a UNION SELECT k, v FROM b") ==
        "t.sql:2:17: error: union needs the same number of columns on both sides, got 1 and 2");
  CHECK(firstError("SELECT b.d * 2 FROM b") ==
        "t.sql:2:8: error: operator * cannot take date and int");
  // date + integer counts days, for an integer constant only.
  CHECK(firstError("SELECT b.d + 1 FROM b") == "");
  CHECK(firstError("SELECT b.d - b.k FROM b") ==
        "t.sql:2:14: error: date - integer needs an integer constant (a number of days)");
  CHECK(firstError("SELECT k FROM a WHERE") ==
        "t.sql:2:22: error: syntax error: unexpected end of statement");
}

TEST_CASE("UTF-8 is checked against Unicode's well-formed byte sequences") {
  auto literal = [](const std::string& bytes) { return "SELECT '" + bytes + "' AS s FROM a"; };
  // Well formed: the boundaries of each row of Unicode's table 3-7.
  for (const char* ok : {"\x7F", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF",
                         "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
    INFO(ok);
    CHECK(load(literal(ok)).ok);
  }
  // Ill formed: overlong forms, surrogates, above U+10FFFF, stray and cut bytes.
  for (const char* bad :
       {"\xC0\xAF", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xED\xBF\xBF", "\xF0\x8F\xBF\xBF",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF6\xAC\xBA\xBB", "\xFF", "\x80", "\xE2\x82"}) {
    INFO(bad);
    CHECK(firstError(literal(bad)) == "t.sql:2:9: error: input is not valid UTF-8 text (byte 87)");
    // A message quoting such bytes (a JSON parser's excerpt) is escaped, so
    // that the JSON and SARIF writers can write it.
    CHECK(oneLine(std::string("x") + bad + "y").find("\\x") != std::string::npos);
  }
  CHECK(oneLine(std::string("caf\xC3\xA9 \xCC\0!", 9)) == "caf\xC3\xA9 \\xcc\\x00!");
  // The first bad byte, wherever it falls among the ASCII bytes read eight at
  // a time, and after a well-formed character (one column, two bytes).
  for (int at = 0; at < 24; ++at) {
    std::string text(24, 'x');
    text[static_cast<size_t>(at)] = '\xFF';
    INFO(at);
    CHECK(firstError(literal(text)) == "t.sql:2:" + std::to_string(9 + at) +
                                           ": error: input is not valid UTF-8 text (byte " +
                                           std::to_string(87 + at) + ")");
    CHECK(firstError(literal("\xC3\xA9" + text)) ==
          "t.sql:2:" + std::to_string(10 + at) + ": error: input is not valid UTF-8 text (byte " +
              std::to_string(89 + at) + ")");
    CHECK(load(literal(std::string(static_cast<size_t>(at), 'x') + "\xC3\xA9")).ok);
  }
}

TEST_CASE("ORDER BY and GROUP BY positions outside the select list are errors, not crashes") {
  CHECK(firstError("SELECT k FROM a ORDER BY 0") ==
        "t.sql:2:26: error: ORDER BY position 0 is not in the select list");
  CHECK(firstError("SELECT k FROM a ORDER BY 1, 0 DESC") ==
        "t.sql:2:29: error: ORDER BY position 0 is not in the select list");
  CHECK(firstError("SELECT k FROM a GROUP BY 12345678901234567890") ==
        "t.sql:2:26: error: GROUP BY position 12345678901234567890 is not in the select list");
}

TEST_CASE("nesting past the limit is refused at its token, lexed directly or by ANTLR's lexer") {
  // The 129th parenthesis opens level 129; ASCII text is lexed directly, text
  // with a non-ASCII character (here in a comment) by the generated lexer.
  const std::string deep =
      "SELECT k FROM a WHERE " + std::string(200, '(') + "k = 1" + std::string(200, ')');
  CHECK(firstError(deep) == "t.sql:2:151: error: expression nested more than 128 levels deep");
  CHECK(firstError("-- caf\xc3\xa9\n" + deep) ==
        "t.sql:3:151: error: expression nested more than 128 levels deep");
  CHECK(firstError("SELECT k FROM a WHERE " + std::string(128, '(') + "k = 1" +
                   std::string(128, ')')) == "");
}

TEST_CASE("WITH queries: nesting and expansion are bounded") {
  std::string chain = "WITH c0 AS (SELECT k FROM a)";
  for (int i = 1; i < 100; ++i)
    chain += ", c" + std::to_string(i) + " AS (SELECT k FROM c" + std::to_string(i - 1) + ")";
  CHECK(firstError(chain + " SELECT k FROM c99").find("WITH queries nested more than 64 deep") !=
        std::string::npos);
  std::string doubling = "WITH c0 AS (SELECT k FROM a)";
  for (int i = 1; i <= 12; ++i)
    doubling += ", c" + std::to_string(i) + " AS (SELECT x.k FROM c" + std::to_string(i - 1) +
                " x JOIN c" + std::to_string(i - 1) + " y ON x.k = y.k)";
  CHECK(firstError(doubling + " SELECT k FROM c12")
            .find("the query references more than 5000 tables once WITH queries and views are "
                  "expanded") != std::string::npos);
  CHECK(load(doubling + " SELECT k FROM c9").ok);  // 1,534 references
}

TEST_CASE("nullability comes from NOT NULL and from outer joins") {
  Loaded l = load("SELECT a.k, b.k FROM a LEFT JOIN b ON a.k = b.k; SELECT b.k FROM b");
  REQUIRE(l.ok);
  REQUIRE(l.queries.size() == 2);
  const auto& join = *l.queries[0].plan->children[0];
  REQUIRE(join.op == PlanOp::Join);
  CHECK(join.output[2].id == "b.k");
  CHECK(join.output[2].nullable);  // NOT NULL in b, but NULL-extended by the LEFT join
  CHECK_FALSE(l.queries[1].plan->output[0].nullable);
}

TEST_CASE("views and CTEs are expanded with unique aliases") {
  Loaded l = load(
      "CREATE VIEW vb AS SELECT k FROM b; WITH x AS (SELECT k FROM a) "
      "SELECT 1 FROM x JOIN x AS y ON x.k = y.k JOIN vb ON vb.k = x.k");
  REQUIRE(l.ok);
  std::string text = planToText(*l.queries[0].plan);
  CHECK(text.find("Scan #") != std::string::npos);
  CHECK(text.find("a AS a_2") != std::string::npos);
  CHECK(verifyPlan(*l.queries[0].plan).empty());
}

TEST_CASE("a select list's repeated names get suffixes, past the names kept inline too") {
  // LocalNames keeps a few dozen names in its own buffer: 100 go beyond it.
  std::string sql = "SELECT a.k";
  for (int i = 1; i < 100; ++i) sql += ", a.k";
  sql += ", a.v AS k_7 FROM a";
  Loaded l = load(sql);
  REQUIRE(l.ok);
  const auto& out = l.queries[0].plan->output;
  REQUIRE(out.size() == 101);
  const std::string q = out[0].id.str().substr(0, out[0].id.str().find('.') + 1);
  CHECK(out[0].id == q + "k");
  CHECK(out[1].id == q + "k_2");
  CHECK(out[99].id == q + "k_100");
  CHECK(out[100].id == q + "k_7_2");  // k_7 was taken by the 7th a.k
  std::set<std::string> ids;
  for (const auto& c : out) ids.insert(c.id.str());
  CHECK(ids.size() == out.size());
}

TEST_CASE("normalisation keeps invariants on every corpus-like shape") {
  Loaded l = load(
      "SELECT a.k, count(*) FROM a, b WHERE a.k = b.k AND b.v IN (SELECT v FROM a) GROUP BY a.k;"
      "SELECT * FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k) AND a.v > (SELECT avg(v) "
      "FROM b);"
      "SELECT * FROM (SELECT k FROM a UNION SELECT k FROM b) u LEFT JOIN b ON u.k = b.k WHERE b.v "
      "= 1");
  REQUIRE(l.ok);
  for (auto& q : l.queries) {
    NormalizeOptions opt;
    opt.verify = true;
    NormalizeReport report;
    normalize(q.plan, opt, report);
    CHECK(report.problems.empty());
    CHECK(verifyPlan(*q.plan).empty());
  }
}

TEST_CASE("each rule can be switched off") {
  Loaded l = load("SELECT 1 FROM a, b WHERE a.k = b.k");
  CHECK(normalizeWithout(l, "PushFilterIntoJoin").fired.count("PushFilterIntoJoin") == 0);
  CHECK(planToText(*l.queries[0].plan).find("CROSS JOIN") != std::string::npos);
  CHECK(isRuleName("SimplifyOuterJoin"));
  CHECK_FALSE(isRuleName("MakeItFast"));
}

TEST_CASE("local rules fire only at the kinds of node their registry lines name") {
  // The driver tries a local rewrite only at the nodes its line in
  // rules/norm_rules.def names (most nodes are neither filters nor joins). At
  // every other node of every plan the normaliser passes through on the
  // bundled corpus (as bound, after each step, as normalised), subquery plans
  // included, each rule must change nothing.
  std::vector<const NormRule*> locals;
  for (const auto& r : normalisationRules())
    if (r.local) locals.push_back(&r);
  REQUIRE(locals.size() >= 10);
  size_t tried = 0;
  std::function<void(const PlanPtr&)> visit;
  std::function<void(const Expr&)> subqueries = [&](const Expr& e) {
    if (e.kind == ExprKind::Subquery && e.plan) visit(e.plan);
    for (const auto& a : e.args) subqueries(*a);
  };
  visit = [&](const PlanPtr& n) {
    for (const NormRule* r : locals) {
      if (r->at & opSet(n->op)) continue;
      PlanPtr p = n;  // the rule's to replace; it fires on the plan's node only by mistake
      ++tried;
      CHECK_MESSAGE(!r->local(p), (std::string(r->name) + " fired at a " + opName(n->op)));
    }
    forEachExpr(*n, [&](const ExprPtr& e) { subqueries(*e); });
    for (const auto& c : n->children) visit(c);
  };
  for (const char* file : {"tpch.sql", "ssb.sql", "seeds.sql"}) {
    std::ifstream in(std::string(RFGUARD_SOURCE_DIR) + "/corpus/examples/" + file);
    std::stringstream text;
    text << in.rdbuf();
    Catalog catalog;
    std::vector<Query> queries;
    Diagnostics diags;
    REQUIRE_MESSAGE(loadSql(text.str(), file, catalog, queries, diags), diags.render());
    for (auto& q : queries) {
      visit(q.plan);
      NormalizeOptions opt;
      opt.onStep = [&](const std::string&, const PlanNode& root) { visit(clonePlan(root)); };
      NormalizeReport report;
      normalize(q.plan, opt, report);
      visit(q.plan);
    }
  }
  CHECK(tried > 10000);
}

TEST_CASE("plan -> JSON -> plan -> JSON is byte-identical") {
  Loaded l = load(
      "SELECT a.k, sum(b.v) s FROM a LEFT JOIN b ON a.k = b.k WHERE b.d > DATE '2024-01-01' "
      "GROUP BY CUBE (a.k) ORDER BY s DESC LIMIT 3;"
      "SELECT k, row_number() OVER (ORDER BY v) FROM a WHERE k NOT IN (SELECT k FROM b)");
  REQUIRE(l.ok);
  for (auto& q : l.queries) {
    NormalizeReport report;
    normalize(q.plan, {}, report);
    std::string first = documentToJson(l.catalog, {q}).dump(2);
    Catalog c2;
    std::vector<Query> back;
    Diagnostics d;
    REQUIRE(readPlanDocument(first, "rt.json", c2, back, d));
    CHECK(documentToJson(c2, back).dump(2) == first);
    CHECK(planToText(*back[0].plan) == planToText(*q.plan));
  }
}

TEST_CASE("JSON errors carry the JSON pointer") {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  CHECK_FALSE(readPlanDocument(
      "{\"format\": \"rfguard-plan\", \"version\": 1, \"catalog\": {\"tables\": []},"
      " \"queries\": [{\"name\": \"q\", \"plan\": {\"id\": 1, \"op\": \"scan\","
      " \"table\": \"t\", \"alias\": \"t\", \"columns\": [], \"children\": []}}]}",
      "x.json", c, qs, d));
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].pointer == "/queries/0/plan/table");
}

TEST_CASE("a syntax error skips only its own statement") {
  Loaded l = load("SELECT k FROM a WHERE;\nSELECT v FROM a;\nSELEC 1;\nSELECT k FROM b");
  CHECK_FALSE(l.ok);
  REQUIRE(l.diags.items().size() == 2);
  CHECK(l.diags.items()[0].render() ==
        "t.sql:2:22: error: syntax error: unexpected end of statement");
  CHECK(l.diags.items()[1].render() ==
        "t.sql:4:1: error: syntax error at 'SELEC'; did you mean \"SELECT\"?");
  REQUIRE(l.queries.size() == 2);
  CHECK(l.queries[0].name == "query2");
  CHECK(l.queries[0].loc.line == 3);
  CHECK(l.queries[1].name == "query3");  // "SELEC 1" is not recognisably a query
}

TEST_CASE("predictions answer alike on a cold and on a warm DFA") {
  // A decision's first prediction in a process takes the runtime's path (it
  // builds the decision's start state); later ones take PredictionFastPath
  // (grammar/prediction.h), errors and SLL -> LL retries included.
  const std::string sql =
      "SELECT k FROM a WHERE;\nSELECT a.k, sum(b.v) FROM a LEFT JOIN b ON a.k = b.k "
      "WHERE a.v IN (SELECT v FROM b) GROUP BY a.k HAVING count(*) > 1 ORDER BY 2 LIMIT 3;\n"
      "SELEC 1;\nSELECT CASE WHEN k < 0 THEN -k ELSE k END FROM a UNION ALL SELECT v FROM b";
  std::vector<std::string> runs;
  for (int i = 0; i < 3; ++i) {
    Loaded l = load(sql);
    std::string r;
    for (const auto& d : l.diags.items()) r += d.render() + "\n";
    for (const auto& q : l.queries) r += planToText(*q.plan);
    runs.push_back(r);
  }
  CHECK(runs[0].find("t.sql:2:22: error: syntax error") != std::string::npos);
  CHECK(runs[0].find("Union") != std::string::npos);
  CHECK(runs[1] == runs[0]);
  CHECK(runs[2] == runs[0]);
}

TEST_CASE("parses after parses: kept parsers and token vectors answer as new ones") {
  // A thread keeps the parsers and the token vector of finished parses for its
  // next ones (grammar/sql_parser.cpp, grammar/fast_lexer.cpp). A view's text
  // is parsed while its query's parse is open: six views on views hold seven
  // parsers at once, more than the thread keeps.
  std::string views;
  for (int i = 1; i <= 6; ++i)
    views += "CREATE VIEW v" + std::to_string(i) + " AS SELECT k, v FROM " +
             (i == 1 ? std::string("a") : "v" + std::to_string(i - 1)) + ";\n";
  std::string wide = "SELECT ";
  for (int i = 0; i < 400; ++i) wide += (i ? " + " : "") + std::string("(k * 2 - v)");
  wide += " AS s FROM a";
  const std::string shortQuery = "SELECT v FROM b WHERE k = 3";
  auto render = [](const Loaded& l) {
    std::string r;
    for (const auto& d : l.diags.items()) r += d.render() + "\n";
    for (const auto& q : l.queries) r += q.name + " " + q.sql + "\n" + planToText(*q.plan);
    return r;
  };
  const std::string alone = render(load(shortQuery));
  CHECK(alone.find("Scan #") != std::string::npos);
  const std::string script = views + wide + ";\nSELECT k FROM a WHERE;\n" + shortQuery +
                             ";\nSELECT s.k FROM v6 s JOIN v3 t ON s.k = t.k";
  std::vector<std::string> runs;
  for (int i = 0; i < 3; ++i) {
    runs.push_back(render(load(script)));
    CHECK(render(load(shortQuery)) == alone);  // after a longer text's tokens
  }
  CHECK(runs[0].find("t.sql:9:22: error: syntax error: unexpected end of statement") !=
        std::string::npos);
  CHECK(runs[0].find("query3 " + shortQuery + "\n") != std::string::npos);
  CHECK(runs[0].find("a AS a_2") != std::string::npos);  // v6 and v3 each read a
  CHECK(runs[1] == runs[0]);
  CHECK(runs[2] == runs[0]);
}

TEST_CASE("each query keeps its own text and name, whichever lexer read it") {
  // ASCII goes through the direct lexer (byte offsets), text with a non-ASCII
  // character through ANTLR's (code point offsets): the same slices either way.
  for (const std::string quote : {"x", "\xc3\xa9t\xc3\xa9"}) {
    Loaded l = load(
        "-- name: first\nSELECT k FROM a WHERE v = 1;\n\n  -- name: second\n"
        "SELECT   'Q' || '" +
        quote + "' AS s FROM b ;");
    REQUIRE(l.ok);
    REQUIRE(l.queries.size() == 2);
    CHECK(l.queries[0].name == "first");
    CHECK(l.queries[0].sql == "SELECT k FROM a WHERE v = 1");
    CHECK(l.queries[1].name == "second");
    CHECK(l.queries[1].sql == "SELECT   'Q' || '" + quote + "' AS s FROM b");
  }
}

// A name used again gets the first free suffix: _2, _3... skipping one the
// query wrote itself. The binder remembers where each name's search stopped
// (a WITH query expanded into 5,000 scans named `x` made it quadratic).
TEST_CASE("repeated aliases get the first free suffix, in order") {
  std::string derived;
  for (const char* alias : {"x", "x_3", "x", "x", "x", "x_2_2"}) {
    derived += std::string(derived.empty() ? "" : ", ") + "(SELECT " + alias + ".k FROM a " +
               alias + ") q" + std::to_string(derived.size());
  }
  Loaded l = load("SELECT 1 FROM " + derived + ";");
  REQUIRE_MESSAGE(l.ok, l.diags.render());
  std::vector<std::string> aliases;
  forEachNode(*l.queries[0].plan, [&](const PlanNode& n) {
    if (n.op == PlanOp::Scan) aliases.push_back(n.alias);
  });
  CHECK(aliases == std::vector<std::string>{"x", "x_3", "x_2", "x_4", "x_5", "x_2_2"});
}
