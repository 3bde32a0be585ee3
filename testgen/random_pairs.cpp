// Random pairs of nearly equal queries (testgen/random_queries.h): the solver,
// the search, the evaluator and SQLite are cross-checked on them.
#include <string>
#include <vector>

#include "testgen/random_queries.h"

namespace rfguard {

namespace {

/// The choices of one query: from the seed, but the `flip`-th choice takes the
/// next value instead (one edit of the query), when there is one.
class Chooser {
 public:
  Chooser(uint64_t seed, int flip) : rng_(seed), flip_(flip) {}
  int below(int n) {
    int x = randomBelow(rng_, n);
    if (count_++ == flip_ && n > 1) x = (x + 1) % n;
    return x;
  }
  template <typename T>
  const T& pick(const std::vector<T>& xs) {
    return xs[static_cast<size_t>(below(static_cast<int>(xs.size())))];
  }
  int count() const { return count_; }

 private:
  std::mt19937_64 rng_;
  int flip_;
  int count_ = 0;
};

class Writer {
 public:
  explicit Writer(Chooser& c) : c_(c) {}

  std::string query(int depth) {
    if (depth == 0 && c_.below(5) == 0) {
      static const std::vector<std::string> ops = {"UNION", "UNION ALL", "EXCEPT", "INTERSECT"};
      return select(1) + " " + c_.pick(ops) + " " + select(1);
    }
    return select(depth);
  }

 private:
  std::string select(int depth) {
    cols_.clear();
    std::string from = "t0";
    cols_ = {"t0.k", "t0.v"};
    if (c_.below(3) > 0) {
      static const std::vector<std::string> joins = {"JOIN", "LEFT JOIN", "RIGHT JOIN",
                                                     "FULL JOIN"};
      const bool text = c_.below(4) == 0;
      const std::string other = text ? "t2" : "t1";
      from += " " + c_.pick(joins) + " " + other + " ON ";
      std::vector<std::string> left = cols_;
      cols_.push_back(other + ".k");
      if (!text) cols_.push_back("t1.v");
      from += intExpr(2, left) + " = " + other + ".k";
      if (c_.below(3) == 0) from += " AND " + pred(1);
      if (text)
        from += " AND t2.x " + c_.pick(std::vector<std::string>{"<", "=", ">="}) + " " +
                c_.pick(std::vector<std::string>{"'b'", "'ab'", "'c'"});
    }
    std::string where = c_.below(3) > 0 ? " WHERE " + pred(2) : "";
    if (depth < 1 && c_.below(4) == 0) {
      const std::string outer =
          cols_[static_cast<size_t>(c_.below(static_cast<int>(cols_.size())))];
      where += std::string(where.empty() ? " WHERE " : " AND ") +
               (c_.below(2) ? "EXISTS (SELECT 1 FROM t1 s WHERE s.k = " + outer + ")"
                            : outer + (c_.below(2) ? " NOT" : "") +
                                  " IN (SELECT s.v FROM t1 s WHERE s.k > " +
                                  std::to_string(c_.below(4)) + ")");
    }
    const int shape = c_.below(8);
    if (shape == 0) {  // a window function: ranks, aggregates, a ROWS frame
      static const std::vector<std::string> wins = {"row_number()", "rank()",   "dense_rank()",
                                                    "sum(%)",       "count(*)", "min(%)"};
      std::string win = c_.pick(wins);
      const size_t at = win.find('%');
      if (at != std::string::npos) win.replace(at, 1, column());
      std::string over =
          "PARTITION BY " + column() + " ORDER BY " + column() + (c_.below(2) ? " DESC" : "");
      if (win[0] != 'r' && win[0] != 'd' && c_.below(2))
        over += " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW";
      return "SELECT " + intExpr(1, cols_) + " AS a, " + win + " OVER (" + over + ") AS b FROM " +
             from + where;
    }
    if (shape == 1)  // a LIMIT below the root
      return "SELECT s.a, s.b FROM (SELECT " + intExpr(1, cols_) + " AS a, " + intExpr(1, cols_) +
             " AS b FROM " + from + where + " ORDER BY a" + (c_.below(2) ? " DESC" : "") +
             " LIMIT " + std::to_string(1 + c_.below(2)) + (c_.below(2) ? " OFFSET 1" : "") + ") s";
    if (c_.below(3) == 0) {
      static const std::vector<std::string> aggs = {"count(*)", "count(%)", "sum(%)",
                                                    "min(%)",   "max(%)",   "count(DISTINCT %)"};
      std::string agg = c_.pick(aggs);
      const size_t at = agg.find('%');
      if (at != std::string::npos) agg.replace(at, 1, intExpr(1, cols_));
      // A key that is a column (a bare number would be a GROUP BY position).
      const std::string key = "coalesce(" +
                              cols_[static_cast<size_t>(c_.below(static_cast<int>(cols_.size())))] +
                              ", " + constant() + ")";
      return "SELECT " + key + " AS a, " + agg + " AS b FROM " + from + where + " GROUP BY " + key;
    }
    return std::string("SELECT ") + (c_.below(4) == 0 ? "DISTINCT " : "") + intExpr(2, cols_) +
           " AS a, " + intExpr(2, cols_) + " AS b FROM " + from + where;
  }

