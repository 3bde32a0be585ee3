#include "testgen/random_queries.h"

#include <vector>

namespace rfguard {

namespace {

/// A key expression over column `c`: plain, NULL-replacing, cast or arithmetic.
std::string keyExpr(std::mt19937_64& rng, const std::string& c) {
  switch (randomBelow(rng, 7)) {
    case 0:
      return "coalesce(" + c + ", 0)";
    case 1:
      return "cast(" + c + " AS bigint)";
    case 2:
      return c + " + 1";
    case 3:
      return "abs(" + c + ")";
    default:
      return c;
  }
}

/// The alias of one of `visible`'s relations, at random.
std::string anyOf(std::mt19937_64& rng, const std::vector<int>& visible) {
  return "r" +
         std::to_string(
             visible[static_cast<size_t>(randomBelow(rng, static_cast<int>(visible.size())))]);
}

/// A relation for table i: the table, or a derived table with an aggregate or a limit.
std::string relation(std::mt19937_64& rng, int i) {
  std::string t = "t" + std::to_string(i), a = "r" + std::to_string(i);
  switch (randomBelow(rng, 8)) {
    case 0:
      return "(SELECT k, count(*) AS v FROM " + t + " GROUP BY k) AS " + a;
    case 1:
      return "(SELECT k, v FROM " + t + " ORDER BY k LIMIT 1) AS " + a;
    case 2:
      return "(SELECT k, max(v) AS v FROM " + t + " GROUP BY ROLLUP (k)) AS " + a;
    default:
      return t + " AS " + a;
  }
}

}  // namespace

std::string randomSchema() {
  std::string s;
  // Row statistics of different sizes, so that the join order steps
  // (ReorderJoins, ChooseBuildSides) reorder random queries too.
  static const char* kRows[] = {"1000000", "50", "20000", "300", "5000000", "10"};
  for (int i = 0; i < 6; ++i)
    s += "CREATE TABLE t" + std::to_string(i) + " (k int, v int) WITH (rows = " + kRows[i] + ");\n";
  return s;
}

std::string randomQuery(std::mt19937_64& rng, int tables) {
  static const char* kJoins[] = {"JOIN",      "JOIN",           "LEFT JOIN",     "RIGHT JOIN",
                                 "FULL JOIN", "LEFT SEMI JOIN", "LEFT ANTI JOIN"};
  static const char* kOps[] = {"=", "=", "<=>", "IS NOT DISTINCT FROM"};
  std::vector<int> visible{0};  // relations whose columns the join output still has
  std::string sql = "SELECT * FROM " + relation(rng, 0);
  for (int i = 1; i < tables; ++i) {
    std::string join = kJoins[randomBelow(rng, 7)];
    std::string left = anyOf(rng, visible);
    std::string right = "r" + std::to_string(i);
    sql += " " + join + " " + relation(rng, i) + " ON " + keyExpr(rng, left + ".k") + " " +
           kOps[randomBelow(rng, 4)] + " " + keyExpr(rng, right + ".k");
    if (randomBelow(rng, 4) == 0) sql += " AND " + left + ".v = " + right + ".v";
    if (join.find("SEMI") == std::string::npos && join.find("ANTI") == std::string::npos)
      visible.push_back(i);
  }
  switch (randomBelow(rng, 4)) {
    case 0:
      sql += " WHERE r0.k NOT IN (SELECT k FROM t" + std::to_string(randomBelow(rng, 6)) + ")";
      break;
    case 1: {
      // A correlated [NOT] EXISTS over a visible relation's key.
      std::string outer = anyOf(rng, visible);
      sql += std::string(" WHERE ") + (randomBelow(rng, 2) ? "" : "NOT ") +
             "EXISTS (SELECT 1 FROM t" + std::to_string(randomBelow(rng, 6)) + " AS s WHERE s.k " +
             kOps[randomBelow(rng, 4)] + " " + keyExpr(rng, outer + ".k") +
             (randomBelow(rng, 2) ? " AND s.v > 2" : "") + ")";
      break;
    }
    default:
      break;
  }
  return sql + ";\n";
}

}  // namespace rfguard
