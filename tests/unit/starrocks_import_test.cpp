// StarRocks's plans imported (engines/starrocks/): the operator tree read by
// its prefixes (the build side on the branch, the probe side last), fragments
// joined at their exchanges, columns bound by id, every runtime filter as
// StarRocks placed it, what is lost, and errors at file:line:col.
#include <doctest/doctest.h>

#include "engines/adapter.h"
#include "engines/starrocks/adapter.h"
#include "engines/starrocks/plan_text.h"
#include "grammar/sql.h"
#include "ir/printers.h"
#include "pipeline/session.h"

using namespace rfguard;

namespace {

const char* kSchema =
    "CREATE TABLE customer (c_custkey int NOT NULL, c_phone varchar(15), c_acctbal decimal(15,2));"
    "CREATE TABLE orders (o_orderkey int NOT NULL, o_custkey int);";

/// Two fragments: a shuffle join of orders (probe, fragment 1) and customer
/// (build, fragment 2), its filter applied at the orders scan.
const char* kPlan = R"([sql]
select c_phone from customer join orders on o_custkey = c_custkey where c_acctbal > 0
[fragment statistics]
PLAN FRAGMENT 0(F02)
Output Exprs:5: C_PHONE
Input Partition: HASH_PARTITIONED: 22: O_CUSTKEY
RESULT SINK

4:Project
|  output columns:
|  5 <-> [5: C_PHONE, VARCHAR, false]
|  cardinality: 10
|
3:HASH JOIN
|  join op: INNER JOIN (PARTITIONED)
|  equal join conjunct: [22: O_CUSTKEY, INT, false] = [1: C_CUSTKEY, INT, false]
|  build runtime filters:
|  - filter_id = 0, build_expr = (1: C_CUSTKEY), remote = true
|  output columns: 5
|  cardinality: 10
|
|----2:EXCHANGE
|       distribution type: SHUFFLE
|       partition exprs: [1: C_CUSTKEY, INT, false]
|       cardinality: 5
|
1:EXCHANGE
distribution type: SHUFFLE
cardinality: 100

PLAN FRAGMENT 1(F01)

Input Partition: RANDOM
OutPut Partition: HASH_PARTITIONED: 1: C_CUSTKEY
OutPut Exchange Id: 02

0:OlapScanNode
table: customer, rollup: customer
preAggregation: on
Predicates: [6: C_ACCTBAL, DECIMAL64(15, 2), false] > 0
cardinality: 5

PLAN FRAGMENT 2(F00)

Input Partition: RANDOM
OutPut Partition: HASH_PARTITIONED: 22: O_CUSTKEY
OutPut Exchange Id: 01

5:OlapScanNode
table: orders, rollup: orders
preAggregation: on
cardinality: 100
probe runtime filters:
- filter_id = 0, probe_expr = (22: O_CUSTKEY)
[end]
)";

Session load(const std::string& plan, Diagnostics& d, bool ok = true, bool schema = true) {
  SessionOptions so;
  std::vector<Query> none;
  if (schema) REQUIRE(loadSql(kSchema, "schema.sql", so.schema, none, d));
  so.given = GivenPlans::Json;
  Session s(so);
  CHECK_MESSAGE(s.loadEngine(plan, "q.sql", engine::starRocksAdapter(), d) == ok, d.render());
  return s;
}

