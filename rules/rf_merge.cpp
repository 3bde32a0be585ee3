// One filter per (join, build key, consumer): after placement, a consumer that
// another filter of the same join already serves from the same build key, with
// the same comparison and kinds, is left out, and a filter left without
// consumers goes (issue 15). The twins come from equivalence copies:
//   a JOIN b ON a.k = b.k JOIN c ON c.k = a.k AND c.k = b.k
// builds RF1 (c.k -> a.k) and RF2 (c.k -> b.k); each crosses a.k = b.k below,
// so both reach a.k and b.k, and the scans would test the same key set twice.
// Build keys equal in every row of the build side are one key set too (JOB 1a:
// t.id and mc.movie_id, equated by the join below, both build filters for
// mi_idx.movie_id). Dropping one consumer keeps every row the other lets
// through: both filters hold the same keys and test the same expression, so
// the rows they pass are the same.
#include "rules/rf_merge.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "ir/comparison.h"
#include "ir/printers.h"

namespace rfguard {

namespace {

/// Columns equal in every output row of a subtree (or NULL together), by a
/// union-find over `x = y` conjuncts of filters and of INNER/CROSS/semi join
/// conditions. An outer join's own condition does not count: its unmatched
/// rows keep a value on one side and NULL on the other. Below it, equalities
/// still hold, NULL-padded rows having NULL in both columns.
class EqualColumns {
 public:
  explicit EqualColumns(const PlanNode& n) : subtree_(n) {}

  bool same(const ExprPtr& a, const ExprPtr& b) {
    if (exprEquals(a, b)) return true;
    if (!a || !b || a->kind != ExprKind::Column || b->kind != ExprKind::Column) return false;
    if (!collected_) collect(subtree_), collected_ = true;  // most joins never ask
    return root(a->name) == root(b->name);
  }

 private:
  std::string root(const std::string& id) {
    auto it = parent_.find(id);
    if (it == parent_.end() || it->second == id) return id;
    return it->second = root(it->second);
  }

  void unite(const std::string& a, const std::string& b) {
    std::string ra = root(a), rb = root(b);
    if (ra != rb) parent_[ra] = rb;
    parent_.emplace(rb, rb);
  }

  void equalities(const ExprPtr& p) {
    for (const auto& c : conjuncts(p))
      if (const ComparisonInfo* cmp = comparisonOf(*c); cmp && cmp->kind == Comparison::Eq &&
                                                        c->args[0]->kind == ExprKind::Column &&
                                                        c->args[1]->kind == ExprKind::Column)
        unite(c->args[0]->name, c->args[1]->name);
  }

  void collect(const PlanNode& n) {
    if (n.op == PlanOp::Filter) equalities(n.predicate);
    if (n.op == PlanOp::Join && !joinInfo(n.joinType).preserves[0] &&
        !joinInfo(n.joinType).preserves[1])
      equalities(n.predicate);
    if (n.op == PlanOp::Project || n.op == PlanOp::Aggregate || n.op == PlanOp::Union ||
        n.op == PlanOp::Intersect || n.op == PlanOp::Except || n.op == PlanOp::Window)
      return;  // new column ids above; what holds below is not tracked through them
    for (const auto& c : n.children) collect(*c);
  }

  const PlanNode& subtree_;
  bool collected_ = false;
  std::map<std::string, std::string> parent_;
};

/// Filters that hold the same key set and test it the same way.
bool sameKeys(const RuntimeFilter& a, const RuntimeFilter& b, EqualColumns& equal) {
  // The plain fields first: same() may index the build side's equalities.
  return a.op == b.op && a.nullAllowed == b.nullAllowed && a.acceptNull == b.acceptNull &&
         a.kinds == b.kinds && a.scope == b.scope && a.nonBlocking == b.nonBlocking &&
         a.besideOnly == b.besideOnly && equal.same(a.build, b.build);
}

/// The joins under `n` that produce more than one filter, in plan order.
void joinsWithTwoFilters(PlanNode& n, std::vector<PlanNode*>& out) {
  if (n.op == PlanOp::Join && n.runtimeFilters.size() > 1) out.push_back(&n);
  for (auto& c : n.children) joinsWithTwoFilters(*c, out);
}

}  // namespace

void mergeDuplicateFilters(PlanNode& root, RfReport& report) {
  std::vector<PlanNode*> joins;
  joinsWithTwoFilters(root, joins);
  if (joins.empty()) return;                 // nothing to merge (most plans)
  std::unordered_map<int, PlanNode*> scans;  // by id, built at the first merge
  auto scanOf = [&](int id) {
    if (scans.empty()) {
      std::function<void(PlanNode&)> index = [&](PlanNode& n) {
        if (n.op == PlanOp::Scan) scans[n.id] = &n;
        for (auto& c : n.children) index(*c);
      };
      index(root);
    }
    return scans.at(id);
  };
  std::set<std::pair<int, int>> gone;  // (filter, index in report.consumers)
  for (PlanNode* j : joins) {
    EqualColumns equal(*j->children[1]);
    std::vector<int> emptied;
    for (size_t i = 1; i < j->runtimeFilters.size(); ++i) {
      const RuntimeFilter& f = j->runtimeFilters[i];
      // Consumers (scan, target) of the earlier twins of f.
      std::vector<const RfDerivation*> served;  // with the earlier twin's id in `filter`
      for (size_t k = 0; k < i; ++k) {
        const RuntimeFilter& e = j->runtimeFilters[k];
        if (!sameKeys(e, f, equal)) continue;
        for (size_t c = 0; c < report.consumers.size(); ++c) {
          const auto& d = report.consumers[c];
          if (d.filter == e.id && !gone.count({e.id, static_cast<int>(c)})) served.push_back(&d);
        }
      }
      if (served.empty()) continue;
      size_t kept = 0;
      for (size_t c = 0; c < report.consumers.size(); ++c) {
        const auto& d = report.consumers[c];
        if (d.filter != f.id) continue;
        auto it = std::find_if(served.begin(), served.end(), [&](const RfDerivation* s) {
          return s->scan == d.scan && exprEquals(s->target.expr(), d.target.expr());
        });
        if (it == served.end()) {
          ++kept;
          continue;
        }
        gone.insert({f.id, static_cast<int>(c)});
        report.merged.push_back({f.id, (*it)->filter, d.scan, d.target, false});
        auto& targets = scanOf(d.scan)->runtimeFilterTargets;
        for (auto t = targets.begin(); t != targets.end(); ++t)
          if (t->id == f.id && exprEquals(t->target, d.target.expr())) {
            targets.erase(t);
            break;
          }
      }
      if (kept == 0) emptied.push_back(f.id);
    }
    for (int id : emptied) {
      for (auto& m : report.merged)
        if (m.filter == id) m.whole = true;
      for (auto f = j->runtimeFilters.begin(); f != j->runtimeFilters.end(); ++f)
        if (f->id == id) {
          j->runtimeFilters.erase(f);
          break;
        }
    }
  }
  if (gone.empty()) return;
  std::vector<RfDerivation> consumers;
  for (size_t c = 0; c < report.consumers.size(); ++c)
    if (!gone.count({report.consumers[c].filter, static_cast<int>(c)}))
      consumers.push_back(report.consumers[c]);
  report.consumers = std::move(consumers);
}

}  // namespace rfguard
