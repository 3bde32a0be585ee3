// Filters placed beside their producer. Both kinds filter an ancestor join's
// other side with the keys of a join below it, by the chain of equalities that
// CopySideways proves (rules/rf_sideways.cpp), and both are new filters of
// their own so that their wait can differ from the producer's other filter:
// Doris TPC-H q9 builds RF7 (partsupp's keys, at part) and RF8 (part's keys,
// at partsupp); were both blocking, each scan would wait for the other's build
// side, which waits for the scan: a cycle (`filter-wait-cycle`). Doris makes
// one of the two non-blocking; the sound profile makes its sideways filter so.
#include "rules/rf_planner_sideways.h"

#include <algorithm>

#include "ir/printers.h"

namespace rfguard {

namespace {

constexpr double kDorisRatio = 0.5;  // Doris' decoupled_rf_ndv_ratio_threshold default
constexpr double kSoundRatio = 1.0;  // the sound profile: any fewer keys than values

bool provides(const PlanNode& n, const std::string& id) {
  return std::any_of(n.output.begin(), n.output.end(), [&](const Column& c) { return c.id == id; });
}

/// A Filter (or a scan's own predicate) anywhere in the subtree.
bool hasFilter(const PlanNode& n) {
  if ((n.op == PlanOp::Filter || n.op == PlanOp::Scan) && n.predicate) return true;
  return std::any_of(n.children.begin(), n.children.end(),
                     [](const PlanPtr& c) { return hasFilter(*c); });
}

/// Whether `side` holds fewer keys `k` than `other` has values `y`: by
/// statistics under `ratio` times as many distinct values, else a filter in `side`.
bool selective(SidewaysHost& host, const PlanNode& side, const ExprPtr& k, const PlanNode& other,
               const ExprPtr& y, double ratio, std::string& why) {
  auto a = host.ndv(side, k), b = host.ndv(other, y);
  if (a && b && *b > 0) {
    const double r = *a / *b;
    why = "about " + std::to_string(static_cast<long long>(*a)) + " keys against " +
          std::to_string(static_cast<long long>(*b)) + " values";
    return r < ratio;
  }
  const bool f = hasFilter(side);
  why = f ? "no statistics; the build side is filtered"
          : "no statistics, and nothing filters the build side";
  return f;
}

/// The equality conjunct of `join` with `build` as its build side.
std::optional<EquiConjunct> conjunctBuilding(const PlanNode& join, const ExprPtr& build) {
  std::optional<EquiConjunct> out;
  if (join.predicate)
    forEachConjunct(join.predicate, [&](const ExprPtr& c) {
      auto s = splitConjunct(join, c);
      if (s && isEquality(s->op) && exprEquals(s->build, build)) out = s;
      return !out;
    });
  return out;
}

/// `x` below projection `p`: the column it renames, if it renames one.
ExprPtr belowProject(const PlanNode& p, const ExprPtr& x) {
  for (const auto& ne : p.exprs)
    if (ne.name == x->name) return ne.expr->kind == ExprKind::Column ? ne.expr : nullptr;
  return nullptr;
}

/// An inner or cross join: both sides' columns out, neither side's unmatched rows.
bool innerOrCross(const PlanNode& n) {
  const auto& info = joinInfo(n.joinType);
  return info.outputs[0] && info.outputs[1] && !info.preserves[0] && !info.preserves[1];
}

struct Builder {
  PlanNode* join = nullptr;
  ExprPtr src;
};

// Doris' findBuilderForDecoupledRf (`deep` false) and tryFindDeeperBuilder
// (`deep` true): down the probe sides of inner joins to the first whose build
// side holds `x`, then inside that build side to a deeper inner join whose
// build side holds it, or that equates it to a build key, through projections
// and filters. `trail` gets the nodes from `n` down to the builder.
std::optional<Builder> builderFor(PlanNode& n, ExprPtr x, bool deep,
                                  std::vector<PlanNode*>& trail) {
  trail.push_back(&n);
  auto found = [&]() -> std::optional<Builder> {
    if (n.op == PlanOp::Project) {
      ExprPtr below = belowProject(n, x);
      return below ? builderFor(*n.children[0], below, deep, trail) : std::nullopt;
    }
    if (n.op == PlanOp::Filter) return builderFor(*n.children[0], x, deep, trail);
    if (n.op != PlanOp::Join || !innerOrCross(n)) return std::nullopt;
    if (provides(*n.children[1], x->name)) {
      auto d = builderFor(*n.children[1], x, true, trail);
      return d ? d : Builder{&n, x};
    }
    if (!provides(*n.children[0], x->name)) return std::nullopt;
    ExprPtr equal;
    if (deep && n.predicate)
      forEachConjunct(n.predicate, [&](const ExprPtr& c) {
        auto s = splitConjunct(n, c);
        if (s && isEquality(s->op) && exprEquals(s->probe, x) && s->build->kind == ExprKind::Column)
          equal = s->build;
        return !equal;
      });
    if (!equal) return builderFor(*n.children[0], x, deep, trail);
    auto d = builderFor(*n.children[1], equal, true, trail);
    return d ? d : Builder{&n, equal};
  }();
  if (!found) trail.pop_back();
  return found;
}

/// Adds `f` at `producer` when it has consumers; says so either way.
bool settle(SidewaysHost& host, PlanNode& producer, RuntimeFilter&& f, size_t placed) {
  if (placed == 0) {
    host.report.dropped.push_back(f.id);
    return false;
  }
  host.waits.producer(f.id, producer);
  producer.runtimeFilters.push_back(std::move(f));
  return true;
}

}  // namespace

WaitGraph::WaitGraph(const PlanNode& root) {
  int clock = 0;
  std::function<void(const PlanNode&)> walk = [&](const PlanNode& n) {
    const int pre = clock++;
    for (const auto& c : n.children) walk(*c);
    span_[&n] = {pre, clock++};
  };
  walk(root);
}

bool WaitGraph::within(const PlanNode* a, const PlanNode* b) const {
  auto x = span_.find(a), y = span_.find(b);
  if (x == span_.end() || y == span_.end()) return false;  // a subquery plan's node
  return x->second.first <= y->second.first && y->second.second <= x->second.second;
}

const PlanNode* WaitGraph::buildRoot(int id) const {
  auto it = builds_.find(id);
  return it == builds_.end() ? nullptr : it->second;
}

void WaitGraph::producer(int id, const PlanNode& node, const PlanNode* build) {
  producers_[id] = &node;
  if (!build && node.op == PlanOp::Join) build = node.children[1].get();
  if (build) builds_[id] = build;
}

void WaitGraph::consumer(int id, const PlanNode& scan) {
  consumers_.push_back({id, &scan});
}

void WaitGraph::nonBlocking(int id) {
  std::erase_if(consumers_, [&](const auto& c) { return c.first == id; });
}

bool WaitGraph::closesCycle(int id) const {
  // The filters that wait on `id`: those whose build side holds one of its consumers.
  std::vector<int> waiting;
  for (const auto& [cid, scan] : consumers_)
    if (cid == id)
      for (const auto& [g, join] : producers_)
        if (within(buildRoot(g), scan)) waiting.push_back(g);
  if (waiting.empty()) return false;
  // Does `id` wait, step by step, on one of them?
  std::vector<int> seen{id}, work{id};
  while (!work.empty()) {
    const PlanNode* build = buildRoot(work.back());
    work.pop_back();
    if (!build) continue;
    for (const auto& [h, scan] : consumers_) {
      if (!within(build, scan) || std::find(seen.begin(), seen.end(), h) != seen.end()) continue;
      if (std::find(waiting.begin(), waiting.end(), h) != waiting.end()) return true;
      seen.push_back(h);
      work.push_back(h);
    }
  }
  return std::find(waiting.begin(), waiting.end(), id) != waiting.end();
}

void placeSideways(SidewaysHost& host, std::span<PlanNode* const> up, const RuntimeFilter& f) {
  if (up.size() < 2 || up[0]->op != PlanOp::Join) return;
  std::vector<const PlanNode*> chain(up.begin(), up.end());
  std::vector<SidewaysEntry> entries;
  // One entry per (join, side, expression): the build and the probe key may both
  // reach the same conjunct, or two conjuncts the same other side.
  for (auto& e : sidewaysEntries(chain, f)) {
    bool seen = false;
    for (const auto& had : entries)
      seen =
          seen || (had.join == e.join && had.child == e.child && had.decision.ok == e.decision.ok &&
                   (had.expr == e.expr || (had.expr && e.expr && exprEquals(had.expr, e.expr))));
    if (!seen) entries.push_back(std::move(e));
  }
  if (entries.empty()) return;
  PlanNode& producer = *up[0];
  RuntimeFilter g = f;
  g.id = 0;
  g.scope = FilterScope::Global;  // the other side's workers hold other keys than this join's
  size_t placed = 0, generated = 0;
  std::string reason;
  for (const auto& e : entries) {
    PlanNode& at = *const_cast<PlanNode*>(e.join);  // an ancestor in `up`: the planner's own
    if (!e.decision.ok) {
      host.report.rejected.push_back({f.id, at.id, f.build, e.decision});
      continue;
    }
    std::string why;
    const PlanNode& other = *at.children[e.child];
    if (!selective(host, *producer.children[1], f.build, other, e.expr, kSoundRatio, why)) {
      host.report.rejected.push_back(
          {f.id, at.id, e.expr, Decision::no(RfRule::SidewaysWhereSelective, why)});
      continue;
    }
    if (g.id == 0) {
      g.id = host.newId();
      host.waits.producer(g.id, producer);
      generated = host.report.generation.size();
      reason = (f.besideOnly ? "the build side's values of `" + exprToString(*f.build) + "`"
                             : "the keys of `" + exprToString(*f.probe) + " " + cmpSpelling(f.op) +
                                   " " + exprToString(*f.build) + "`") +
               " for the other side of a join above (" + why + ")";
      host.report.generation.push_back(
          {g.id, producer.id, f.build, Decision::yes(RfRule::CopySideways, reason)});
    }
    const int step = static_cast<int>(host.report.steps.size());
    host.report.steps.push_back({at.id, e.decision.rule, f.build, e.expr, -1});
    placed += host.propagate(*at.children[e.child], g, e.expr, step);
  }
  if (g.id == 0) return;
  if (placed > 0 && host.waits.closesCycle(g.id)) {
    g.nonBlocking = true;
    host.waits.nonBlocking(g.id);
    host.report.generation[generated].decision = Decision::yes(
        RfRule::NonBlockingAgainstWaitCycle,
        reason + "; non-blocking: a scan it filters feeds the build side of a filter it waits on");
  }
  settle(host, producer, std::move(g), placed);
}

void placeDecoupled(SidewaysHost& host, std::span<PlanNode* const> above) {
  PlanNode& a = *above[0];
  if (a.op != PlanOp::Join || !innerOrCross(a) || !a.predicate) return;
  const bool doris = host.profile == Profile::Doris;
  forEachConjunct(a.predicate, [&](const ExprPtr& c) {
    auto s = splitConjunct(a, c);
    if (!s || !isEquality(s->op) || s->probe->kind != ExprKind::Column ||
        s->build->kind != ExprKind::Column)
      return true;
    std::vector<PlanNode*> trail;
    auto b = builderFor(*a.children[0], s->probe, false, trail);
    if (!b) return true;
    // A key no conjunct of the builder compares: a filter beside its join only
    // (TPC-H q18's `o_custkey -> c_custkey`). Otherwise the builder's own
    // filter from that conjunct goes sideways (the sound profile's placeSideways).
    auto k = conjunctBuilding(*b->join, b->src);
    if (!doris) {
      if (k || !host.besideOnlyDone.insert({b->join, b->src->name}).second) return true;
      RuntimeFilter g;
      g.build = g.probe = b->src;
      g.besideOnly = true;
      g.kinds = host.kinds(*b->join->children[1], {b->src, b->src, CmpOp::Eq});
      std::vector<PlanNode*> up(trail.rbegin(), trail.rend());
      up.insert(up.end(), above.begin(), above.end());
      placeSideways(host, up, g);
      return true;
    }
    std::string why;
    if (!selective(host, *b->join->children[1], b->src, *a.children[1], s->build, kDorisRatio,
                   why)) {
      host.report.generation.push_back({0, a.id, c, Decision::no(RfRule::DorisDecoupled, why)});
      return true;
    }
    RuntimeFilter g;
    g.id = host.newId();
    g.build = k ? k->build : b->src;
    g.probe = k ? k->probe : b->src;
    g.besideOnly = !k;
    g.op = k ? k->op : CmpOp::Eq;
    g.nullAllowed = g.op == CmpOp::NullSafeEq;
    g.kinds = host.kinds(*b->join->children[1], {g.probe, g.build, g.op});
    // Doris makes the decoupled filter blocking and the join's own filters of
    // this conjunct non-blocking when statistics place it, or when only its
    // build side is filtered; otherwise the decoupled filter is non-blocking.
    const bool stats =
        host.ndv(*b->join->children[1], b->src) && host.ndv(*a.children[1], s->build);
    const bool prefer = stats || (hasFilter(*b->join->children[1]) && !hasFilter(*a.children[1]));
    host.report.generation.push_back(
        {g.id, b->join->id, c,
         Decision::yes(RfRule::DorisDecoupled, "for " + nodeRef(a) + "'s `" +
                                                   exprToString(*s->build) + "` (" + why + ")")});
    const int step = static_cast<int>(host.report.steps.size());
    host.report.steps.push_back({a.id, RfRule::DorisDecoupled, s->probe, s->build, -1});
    g.nonBlocking = !prefer;  // the planner's walk then records no wait for it
    const size_t placed = host.propagate(*a.children[1], g, s->build, step);
    if (settle(host, *b->join, std::move(g), placed) && prefer)
      for (auto& own : a.runtimeFilters)
        if (exprEquals(own.probe, s->probe) && exprEquals(own.build, s->build)) {
          own.nonBlocking = true;
          host.waits.nonBlocking(own.id);
        }
    return true;
  });
}

}  // namespace rfguard