std::string lossesOf(const QueryRun& q) {
  std::string out;
  for (const auto& l : q.imported->losses) out += l.pointer + ": " + l.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("starrocks plan text: the build side on the branch, the probe side last") {
  std::vector<starrocks_import::PlanCase> cases;
  Diagnostics d;
  REQUIRE(starrocks_import::readPlanDocument(kPlan, "q.sql", cases, d));
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].name == "q");
  CHECK(cases[0].sql.find("select c_phone") == 0);
  REQUIRE(cases[0].fragments.size() == 3);
  const auto& root = *cases[0].fragments[0].root;
  CHECK(root.kind == "Project");
  REQUIRE(root.inputs.size() == 1);
  const auto& join = *root.inputs[0];
  CHECK(join.kind == "HASH JOIN");
  CHECK(join.value("join op: ") == "INNER JOIN (PARTITIONED)");
  REQUIRE(join.inputs.size() == 2);
  CHECK(join.inputs[0]->id == 1);  // the probe side, printed last
  CHECK(join.inputs[1]->id == 2);  // the build side, on the branch
  CHECK(join.inputs[1]->value("distribution type: ") == "SHUFFLE");
  CHECK(join.list("build runtime filters:").size() == 1);
  CHECK(cases[0].fragments[1].outExchange == 2);
  CHECK(cases[0].fragments[2].outExchange == 1);
}

