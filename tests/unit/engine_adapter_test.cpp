// One room per engine (engines/adapter.h): the registry, DuckDB's adapter, and
// the smallest complete adapter an engine needs (docs/engines.md shows it):
// an importer for a made-up engine whose plans are one join per line. Its
// plans go through the session like any engine's: imported, judged as given,
// their losses and filters recorded, their errors located.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "engines/adapter.h"
#include "engines/duckdb/adapter.h"
#include "grammar/sql.h"
#include "ir/expr.h"
#include "pipeline/session.h"
#include "rules/rf_profiles.h"
#include "verifier/plan_sql.h"

using namespace rfguard;

namespace {

// ---------------------------------------------------------------- the toy engine
// A document is "toy-plan" and then one query per line:
//   <probe table> <build table> <probe column> <build column> [rf]
// an inner join of two scans on probe.col = build.col; "rf" when the engine
// placed a runtime filter from the build key into the probe scan.
class ToyAdapter final : public engine::Adapter {
 public:
  std::string name() const override { return "toy"; }
  std::string displayName() const override { return "Toy"; }
  std::string profileName() const override { return "sound"; }
  std::string documentKind() const override { return "a toy plan"; }
  bool recognizes(const std::string& text) const override {
    return text.rfind("toy-plan\n", 0) == 0;
  }
  bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                   nlohmann::json& doc, std::vector<engine::ImportedQuery>& queries,
                   Diagnostics& diags, const engine::EqualityHints&) const override {
    if (!recognizes(text)) {
      diags.error(name, {1, 1}, "not a toy plan: it starts with \"toy-plan\"");
      return false;
    }
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    nlohmann::json tables = nlohmann::json::array(), qs = nlohmann::json::array();
    std::set<std::string> declared;
    for (int no = 2; std::getline(in, line); ++no) {
      std::istringstream words(line);
      std::string probe, build, pk, bk, rf;
      if (!(words >> probe >> build >> pk >> bk)) {
        diags.error(name, {no, 1}, "expected: probe build probe_column build_column [rf]");
        return false;
      }
      words >> rf;
      engine::ImportedQuery q;
      q.name = "q" + std::to_string(qs.size() + 1);
      for (const auto& [t, c] : {std::pair{probe, pk}, std::pair{build, bk}}) {
        if (!declared.insert(t).second) continue;
        std::string type = "int";
        bool nullable = true;
        if (const TableDef* d = schema.table(t); d && d->columnIndex(c) >= 0) {
          type = d->columns[d->columnIndex(c)].type.toString();
          nullable = d->columns[d->columnIndex(c)].nullable;
        } else {
          q.losses.push_back({"line " + std::to_string(no), "table " + t + " is not in a schema"});
        }
        tables.push_back(
            {{"name", t}, {"columns", {{{"name", c}, {"type", type}, {"nullable", nullable}}}}});
      }
      auto scan = [](int id, const std::string& t, const std::string& c) {
        return nlohmann::json{{"id", id},       {"op", "scan"},
                              {"table", t},     {"alias", t},
                              {"columns", {c}}, {"children", nlohmann::json::array()}};
      };
      nlohmann::json join = {
          {"id", 1},
          {"op", "join"},
          {"join_type", "inner"},
          {"condition",
           {{"call", "="},
            {"args", {{{"column", probe + "." + pk}}, {{"column", build + "." + bk}}}}}},
          {"children", {scan(2, probe, pk), scan(3, build, bk)}}};
      if (rf == "rf") {
        join["runtime_filters"] = {{{"id", 1},
                                    {"build", {{"column", build + "." + bk}}},
                                    {"probe", {{"column", probe + "." + pk}}},
                                    {"op", "="},
                                    {"kinds", {"bloom"}}}};
        join["children"][0]["runtime_filter_targets"] = {
            {{"id", 1}, {"target", {{"column", probe + "." + pk}}}}};
        q.dynamicFilters.push_back(
            {"line " + std::to_string(no), probe + "." + pk, {"bloom"}, {1}, {1}});
      }
      q.sourcePointer = {{1, "line " + std::to_string(no)}};
      qs.push_back({{"name", q.name}, {"plan", join}});
      queries.push_back(std::move(q));
    }
    doc = {{"format", "rfguard-plan"},
           {"version", 1},
           {"catalog", {{"tables", tables}}},
           {"queries", qs}};
    return true;
  }
};

}  // namespace

TEST_CASE("engines: the registry names each engine once, with a profile of the rule table") {
  std::set<std::string> names;
  for (const engine::Adapter* a : engine::adapters()) {
    CHECK(names.insert(a->name()).second);
    CHECK_MESSAGE(parseProfile(a->profileName()).has_value(), a->name());
    CHECK(engine::findAdapter(a->name()) == a);
    CHECK_FALSE(a->displayName().empty());
    const auto linked = engine::linkedEngines();
    CHECK(a->linked() == (std::find(linked.begin(), linked.end(), a->name()) != linked.end()));
    CHECK_FALSE(a->documentKind().empty());
  }
  CHECK(names.count("duckdb") == 1);
  CHECK(engine::findAdapter("frob") == nullptr);
  // Every engine is a --from of its own, and nothing else is.
  const engine::Adapter* chosen = nullptr;
  CHECK(parseInputFormat("duckdb", &chosen) == InputFormat::Engine);
  CHECK(chosen == &engine::duckDbAdapter());
  CHECK_FALSE(parseInputFormat("frob").has_value());
}

