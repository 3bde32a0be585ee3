// Doris's set operations imported (engines/doris/import_setop.cpp): columns
// rebuilt from what ties them to each input, the filters an INTERSECT or
// EXCEPT builds (`RFV2: RF6[src->dst]`, applied at scans as `RFV2: RF6`),
// and join filters through a UNION into each input.
#include <doctest/doctest.h>

#include <sstream>

#include "ir/printers.h"
#include "tests/unit/doris_test_support.h"
#include "tools/cli/cli.h"

using namespace rfguard;
using rfguard::doris_test::load;
using rfguard::doris_test::lossesOf;

namespace {

/// Doris's TPC-DS q87 shape over TPC-H tables: an EXCEPT whose first input's
/// key filters the other two (RF2 into partsupp, RF3 into lineitem).
std::string exceptPlan(const std::string& firstScan = "PhysicalOlapScan[supplier]") {
  return R"(-- !q87 --
PhysicalResultSink
--hashAgg[GLOBAL]
----PhysicalDistribute[DistributionSpecGather]
------hashAgg[LOCAL]
--------PhysicalProject
----------PhysicalExcept RFV2: RF2[s_nationkey->ps_suppkey] RF3[s_nationkey->l_suppkey]
------------PhysicalDistribute[DistributionSpecHash]
--------------PhysicalProject
----------------)" +
         firstScan + R"(
------------PhysicalDistribute[DistributionSpecHash]
--------------PhysicalProject
----------------PhysicalOlapScan[partsupp] RFV2: RF2
------------PhysicalDistribute[DistributionSpecHash]
--------------PhysicalProject
----------------PhysicalOlapScan[lineitem] RFV2: RF3
)";
}

}  // namespace

TEST_CASE("doris import: an EXCEPT builds filters of its first input's values") {
  Diagnostics d;
  Session s = load(exceptPlan(), d);
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  // One column, tied by the filters: supplier's s_nationkey, partsupp's
  // ps_suppkey, lineitem's l_suppkey. Doris's RF2 and RF3 are rfguard's RF3
  // and RF4, null-allowing as Doris makes a set operation's filters.
  CHECK(planToText(*q.query.plan) ==
        "Aggregate #8 keys=[]\n"
        "  Except #4 DISTINCT [s4.0_s_nationkey]; RF3 <- s4.0_s_nationkey.in0 "
        "(s4.0_s_nationkey.in1 =, in+bloom+min_max, global, null allowed); RF4 <- "
        "s4.0_s_nationkey.in0 (s4.0_s_nationkey.in2 =, in+bloom+min_max, global, null allowed)\n"
        "    Project #5 [s4.0_s_nationkey.in0 := supplier.s_nationkey]\n"
        "      Scan #1 supplier columns=[s_suppkey, s_nationkey]\n"
        "    Project #6 [s4.0_s_nationkey.in1 := partsupp.ps_suppkey]\n"
        "      Scan #2 partsupp columns=[ps_partkey, ps_suppkey, ps_availqty]; RF3 -> "
        "partsupp.ps_suppkey\n"
        "    Project #7 [s4.0_s_nationkey.in2 := lineitem.l_suppkey]\n"
        "      Scan #3 lineitem columns=[l_orderkey, l_suppkey, l_quantity]; RF4 -> "
        "lineitem.l_suppkey\n");
  CHECK(lossesOf(q).find("line 7: PhysicalExcept prints none of its columns: imported with the 1 "
                         "the plan ties to its inputs (s_nationkey by RF2), each input narrowed "
                         "to them; as DISTINCT; Doris's other columns are left out") !=
        std::string::npos);
  REQUIRE(q.imported->dynamicFilters.size() == 2);
  CHECK(q.imported->dynamicFilters[0].producers == std::vector<int>{4});
  // Sound: rows of partsupp or lineitem whose key no supplier has change
  // nothing, and NULL keys pass.
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris import: a set operation's filter into its first input is judged, not dropped") {
  // Doris never prints this; if it did, the verifier says what is wrong.
  Diagnostics d;
  Session s = load(exceptPlan("PhysicalOlapScan[supplier] RFV2: RF4"), d);
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  CHECK(lossesOf(q).find("the scan applies RFV2:") == std::string::npos);
  CHECK(lossesOf(q).find("RF4, which no operator of the plan builds") != std::string::npos);
}

