// Trino's plans imported (engines/trino/): the operator tree read by its
// indentation, each symbol's scan column, each dynamic filter's producer (the
// plan prints neither filter ids nor join conditions), the conditions rebuilt,
// what is lost or ambiguous, and errors at file:line:col.
#include <doctest/doctest.h>

#include "engines/adapter.h"
#include "engines/trino/adapter.h"
#include "engines/trino/plan_text.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"

using namespace rfguard;

namespace {

const char* kSchema =
    "CREATE TABLE nation (nationkey bigint, name varchar(25), regionkey bigint);"
    "CREATE TABLE region (regionkey bigint, name varchar(25));"
    "CREATE TABLE customer (custkey bigint, nationkey bigint, name varchar(25));"
    "CREATE TABLE supplier (suppkey bigint, nationkey bigint);"
    "CREATE TABLE orders (orderkey bigint, custkey bigint);"
    "CREATE TABLE lineitem (orderkey bigint, suppkey bigint);";

/// TPC-H q5's shape as Trino prints it: customer's nationkey is filtered
/// twice (by the nation join and, through the equality, by the supplier
/// join at the top), nation's nationkey_20 by the supplier join too.
const char* kPlan = R"(remote exchange (GATHER, SINGLE, [])
    final aggregation over (name_21)
        join (INNER, PARTITIONED):
            remote exchange (REPARTITION, HASH, [nationkey, suppkey])
                join (INNER, PARTITIONED):
                    remote exchange (REPARTITION, HASH, [orderkey_5])
                        dynamic filter (orderkey_5::EQUAL, suppkey::EQUAL)
                            scan lineitem
                    local exchange (GATHER, SINGLE, [])
                        remote exchange (REPARTITION, HASH, [orderkey])
                            join (INNER, PARTITIONED):
                                remote exchange (REPARTITION, HASH, [custkey_0])
                                    dynamic filter (custkey_0::EQUAL)
                                        scan orders
                                local exchange (GATHER, SINGLE, [])
                                    remote exchange (REPARTITION, HASH, [custkey])
                                        join (INNER, REPLICATED):
                                            dynamic filter (nationkey::EQUAL, nationkey::EQUAL)
                                                scan customer
                                            local exchange (GATHER, SINGLE, [])
                                                remote exchange (REPLICATE, BROADCAST, [])
                                                    join (INNER, REPLICATED):
                                                        dynamic filter (nationkey_20::EQUAL, regionkey::EQUAL)
                                                            scan nation
                                                        local exchange (GATHER, SINGLE, [])
                                                            remote exchange (REPLICATE, BROADCAST, [])
                                                                scan region
            local exchange (GATHER, SINGLE, [])
                remote exchange (REPARTITION, HASH, [nationkey_13, suppkey_10])
                    scan supplier
)";

Session load(const std::string& plan, Diagnostics& d, bool ok = true, bool schema = true) {
  SessionOptions so;
  std::vector<Query> none;
  if (schema) REQUIRE(loadSql(kSchema, "schema.sql", so.schema, none, d));
  so.given = GivenPlans::Json;
  Session s(so);
  CHECK_MESSAGE(s.loadEngine(plan, "q05.plan.txt", engine::trinoAdapter(), d) == ok, d.render());
  return s;
}

std::string notesOf(const std::vector<engine::ImportNote>& notes) {
  std::string out;
  for (const auto& l : notes) out += l.pointer + ": " + l.message + "\n";
  return out;
}

