// Join trees compared (tools/cli/join_trees.h): the engine's against
// rfguard's, a join equal to its mirror with the inputs swapped.
#include "tools/cli/join_trees.h"
#include "tests/unit/rf_test_support.h"

using namespace rfguard;

namespace {

/// The bound plan of `sql`, joins as written.
PlanPtr written(const std::string& sql) {
  Catalog catalog;
  std::vector<Query> qs;
  Diagnostics diags;
  REQUIRE_MESSAGE(
      loadSql("CREATE TABLE a (k int); CREATE TABLE b (k int); CREATE TABLE c (k int);" + sql,
              "t.sql", catalog, qs, diags),
      diags.render());
  return qs[0].plan;
}

}  // namespace

TEST_CASE("join trees: the same, sides swapped, mirrored, or another") {
  const auto ab = written("SELECT * FROM a JOIN b ON a.k = b.k;");
  const auto ba = written("SELECT * FROM b JOIN a ON a.k = b.k;");
  CHECK(joinTreeText(*ab) == "(a JOIN b)");
  auto same = compareJoinTrees(*ab, *ab);
  CHECK(same.sameTree);
  CHECK(same.sameSides);
  CHECK(same.joins == 1);
  auto swapped = compareJoinTrees(*ab, *ba);
  CHECK(swapped.sameTree);
  CHECK_FALSE(swapped.sameSides);
  CHECK(swapped.sidesDiffer == 1);

  // a LEFT JOIN b is b RIGHT JOIN a with the inputs swapped.
  const auto left = written("SELECT * FROM a LEFT JOIN b ON a.k = b.k;");
  const auto right = written("SELECT * FROM b RIGHT JOIN a ON a.k = b.k;");
  CHECK(joinTreeText(*left) == "(a LEFT b)");
  auto mirror = compareJoinTrees(*left, *right);
  CHECK(mirror.sameTree);
  CHECK(mirror.sidesDiffer == 1);
  // ...but not a RIGHT JOIN with the same inputs.
  const auto notMirror = written("SELECT * FROM a RIGHT JOIN b ON a.k = b.k;");
  CHECK_FALSE(compareJoinTrees(*left, *notMirror).sameTree);

  // Another association is another tree; a cross join and an inner join of
  // the same inputs differ only in the condition the tree leaves out.
  const auto leftDeep = written("SELECT * FROM (a JOIN b ON a.k = b.k) JOIN c ON b.k = c.k;");
  const auto rightDeep = written("SELECT * FROM a JOIN (b JOIN c ON b.k = c.k) ON a.k = b.k;");
  auto other = compareJoinTrees(*leftDeep, *rightDeep);
  CHECK_FALSE(other.sameTree);
  CHECK(other.engine == "((a JOIN b) JOIN c)");
  CHECK(other.rfguard == "(a JOIN (b JOIN c))");
  const auto cross = written("SELECT * FROM a CROSS JOIN b;");
  CHECK(compareJoinTrees(*cross, *ab).sameSides);
}
