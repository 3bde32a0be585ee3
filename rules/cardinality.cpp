#include "rules/cardinality.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>

#include "ir/comparison.h"
#include "ir/join_keys.h"

namespace rfguard {

namespace {

bool isColumn(const Expr& e) {
  return e.kind == ExprKind::Column;
}

/// A value fixed for the whole input: a literal, or an expression over no column
/// of the input (a correlated reference counts as fixed).
bool fixedOver(const Expr& e, const PlanNode* a, const PlanNode* b) {
  if (e.kind == ExprKind::Subquery) return false;
  return allColumnRefs(
      e, [&](const std::string& c) { return !(a && produces(*a, c)) && !(b && produces(*b, c)); });
}

double clampUnit(double s) {
  return std::min(1.0, std::max(0.0, s));
}

/// The conjuncts of nested ANDs, in order.
void flattenAnd(const Expr& x, std::vector<const Expr*>& parts) {
  if (!isCallOf(x, "and")) {
    parts.push_back(&x);
    return;
  }
  for (const auto& y : x.args) flattenAnd(*y, parts);
}

/// Sorts and deduplicates: a set of column ids as std::set<std::string> orders
/// them, without a node per id.
void makeSet(std::vector<std::string_view>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

}  // namespace

size_t CardinalityEstimator::memoSlot(const PlanNode* n) const {
  assert(!rows_.empty() && (rows_.size() & (rows_.size() - 1)) == 0);
  const size_t mask = rows_.size() - 1;
  // Fibonacci hashing of the address (nodes are at least 16 bytes apart).
  size_t at = static_cast<size_t>(
                  (reinterpret_cast<uintptr_t>(n) >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 32) &
              mask;
  while (rows_[at].node && rows_[at].node != n) at = (at + 1) & mask;
  return at;
}

void CardinalityEstimator::memoGrow() {
  // 32 slots first (512 bytes: glibc hands out blocks under a kilobyte
  // without tidying its small free blocks first), doubling at half full.
  std::vector<RowsMemo> old(rows_.empty() ? 32 : 2 * rows_.size());
  old.swap(rows_);
  for (const auto& e : old)
    if (e.node) rows_[memoSlot(e.node)] = e;
}

double CardinalityEstimator::rows(const PlanNode& n) {
  if (&n == last_.first) return last_.second;  // ndv() asks about one node many times
  if (!rows_.empty())
    if (const RowsMemo& e = rows_[memoSlot(&n)]; e.node) {
      last_ = {e.node, e.rows};
      return e.rows;
    }
  const double r = compute(n);
  // compute() added the children's: find the slot again.
  if (2 * (rowsCount_ + 1) > rows_.size()) memoGrow();
  rows_[memoSlot(&n)] = {&n, r};
  ++rowsCount_;
  last_ = {&n, r};
  return r;
}

double CardinalityEstimator::compute(const PlanNode& n) {
  auto child = [&](size_t i) { return rows(*n.children[i]); };
  switch (n.op) {
    case PlanOp::Scan:
      return n.tableRows ? std::max<double>(0, static_cast<double>(*n.tableRows)) : d_.tableRows;
    case PlanOp::Values:
      return static_cast<double>(n.rows.size());
    case PlanOp::Filter:
      return std::max(std::min(1.0, child(0)), child(0) * selectivity(n.predicate, *n.children[0]));
    case PlanOp::Join:
      return joinRows(n.joinType, n.predicate, *n.children[0], *n.children[1]);
    case PlanOp::Aggregate: {
      double in = child(0);
      if (n.exprs.empty() && n.groupingSets.empty()) return 1;
      std::vector<std::vector<int>> sets = n.groupingSets;
      if (sets.empty()) {
        sets.emplace_back();
        for (size_t i = 0; i < n.exprs.size(); ++i) sets.back().push_back(static_cast<int>(i));
      }
      double total = 0;
      for (const auto& set : sets) {
        double groups = 1;
        for (int k : set) {
          const Expr& e = *n.exprs[static_cast<size_t>(k)].expr;
          groups *= isColumn(e) ? ndv(*n.children[0], e.name) : std::max(1.0, in * d_.ndvFraction);
          if (groups >= in) break;
        }
        total += std::min(in, groups);
      }
      return in == 0 ? 0 : std::max(1.0, total);
    }
    case PlanOp::Limit: {
      double r = std::max(0.0, child(0) - static_cast<double>(n.offset));
      if (n.limit) r = std::min(r, static_cast<double>(*n.limit));
      return r;
    }
    case PlanOp::Union: {
      double sum = 0;
      for (size_t i = 0; i < n.children.size(); ++i) sum += child(i);
      return sum;
    }
    case PlanOp::Intersect: {
      double m = child(0);
      for (size_t i = 1; i < n.children.size(); ++i) m = std::min(m, child(i));
      return m;
    }
    case PlanOp::Except:
    case PlanOp::Project:
    case PlanOp::Sort:
    case PlanOp::Window:
      return child(0);
  }
  return 1;
}

CardinalityEstimator::Ndv CardinalityEstimator::baseNdv(const PlanNode& scan,
                                                        const std::string& id) {
  double r = rows(scan);
  if (auto ndv = columnNdvOf(scan, id)) return {std::min(r, static_cast<double>(*ndv)), true};
  if (scan.primaryKey.size() == 1 && scan.primaryKey[0] == id) return {r, true};
  return {std::min(r, std::max(1.0, r * d_.ndvFraction)), false};
}

CardinalityEstimator::Ndv CardinalityEstimator::ndvOf(const PlanNode& n, const std::string& id) {
  double r = rows(n);
  auto capped = [&](Ndv v) { return Ndv{std::min(r, v.value), v.known}; };
  if (n.op == PlanOp::Scan) return capped(baseNdv(n, id));
  if (n.op == PlanOp::Project || n.op == PlanOp::Aggregate) {
    for (const auto& ne : n.exprs)
      if (ne.name == id)
        return isColumn(*ne.expr) ? capped(ndvOf(*n.children[0], ne.expr->name))
                                  : Ndv{std::min(r, std::max(1.0, r * d_.ndvFraction)), false};
  }
  for (const auto& c : n.children)
    if (produces(*c, id)) return capped(ndvOf(*c, id));
  return {std::min(r, std::max(1.0, r * d_.ndvFraction)), false};
}

double CardinalityEstimator::ndv(const PlanNode& n, const std::string& id) {
  return ndvOf(n, id).value;
}

CardinalityEstimator::Ndv CardinalityEstimator::columnNdvIn(const Expr& col, const PlanNode* a,
                                                            const PlanNode* b) {
  if (!isColumn(col)) return {0, false};
  if (a && produces(*a, col.name)) return ndvOf(*a, col.name);
  if (b && produces(*b, col.name)) return ndvOf(*b, col.name);
  return {0, false};
}

double CardinalityEstimator::conjunctSelectivity(const Expr& c, const PlanNode* a,
                                                 const PlanNode* b) {
  if (c.kind == ExprKind::Literal) return c.isNull || c.value == "false" ? 0 : 1;
  if (c.kind != ExprKind::Call) return d_.otherSelectivity;
  const std::string_view name = c.name;  // compared with literals inline
  const auto& args = c.args;
  auto side = [&](size_t i) { return args.size() > i ? args[i].get() : nullptr; };
  if (name == "and") {
    std::vector<const Expr*> parts;
    parts.reserve(16);  // one allocation for the usual conjunction (binary ANDs nest)
    flattenAnd(c, parts);
    return a && b ? equiJoinSelectivity(parts, *a, *b) : independent(parts, a, b);
  }
  if (name == "or") {
    double none = 1;
    for (const auto& x : args) none *= 1 - conjunctSelectivity(*x, a, b);
    return 1 - none;
  }
  if (name == "not" && side(0)) return 1 - conjunctSelectivity(*args[0], a, b);
  const ComparisonInfo* cmp = comparisonOf(c);
  const bool eq = cmp && cmp->equality;
  const bool ne = cmp && comparisonInfo(cmp->negated).equality;  // <> and IS DISTINCT FROM
  if (eq || ne) {
    const Expr& l = *args[0];
    const Expr& r = *args[1];
    Ndv vl = columnNdvIn(l, a, b), vr = columnNdvIn(r, a, b);
    double nl = vl.value, nr = vr.value;
    double s = d_.otherSelectivity;
    if (nl > 0 && nr > 0 && vl.known != vr.known)
      // A column with statistics (a key) against one without (a foreign key,
      // usually): the unknown side's values are taken to be contained in the
      // known side's, so |R||S| / ndv(known). Without this, lineitem's l_suppkey
      // (default 600K distinct) would make lineitem JOIN supplier 60x too small.
      s = 1 / (vl.known ? nl : nr);
    else if (nl > 0 && nr > 0)
      s = 1 / std::max(nl, nr);  // equi-join or same-row equality: |R||S| / max(ndv)
    else if (nl > 0 && fixedOver(r, a, b))
      s = vl.known ? 1 / nl : d_.equalSelectivity;  // column = constant
    else if (nr > 0 && fixedOver(l, a, b))
      s = vr.known ? 1 / nr : d_.equalSelectivity;
    return eq ? s : 1 - s;
  }
  if (cmp && cmp->order) return d_.rangeSelectivity;
  if (name == "in" && !args.empty() && isColumn(*args[0])) {
    double n = columnNdvIn(*args[0], a, b).value;
    double k = static_cast<double>(args.size() - 1);
    return n > 0 ? clampUnit(k / n) : d_.otherSelectivity;
  }
  if ((name == "is_null" || name == "is_not_null") && side(0)) {
    double s = args[0]->nullable ? d_.nullSelectivity : 0;
    return name == "is_null" ? s : 1 - s;
  }
  if (name == "like" || name == "ilike" || name == "similar_to" || name == "regexp_matches" ||
      name == "starts_with" || name == "ends_with")
    return d_.likeSelectivity;
  return d_.otherSelectivity;
}

double CardinalityEstimator::independent(const std::vector<const Expr*>& parts, const PlanNode* a,
                                         const PlanNode* b) {
  double s = 1;
  for (const Expr* x : parts) s *= conjunctSelectivity(*x, a, b);
  return s;
}

double CardinalityEstimator::equiJoinSelectivity(const std::vector<const Expr*>& parts,
                                                 const PlanNode& a, const PlanNode& b) {
  // Equalities of a column of each input, gathered: a composite key is one
  // key. Its distinct values on an input are that input's rows where the
  // columns cover a key there (partsupp's (ps_partkey, ps_suppkey)), else the
  // product of the columns' distinct values up to the rows (independence).
  // Multiplying 1/ndv per column instead would make lineitem JOIN partsupp ON
  // both keys 2400 rows where every one of its 6M lineitem rows has a match.
  std::vector<std::string_view> colsA, colsB;  // views of the conjuncts' column names
  auto columnOf = [](const PlanNode& n) {
    return [&n](const Expr& e) { return isColumn(e) && produces(n, e.name); };
  };
  const SplitCondition split = splitJoinCondition(parts, columnOf(a), columnOf(b));
  for (const JoinKey& k : split.keys)
    colsA.push_back(k.left()->name), colsB.push_back(k.right()->name);
  const std::vector<const Expr*>& rest = split.residue;
  makeSet(colsA), makeSet(colsB);
  double s = independent(rest, &a, &b);
  if (colsA.size() < 2 || colsB.size() < 2) {
    // One key column on a side (a.x = b.y AND a.x = b.z): every match has
    // b.y = b.z, so the key is one column and the most selective equality
    // stands for all (JOB 1a's mi_idx.movie_id = t.id = mc.movie_id would
    // otherwise count the same equality twice).
    double best = 1;
    for (const Expr* x : parts)
      if (std::find(rest.begin(), rest.end(), x) == rest.end())
        best = std::min(best, conjunctSelectivity(*x, &a, &b));
    return s * best;
  }
  auto composite = [&](const PlanNode& n, const std::vector<std::string_view>& cols) {
    if (coversKey(n, cols)) return Ndv{rows(n), true};
    double product = 1;
    for (const auto& c : cols) product = std::min(rows(n), product * ndv(n, std::string(c)));
    return Ndv{product, false};
  };
  Ndv na = composite(a, colsA), nb = composite(b, colsB);
  if (na.value <= 0 || nb.value <= 0) return 0;
  if (na.known != nb.known) return s / (na.known ? na.value : nb.value);
  return s / std::max(na.value, nb.value);
}

bool CardinalityEstimator::coversKey(const PlanNode& n, const std::vector<std::string_view>& cols) {
  auto has = [&](std::string_view id) { return std::binary_search(cols.begin(), cols.end(), id); };
  switch (n.op) {
    case PlanOp::Scan:
      return !n.primaryKey.empty() && std::all_of(n.primaryKey.begin(), n.primaryKey.end(),
                                                  [&](const std::string& k) { return has(k); });
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
      return coversKey(*n.children[0], cols);
    case PlanOp::Aggregate:
      return n.groupingSets.empty() && std::all_of(n.exprs.begin(), n.exprs.end(),
                                                   [&](const NamedExpr& k) { return has(k.name); });
    default:
      return false;
  }
}

double CardinalityEstimator::selectivity(const ExprPtr& predicate, const PlanNode& input) {
  if (!predicate) return 1;
  return clampUnit(conjunctSelectivity(*predicate, &input, nullptr));
}

double CardinalityEstimator::joinSelectivity(const ExprPtr& conjunct, const PlanNode& left,
                                             const PlanNode& right) {
  if (!conjunct) return 1;
  return clampUnit(conjunctSelectivity(*conjunct, &left, &right));
}

double CardinalityEstimator::joinRows(JoinType type, const ExprPtr& condition, const PlanNode& left,
                                      const PlanNode& right) {
  double l = rows(left), r = rows(right);
  double s = joinSelectivity(condition, left, right);
  double inner = l * r * s;
  const auto& info = joinInfo(type);
  if (info.outputs[0] && info.outputs[1]) {
    double out = inner;
    if (info.preserves[0]) out = std::max(out, l);
    if (info.preserves[1]) out = std::max(out, r);
    if (info.preserves[0] && info.preserves[1]) out = std::max(out, l + r - std::min(l, r) * s);
    return (l == 0 && !info.preserves[1]) || (r == 0 && !info.preserves[0]) ? 0
                                                                            : std::max(1.0, out);
  }
  // Semi and anti joins: the share of the output side's rows with a match, at
  // most the output side's rows (an equi-join with one key is a containment of
  // distinct values: ndv(build) / ndv(probe) of the probe side's keys match).
  bool leftOut = info.outputs[0];
  double outRows = leftOut ? l : r;
  double otherRows = leftOut ? r : l;
  double matched = outRows == 0 ? 0 : std::min(1.0, inner / outRows);
  if (otherRows == 0) matched = 0;
  double share = info.keepsMatched ? matched : std::max(d_.antiMinimum, 1 - matched);
  return outRows == 0 ? 0 : std::max(1.0, outRows * share);
}

namespace {

void annotate(PlanNode& n, CardinalityEstimator& est, bool stats);

void annotateSubqueries(const Expr& x, CardinalityEstimator& est, bool stats) {
  if (x.kind == ExprKind::Subquery && x.plan) annotate(*x.plan, est, stats);
  for (const auto& a : x.args) annotateSubqueries(*a, est, stats);
}

void annotate(PlanNode& n, CardinalityEstimator& est, bool stats) {
  n.estimatedRows = stats ? std::optional<double>(est.rows(n)) : std::nullopt;
  for (auto& c : n.children) annotate(*c, est, stats);
  forEachExpr(n, [&](const ExprPtr& e) { annotateSubqueries(*e, est, stats); });
}

}  // namespace

void annotateEstimates(PlanNode& root) {
  bool stats = false;
  forEachNode(root, [&](const PlanNode& n) { stats = stats || n.tableRows.has_value(); });
  CardinalityEstimator est;
  annotate(root, est, stats);
}

}  // namespace rfguard