bool has(const std::string& text, const std::string& part) {
  CAPTURE(text);
  CAPTURE(part);
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("trino plan text: the tree by indentation, symbols by Trino's allocator") {
  std::unique_ptr<trino_import::PlanOp> root;
  Diagnostics d;
  REQUIRE(trino_import::readPlanText(kPlan, "q.txt", root, d));
  CHECK(root->kind == trino_import::OpKind::RemoteExchange);
  const auto& agg = *root->inputs[0];
  CHECK(agg.kind == trino_import::OpKind::Aggregation);
  CHECK(agg.step == "final");
  CHECK(agg.symbols == std::vector<std::string>{"name_21"});
  const auto& top = *agg.inputs[0];
  CHECK(top.kind == trino_import::OpKind::Join);
  CHECK(top.joinType == "INNER");
  CHECK(top.distribution == "PARTITIONED");
  REQUIRE(top.inputs.size() == 2);
  CHECK(top.inputs[0]->symbols == std::vector<std::string>{"nationkey", "suppkey"});
  const auto& df = *top.inputs[0]->inputs[0]->inputs[0]->inputs[0];
  CHECK(df.kind == trino_import::OpKind::DynamicFilter);
  REQUIRE(df.filters.size() == 2);
  CHECK(df.filters[0].symbol == "orderkey_5");
  CHECK(df.filters[0].op == "EQUAL");
  CHECK(df.line == 7);
  CHECK(trino_import::baseName("orderkey_5") == "orderkey");
  CHECK(trino_import::baseName("orderkey") == "orderkey");
  CHECK(trino_import::baseName("expr_gid") == "expr_gid");
  CHECK(trino_import::baseName("_5") == "_5");
  // The other printers' lists: operators unprinted (EQUAL), and the filters a
  // scan waits for grouped after `await`; a symbol in both lists is two.
  for (const auto& lineAndWant : std::vector<std::pair<std::string, std::string>>{
           {"dynamic filter ([a, b_2])", "a b_2"},
           {"dynamic filter (await [ws_sold_date_sk])", "ws_sold_date_sk"},
           {"dynamic filter ([d_week_seq], await [d_week_seq, x])", "d_week_seq d_week_seq x"}}) {
    // Not a structured binding: clang-14 rejects one captured by CAPTURE's lambda.
    const std::string& line = lineAndWant.first;
    const std::string& want = lineAndWant.second;
    CAPTURE(line);
    std::unique_ptr<trino_import::PlanOp> r;
    Diagnostics dd;
    REQUIRE(trino_import::readPlanText(line + "\n    scan t\n", "q.txt", r, dd));
    std::string got;
    for (const auto& f : r->filters) {
      got += (got.empty() ? "" : " ") + f.symbol;
      CHECK(f.op == "EQUAL");
    }
    CHECK(got == want);
  }
}

TEST_CASE("trino import: each filter at its scan, from the join that compares its key") {
  Diagnostics d;
  Session s = load(kPlan, d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  CHECK(q.query.name == "q05");
  const std::string text = planToText(*q.query.plan);
  // The top join: its keys from its exchanges, paired by name; customer's
  // and nation's nationkey filtered by the one filter of supplier.nationkey.
  CHECK(has(text,
            "JOIN [shuffle] ON customer.nationkey = supplier.nationkey AND lineitem.suppkey = "
            "supplier.suppkey; RF2 <- supplier.suppkey (lineitem.suppkey =, in+min_max, global); "
            "RF4 <- supplier.nationkey (customer.nationkey =, in+min_max, global)"));
  CHECK(has(text,
            "JOIN [broadcast] ON customer.nationkey = nation.nationkey; RF5 <- "
            "nation.nationkey (customer.nationkey =, in+min_max, global)"));
  CHECK(has(text,
            "Scan #3 customer columns=[custkey, nationkey, name]; RF4 -> "
            "customer.nationkey; RF5 -> customer.nationkey"));
  CHECK(has(text,
            "Scan #4 nation columns=[nationkey, name, regionkey]; RF4 -> "
            "nation.nationkey; RF6 -> nation.regionkey"));
  CHECK(has(text, "RF1 -> lineitem.orderkey; RF2 -> lineitem.suppkey"));
  // name_21 is a name of customer, nation or region: not guessed.
  CHECK(has(notesOf(q.imported->ambiguities), "symbol name_21 may be any of"));
  CHECK(has(notesOf(q.imported->losses), "line 2: group key name_21 is computed by an operator"));
  REQUIRE(q.imported->dynamicFilters.size() == 7);
  CHECK(q.imported->dynamicFilters[0].column == "lineitem.orderkey");
  CHECK(q.imported->dynamicFilters[0].producers.size() == 1);
  // customer's first nationkey filter: two joins above could have built it.
  CHECK(q.imported->dynamicFilters[3].column == "customer.nationkey");
  CHECK(q.imported->dynamicFilters[3].candidates.size() == 2);
  CHECK(s.verify(q).empty());
}

TEST_CASE("trino import: a filter Trino could not have placed soundly is flagged") {
  // The same plan with the join that builds orders' filter a LEFT join
  // (orders preserved): its filter removes rows the join must keep.
  std::string plan = kPlan;
  const std::string inner =
      "join (INNER, PARTITIONED):\n                                remote "
      "exchange (REPARTITION, HASH, [custkey_0])";
  REQUIRE(plan.find(inner) != std::string::npos);
  plan.replace(plan.find(inner), 26, "join (LEFT, PARTITIONED):");
  Diagnostics d;
  Session s = load(plan, d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const auto findings = s.verify(s.queries()[0]);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].code == "producer-join-type");
}

TEST_CASE("trino import: semi joins, cross joins, values, unknown operators") {
  const char* plan = R"(semijoin (PARTITIONED):
    remote exchange (REPARTITION, HASH, [custkey])
        dynamic filter (custkey::EQUAL)
            scan orders
    local exchange (GATHER, SINGLE, [])
        remote exchange (REPARTITION, HASH, [custkey_1])
            window (something new)
                scan customer
)";
  Diagnostics d;
  Session s = load(plan, d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  const std::string text = planToText(*q.query.plan);
  CHECK(has(text,
            "SEMI JOIN [shuffle] ON orders.custkey = customer.custkey; RF1 <- "
            "customer.custkey"));
  CHECK(has(notesOf(q.imported->losses), "line 7: an operator rfguard does not know"));
  CHECK(s.verify(q).empty());

  // Without a dynamic filter a semi join may be IN or NOT IN: rows may go.
  const char* notIn = R"(semijoin (PARTITIONED):
    scan orders
    cross join:
        scan customer
        single aggregation over ()
            values (1 rows)
)";
  Diagnostics d2;
  Session s2 = load(notIn, d2);
  s2.run();
  REQUIRE(s2.queries().size() == 1);
  const std::string losses = notesOf(s2.queries()[0].imported->losses);
  CHECK(has(losses, "line 1: a semi join without a dynamic filter"));
  CHECK(has(losses, "its filtering input (customer) left out"));
  CHECK(has(planToText(*s2.queries()[0].query.plan), "Limit #"));
}

