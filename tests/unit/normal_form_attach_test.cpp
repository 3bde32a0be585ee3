// Proofs by normal form (verifier/normal_form.h) for joins attached to a block:
// LEFT, semi and anti joins past inner joins on the side they keep (l-asscom),
// and [NOT] EXISTS as the semi (anti) join it decorrelates to.
#include <doctest/doctest.h>

#include <functional>

#include "normal_form_support.h"

using namespace rfguard;
using namespace rfguard::testing;

TEST_CASE("normal form: LEFT, semi and anti joins move past inner joins on the side they keep") {
  std::string why;
  // l-asscom: (A LEFT JOIN B ON p) JOIN C ON q is (A JOIN C ON q) LEFT JOIN B ON p.
  CHECK(
      proved("SELECT a.k, b.w, c.x FROM a LEFT JOIN b ON a.k = b.k JOIN c ON a.v = c.k;"
             "SELECT a.k, b.w, c.x FROM a JOIN c ON a.v = c.k LEFT JOIN b ON a.k = b.k;",
             &why));
  CHECK(why ==
        "inner joins reordered or their conjuncts moved; LEFT, semi or anti joins moved past "
        "inner joins on the side they keep");
  for (const char* type : {"LEFT SEMI", "LEFT ANTI"}) {
    CAPTURE(type);
    CHECK(proved(std::string("SELECT a.k, c.x FROM a ") + type +
                 " JOIN b ON a.k = b.k JOIN c ON a.v = c.k;"
                 "SELECT a.k, c.x FROM a JOIN c ON a.v = c.k " +
                 type + " JOIN b ON a.k = b.k;"));
  }
  // As RIGHT joins (mirrored), and NOT IN's anti join.
  CHECK(
      proved("SELECT a.k, b.w, c.x FROM b RIGHT JOIN a ON a.k = b.k JOIN c ON a.v = c.k;"
             "SELECT a.k, b.w, c.x FROM a JOIN c ON a.v = c.k LEFT JOIN b ON a.k = b.k;"));
  {
    // NOT IN's anti join (no SQL spelling: a LEFT ANTI join retyped).
    auto qs = bound(
        "SELECT a.k, c.x FROM a LEFT ANTI JOIN b ON a.k = b.k JOIN c ON a.v = c.k;"
        "SELECT a.k, c.x FROM a JOIN c ON a.v = c.k LEFT ANTI JOIN b ON a.k = b.k;");
    std::function<void(PlanNode&)> retype = [&](PlanNode& n) {
      if (n.op == PlanOp::Join && n.joinType == JoinType::LeftAnti)
        n.joinType = JoinType::NullAwareLeftAnti;
      for (auto& c : n.children) retype(*c);
    };
    for (auto& q : qs) retype(*q.plan);
    CHECK(provedEqual(*qs[0].plan, *qs[1].plan).has_value());
  }
  // Two LEFT joins onto the same input commute.
  CHECK(
      proved("SELECT a.k, b.w, c.x FROM a LEFT JOIN b ON a.k = b.k LEFT JOIN c ON a.v = c.k;"
             "SELECT a.k, b.w, c.x FROM a LEFT JOIN c ON a.v = c.k LEFT JOIN b ON a.k = b.k;"));
  // Not along the padded side: the inner join into B's side keeps (1, NULL).
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.w = c.k;"
             "SELECT a.k, b.w FROM a LEFT JOIN (b JOIN c ON b.w = c.k) ON a.k = b.k;"));
  // A conjunct over the padded columns is not the LEFT join's condition.
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k WHERE b.w IS NULL;"
             "SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k AND b.w IS NULL;"));
  CHECK_FALSE(
      proved("SELECT a.k, c.x FROM a LEFT JOIN b ON a.k = b.k JOIN c ON coalesce(b.w, 0) = c.k;"
             "SELECT a.k, c.x FROM a CROSS JOIN c LEFT JOIN b ON a.k = b.k AND coalesce(b.w, 0) = "
             "c.k;"));
  // An anti join is not a semi join, nor a LEFT join an inner one.
  CHECK_FALSE(
      proved("SELECT a.k, c.x FROM a LEFT SEMI JOIN b ON a.k = b.k JOIN c ON a.v = c.k;"
             "SELECT a.k, c.x FROM a JOIN c ON a.v = c.k LEFT ANTI JOIN b ON a.k = b.k;"));
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a LEFT JOIN b ON a.k = b.k JOIN c ON a.v = c.k;"
             "SELECT a.k, b.w FROM a JOIN c ON a.v = c.k JOIN b ON a.k = b.k;"));
  // FULL joins do not commute with inner joins.
  CHECK_FALSE(
      proved("SELECT a.k, b.w FROM a FULL JOIN b ON a.k = b.k JOIN c ON coalesce(a.v, 1) = c.k;"
             "SELECT a.k, b.w FROM (a JOIN c ON coalesce(a.v, 1) = c.k) FULL JOIN b ON a.k = "
             "b.k;"));
}

TEST_CASE("normal form: [NOT] EXISTS is the semi (anti) join on its correlated conjuncts") {
  // DecorrelateExists is proved step by step, correlated or not, under joins.
  for (const char* sql :
       {"SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.w > 2);",
        "SELECT a.k FROM a WHERE NOT EXISTS (SELECT b.w FROM b WHERE b.k = a.k) AND a.v > 1;",
        "SELECT a.k FROM a JOIN c ON a.k = c.k WHERE EXISTS (SELECT 1 FROM b WHERE b.w = c.x AND "
        "a.v > 3);",
        "SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.w > 2);"}) {
    CHECK(provedStepByStep(sql, "DecorrelateExists", "[NOT] EXISTS as semi / anti joins"));
  }
  // EXISTS is not NOT EXISTS, and its correlation is not dropped.
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
             "SELECT a.k FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"));
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
             "SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b);"));
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
             "SELECT a.k FROM a LEFT SEMI JOIN b ON b.w = a.k;"));
  // As the semi join it is, written out.
  CHECK(
      proved("SELECT a.k FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.k AND b.w > 2);"
             "SELECT a.k FROM a LEFT SEMI JOIN b ON b.k = a.k AND b.w > 2;"));
  CHECK(
      proved("SELECT a.k FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.k);"
             "SELECT a.k FROM a LEFT ANTI JOIN b ON b.k = a.k;"));
  // Not a subquery with a LIMIT or an aggregate between: EXISTS over one
  // aggregate row always holds.
  CHECK_FALSE(
      proved("SELECT a.k FROM a WHERE EXISTS (SELECT max(b.w) FROM b WHERE b.k = 7);"
             "SELECT a.k FROM a LEFT SEMI JOIN b ON b.k = 7;"));
}