TEST_CASE("starrocks import: fragments joined at exchanges, the filter where StarRocks put it") {
  Diagnostics d;
  Session s = load(kPlan, d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  const std::string text = planToText(*q.query.plan);
  CHECK(text.find("JOIN [shuffle] ON orders.o_custkey = customer.c_custkey; RF1 <- "
                  "customer.c_custkey (orders.o_custkey =, in+bloom+min_max, global)") !=
        std::string::npos);
  CHECK(text.find("Scan #") != std::string::npos);
  CHECK(text.find("orders columns=[o_orderkey, o_custkey]; RF1 -> orders.o_custkey") !=
        std::string::npos);
  CHECK(text.find("Filter #") != std::string::npos);
  CHECK(text.find("customer.c_acctbal > 0") != std::string::npos);
  CHECK(lossesOf(q) == "");
  REQUIRE(q.imported->dynamicFilters.size() == 1);
  CHECK(q.imported->dynamicFilters[0].column == "orders.o_custkey");
  CHECK(s.verify(q).empty());
}

TEST_CASE("starrocks import: without a schema the columns are what the plan reads, typed") {
  Diagnostics d;
  Session s = load(kPlan, d, true, false);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const std::string text = planToText(*s.queries()[0].query.plan);
  CHECK(text.find("RF1 -> orders.o_custkey") != std::string::npos);
  CHECK(lossesOf(s.queries()[0]).find("table orders is not in a schema") != std::string::npos);
  CHECK(s.verify(s.queries()[0]).empty());  // INT keys, read from the plan: min_max fits
}

namespace {

/// kPlan with `below` put between the orders scan and its fragment's exchange,
/// and the filter applied at the exchange instead of the scan.
std::string atExchangeAbove(const std::string& below) {
  std::string plan = kPlan;
  const std::string scan = "5:OlapScanNode";
  plan.replace(plan.find(scan), scan.size(), below + "5:OlapScanNode");
  const std::string exch = "1:EXCHANGE\ndistribution type: SHUFFLE\n";
  plan.replace(plan.find(exch), exch.size(),
               exch + "probe runtime filters:\n- filter_id = 0, probe_expr = (22: O_CUSTKEY)\n");
  const std::string target =
      "probe runtime filters:\n- filter_id = 0, probe_expr = (22: O_CUSTKEY)\n[end]";
  plan.replace(plan.find(target), target.size(), "[end]");
  return plan;
}

}  // namespace

TEST_CASE("starrocks import: a filter at an exchange above an aggregate of its key, at the scan") {
  // A partial aggregate grouped by o_custkey: a filter of a group key removes
  // whole groups, the same whether applied above the aggregate or below it.
  Diagnostics d;
  Session s = load(atExchangeAbove("6:AGGREGATE (update serialize)\n|  group by: [22: O_CUSTKEY, "
                                   "INT, false]\n|\n"),
                   d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  CHECK(lossesOf(s.queries()[0])
            .find("filter 0 (RF1) is applied at exchange 1: imported at the scan below it, "
                  "through the group keys of an aggregate") != std::string::npos);
  const std::string text = planToText(*s.queries()[0].query.plan);
  CHECK(text.find("RF1 -> orders.o_custkey") != std::string::npos);
  CHECK(s.verify(s.queries()[0]).empty());
}

TEST_CASE("starrocks import: a filter at an exchange above a TopN is left out, and said") {
  // Below a TopN a filter removes rows the limit would have cut instead.
  Diagnostics d;
  Session s = load(atExchangeAbove("6:TOP-N\n|  order by: [22, INT, false] ASC\n|  offset: 0\n|  "
                                   "limit: 10\n|\n"),
                   d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  const std::string losses = lossesOf(s.queries()[0]);
  CHECK(losses.find("filter 0 (RF1) is applied at exchange 1 above an operator that changes "
                    "rows") != std::string::npos);
  CHECK(losses.find("filter 0 (RF1) is built here but applied at no scan rfguard imported") !=
        std::string::npos);
  const std::string text = planToText(*s.queries()[0].query.plan);
  CHECK(text.find("RF1") == std::string::npos);  // neither producer nor target
  CHECK(s.verify(s.queries()[0]).empty());
}

TEST_CASE("starrocks import: malformed text is an error at its line") {
  auto fails = [](const std::string& plan, const std::string& want) {
    Diagnostics d;
    SessionOptions so;
    Session s(so);
    CHECK_FALSE(s.loadEngine(plan, "bad.sql", engine::starRocksAdapter(), d));
    CAPTURE(d.render());
    CHECK(d.render().find(want) != std::string::npos);
  };
  std::string noFeed = kPlan;
  noFeed.replace(noFeed.find("OutPut Exchange Id: 02"), 22, "OutPut Exchange Id: 07");
  fails(noFeed, "exchange 2: no fragment feeds it");
  std::string odd = kPlan;
  odd.replace(odd.find("|----2:EXCHANGE"), 15, "|----EXCHANGE");
  fails(odd, "bad.sql:22:6: error: a branch without an operator");
  fails("[sql]\nselect 1\n[fragment statistics]\nPLAN FRAGMENT 0(F00)\n\n[end]\n",
        "fragment 0 has no operator");
  fails(
      "[sql]\nselect 1\n[fragment statistics]\nPLAN FRAGMENT 0(F00)\nRESULT SINK\n\n"
      "0:HASH JOIN\n|  join op: SIDEWAYS JOIN\n|\n|----1:OlapScanNode\n|       table: a\n|\n"
      "2:OlapScanNode\ntable: b\n[end]\n",
      "an unknown join op \"SIDEWAYS JOIN\"");
  // A tree deeper than the reader goes.
  std::string deep = "[fragment statistics]\nPLAN FRAGMENT 0(F00)\n\n";
  for (int i = 0; i < 1100; ++i) deep += std::to_string(i) + ":Project\n|\n";
  deep += "2000:OlapScanNode\ntable: a\n";
  fails(deep, "operators nested more than 1000 deep");
}

TEST_CASE("starrocks is detected by its content and named in --from") {
  CHECK(engine::detectAdapter(kPlan) == &engine::starRocksAdapter());
  CHECK(engine::findAdapter("starrocks") == &engine::starRocksAdapter());
  CHECK(engine::detectAdapter("SELECT 1;") == nullptr);
}

TEST_CASE("starrocks import: an operator of several inputs imports as some of their rows") {
  const char* plan = R"([fragment statistics]
PLAN FRAGMENT 0(F00)
RESULT SINK

3:UNION
|  child exprs:
|      [1: C_CUSTKEY, INT, false]
|      [22: O_CUSTKEY, INT, false]
|
|----2:OlapScanNode
|       table: orders, rollup: orders
|
1:OlapScanNode
table: customer, rollup: customer
[end]
)";
  Diagnostics d;
  Session s = load(plan, d);
  s.run();
  REQUIRE(s.queries().size() == 1);
  CHECK(lossesOf(s.queries()[0])
            .find("UNION of 2 inputs: imported as an operator that returns "
                  "some of their rows, without columns") != std::string::npos);
  CHECK(planToText(*s.queries()[0].query.plan).find("Union #") != std::string::npos);
  CHECK(s.verify(s.queries()[0]).empty());
}
