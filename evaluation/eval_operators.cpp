// The evaluator's operators but joins (eval_join.cpp) and aggregates and
// windows (eval_aggregate.cpp): one member function each, node() dispatches.
#include <algorithm>
#include <map>
#include <set>

#include "evaluation/eval_internal.h"

namespace rfguard::rt {

namespace {

/// ORDER BY keys then the canonical row order: a total order, so LIMIT is a function of its input.
void sortRows(std::vector<Row>& rows, const std::vector<std::vector<Value>>& keys,
              const std::vector<SortKey>& spec) {
  std::vector<size_t> idx(rows.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    for (size_t k = 0; k < spec.size(); ++k) {
      const Value &x = keys[a][k], &y = keys[b][k];
      if (isNull(x) != isNull(y)) return isNull(x) == spec[k].nullsFirst;
      auto c = compare(x, y);
      if (c && *c) return spec[k].ascending ? *c < 0 : *c > 0;
    }
    return rowLess(rows[a], rows[b]);
  });
  std::vector<Row> out;
  out.reserve(rows.size());
  for (size_t i : idx) out.push_back(std::move(rows[i]));
  rows = std::move(out);
}

}  // namespace

/// A table's rows, its runtime filters applied (per worker where they are local).
std::optional<Relation> Evaluator::scan(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto t = db_.find(n.table);
  if (t == db_.end()) return error = "table " + n.table + " is not in the database", std::nullopt;
  auto& [index, pick] = cache_->scans[&n];
  if (index.size() != t->second.columns.size()) {
    index.clear();
    pick.clear();
    for (size_t i = 0; i < t->second.columns.size(); ++i)
      index[n.alias + "." + t->second.columns[i]] = i;
    for (const auto& c : n.output) {
      auto it = index.find(c.id);
      if (it == index.end()) {
        index.clear();
        return error = "column " + c.id + " is not in the database", std::nullopt;
      }
      pick.push_back(it->second);
    }
  }
  // The filters this scan applies, looked up once (none is published while it runs).
  std::vector<std::pair<const Expr*, size_t>> active;  // target, position in filters_
  for (const auto& target : n.runtimeFilterTargets) {
    if (t->second.rows.empty() || !applies(target.id) || disabled_.count(target.id)) continue;
    size_t f = published(target.id);
    // Not there yet: a non-blocking filter's scan reads on without it.
    if (f == SIZE_MAX && nonBlocking(target.id)) continue;
    if (f == SIZE_MAX)
      return error = "RF" + std::to_string(target.id) +
                     " is consumed before its producer is ready (a wait cycle or a "
                     "consumer outside its probe side)",
             std::nullopt;
    active.emplace_back(target.target.get(), f);
  }
  // Content::Workers: a table hash-distributed on a column sits on the workers by
  // that column's value (as build keys are shuffled); any other is dealt by position.
  auto dist =
      n.distributionKey.empty() ? index.end() : index.find(n.alias + "." + n.distributionKey);
  for (size_t at = 0; at < t->second.rows.size(); ++at) {
    const Row& row = t->second.rows[at];
    const size_t worker = dist != index.end() ? workerOfKey(row[dist->second]) : at % kWorkers;
    Ctx ctx{&index, &row, outer};
    bool keep = true;
    for (const auto& [target, filter] : active) {
      std::optional<Value> held;
      const Value* v = operand(*target, ctx, held);
      if (!v) return std::nullopt;
      const FilterState& s = filters_[filter].second;
      // Per worker: the row is read on its worker, whose filter holds the build
      // keys shuffled there (a NULL that accept_null passes passes anywhere).
      const bool here =
          !s.perWorker || (s.filter->acceptNull && isNull(*v)) || workerOfKey(*v) == worker;
      keep = keep && here && s.accept(*v);
    }
    if (!keep) {
      ++dropped_;
      continue;
    }
    Row r;
    r.reserve(pick.size());
    for (size_t i : pick) r.push_back(row[i]);
    out.rows.push_back(std::move(r));
  }
  return out;
}

std::optional<Relation> Evaluator::filter(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  auto in = child(0);
  if (!in) return std::nullopt;
  const Index& index = indexFor(*n.children[0]);
  for (auto& row : in->rows) {
    bool t;
    if (!truth(*n.predicate, Ctx{&index, &row, outer}, &t)) return std::nullopt;
    if (t) out.rows.push_back(std::move(row));
  }
  return out;
}

std::optional<Relation> Evaluator::project(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  auto in = child(0);
  if (!in) return std::nullopt;
  const Index& index = indexFor(*n.children[0]);
  if (identityProject(n, index)) {  // SELECT * in the child's order: its rows as they are
    out.rows = std::move(in->rows);
    out.order = std::move(in->order);
    return out;
  }
  out.rows.reserve(in->rows.size());
  for (const auto& row : in->rows) {
    Row r;
    r.reserve(n.exprs.size());
    for (const auto& ne : n.exprs) {
      auto v = expr(*ne.expr, Ctx{&index, &row, outer});
      if (!v) return std::nullopt;
      r.push_back(std::move(*v));
    }
    out.rows.push_back(std::move(r));
  }
  out.order = std::move(in->order);  // a projection keeps the order
  return out;
}

