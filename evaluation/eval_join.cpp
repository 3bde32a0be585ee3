// Joins of the reference evaluator: every join type of the join-type table,
// NULL-aware anti joins included. Each pair of rows is judged by the join's
// whole condition; on large inputs, pairs that cannot satisfy one of its `=`
// conjuncts are skipped by hashing that conjunct's keys first.
#include <functional>
#include <set>
#include <unordered_map>

#include "evaluation/eval_internal.h"
#include "evaluation/evaluator.h"
#include "ir/join_type.h"

namespace rfguard::rt {

namespace {

/// Below this many pairs the nested loop is cheaper than building a hash table
/// (the bounded search's databases have a few rows per table).
constexpr size_t kHashJoinPairs = 256;

/// True when every column `e` reads is an output of `n` (and it reads one).
bool readsOnly(const Expr& e, const PlanNode& n) {
  const auto cols = columnsOf(e);
  if (cols.empty()) return false;
  for (const auto& c : cols) {
    bool found = false;
    for (const auto& o : n.output) found = found || o.id == c;
    if (!found) return false;
  }
  return true;
}

/// Integer-like or string keys hash as they compare under `=`; floating point
/// and decimals (1.0 = 1, -0.0 = 0.0) and mixed kinds are left to the loop.
bool hashable(const Type& a, const Type& b) {
  const bool whole = (a.isInteger() || a.isTemporal() || a.kind == TypeKind::Boolean) &&
                     (b.isInteger() || b.isTemporal() || b.kind == TypeKind::Boolean);
  return whole || (a.isString() && b.isString());
}

/// The `=` conjuncts of `join`'s condition with one side over each child. A copy
/// of ir/join_keys.h's split, deliberately independent: the evaluator is the
/// oracle the rules (which use that split) are tested against.
std::vector<std::pair<const Expr*, const Expr*>> equiKeysOf(const PlanNode& join) {
  std::vector<std::pair<const Expr*, const Expr*>> keys;
  if (!join.predicate || hasSubquery(*join.predicate)) return keys;
  const PlanNode& left = *join.children[0];
  const PlanNode& right = *join.children[1];
  for (const auto& c : conjuncts(join.predicate)) {
    if (c->kind != ExprKind::Call || c->name != "=" || c->args.size() != 2) continue;
    const Expr& a = *c->args[0];
    const Expr& b = *c->args[1];
    if (!hashable(a.type, b.type)) continue;
    if (readsOnly(a, left) && readsOnly(b, right))
      keys.emplace_back(&a, &b);
    else if (readsOnly(b, left) && readsOnly(a, right))
      keys.emplace_back(&b, &a);
  }
  return keys;
}

/// The positions of `join`'s condition `x = y` when x and y are columns of its
/// joined row (`index`), one from each side (`lw`: the left side's width).
std::pair<size_t, size_t> columnEqOf(const PlanNode& join, const Index& index, size_t lw) {
  const std::pair<size_t, size_t> none{SIZE_MAX, SIZE_MAX};
  const Expr* c = join.predicate.get();
  if (!c || c->kind != ExprKind::Call || c->name != "=" || c->args.size() != 2) return none;
  size_t at[2];
  for (int i = 0; i < 2; ++i) {
    if (c->args[i]->kind != ExprKind::Column) return none;
    auto it = index.find(c->args[i]->name);
    if (it == index.end()) return none;  // the enclosing query's column
    at[i] = it->second;
  }
  if (at[0] < lw && at[1] >= lw) return {at[0], at[1] - lw};
  if (at[1] < lw && at[0] >= lw) return {at[1], at[0] - lw};
  return none;
}

}  // namespace

const std::vector<std::pair<const PlanNode*, bool>>& Evaluator::sidewaysProducers(
    const PlanNode& join) {
  auto [it, fresh] = cache_->sideways.try_emplace(&join);
  if (!fresh) return it->second;
  std::set<int> consumed;  // the filters the build side consumes
  forEachNode(*join.children[1], [&](const PlanNode& x) {
    for (const auto& t : x.runtimeFilterTargets) consumed.insert(t.id);
  });
  if (consumed.empty()) return it->second;
  std::vector<std::pair<const PlanNode*, bool>> found;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& x) {
    for (const auto& c : x.children) walk(*c);  // children first: innermost producers first
    if (x.op != PlanOp::Join) return;
    bool any = false, blocking = false;
    for (const auto& f : x.runtimeFilters)
      if (consumed.count(f.id)) any = true, blocking = blocking || !f.nonBlocking;
    if (any) found.emplace_back(&x, blocking);
  };
  walk(*join.children[0]);
  return it->second = std::move(found);
}