TEST_CASE("trino import: without a schema a scan's columns are its filters' names") {
  Diagnostics d;
  Session s = load(kPlan, d, true, false);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  CHECK(has(notesOf(q.imported->losses), "table lineitem is not in a schema"));
  CHECK(has(planToText(*q.query.plan), "Scan #1 lineitem columns=[orderkey, suppkey]"));
}

TEST_CASE("trino import: malformed text is an error at its line") {
  auto fails = [](const std::string& plan, const std::string& want) {
    Diagnostics d;
    SessionOptions so;
    Session s(so);
    CHECK_FALSE(s.loadEngine(plan, "bad.plan.txt", engine::trinoAdapter(), d));
    CAPTURE(d.render());
    CHECK(d.render().find(want) != std::string::npos);
  };
  fails("join (INNER, PARTITIONED):\n   scan a\n    scan b\n",
        "bad.plan.txt:2:4: error: indented by 3 spaces");
  fails("join (INNER, PARTITIONED):\n        scan a\n", "bad.plan.txt:2:9: error: indented deeper");
  fails("join (SIDEWAYS, PARTITIONED):\n    scan a\n    scan b\n",
        "bad.plan.txt:1:1: error: an unknown join type \"SIDEWAYS\"");
  fails("join (INNER, PARTITIONED):\n    scan a\n", "bad.plan.txt:1:1: error: a join needs two");
  fails("scan a\nscan b\n", "bad.plan.txt:2:1: error: a second plan root");
  fails("values (5000 rows)\n", "values of more than 1000 rows");
  fails("values (x rows)\n", "N not a count");
  fails("remote exchange (GATHER, SINGLE, [])\n    mystery leaf\n",
        "bad.plan.txt:2:5: error: an operator rfguard does not know, with 0 inputs");
  fails("remote exchange (GATHER, SINGLE, [])\n    dynamic filter ()\n        scan a\n",
        "a dynamic filter of nothing");
  std::string deep;
  for (int i = 0; i < 1100; ++i)
    deep += std::string(4 * i, ' ') + "local exchange (GATHER, SINGLE, [])\n";
  fails(deep, "a plan deeper than 1000 operators");
}

