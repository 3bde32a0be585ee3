// Random queries of the analytic benchmarks' shape (TPC-DS, JOB): one or two
// fact tables, six to twelve relations in a star or snowflake, the same
// dimension under several aliases, filters on the dimensions (IN lists,
// ranges, LIKE, IS NOT NULL), comma joins with the join conditions in WHERE or
// explicit joins with some LEFT JOINs, an IN or NOT EXISTS subquery, and either
// JOB's min() aggregates or TPC-DS's GROUP BY ... ORDER BY ... LIMIT 100.
#include <algorithm>
#include <vector>

#include "testgen/random_queries.h"

namespace rfguard {

namespace {

constexpr int kDims = 10;
/// The snowflake: dimension i's `p` refers to dimension kParent[i] (-1: none).
constexpr int kParent[kDims] = {-1, -1, 8, 9, 8, -1, 9, 8, -1, -1};
/// The dimensions each fact table refers to (fact: d0..d5, fact2: d0, d1, d6, d7).
const std::vector<int>& factDims(int fact) {
  static const std::vector<int> kFact0{0, 1, 2, 3, 4, 5}, kFact1{0, 1, 6, 7};
  return fact == 0 ? kFact0 : kFact1;
}

/// One filter on dimension alias `x`, as the benchmarks write them.
std::string dimFilter(std::mt19937_64& rng, const std::string& x) {
  const int lo = 1 + randomBelow(rng, 3);
  std::string a = std::to_string(lo), b = std::to_string(lo + 1 + randomBelow(rng, 2));
  switch (randomBelow(rng, 9)) {
    case 0:
      return x + ".a IN (" + a + ", " + b + ", 7)";
    case 1:
      return x + ".a = " + a;
    case 2:
      return x + ".c BETWEEN " + a + " AND " + b;
    case 3:
      return x + ".b = 'b" + a + "'";
    case 4:
      return x + ".b LIKE 'b%'";
    case 5:
      return x + ".b IN ('b" + a + "', 'b" + b + "')";
    case 6:
      return x + ".a IS NOT NULL";
    case 7:
      return x + ".c > " + a;
    default:
      return x + ".a = " + a + " AND " + x + ".c < " + b;
  }
}

}  // namespace

std::string randomAnalyticSchema() {
  std::string s =
      "CREATE TABLE fact (d0 int, d1 int, d2 int, d3 int, d4 int, d5 int, q int, p int) "
      "WITH (rows = 10000000);\n"
      "CREATE TABLE fact2 (d0 int, d1 int, d6 int, d7 int, q int) WITH (rows = 3000000);\n";
  static const char* kRows[kDims] = {"73049", "18000", "100000", "2000",  "500",
                                     "12",    "7200",  "300",    "20000", "40"};
  for (int i = 0; i < kDims; ++i)
    s += "CREATE TABLE d" + std::to_string(i) +
         " (k int NOT NULL PRIMARY KEY, a int, b varchar(20), c int, p int) WITH (rows = " +
         kRows[i] + ");\n";
  return s;
}

std::string randomAnalyticQuery(std::mt19937_64& rng, int tables) {
  struct Rel {
    std::string table, alias, joinCond;  // joinCond: how it joins what comes before
    bool dim = true;
  };
  std::vector<Rel> rels;
  const int fact = randomBelow(rng, 4) == 0 ? 1 : 0;
  rels.push_back({fact ? "fact2" : "fact", "f", "", false});
  const bool twoFacts = randomBelow(rng, 3) == 0;
  if (twoFacts) {
    // A fact-to-fact join through shared dimension keys (TPC-DS's store and catalog sales).
    rels.push_back({fact ? "fact" : "fact2", "g", "f.d0 = g.d0", false});
    if (randomBelow(rng, 2)) rels.back().joinCond += " AND f.d1 = g.d1";
  }
  // Dimensions: the facts' own first, then a snowflake parent of one already in,
  // then a dimension again under another alias (JOB's cn1, cn2).
  std::vector<std::pair<int, std::string>> in;  // dimension, alias
  std::vector<int> order = factDims(fact);
  std::shuffle(order.begin(), order.end(), rng);
  int aliasNo = 0;
  auto addDim = [&](int d, const std::string& cond) {
    std::string alias = "x" + std::to_string(aliasNo++);
    std::string c = cond;
    for (size_t at; (at = c.find('$')) != std::string::npos;) c.replace(at, 1, alias);
    rels.push_back({"d" + std::to_string(d), alias, c, true});
    in.push_back({d, alias});
  };
  for (int d : order) {
    if (static_cast<int>(rels.size()) >= tables) break;
    addDim(d, "f.d" + std::to_string(d) + " = $.k");
  }
  while (static_cast<int>(rels.size()) < tables) {
    const auto [child, childAlias] =
        in[static_cast<size_t>(randomBelow(rng, static_cast<int>(in.size())))];
    if (kParent[child] >= 0 && randomBelow(rng, 3) != 0) {
      addDim(kParent[child], childAlias + ".p = $.k");
    } else {
      // The same dimension again, joined to the fact's column or a parent's key.
      const auto& dims = factDims(fact);
      int d = dims[static_cast<size_t>(randomBelow(rng, static_cast<int>(dims.size())))];
      addDim(d, (twoFacts && randomBelow(rng, 2) ? "g" : "f") + std::string(".d") +
                    std::to_string(twoFacts && d > 1 ? 0 : d) + " = $.k");
    }
  }
  std::vector<std::string> where;
  for (const Rel& r : rels)
    if (r.dim && randomBelow(rng, 5) < 3) where.push_back(dimFilter(rng, r.alias));
  if (randomBelow(rng, 3) == 0) where.push_back("f.q > " + std::to_string(randomBelow(rng, 4)));
  switch (randomBelow(rng, 5)) {
    case 0:
      where.push_back(
          "f.d1 IN (SELECT k FROM d1 WHERE a = " + std::to_string(1 + randomBelow(rng, 3)) + ")");
      break;
    case 1:
      where.push_back(std::string(fact ? "NOT EXISTS (SELECT 1 FROM fact AS e"
                                       : "NOT EXISTS (SELECT 1 FROM fact2 AS e") +
                      " WHERE e.d0 = f.d0 AND e.q > 2)");
      break;
    default:
      break;
  }
  // FROM: comma joins with the conditions in WHERE (JOB, most of TPC-DS), or
  // explicit joins, a dimension sometimes LEFT JOINed.
  std::string from;
  if (randomBelow(rng, 3) != 0) {
    for (const Rel& r : rels) {
      from += (from.empty() ? "" : ", ") + r.table + " AS " + r.alias;
      if (!r.joinCond.empty()) where.insert(where.begin(), r.joinCond);
    }
  } else {
    for (const Rel& r : rels) {
      if (from.empty()) {
        from = r.table + " AS " + r.alias;
        continue;
      }
      const bool left = r.dim && randomBelow(rng, 5) == 0;
      from += std::string(left ? " LEFT JOIN " : " JOIN ") + r.table + " AS " + r.alias + " ON " +
              r.joinCond;
    }
  }
  // The output: JOB's minima, or TPC-DS's grouped, ordered top 100.
  std::vector<std::string> dimAliases;
  for (const Rel& r : rels)
    if (r.dim) dimAliases.push_back(r.alias);
  const std::string x =
      dimAliases[static_cast<size_t>(randomBelow(rng, static_cast<int>(dimAliases.size())))];
  const std::string y =
      dimAliases[static_cast<size_t>(randomBelow(rng, static_cast<int>(dimAliases.size())))];
  std::string sql;
  if (randomBelow(rng, 2))
    sql = "SELECT min(" + x + ".b) AS m1, min(" + y + ".a) AS m2 FROM " + from;
  else
    sql = "SELECT " + x + ".b, " + y + ".a, sum(f.q) AS s, count(*) AS n FROM " + from;
  for (size_t i = 0; i < where.size(); ++i) sql += (i ? " AND " : " WHERE ") + where[i];
  if (sql.rfind("SELECT min", 0) != 0)
    sql += " GROUP BY " + x + ".b, " + y + ".a ORDER BY " + x + ".b, " + y + ".a LIMIT 100";
  return sql + ";\n";
}

}  // namespace rfguard
