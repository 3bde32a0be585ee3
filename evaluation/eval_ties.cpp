// Ties. At the root, a LIMIT's answer is compared as any valid top-k (TopK,
// validTopK). Below the root, a LIMIT whose window cuts a tie group may take
// any of the group's sub-bags of the right size, and a window function whose
// values depend on the order of peers (row_number, an aggregate over a ROWS
// frame) may see them in any order: the evaluator follows a list of choices
// (EvalOptions::tieChoices, the canonical one first) and reports how many
// alternatives each cut had, so that a caller can enumerate every result the
// query may return (verifier/answers.cpp).
#include <algorithm>
#include <functional>
#include <map>

#include "evaluation/eval_internal.h"

namespace rfguard::rt {

namespace {

/// The distinct sub-bags of `m` rows of `rows` (indexes), the first `m` first; at most `cap`.
std::vector<std::vector<size_t>> subBags(const std::vector<Row>& rows, size_t m, size_t cap) {
  // Distinct rows with their multiplicities, in order of first appearance.
  std::vector<std::vector<size_t>> copies;
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, fresh] = seen.emplace(rowKey(rows[i]), copies.size());
    if (fresh) copies.emplace_back();
    copies[it->second].push_back(i);
  }
  std::vector<std::vector<size_t>> out;
  std::vector<size_t> take(copies.size(), 0);
  // Compositions of m into take[d] <= |copies[d]|, in lexicographically decreasing order
  // from the greedy one (the first m rows, as the canonical order would take them).
  std::function<void(size_t, size_t)> go = [&](size_t d, size_t left) {
    if (out.size() >= cap) return;
    if (d == copies.size()) {
      if (left) return;
      std::vector<size_t> pick;
      for (size_t k = 0; k < copies.size(); ++k)
        for (size_t c = 0; c < take[k]; ++c) pick.push_back(copies[k][c]);
      std::sort(pick.begin(), pick.end());
      out.push_back(pick);
      return;
    }
    for (size_t t = std::min(left, copies[d].size()) + 1; t-- > 0;) {
      take[d] = t;
      go(d + 1, left - t);
    }
    take[d] = 0;
  };
  go(0, m);
  return out;
}

}  // namespace

bool Evaluator::ties(const PlanNode& limit, const std::vector<Row>& sorted,
                     std::vector<size_t>& group) {
  const PlanNode& below = *limit.children[0];
  if (below.op != PlanOp::Sort) {  // no ORDER BY: every row ties with every other
    group.assign(sorted.size(), 0);
    return true;
  }
  return sortGroups(below, sorted, group);
}

bool Evaluator::sortGroups(const PlanNode& sort, const std::vector<Row>& sorted,
                           std::vector<size_t>& group) {
  group.clear();
  const Index& index = indexFor(*sort.children[0]);  // a Sort passes its input's columns
  std::vector<Value> previous;
  for (size_t i = 0; i < sorted.size(); ++i) {
    std::vector<Value> key;
    for (const auto& s : sort.sortKeys) {
      auto v = expr(*s.expr, Ctx{&index, &sorted[i], nullptr});
      if (!v) return false;
      key.push_back(*v);
    }
    bool same = i > 0;
    for (size_t j = 0; same && j < key.size(); ++j)
      same = isNull(key[j]) == isNull(previous[j]) &&
             (isNull(key[j]) || compare(key[j], previous[j]) == 0);
    group.push_back(same ? group.back() : i);
    previous = std::move(key);
  }
  return true;
}

bool validTopK(const TopK& k, std::vector<Row> rows) {
  if (rows.size() != k.to - k.from) return false;
  // Per tie group the window touches: how many rows it takes, and the rows it may take.
  std::map<size_t, std::pair<size_t, std::vector<Row>>> groups;
  for (size_t i = k.from; i < k.to; ++i) ++groups[k.group[i]].first;
  for (size_t i = 0; i < k.ordered.size(); ++i)
    if (auto g = groups.find(k.group[i]); g != groups.end())
      g->second.second.push_back(k.ordered[i]);
  rows = sortedBag(std::move(rows));
  std::vector<bool> used(rows.size(), false);
  for (auto& [start, g] : groups) {
    size_t need = g.first;
    for (const auto& candidate : sortedBag(std::move(g.second))) {
      if (!need) break;
      for (size_t r = 0; r < rows.size(); ++r)
        if (!used[r] && rowKey(rows[r]) == rowKey(candidate)) {
          used[r] = true;
          --need;
          break;
        }
    }
    if (need) return false;
  }
  return true;
}

bool orderKept(const Relation& o, const std::vector<Row>& rows) {
  if (!o.order) return true;
  const std::vector<size_t>& g = *o.order;
  if (rows.size() != g.size()) return false;
  for (size_t a = 0, b = 0; a < g.size(); a = b) {
    for (b = a; b < g.size() && g[b] == g[a];) ++b;
    // The rows this group may hold: below a root LIMIT, any row of its tie group
    // in the sorted input (TopK); otherwise the original's rows at these positions.
    std::map<std::string, long> allowed;
    if (o.topK) {
      const size_t start = o.topK->group[o.topK->from + a];
      for (size_t i = 0; i < o.topK->ordered.size(); ++i)
        if (o.topK->group[i] == start) ++allowed[rowKey(o.topK->ordered[i])];
    } else {
      for (size_t i = a; i < b; ++i) ++allowed[rowKey(o.rows[i])];
    }
    for (size_t i = a; i < b; ++i)
      if (--allowed[rowKey(rows[i])] < 0) return false;
  }
  return true;
}