TEST_CASE("trino is detected by its content and named in --from") {
  CHECK(engine::detectAdapter(kPlan) == &engine::trinoAdapter());
  CHECK(engine::findAdapter("trino") == &engine::trinoAdapter());
  CHECK(engine::detectAdapter("SELECT 1;") == nullptr);
  CHECK_FALSE(trino_import::looksLikeTrinoPlan("scan orders is not a plan's first line\n"));
  CHECK_FALSE(trino_import::looksLikeTrinoPlan("  scan a\n"));
  CHECK_FALSE(trino_import::looksLikeTrinoPlan("{\"rfguard-plan\": 1}"));
}

TEST_CASE("trino import: keys a foreign key pairs, and an exchange of several inputs") {
  // TPC-DS style names: the fact's key and the dimension's differ, and the
  // joins are broadcast (no hash keys printed): declared foreign keys pair them.
  const char* schema =
      "CREATE TABLE date_dim (d_date_sk int PRIMARY KEY, d_year int);"
      "CREATE TABLE store (s_store_sk int PRIMARY KEY, s_store_id varchar(16));"
      "CREATE TABLE store_sales (ss_sold_date_sk int REFERENCES date_dim (d_date_sk), "
      "ss_store_sk int REFERENCES store (s_store_sk));"
      "CREATE TABLE store_returns (sr_returned_date_sk int);";
  const std::string star = R"(join (INNER, REPLICATED):
    join (INNER, REPLICATED):
        dynamic filter (ss_sold_date_sk::EQUAL, ss_store_sk::EQUAL)
            scan store_sales
        local exchange (GATHER, SINGLE, [])
            remote exchange (REPLICATE, BROADCAST, [])
                scan date_dim
    local exchange (GATHER, SINGLE, [])
        remote exchange (REPLICATE, BROADCAST, [])
            scan store
)";
  SessionOptions so;
  std::vector<Query> none;
  Diagnostics d;
  REQUIRE(loadSql(schema, "schema.sql", so.schema, none, d));
  so.given = GivenPlans::Json;
  {
    Session s(so);
    REQUIRE_MESSAGE(s.loadEngine(star, "ds.plan.txt", engine::trinoAdapter(), d), d.render());
    s.run();
    const std::string text = planToText(*s.queries()[0].query.plan);
    CHECK(has(text,
              "JOIN [broadcast] ON store_sales.ss_store_sk = store.s_store_sk; RF2 <- "
              "store.s_store_sk"));
    CHECK(has(text,
              "JOIN [broadcast] ON store_sales.ss_sold_date_sk = date_dim.d_date_sk; RF1 <- "
              "date_dim.d_date_sk"));
    CHECK(s.verify(s.queries()[0]).empty());
  }
  // Below a union (an exchange of two inputs) the filter has no column above
  // the union to compare: left out, and said; the union imports.
  std::string unioned = star;
  const std::string scan = "            scan store_sales\n";
  unioned.replace(unioned.find(scan), scan.size(), scan + "        scan store_returns\n");
  const std::string filter = "        dynamic filter (";
  unioned.replace(
      unioned.find(filter), filter.size(),
      "        remote exchange (REPARTITION, ROUND_ROBIN, [])\n            dynamic filter (");
  const std::string scans = "            scan store_sales\n        scan store_returns\n";
  unioned.replace(unioned.find(scans), scans.size(),
                  "                scan store_sales\n            scan store_returns\n");
  Session s(so);
  REQUIRE_MESSAGE(s.loadEngine(unioned, "ds.plan.txt", engine::trinoAdapter(), d), d.render());
  s.run();
  const QueryRun& q = s.queries()[0];
  CHECK(has(planToText(*q.query.plan), "Union #"));
  const std::string losses = notesOf(q.imported->losses);
  CHECK(has(losses, "an exchange of 2 inputs (a UNION ALL)"));
  CHECK(has(losses,
            "the filter on store_sales.ss_store_sk from build key store.s_store_sk: its "
            "column is not an output of the probe side"));
  CHECK(s.verify(q).empty());
}