/// The input in ORDER BY order; the root's ORDER BY also gives its tie groups.
std::optional<Relation> Evaluator::sort(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  auto in = child(0);
  if (!in) return std::nullopt;
  const Index& index = indexFor(*n.children[0]);
  std::vector<std::vector<Value>> keys;
  for (const auto& row : in->rows) {
    std::vector<Value> k;
    for (const auto& s : n.sortKeys) {
      auto v = expr(*s.expr, Ctx{&index, &row, outer});
      if (!v) return std::nullopt;
      k.push_back(*v);
    }
    keys.push_back(k);
  }
  sortRows(in->rows, keys, n.sortKeys);
  out.rows = std::move(in->rows);
  if (&n == orderSort_) {
    auto group = std::make_shared<std::vector<size_t>>();
    if (!sortGroups(n, out.rows, *group)) return std::nullopt;
    out.order = std::move(group);
  }
  return out;
}

/// LIMIT / OFFSET: below the root a window whose ties are resolved by choice, at
/// the root the answer as any valid top-k. A TopN filter is published first.
std::optional<Relation> Evaluator::limit(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  // A TopN filter's threshold: the input's (offset + limit)-th row without it.
  for (const auto& f : n.runtimeFilters) {
    if (!applies(f.id)) continue;
    disabled_.insert(f.id);
    auto first = child(0);
    disabled_.erase(f.id);
    if (!first) return std::nullopt;
    publishTopN(f, n, *first);
  }
  auto in = child(0);
  if (!in) return std::nullopt;
  if (n.children[0]->op != PlanOp::Sort) in->rows = sortedBag(std::move(in->rows));
  size_t from = std::min(in->rows.size(), static_cast<size_t>(n.offset));
  size_t to =
      n.limit ? std::min(in->rows.size(), from + static_cast<size_t>(*n.limit)) : in->rows.size();
  if (in->order) {  // the window of the ordered input: each group from its first row in it
    auto group = std::make_shared<std::vector<size_t>>();
    for (size_t i = from; i < to; ++i) group->push_back(std::max((*in->order)[i], from) - from);
    out.order = std::move(group);
  }
  if (&n != root_) {  // ties resolved by choice
    if (!window(n, in->rows, from, to, out.rows)) return std::nullopt;
    return out;
  }
  auto k = std::make_shared<TopK>();  // the answer: compared as any valid top-k
  if (!ties(n, in->rows, k->group)) return std::nullopt;
  k->from = from;
  k->to = to;
  out.rows.assign(in->rows.begin() + static_cast<long>(from),
                  in->rows.begin() + static_cast<long>(to));
  k->ordered = std::move(in->rows);
  out.topK = std::move(k);
  return out;
}

/// UNION, INTERSECT and EXCEPT, ALL or DISTINCT, as bags.
std::optional<Relation> Evaluator::setOperation(const PlanNode& n, const Ctx* outer) {
  Relation out;
  auto child = [&](size_t i) { return node(*n.children[i], outer); };
  // The input an INTERSECT's or EXCEPT's filter is built from runs first and
  // publishes it; the inputs it filters read it (Doris's RuntimeFilterV2).
  std::vector<std::optional<Relation>> read(n.children.size());
  for (const auto& f : n.runtimeFilters) {
    const int b = filterBuildInput(n, f);
    if (!applies(f.id) || b < 0) continue;
    auto& r = read[static_cast<size_t>(b)];
    if (!r && !(r = child(static_cast<size_t>(b)))) return std::nullopt;
    publish(n, static_cast<size_t>(b), *r, outer);
    if (!error.empty()) return std::nullopt;
  }
  std::vector<Relation> ins;
  for (size_t i = 0; i < n.children.size(); ++i) {
    auto r = read[i] ? std::move(read[i]) : child(i);
    if (!r) return std::nullopt;
    ins.push_back(std::move(*r));
  }
  std::vector<Row> acc = ins[0].rows;
  for (size_t i = 1; i < ins.size(); ++i) {
    if (n.op == PlanOp::Union) {
      acc.insert(acc.end(), ins[i].rows.begin(), ins[i].rows.end());
      continue;
    }
    std::map<std::string, long> other;
    for (const auto& r : ins[i].rows) ++other[rowKey(r)];
    std::vector<Row> next;
    std::map<std::string, long> used;
    for (const auto& r : acc) {
      std::string k = rowKey(r);
      long have = other.count(k) ? other[k] : 0;
      bool keep = n.op == PlanOp::Intersect ? used[k]++ < have : (used[k]++ >= have);
      if (!n.all) keep = n.op == PlanOp::Intersect ? have > 0 : have == 0;
      if (keep) next.push_back(r);
    }
    acc = std::move(next);
  }
  if (!n.all) {
    std::set<std::string> seen;
    std::vector<Row> distinct;
    for (auto& r : acc)
      if (seen.insert(rowKey(r)).second) distinct.push_back(std::move(r));
    acc = std::move(distinct);
  }
  out.rows = std::move(acc);
  return out;
}

std::optional<Relation> Evaluator::values(const PlanNode& n, const Ctx* outer) {
  Relation out;
  for (const auto& r : n.rows) {
    Row row;
    for (const auto& e : r) {
      auto v = expr(*e, Ctx{nullptr, nullptr, outer});
      if (!v) return std::nullopt;
      row.push_back(*v);
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace rfguard::rt