  std::string column() {
    return cols_[static_cast<size_t>(c_.below(static_cast<int>(cols_.size())))];
  }

  std::string constant() {
    static const std::vector<std::string> cs = {"0", "1", "2", "3", "5", "-1", "7", "100003"};
    return c_.pick(cs);
  }

  std::string intExpr(int depth, const std::vector<std::string>& cols) {
    const int k = depth <= 0 ? c_.below(2) : c_.below(9);
    switch (k) {
      case 0:
      case 2:
      case 3:
        return cols[static_cast<size_t>(c_.below(static_cast<int>(cols.size())))];
      case 1:
        return constant();
      case 4:
        return "(" + intExpr(depth - 1, cols) + " " + c_.pick(std::vector<std::string>{"+", "-"}) +
               " " + intExpr(depth - 1, cols) + ")";
      case 5:
        return "(" + intExpr(depth - 1, cols) + " " + c_.pick(std::vector<std::string>{"*", "%"}) +
               " " + constant() + ")";
      case 6:
        return "coalesce(" + intExpr(depth - 1, cols) + ", " + constant() + ")";
      case 7:
        return "CASE WHEN " + pred(depth - 1) + " THEN " + intExpr(depth - 1, cols) + " ELSE " +
               intExpr(depth - 1, cols) + " END";
      default:
        return "abs(" + intExpr(depth - 1, cols) + ")";
    }
  }

  std::string pred(int depth) {
    const int k = depth <= 0 ? c_.below(3) : c_.below(7);
    static const std::vector<std::string> cmps = {"=", "<>", "<", "<=", ">", ">="};
    switch (k) {
      case 0:
      case 1:
        return intExpr(depth, cols_) + " " + c_.pick(cmps) + " " + intExpr(depth, cols_);
      case 2:
        return intExpr(depth, cols_) + (c_.below(2) ? " IS NULL" : " IS NOT NULL");
      case 3:
        return "NOT (" + pred(depth - 1) + ")";
      case 4:
        return "(" + pred(depth - 1) + (c_.below(2) ? " AND " : " OR ") + pred(depth - 1) + ")";
      case 5:
        return intExpr(depth, cols_) + " IN (" + constant() + ", " + constant() + ")";
      default:
        return intExpr(depth, cols_) + " IS NOT DISTINCT FROM " + intExpr(depth, cols_);
    }
  }

  Chooser& c_;
  std::vector<std::string> cols_;
};

}  // namespace

std::string randomPairSchema() {
  return "CREATE TABLE t0 (k int, v int);\n"
         "CREATE TABLE t1 (k int, v int);\n"
         "CREATE TABLE t2 (k int PRIMARY KEY, x varchar(8));\n";
}

std::pair<std::string, std::string> randomNearPair(uint64_t seed) {
  Chooser first(seed, -1);
  Writer w(first);
  const std::string a = w.query(0) + ";";
  // The same choices but one, drawn from the seed too.
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  Chooser second(seed, randomBelow(rng, std::max(first.count(), 1)));
  Writer w2(second);
  return {a, w2.query(0) + ";"};
}

}  // namespace rfguard