TEST_CASE("engines: content tells an engine's plans from rfguard's plan JSON and SQL") {
  const std::string profile = R"({"query_name": "SELECT 1", "children": [], "operator_timing": 0})";
  CHECK(engine::detectAdapter(profile) == &engine::duckDbAdapter());
  CHECK(engine::detectAdapter(R"({"format": "rfguard-plan", "version": 1, "queries": []})") ==
        nullptr);
  CHECK(engine::detectAdapter("SELECT 1;") == nullptr);
  const engine::Adapter* found = nullptr;
  CHECK(detectFormat("p.json", profile, &found) == InputFormat::Engine);
  CHECK(found == &engine::duckDbAdapter());
  CHECK(detectFormat("q.sql", "SELECT 1;", &found) == InputFormat::Sql);
}

TEST_CASE("engines: --from an engine on a document of no engine is a located error") {
  SessionOptions so;
  so.from = InputFormat::Engine;  // --from without a named engine: told by content
  Session s(so);
  Diagnostics d;
  CHECK_FALSE(s.loadText("[1, 2]", "x.json", d));
  // The message lists what each engine of the registry reads.
  CHECK_MESSAGE(d.render().find("x.json: error at /: not a plan of any engine rfguard imports "
                                "(DuckDB's JSON profile or EXPLAIN (FORMAT JSON), Doris's explain "
                                "shape plan") != std::string::npos,
                d.render());
}

TEST_CASE("engines: the smallest adapter imports through the session like any engine") {
  ToyAdapter toy;
  Catalog schema;
  std::vector<Query> none;
  Diagnostics d;
  REQUIRE(loadSql("CREATE TABLE a (k int); CREATE TABLE b (k bigint NOT NULL);", "s.sql", schema,
                  none, d));
  SessionOptions so;
  so.schema = schema;
  so.given = GivenPlans::JsonWithFilters;
  Session s(so);
  REQUIRE_MESSAGE(s.loadEngine("toy-plan\na b k k rf\na c k k\n", "toy.txt", toy, d), d.render());
  REQUIRE(s.queries().size() == 2);
  const QueryRun& q1 = s.queries()[0];
  CHECK(q1.engine == &toy);
  CHECK(q1.given);  // an engine's plan is verified as the engine ran it
  REQUIRE(q1.imported);
  CHECK(q1.imported->losses.empty());
  REQUIRE(q1.imported->dynamicFilters.size() == 1);
  CHECK(q1.imported->dynamicFilters[0].column == "a.k");
  CHECK(s.inputs()[0].engine == &toy);
  CHECK(s.verify(s.queries()[0]).empty());  // an inner join's filter: safe
  // The second query's table c is in no schema: a loss, said, not hidden.
  REQUIRE(s.queries()[1].imported->losses.size() == 1);
  CHECK(s.queries()[1].imported->losses[0].message == "table c is not in a schema");
  CHECK(s.queries()[1].imported->dynamicFilters.empty());
  // A malformed line: an error at its line, nothing imported.
  Session bad(so);
  Diagnostics e;
  CHECK_FALSE(bad.loadEngine("toy-plan\na b k\n", "bad.txt", toy, e));
  CHECK(e.render().find("bad.txt:2:1: error: expected: probe build probe_column build_column") !=
        std::string::npos);
}

TEST_CASE("engines: DuckDB's spelling of what the verifier writes") {
  const SqlSpelling& duck = engine::duckDbSpelling();
  CHECK(duck.name() == "DuckDB");
  CHECK(duck.likeIsCaseSensitive());
  auto print = [](const Expr& e) { return e.kind == ExprKind::Column ? e.name : e.value; };
  auto col = [](const std::string& n, TypeKind k) { return makeColumn(n, Type::of(k), true); };
  // A date moved by months clamps as the evaluator does; by days it adds.
  Expr plus = *makeCall(
      "+",
      {col("d", TypeKind::Date), makeLiteral("3 month", Type::of(TypeKind::Interval), SourceLoc{})},
      SourceLoc{});
  plus.type = Type::of(TypeKind::Date);
  CHECK(duck.spell(plus, print) ==
        std::optional<std::string>("(CAST((DATE '1970-01-01' + CAST(d AS INTEGER)) + INTERVAL "
                                   "'3 months' AS DATE) - DATE '1970-01-01')"));
  Expr minus = *makeCall(
      "-",
      {col("d", TypeKind::Date), makeLiteral("2 weeks", Type::of(TypeKind::Interval), SourceLoc{})},
      SourceLoc{});
  minus.type = Type::of(TypeKind::Date);
  CHECK(duck.spell(minus, print) == std::optional<std::string>("(d + -14)"));
  // What DuckDB spells as SQLite does is left to SQLite's form.
  Expr sum = *makeCall("+", {col("a", TypeKind::Int), col("b", TypeKind::Int)}, SourceLoc{});
  CHECK_FALSE(duck.spell(sum, print).has_value());
  CHECK(parseIntervalShift("1 year", -1).months == -12);
  CHECK(parseIntervalShift("1 quarter", 1).months == 3);
  CHECK(parseIntervalShift("5", 1).days == 5);
}
