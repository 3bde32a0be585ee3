// Doris's CTEs imported (engines/doris/import_cte.cpp): each consumer a copy
// of its producer's operators, the filters Doris pushes into the producer in
// every copy, the filters the producer's own joins build one per copy, the
// filters applied at a consumer at the scans below it, consumers' columns
// told apart where an equality made them equal, and malformed CTEs as errors.
#include <doctest/doctest.h>

#include "ir/printers.h"
#include "tests/unit/doris_test_support.h"

using namespace rfguard;
using rfguard::doris_test::load;
using rfguard::doris_test::lossesOf;

namespace {

bool hasFinding(Session& s, const QueryRun& q, const std::string& code) {
  for (const auto& f : s.verify(q))
    if (f.code == code) return true;
  return false;
}

}  // namespace

TEST_CASE("doris import: a CTE read by two consumers joined with each other") {
  // WITH t AS (SELECT ps_suppkey FROM partsupp GROUP BY ps_suppkey)
  // SELECT ... FROM t t1 JOIN t t2 ON t1.ps_suppkey = t2.ps_suppkey
  //   JOIN supplier ON t1.ps_suppkey = s_suppkey WHERE s_nationkey = 1
  // RF2 is pushed into the producer (every consumer is joined on ps_suppkey),
  // RF0 applied at the first consumer.
  const std::string plan = R"(PhysicalCteAnchor ( cteId=CTEId#0 )
--PhysicalCteProducer ( cteId=CTEId#0 )
----hashAgg[GLOBAL]
------PhysicalDistribute[DistributionSpecHash]
--------hashAgg[LOCAL]
----------PhysicalProject
------------PhysicalOlapScan[partsupp] apply RFs: RF2
--PhysicalResultSink
----PhysicalProject
------hashJoin[INNER_JOIN broadcast] hashCondition=((t1.ps_suppkey = supplier.s_suppkey)) otherCondition=() build RFs:RF2 s_suppkey->[ps_suppkey]
--------hashJoin[INNER_JOIN shuffle] hashCondition=((t1.ps_suppkey = t2.ps_suppkey)) otherCondition=() build RFs:RF0 ps_suppkey->[ps_suppkey]
----------PhysicalCteConsumer ( cteId=CTEId#0 ) apply RFs: RF0
----------PhysicalCteConsumer ( cteId=CTEId#0 )
--------PhysicalProject
----------filter((supplier.s_nationkey = 1))
------------PhysicalOlapScan[supplier]
)";
  Diagnostics d;
  Session s = load(plan, d);
  REQUIRE(s.queries().size() == 1);
  const QueryRun& q = s.queries()[0];
  // t1 and t2 name columns no operator prints the qualifiers of: the
  // equality of namesakes is the probe's equal to the build's, and above it
  // t1.ps_suppkey is either copy's (they are equal in every row). The
  // aggregate in each copy is grouped by what any consumer reads.
  CHECK(planToText(*q.query.plan) ==
        "Join #8 JOIN [broadcast] ON g2.0_ps_suppkey = supplier.s_suppkey; RF3 <- "
        "supplier.s_suppkey (g2.0_ps_suppkey =, in+bloom+min_max, global)\n"
        "  Join #5 JOIN [shuffle] ON g2.0_ps_suppkey = g4.0_ps_suppkey; RF1 <- g4.0_ps_suppkey "
        "(g2.0_ps_suppkey =, in+bloom+min_max, global)\n"
        "    Aggregate #2 keys=[g2.0_ps_suppkey := partsupp.ps_suppkey]\n"
        "      Scan #1 partsupp columns=[ps_partkey, ps_suppkey, ps_availqty]; RF3 -> "
        "partsupp.ps_suppkey; RF1 -> partsupp.ps_suppkey\n"
        "    Aggregate #4 keys=[g4.0_ps_suppkey := partsupp_7.ps_suppkey]\n"
        "      Scan #3 partsupp AS partsupp_7 columns=[ps_partkey, ps_suppkey, ps_availqty]; RF3 "
        "-> partsupp_7.ps_suppkey\n"
        "  Filter #7 supplier.s_nationkey = 1\n"
        "    Scan #6 supplier columns=[s_suppkey, s_nationkey]\n");
  const std::string losses = lossesOf(q);
  CHECK(losses.find("line 12: CTE 0: Doris runs its producer once for all its consumers; "
                    "imported as a copy of the producer's operators here") != std::string::npos);
  CHECK(losses.find("line 13: CTE 0: Doris runs its producer once for all its consumers; "
                    "imported as a further copy (2)") != std::string::npos);
  CHECK(losses.find("line 12: the CTE consumer applies RF0: imported at the scan of partsupp "
                    "below it, through the group keys of an aggregate") != std::string::npos);
  CHECK(q.imported->dynamicFilters.size() == 3);
  // RF3 into the second copy is sound: t2.ps_suppkey = t1.ps_suppkey below.
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris import: a filter pushed into a CTE that one consumer is not joined on") {
  // Doris pushes a filter into a CTE's producer only when every consumer is
  // joined on the same column; here the second consumer is not, and the
  // filter removes rows it returns.
  const std::string plan = R"(PhysicalCteAnchor ( cteId=CTEId#0 )
--PhysicalCteProducer ( cteId=CTEId#0 )
----PhysicalProject
------PhysicalOlapScan[partsupp] apply RFs: RF0
--PhysicalResultSink
----NestedLoopJoin[CROSS_JOIN]
------hashJoin[INNER_JOIN broadcast] hashCondition=((t1.ps_suppkey = supplier.s_suppkey)) otherCondition=() build RFs:RF0 s_suppkey->[ps_suppkey]
--------PhysicalCteConsumer ( cteId=CTEId#0 )
--------PhysicalOlapScan[supplier]
------PhysicalCteConsumer ( cteId=CTEId#0 )
)";
  Diagnostics d;
  Session s = load(plan, d);
  const QueryRun& q = s.queries()[0];
  const std::string text = planToText(*q.query.plan);
  CHECK(text.find("Scan #1 partsupp columns=[ps_partkey, ps_suppkey, ps_availqty]; RF1 -> "
                  "partsupp.ps_suppkey") != std::string::npos);
  CHECK(text.find("Scan #4 partsupp AS partsupp_4 columns=[ps_partkey, ps_suppkey, "
                  "ps_availqty]; RF1 -> partsupp_4.ps_suppkey") != std::string::npos);
  CHECK(hasFinding(s, q, "consumer-outside-probe-side"));
}

TEST_CASE("doris import: the filters a CTE's own joins build, one per copy") {
  const std::string plan = R"(PhysicalCteAnchor ( cteId=CTEId#1 )
--PhysicalCteProducer ( cteId=CTEId#1 )
----PhysicalProject
------hashJoin[INNER_JOIN broadcast] hashCondition=((partsupp.ps_suppkey = supplier.s_suppkey)) otherCondition=() build RFs:RF0 s_suppkey->[ps_suppkey]
--------PhysicalOlapScan[partsupp] apply RFs: RF0
--------PhysicalProject
----------filter((supplier.s_nationkey = 1))
------------PhysicalOlapScan[supplier]
--PhysicalResultSink
----NestedLoopJoin[CROSS_JOIN]
------PhysicalCteConsumer ( cteId=CTEId#1 )
------PhysicalCteConsumer ( cteId=CTEId#1 )
)";
  Diagnostics d;
  Session s = load(plan, d);
  const QueryRun& q = s.queries()[0];
  const std::string text = planToText(*q.query.plan);
  // Doris's RF0 is RF1 in the first copy and a filter of the second's own, RF2.
  CHECK(text.find("RF1 <- supplier.s_suppkey") != std::string::npos);
  CHECK(text.find("RF1 -> partsupp.ps_suppkey") != std::string::npos);
  CHECK(text.find("RF2 <- supplier_8.s_suppkey") != std::string::npos);
  CHECK(text.find("RF2 -> partsupp_5.ps_suppkey") != std::string::npos);
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris import: a set operation's filters in the older `build RFs:` form") {
  // The form RFV2 filters took before `RFV2:`: the first input's ps_suppkey
  // into the second's s_suppkey, imported as the set operation's own filter.
  const std::string plan = R"(PhysicalResultSink
--PhysicalIntersect build RFs: RF0[ps_suppkey->s_suppkey]
----PhysicalProject
------PhysicalOlapScan[partsupp]
----PhysicalProject
------PhysicalOlapScan[supplier] apply RFs: RF0
)";
  Diagnostics d;
  Session s = load(plan, d);
  const QueryRun& q = s.queries()[0];
  const std::string text = planToText(*q.query.plan);
  CHECK(text.find("Intersect #3 DISTINCT [s3.0_ps_suppkey]; RF1 <- s3.0_ps_suppkey.in0 "
                  "(s3.0_ps_suppkey.in1 =, in+bloom+min_max, global, null allowed)") !=
        std::string::npos);
  CHECK(text.find("RF1 -> supplier.s_suppkey") != std::string::npos);
  CHECK(s.verify(q).empty());
}

TEST_CASE("doris import: malformed CTEs are errors at their line") {
  auto fails = [](const std::string& plan, const std::string& want) {
    Diagnostics d;
    load(plan, d, false);
    CHECK(d.render() == want);
  };
  fails("PhysicalResultSink\n--PhysicalCteConsumer ( cteId=CTEId#3 )\n",
        "p.out:2:3: error: a CTE consumer of cteId 3, which no CTE producer of the plan makes\n");
  fails(
      "PhysicalCteAnchor ( cteId=CTEId#0 )\n--PhysicalCteProducer ( cteId=CTEId#0 )\n"
      "----PhysicalCteConsumer ( cteId=CTEId#0 )\n--PhysicalResultSink\n"
      "----PhysicalCteConsumer ( cteId=CTEId#0 )\n",
      "p.out:3:5: error: CTE 0 reads itself (recursive CTEs are not imported)\n");
  fails(
      "PhysicalResultSink\n--PhysicalCteProducer ( cteId=CTEId#0 )\n----PhysicalOlapScan[nation]\n",
      "p.out:2:3: error: a CTE producer that is not the first input of its CTE anchor\n");
  fails("PhysicalCteAnchor ( cteId=CTEId#0 )\n--PhysicalResultSink\n----PhysicalOlapScan[nation]\n",
        "p.out:1:1: error: a CTE anchor that is not a CTE producer of one input and the query "
        "that reads it\n");
  // CTE i reads CTE i-1 twice: 2^30 copies of the first are refused, not built.
  std::string plan;
  const int levels = 30;
  for (int i = 0; i < levels; ++i) {
    const std::string pad(2 * i, '-'), id = std::to_string(i);
    plan += pad + "PhysicalCteAnchor ( cteId=CTEId#" + id + " )\n";
    plan += pad + "--PhysicalCteProducer ( cteId=CTEId#" + id + " )\n";
    if (i == 0) {
      plan += pad + "----PhysicalOlapScan[nation]\n";
    } else {
      const std::string prev = std::to_string(i - 1);
      plan += pad + "----NestedLoopJoin[CROSS_JOIN]\n";
      plan += pad + "------PhysicalCteConsumer ( cteId=CTEId#" + prev + " )\n";
      plan += pad + "------PhysicalCteConsumer ( cteId=CTEId#" + prev + " )\n";
    }
  }
  plan += std::string(2 * levels, '-') + "PhysicalCteConsumer ( cteId=CTEId#" +
          std::to_string(levels - 1) + " )\n";
  Diagnostics d;
  load(plan, d, false);
  CHECK(d.render().find("error: too large to import: more than 300000 operators and columns "
                        "they output (each CTE consumer imports its producer's operators "
                        "again)") != std::string::npos);
}