TEST_CASE("doris import: a join filter through a UNION reaches each input's column") {
  // The union's column u.k is tied by RF0's targets: supplier's s_nationkey
  // in the first input, partsupp's ps_suppkey in the second.
  const std::string plan = R"(PhysicalResultSink
--hashJoin[INNER_JOIN broadcast] hashCondition=((u.k = nation.n_nationkey)) otherCondition=() build RFs:RF0 n_nationkey->[s_nationkey,ps_suppkey]
----PhysicalUnion
------PhysicalProject
--------PhysicalOlapScan[supplier] apply RFs: RF0
------PhysicalProject
--------PhysicalOlapScan[partsupp] apply RFs: RF0
----PhysicalOlapScan[nation]
)";
  Diagnostics d;
  Session s = load(plan, d);
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  CHECK(planToText(*q.query.plan) ==
        "Join #7 JOIN [broadcast] ON s3.0_k = nation.n_nationkey; RF1 <- nation.n_nationkey "
        "(s3.0_k =, in+bloom+min_max, global)\n"
        "  Union #3 ALL [s3.0_k]\n"
        "    Project #4 [s3.0_k.in0 := supplier.s_nationkey]\n"
        "      Scan #1 supplier columns=[s_suppkey, s_nationkey]; RF1 -> supplier.s_nationkey\n"
        "    Project #5 [s3.0_k.in1 := partsupp.ps_suppkey]\n"
        "      Scan #2 partsupp columns=[ps_partkey, ps_suppkey, ps_availqty]; RF1 -> "
        "partsupp.ps_suppkey\n"
        "  Scan #6 nation columns=[n_nationkey, n_name]\n");
  CHECK(lossesOf(q).find("PhysicalUnion prints none of its columns: imported with the 1 the plan "
                         "ties to its inputs (k by RF0's targets), each input narrowed to them; "
                         "as UNION ALL") != std::string::npos);
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris import: a set operation whose columns nothing ties stays some of its rows") {
  const std::string plan = R"(PhysicalResultSink
--hashAgg[GLOBAL]
----PhysicalIntersect
------PhysicalOlapScan[supplier]
------PhysicalOlapScan[partsupp]
)";
  Diagnostics d;
  Session s = load(plan, d);
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  CHECK(lossesOf(q).find("line 3: PhysicalIntersect of 2 inputs, none of whose columns the plan "
                         "ties to its inputs'") != std::string::npos);
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris compare: set operations, mark joins and expr_ keys agree with the profiles") {
  // The hand-written seed of fuzz_doris_import: an EXCEPT's filters, a join
  // filter through a UNION, a mark join under an expr_ key's filter (Doris
  // targets s_nationkey, the planner CAST(s_nationkey AS bigint): the same
  // rows, as the cast keeps every value), a framed window.
  std::vector<std::string> args = {
      "rfguard",
      "compare",
      "--schema",
      std::string(RFGUARD_SOURCE_DIR) + "/corpus/examples/tpch.sql",
      "--from",
      "doris",
      std::string(RFGUARD_SOURCE_DIR) + "/fuzz/seeds/doris_import/set_operations.out"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  CHECK(runCli(static_cast<int>(argv.size()), argv.data(), out, err) == 0);
  CHECK(out.str().find("-- 4 queries: the engines placed 5 consumers, the sound profile 5 (5 "
                       "both, 0 the engines' only, 0 sound only); the engines' profiles agree on "
                       "4 of 4") != std::string::npos);
}