std::optional<std::vector<Row>> orderBreaking(const Relation& o) {
  if (!o.order) return std::nullopt;
  const std::vector<size_t>& g = *o.order;
  for (size_t i = 0; i < o.rows.size(); ++i)
    for (size_t j = i + 1; j < o.rows.size(); ++j) {
      if (g[i] == g[j] || rowKey(o.rows[i]) == rowKey(o.rows[j])) continue;
      std::vector<Row> swapped = o.rows;
      std::swap(swapped[i], swapped[j]);
      if (!orderKept(o, swapped)) return swapped;
    }
  return std::nullopt;
}

bool Evaluator::window(const PlanNode& limit, const std::vector<Row>& sorted, size_t from,
                       size_t to, std::vector<Row>& out) {
  std::vector<size_t> group;
  if (!ties(limit, sorted, group)) return false;
  // The tie groups the window cuts: at most the first and the last.
  std::map<size_t, std::vector<size_t>> chosen;  // group start -> the rows taken
  for (size_t at : {from, to ? to - 1 : 0}) {
    if (from >= to || chosen.count(group[at])) continue;
    const size_t s = group[at];
    size_t e = s;
    while (e < sorted.size() && group[e] == s) ++e;
    const size_t m = std::min(e, to) - std::max(s, from);
    if (m == e - s) continue;  // the whole group is inside
    std::vector<Row> members(sorted.begin() + static_cast<long>(s),
                             sorted.begin() + static_cast<long>(e));
    auto alternatives = subBags(members, m, kTieAlternatives + 1);
    const bool more = alternatives.size() > kTieAlternatives;
    if (more) alternatives.resize(kTieAlternatives);
    const size_t pick = chooseTie(alternatives.size(), more);
    auto& rows = chosen[s];
    for (size_t i : alternatives[pick]) rows.push_back(s + i);
  }
  for (size_t i = from; i < to; ++i) {
    auto c = chosen.find(group[i]);
    if (c == chosen.end()) {
      out.push_back(sorted[i]);
    } else if (!c->second.empty()) {
      for (size_t r : c->second) out.push_back(sorted[r]);
      c->second.clear();  // emitted once, at the group's first position in the window
    }
  }
  return true;
}

size_t Evaluator::chooseTie(size_t alternatives, bool more) {
  tiesCapped_ = tiesCapped_ || more;
  if (alternatives < 2) return 0;  // no choice (copies of one row leave none)
  const size_t slot = arities_.size();
  arities_.push_back(alternatives);
  return slot < choices_->size() ? std::min((*choices_)[slot], alternatives - 1) : 0;
}

void Evaluator::orderPeers(std::vector<size_t>& pos, size_t a, size_t b,
                           const std::function<const Row&(size_t)>& rowAt) {
  // Each peer's class: copies of one row share one (they are adjacent), in order.
  std::vector<size_t> cls;
  for (size_t q = a; q < b; ++q)
    cls.push_back(q == a ? 0 : cls.back() + (rowKey(rowAt(pos[q])) != rowKey(rowAt(pos[q - 1]))));
  // The distinct orders of the classes, in lexicographic order from the canonical one.
  size_t count = 1;
  for (std::vector<size_t> p = cls;
       count <= kTieAlternatives && std::next_permutation(p.begin(), p.end());)
    ++count;
  const bool more = count > kTieAlternatives;
  size_t pick = chooseTie(std::min(count, kTieAlternatives), more);
  if (!pick) return;
  std::vector<size_t> order = cls;
  while (pick--) std::next_permutation(order.begin(), order.end());
  std::vector<std::vector<size_t>> members(cls.back() + 1);
  for (size_t q = a; q < b; ++q) members[cls[q - a]].push_back(pos[q]);
  std::vector<size_t> next(members.size(), 0);
  for (size_t q = a; q < b; ++q) pos[q] = members[order[q - a]][next[order[q - a]]++];
}

bool evaluateAll(const PlanNode& root, const Database& db, const EvalOptions& options,
                 std::vector<Relation>& out, std::string& error, size_t cap, bool* complete) {
  // Depth first over the choices: the next vector increments the last choice that has
  // an alternative left and drops those after it (later cuts may differ then).
  EvalOptions o = options;
  o.tieChoices.clear();
  if (complete) *complete = true;
  while (true) {
    Relation r;
    if (!evaluate(root, db, o, r, error)) return false;
    std::vector<size_t> arities = r.tieArities;
    if (complete && r.tiesCapped) *complete = false;
    out.push_back(std::move(r));
    o.tieChoices.resize(arities.size(), 0);
    size_t i = arities.size();
    while (i > 0 && o.tieChoices[i - 1] + 1 >= arities[i - 1]) --i;
    if (i == 0) return true;
    if (out.size() >= cap) {  // answers left unlisted
      if (complete) *complete = false;
      return true;
    }
    ++o.tieChoices[i - 1];
    o.tieChoices.resize(i);
  }
}

}  // namespace rfguard::rt
