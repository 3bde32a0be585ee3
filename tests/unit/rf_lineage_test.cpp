// The lineage index: which scan outputs a column, and when a filter on it may
// skip the nodes between (rules/rf_lineage.h).
#include "rules/rf_lineage.h"
#include "tests/unit/rf_test_support.h"

using namespace rfguard;
using namespace rfguard::testing;

namespace {
/// The nodes of `n`'s tree with operator `op`, top first (pre-order).
void collect(PlanNode& n, PlanOp op, std::vector<PlanNode*>& out) {
  if (n.op == op) out.push_back(&n);
  for (auto& c : n.children) collect(*c, op, out);
}

PlanNode* scanOfAlias(PlanNode& root, const std::string& alias) {
  std::vector<PlanNode*> scans;
  collect(root, PlanOp::Scan, scans);
  for (PlanNode* s : scans)
    if (s->alias == alias) return s;
  return nullptr;
}
}  // namespace

TEST_CASE("lineage index: scans by column, and jumps only past nodes that pass a column") {
  Planned p = plan("SELECT a.v, b.v, c.v FROM a JOIN b ON a.k = b.k JOIN c ON a.k = c.k");
  PlanNode& root = *p.queries[0].plan;
  std::vector<PlanNode*> joins;
  collect(root, PlanOp::Join, joins);
  REQUIRE(joins.size() == 2);  // (a JOIN b) JOIN c, the upper first
  PlanNode* a = scanOfAlias(root, "a");
  PlanNode* c = scanOfAlias(root, "c");
  REQUIRE(a);
  REQUIRE(c);
  const LineageIndex index(root);
  CHECK(index.scanOf("a.k") == a);
  CHECK(index.scanOf("c.v") == c);
  CHECK(index.scanOf("a.zz") == nullptr);
  CHECK(index.scanOf("") == nullptr);
  // a.v is a key of neither join: from the upper join straight to a's scan.
  CHECK(index.jumpTarget(*joins[0], "a.v") == a);
  CHECK(index.jumpTarget(*joins[1], "a.v") == a);
  // a.k is a key of both joins on the way: each may copy it, so no jump.
  CHECK(index.jumpTarget(*joins[0], "a.k") == nullptr);
  CHECK(index.jumpTarget(*joins[1], "a.k") == nullptr);
  // c.k is a key of the upper join: no jump from there. c.v is no key: a jump,
  // but only from a node above c's scan.
  CHECK(index.jumpTarget(*joins[0], "c.k") == nullptr);
  CHECK(index.jumpTarget(*joins[0], "c.v") == c);
  CHECK(index.jumpTarget(*joins[1], "c.v") == nullptr);  // c is not below the lower join
  CHECK(index.jumpTarget(root, "a.v") == nullptr);       // the projection renames its columns
  auto path = index.path(joins[0]->id, a->id);
  REQUIRE(path.size() == 2);
  CHECK(path[0].first == joins[0]->id);
  CHECK(path[1].first == joins[1]->id);
  CHECK(path[0].second == RfRule::PassThroughJoinPreservedSide);
}

TEST_CASE("lineage index: no jump into a NULL-generating side") {
  Planned p = plan("SELECT a.v, b.v FROM a LEFT JOIN b ON a.k = b.k", false);
  PlanNode& root = *p.queries[0].plan;
  std::vector<PlanNode*> joins;
  collect(root, PlanOp::Join, joins);
  REQUIRE(joins.size() == 1);
  const LineageIndex index(root);
  CHECK(index.jumpTarget(*joins[0], "a.v") == scanOfAlias(root, "a"));
  CHECK(index.jumpTarget(*joins[0], "b.v") == nullptr);
  CHECK(index.scanOf("b.v") == scanOfAlias(root, "b"));
}
