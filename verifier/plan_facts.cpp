#include <algorithm>
#include <cassert>
#include <functional>

#include "verifier/plan_facts.h"

namespace rfguard {

namespace {
/// True when one of the node's own expressions holds a subquery.
bool hasSubqueryExpr(const PlanNode& n) {
  bool any = false;
  forEachExpr(n, [&](const ExprPtr& e) {
    any = any || e->subqueryInside || e->kind == ExprKind::Subquery;
  });
  return any;
}

struct ByFilterId {
  bool operator()(const Producer& p, int id) const { return p.filter->id < id; }
  bool operator()(int id, const Producer& p) const { return id < p.filter->id; }
};

/// What a plan's facts hold, counted first so that each vector is allocated once.
struct Sizes {
  size_t nodes = 0, producers = 0, consumers = 0, waits = 0, building = 0;
};

/// How many of `n`'s filters its input `i` builds (a join's right child, a set
/// operation's build input): their consumers below that input wait on themselves.
size_t buildsIn(const PlanNode& n, size_t i) {
  return static_cast<size_t>(
      std::count_if(n.runtimeFilters.begin(), n.runtimeFilters.end(),
                    [&](const RuntimeFilter& f) { return filterBuildInput(n, f) == int(i); }));
}

void count(const PlanNode& n, size_t building, Sizes& s) {
  ++s.nodes;
  s.producers += n.runtimeFilters.size();
  s.consumers += n.runtimeFilterTargets.size();
  s.waits += n.runtimeFilterTargets.size() * building;
  s.building = std::max(s.building, building);
  for (size_t i = 0; i < n.children.size(); ++i)
    count(*n.children[i], building + buildsIn(n, i), s);
  if (hasSubqueryExpr(n)) forEachSubqueryPlan(n, [&](const PlanNode& q) { count(q, building, s); });
}
}  // namespace

PlanFacts::PlanFacts(const PlanNode& root) {
  // One allocation of the size needed for each: glibc serves a request of 1 KiB
  // or more by first consolidating every freed small chunk, which costs more
  // than the walk, and growing by doubling allocates and copies several times.
  Sizes sizes;
  count(root, 0, sizes);
  spans_.reserve(sizes.nodes);
  producers.reserve(sizes.producers);
  consumers.reserve(sizes.consumers);
  waitRanges_.reserve(sizes.consumers);
  waitIds_.reserve(sizes.waits);
  building_.reserve(sizes.building);
  int clock = 0;
  visit(root, nullptr, 0, clock);
  std::sort(spans_.begin(), spans_.end(),
            [](const Span& a, const Span& b) { return std::less<>()(a.node, b.node); });
  // Plain sorts where they can be: a stable sort asks for a buffer even for a few elements.
  auto byId = [](const Producer& a, const Producer& b) { return a.filter->id < b.filter->id; };
  if (!std::is_sorted(producers.begin(), producers.end(), byId))  // the planner numbers top down
    std::stable_sort(producers.begin(), producers.end(), byId);
  byFilter_.resize(consumers.size());
  for (size_t i = 0; i < consumers.size(); ++i) byFilter_[i] = i;
  std::sort(byFilter_.begin(), byFilter_.end(), [&](size_t a, size_t b) {  // then plan order
    const int x = consumers[a].target->id, y = consumers[b].target->id;
    return x != y ? x < y : a < b;
  });
}

std::span<const Producer> PlanFacts::producersOf(int id) const {
  auto [from, to] = std::equal_range(producers.begin(), producers.end(), id, ByFilterId{});
  return {from, to};
}

std::span<const size_t> PlanFacts::consumersOf(int id) const {
  auto idOf = [&](size_t i) { return consumers[i].target->id; };
  auto from = std::partition_point(byFilter_.begin(), byFilter_.end(),
                                   [&](size_t i) { return idOf(i) < id; });
  auto to = std::partition_point(from, byFilter_.end(), [&](size_t i) { return idOf(i) == id; });
  return {from, to};
}

const PlanFacts::Span& PlanFacts::span(const PlanNode* n) const {
  auto it = std::lower_bound(spans_.begin(), spans_.end(), n, [](const Span& s, const PlanNode* p) {
    return std::less<>()(s.node, p);
  });
  assert(it != spans_.end() && it->node == n && "a node of the plan");
  return *it;
}

void PlanFacts::visit(const PlanNode& n, const PlanNode* parent, int depth, int& clock) {
  const size_t at = spans_.size();
  spans_.push_back({&n, clock++, 0, depth, parent});
  for (const auto& f : n.runtimeFilters) producers.push_back({&n, &f});
  for (const auto& t : n.runtimeFilterTargets) {
    consumers.push_back({&n, &t});
    waitRanges_.emplace_back(waitIds_.size(), building_.size());
    waitIds_.insert(waitIds_.end(), building_.rbegin(), building_.rend());
  }
  for (size_t i = 0; i < n.children.size(); ++i) {
    // A join's build side (its right child), and the input of a set operation
    // that builds a filter, is read before the filters it builds exist.
    const size_t before = building_.size();
    for (const auto& f : n.runtimeFilters)
      if (filterBuildInput(n, f) == static_cast<int>(i)) building_.push_back(f.id);
    visit(*n.children[i], &n, depth + 1, clock);
    building_.resize(before);
  }
  // The plans of the node's subquery expressions belong to the query too: a
  // filter may be produced or consumed in them, and a consumer there changes
  // what the subquery returns for each row of this node.
  if (hasSubqueryExpr(n))
    forEachSubqueryPlan(n, [&](const PlanNode& q) {
      const size_t root = spans_.size();
      visit(q, &n, depth + 1, clock);
      spans_[root].subqueryRoot = true;
    });
  spans_[at].tout = clock;
}

bool PlanFacts::within(const PlanNode* outer, const PlanNode* inner) const {
  if (!outer || !inner) return false;
  const Span& o = span(outer);
  const Span& i = span(inner);
  return o.tin <= i.tin && i.tin < o.tout;
}

bool PlanFacts::isSubqueryRoot(const PlanNode* n) const {
  return span(n).subqueryRoot;
}

const PlanNode* PlanFacts::probeRoot(const Producer& p) const {
  const PlanNode& n = *p.node;
  if (n.op == PlanOp::Join) return n.children[0].get();
  if (isSetOperation(n.op)) {
    const int k = filterProbeInput(n, *p.filter);
    return k < 0 ? nullptr : n.children[static_cast<size_t>(k)].get();
  }
  // A TopN filter applies below its sort: Limit -> Sort -> input.
  const PlanNode* c = n.children[0].get();
  return c->op == PlanOp::Sort ? c->children[0].get() : c;
}

const PlanNode* PlanFacts::buildRoot(const Producer& p) const {
  const int b = filterBuildInput(*p.node, *p.filter);
  return b < 0 ? nullptr : p.node->children[static_cast<size_t>(b)].get();
}

std::pmr::vector<const PlanNode*> PlanFacts::path(const PlanNode* from, const PlanNode* to,
                                                  std::pmr::memory_resource* mem) const {
  assert(within(from, to));
  std::pmr::vector<const PlanNode*> out(span(to).depth - span(from).depth + 1, mem);
  size_t i = out.size();
  for (const PlanNode* n = to; n != from; n = span(n).parent) out[--i] = n;
  out[0] = from;
  return out;
}

}  // namespace rfguard