bool Evaluator::readyToRun(const PlanNode& sub) {
  std::set<int> produced;
  forEachNode(sub, [&](const PlanNode& x) {
    for (const auto& f : x.runtimeFilters) produced.insert(f.id);
  });
  bool ready = true;
  forEachNode(sub, [&](const PlanNode& x) {
    for (const auto& t : x.runtimeFilterTargets)
      ready = ready && (!applies(t.id) || nonBlocking(t.id) || produced.count(t.id) ||
                        published(t.id) != SIZE_MAX);
  });
  return ready;
}

bool Evaluator::nonBlocking(int id) {
  if (!cache_->nonBlocking) {
    cache_->nonBlocking.emplace();
    forEachNode(*root_, [&](const PlanNode& x) {
      for (const auto& f : x.runtimeFilters)
        if (f.nonBlocking) cache_->nonBlocking->insert(f.id);
    });
  }
  return cache_->nonBlocking->count(id) > 0;
}

std::optional<Relation> Evaluator::join(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  // A filter consumed sideways in the build side (rules/rf_sideways.cpp) comes
  // from a join of the probe side: that join's build side runs first, as an
  // engine's pipelines would, and publishes (again when the join itself runs).
  if (opt_.applyFilters)
    for (const auto& [p, blocking] : sidewaysProducers(n)) {
      // A non-blocking filter arrives in time only when its build side need not
      // wait for a filter still to come (Doris q9: part waits for partsupp's).
      if (!blocking && !readyToRun(*p->children[1])) continue;
      auto built = node(*p->children[1], outer);
      if (!built) return std::nullopt;
      publish(*p, 1, *built, outer);
      if (!error.empty()) return std::nullopt;
    }
  // The build side first: its filters must be complete before the probe side reads.
  auto right = child(1);
  if (!right) return std::nullopt;
  publish(n, 1, *right, outer);
  if (!error.empty()) return std::nullopt;
  auto left = child(0);
  if (!left) return std::nullopt;
  const Index& index = joinIndexFor(n);
  const auto& info = joinInfo(n.joinType);
  const size_t lw = n.children[0]->output.size(), rw = n.children[1]->output.size();
  // Per right row: matched, and met a NULL comparison (NOT IN). On the stack for the
  // few rows of a bounded search's databases.
  enum : uint8_t { kMatched = 1, kUnknown = 2 };
  uint8_t few[64] = {};
  std::vector<uint8_t> many;
  uint8_t* seen = few;
  if (right->rows.size() > sizeof few) {
    many.assign(right->rows.size(), 0);
    seen = many.data();
  }
  auto emit = [&](const Row* l, const Row* r) {
    Row& o = out.rows.emplace_back();
    o.reserve((info.outputs[0] ? lw : 0) + (info.outputs[1] ? rw : 0));
    if (info.outputs[0]) {
      if (l)
        o.insert(o.end(), l->begin(), l->begin() + lw);
      else
        o.resize(lw);  // NULLs
    }
    if (info.outputs[1]) {
      if (r)
        o.insert(o.end(), r->begin(), r->begin() + rw);
      else
        o.resize(o.size() + rw);
    }
  };
  const bool leftOnly = info.outputs[0] && !info.outputs[1];
  const bool rightOnly = info.outputs[1] && !info.outputs[0];

  // The hash join: right rows by the values of their `=` keys. A pair whose keys
  // differ (or are NULL) fails that conjunct, so the condition is not true; only
  // a NULL-aware join also needs to know which pairs were NULL, and keeps the loop.
  const std::vector<std::pair<const Expr*, const Expr*>>* keys = nullptr;
  std::unordered_map<std::string, std::vector<size_t>> byKey;
  if (!info.nullAware && left->rows.size() * right->rows.size() > kHashJoinPairs) {
    auto it = cache_->equiKeys.find(&n);
    if (it == cache_->equiKeys.end()) it = cache_->equiKeys.emplace(&n, equiKeysOf(n)).first;
    if (!it->second.empty()) keys = &it->second;
  }
  const Row none;
  // The key of a row on one side (first: left), nullopt when a key is NULL; false on error.
  auto keyOf = [&](const Row& row, bool first, std::optional<std::string>& key) {
    std::string k;
    for (const auto& [l, r] : *keys) {
      const Ctx ctx =
          first ? Ctx{&index, &row, outer, nullptr, lw} : Ctx{&index, &none, outer, &row, lw};
      auto v = expr(first ? *l : *r, ctx);
      if (!v) return false;
      if (isNull(*v)) {
        key.reset();
        return true;
      }
      k += bucketKey(*v);  // the pairs under one key are compared again below
    }
    key = std::move(k);
    return true;
  };
  if (keys) {
    std::optional<std::string> k;
    for (size_t j = 0; j < right->rows.size(); ++j) {
      if (!keyOf(right->rows[j], false, k)) return std::nullopt;
      if (k) byKey[*k].push_back(j);
    }
  }
  static const std::vector<size_t> noRows;
  // `l.x = r.y`, the commonest condition, is compared in place.
  auto eq = cache_->columnEq.find(&n);
  if (eq == cache_->columnEq.end())
    eq = cache_->columnEq.emplace(&n, columnEqOf(n, index, lw)).first;
  const auto [eqLeft, eqRight] = eq->second;

  for (const auto& l : left->rows) {
    bool matched = false, unknown = false;
    // The right rows to pair with: those under the left row's key, or all.
    const std::vector<size_t>* candidates = nullptr;
    if (keys) {
      std::optional<std::string> k;
      if (!keyOf(l, true, k)) return std::nullopt;
      auto it = k ? byKey.find(*k) : byKey.end();
      candidates = it == byKey.end() ? &noRows : &it->second;
    }
    const size_t count = candidates ? candidates->size() : right->rows.size();
    for (size_t c = 0; c < count; ++c) {
      const size_t j = candidates ? (*candidates)[c] : c;
      bool t = true;
      if (eqLeft != SIZE_MAX) {  // as expr() evaluates `=`: NULL when either side is
        const Value& x = l[eqLeft];
        const Value& y = right->rows[j][eqRight];
        const bool null = isNull(x) || isNull(y);
        unknown = unknown || null;
        if (null) seen[j] |= kUnknown;
        t = !null && *compare(x, y) == 0;
      } else if (n.predicate) {
        auto v = expr(*n.predicate, Ctx{&index, &l, outer, &right->rows[j], lw});
        if (!v) return std::nullopt;
        if (!isNull(*v) && !std::holds_alternative<int64_t>(*v))
          return error = "a join condition did not evaluate to a boolean", std::nullopt;
        unknown = unknown || isNull(*v);
        if (isNull(*v)) seen[j] |= kUnknown;
        t = !isNull(*v) && std::get<int64_t>(*v) != 0;
      }
      if (!t) continue;
      matched = true;
      seen[j] |= kMatched;
      if (!leftOnly && !rightOnly) emit(&l, &right->rows[j]);
    }
    if (leftOnly) {
      bool keep = info.keepsMatched ? matched : info.nullAware ? !matched && !unknown : !matched;
      if (keep) emit(&l, nullptr);
    } else if (!matched && info.generatesNulls[1] && !rightOnly) {
      emit(&l, nullptr);  // LEFT / FULL: the NULL-extended probe row
    }
  }
  for (size_t j = 0; j < right->rows.size(); ++j) {
    if (rightOnly) {
      const bool keep = info.keepsMatched ? seen[j] & kMatched
                        : info.nullAware  ? !seen[j]
                                          : !(seen[j] & kMatched);
      if (keep) emit(nullptr, &right->rows[j]);
    } else if (!(seen[j] & kMatched) && info.generatesNulls[0]) {
      emit(nullptr, &right->rows[j]);  // RIGHT / FULL
    }
  }
  return out;
}

}  // namespace rfguard::rt
