// Safety: for each consumer, search for a derivation from its producer's probe
// expression down to the consumer's target in which every step is justified by
// the sound hooks (docs/design.md section 3). The search follows only the path from the
// producer to the consumer's scan; at each node it tries lineage and every
// equality copy. Without a derivation, the finding names the deepest step that
// broke a condition, or says that the target is not derivable at all.
#include <algorithm>
#include <memory_resource>
#include <unordered_set>

#include "ir/stack_arena.h"
#include "rules/rf_hooks.h"
#include "rules/rf_profiles.h"
#include "verifier/plan_facts.h"

namespace rfguard {

namespace {

/// A refused step on the way to the consumer.
struct Break {
  size_t depth = 0;  ///< index in the path
  const PlanNode* node = nullptr;
  Decision decision;
};

/// The finding code for a refused step (by the rule that refused it).
const char* codeFor(const Break& b) {
  return rfRuleInfo(b.decision.rule).finding;
}

/// A node of the walk and the expression the filter reaches it as.
struct Reached {
  const PlanNode* node;
  ExprPtr expr;
  bool notIn;  ///< below the NOT IN side of a NULL-aware anti join (nullKeysCount)
};

/// The expressions a consumer's target reads its key through, outermost first:
/// for `CAST(x AS T)` that keeps every value of x (castKeepsValues), and for
/// `coalesce(x, ...)` when a NULL key does not count (the producer rejects the
/// rows whose x is NULL, so whatever the rest gives them changes nothing), x;
/// then the same for x. The filter reaching the scan as x is then derived:
/// INT a.k as CAST(a.k AS BIGINT) against INT build keys tests the same values;
/// CAST(a.d AS INT) would round 1.5 to 2 and is not such a cast; with `<=>` (or
/// accept_null) coalesce(a.k, 0) would turn a NULL key that counts into 0.
std::vector<ExprPtr> keptThrough(const ExprPtr& target, const RuntimeFilter& f) {
  std::vector<ExprPtr> out;
  if (!comparesExactly(target->type, f.build->type)) return out;
  const bool nullsDoNotCount = !matchesNullKeys(f) && !f.acceptNull;
  for (ExprPtr t = target;;) {
    const bool cast = t->kind == ExprKind::Cast && t->args.size() == 1;
    const bool merged =
        nullsDoNotCount && isCallOf(*t, "coalesce") && !t->args.empty() && isDeterministic(*t);
    if ((!cast && !merged) || !castKeepsValues(t->args[0]->type, t->type)) return out;
    t = t->args[0];
    out.push_back(t);
  }
}

/// An expression the filter arrives as, and the same without each cast that
/// keeps every value (castKeepsValues) of a key that compares exactly with the
/// build keys: arriving as CAST(a.k AS BIGINT) for INT a.k and INT build keys,
/// the filter tests a.k's own values.
std::vector<ExprPtr> arrivalCores(const ExprPtr& e, const RuntimeFilter& f) {
  std::vector<ExprPtr> out{e};
  for (ExprPtr t = e; t->kind == ExprKind::Cast && t->args.size() == 1;) {
    const ExprPtr& x = t->args[0];
    if (!castKeepsValues(x->type, t->type) || !comparesExactly(x->type, f.build->type)) break;
    out.push_back(t = x);
  }
  return out;
}

/// True when a filter arriving at a scan as `e` reaches a consumer's target:
/// `e` (or its value-keeping core) is the target or an expression it reads
/// its key through (keptThrough).
bool reachesTarget(const ExprPtr& e, const ExprPtr& target, const std::vector<ExprPtr>& inner,
                   const RuntimeFilter& f) {
  for (const auto& core : arrivalCores(e, f)) {
    if (exprEquals(core, target)) return true;
    for (const auto& x : inner)
      if (exprEquals(core, x)) return true;
  }
  return false;
}

/// `n`, then its ancestors up to the root of its plan (a subquery plan's root
/// ends it: the holder's rows are another query's).
std::vector<const PlanNode*> upFrom(const PlanFacts& facts, const PlanNode* n) {
  std::vector<const PlanNode*> up;
  for (; n; n = facts.parent(n)) {
    up.push_back(n);
    if (facts.isSubqueryRoot(n)) break;
  }
  return up;
}

size_t childIndex(const PlanNode& n, const PlanNode* child) {
  for (size_t i = 0; i < n.children.size(); ++i)
    if (n.children[i].get() == child) return i;
  return n.children.size();
}

}  // namespace

/// Where one producer's filter may arrive: for each node of its probe subtree,
/// the expressions a derivation justified at every step reaches it as. One
/// walk per producer serves all of its consumers (a chain of n equi-joins has
/// n(n-1)/2 of them, and one search per consumer made lint quadratic in the
/// path length on top of that). The moves are those of the per-consumer search
/// below, taken into every child instead of along one path; since a tree has
/// one path to each node, both reach the same expressions.
Derivations::Derivations(const PlanFacts& facts, const Producer& p) {
  const RuntimeFilter& f = *p.filter;
  const PlanNode* root = facts.probeRoot(p);
  // Only the nodes on the way to this filter's consumers need to be walked (a
  // consumer beside the producer: up to the plan's root).
  std::unordered_set<const PlanNode*> onPath;
  bool beside = false;
  for (size_t i : facts.consumersOf(f.id)) {
    const Consumer& c = facts.consumers[i];
    beside = beside || !facts.within(root, c.node);
    for (const PlanNode* n = c.node; n && onPath.insert(n).second && n != root;)
      n = facts.parent(n);
  }
  // Below the NOT IN side of a NULL-aware anti join the hooks judge `g` (a NULL
  // key counts there). A tree has one path to each node, so whether a node lies
  // below such a side does not depend on the expression that reaches it.
  const RuntimeFilter g = nullKeysCount(f);
  // Breadth-first; a vector read from the front (a deque allocates two blocks up front).
  std::vector<Reached> work;
  if (!f.besideOnly && root) work.push_back({root, f.probe, false});  // else beside it only
  // Sideways only from a join: its equality carries the keys across a join above.
  if (beside && p.node->op == PlanOp::Join)
    for (const auto& s : sidewaysEntries(upFrom(facts, p.node), f))
      if (s.decision.ok) work.push_back({s.join->children[s.child].get(), s.expr, false});
  for (size_t head = 0; head < work.size(); ++head) {
    const PlanNode* n = work[head].node;  // not a structured binding: the lambda below uses it
    ExprPtr e = std::move(work[head].expr);
    const bool notIn = work[head].notIn;
    const RuntimeFilter& h = notIn ? g : f;
    if (!onPath.count(n)) continue;
    auto& reached = reached_[n];  // a handful per node: compared, not rendered
    if (std::any_of(reached.begin(), reached.end(),
                    [&](const ExprPtr& x) { return exprEquals(x, e); }))
      continue;
    reached.push_back(e);
    if (n->op == PlanOp::Join) {
      for (const auto& m : joinMovesUnder(Profile::Sound, *n, e, h))
        if (m.decision.ok)
          work.push_back({n->children[m.child].get(), m.expr, notIn || m.intoNotIn});
      continue;
    }
    for (size_t child = 0; child < n->children.size(); ++child) {
      ExprPtr down;
      if (canPassThrough(*n, child, e, h, &down).ok)
        work.push_back({n->children[child].get(), down, notIn});
    }
    for (auto& y : copiesAcrossFilterEquality(*n, e, h))
      work.push_back({n->children[0].get(), y, notIn});
    forEachSubqueryPlan(*n, [&](const PlanNode& sub) {
      if (!onPath.count(&sub)) return;
      for (auto& [at, x] : subqueryEntries(*n, sub, e, h).entries) work.push_back({at, x, notIn});
    });
  }
}

const Expr* Derivations::arrivesAs(const PlanNode* node, const ExprPtr& target) const {
  auto it = reached_.find(node);
  if (it == reached_.end()) return nullptr;
  for (const auto& e : it->second)
    if (exprEquals(e, target)) return e.get();
  return nullptr;
}

namespace {

/// The search along the path from `from` (where the filter applies as
/// `start`) down to consumer `c`: true when a derivation justified at every
/// step reaches its target; else the finding that names the deepest broken step.
bool searchPath(const PlanFacts& facts, const Consumer& c, const Producer& p, const PlanNode* from,
                const ExprPtr& start, std::vector<Finding>& out) {
  const int id = c.target->id;
  const RuntimeFilter& f = *p.filter;
  const std::vector<ExprPtr> inner = keptThrough(c.target->target, f);
  // The search's lists live on the stack while they fit (a safe consumer's
  // search is a handful of steps; only a long path spills to the heap).
  StackArena<2048> arena;
  std::pmr::memory_resource* mem = &arena.memory;
  const auto path = facts.path(from, c.node, mem);
  const ExprPtr& target = c.target->target;

  const RuntimeFilter g = nullKeysCount(f);  // below a NOT IN side, as above
  struct Step {
    size_t depth;
    ExprPtr expr;
    bool notIn;
  };
  std::pmr::vector<Step> work({{0, start, false}}, mem);   // breadth-first, as above
  std::pmr::vector<std::pair<size_t, ExprPtr>> seen(mem);  // a few along one path
  std::pmr::vector<Break> breaks(mem);                     // conditions broken on the way
  std::pmr::vector<Break> lineage(mem);  // the expression did not lead towards the scan
  std::vector<std::string> arrived;      // what reached the scan instead of the target
  for (size_t head = 0; head < work.size(); ++head) {
    const size_t i = work[head].depth;  // not a structured binding: the lambda below uses it
    ExprPtr e = std::move(work[head].expr);
    const bool notIn = work[head].notIn;
    const RuntimeFilter& h = notIn ? g : f;
    if (std::any_of(seen.begin(), seen.end(),
                    [&](const auto& x) { return x.first == i && exprEquals(x.second, e); }))
      continue;
    seen.emplace_back(i, e);
    const PlanNode& n = *path[i];
    if (i + 1 == path.size()) {
      if (reachesTarget(e, target, inner, f)) return true;
      arrived.push_back(exprToString(*e));
      continue;
    }
    const size_t child = childIndex(n, path[i + 1]);
    if (child == n.children.size()) {  // into a subquery plan of n: at a correlation conjunct
      SubqueryEntries into = subqueryEntries(n, *path[i + 1], e, h);
      bool entered = false;
      for (auto& [at, x] : into.entries) {
        auto j = std::find(path.begin() + static_cast<std::ptrdiff_t>(i) + 1, path.end(), at);
        if (j == path.end()) continue;  // a correlation off the consumer's path
        entered = true;
        work.push_back({static_cast<size_t>(j - path.begin()), x, notIn});
      }
      if (!entered) {
        if (into.decision.ok)  // correlated elsewhere: not on the way to this consumer
          into.decision = Decision::noLater(RfRule::CopyAcrossCorrelation, [where = nodeRef(n)] {
            return "entered a subquery of " + where +
                   " below no correlation conjunct on the filter's key: the filtered rows change "
                   "the subquery's value";
          });
        breaks.push_back({i, &n, into.decision});
      }
      continue;
    }
    bool moved = false;
    if (n.op == PlanOp::Join) {
      for (const auto& m : joinMovesUnder(Profile::Sound, n, e, h)) {
        if (m.child != child) continue;
        moved = true;
        if (m.decision.ok)
          work.push_back({i + 1, m.expr, notIn || m.intoNotIn});
        else
          breaks.push_back({i, &n, m.decision});
      }
      if (!moved)
        lineage.push_back(
            {i, &n,
             Decision::no(RfRule::PassThroughJoinLineage,
                          "`" + exprToString(*e) + "` at " + nodeRef(n) +
                              " neither comes from its " + (child ? "right" : "left") +
                              " side nor is a key of its condition")});
      continue;
    }
    ExprPtr down;
    Decision d = canPassThrough(n, child, e, h, &down);
    if (d.ok)
      work.push_back({i + 1, down, notIn});
    else
      breaks.push_back({i, &n, d});
    for (auto& y : copiesAcrossFilterEquality(n, e, h)) work.push_back({i + 1, y, notIn});
  }

  std::string head =
      "RF" + std::to_string(id) + " -> " + exprToString(*target) + " at " + nodeRef(*c.node) + ": ";
  std::vector<int> nodes{p.node->id, c.node->id};
  // The deepest broken condition: how far a justified derivation got.
  const Break* worst = nullptr;
  for (const auto& b : breaks)
    if (!worst || b.depth > worst->depth) worst = &b;
  if (worst && std::string(codeFor(*worst)) != "target-not-derivable") {
    nodes.push_back(worst->node->id);
    out.push_back(
        makeFinding(codeFor(*worst), head + worst->decision.reason.text(), id, nodes, c.node->loc));
    return false;
  }
  std::string why;
  if (!arrived.empty()) {
    why =
        "the probe expression `" + exprToString(*f.probe) + "` reaches it as `" + arrived[0] + "`";
    for (size_t k = 1; k < arrived.size(); ++k) why += " or `" + arrived[k] + "`";
  } else if (worst) {
    why = worst->decision.reason.text();
  } else if (!lineage.empty()) {
    why = lineage.back().decision.reason.text();
    nodes.push_back(lineage.back().node->id);
  } else {
    why = "no step leads from the probe expression `" + exprToString(*f.probe) + "` to it";
  }
  out.push_back(makeFinding("target-not-derivable", head + why, id, nodes, c.node->loc));
  return false;
}

}  // namespace

void checkSafety(const PlanFacts& facts, const Consumer& c, std::vector<Finding>& out,
                 const Derivations* known) {
  const int id = c.target->id;
  const Producer& p = facts.producersOf(id)[0];
  const RuntimeFilter& f = *p.filter;
  // A TopN threshold that arrives as the sort key's definition (`a.v + 1` for
  // ORDER BY p.x, p.x := a.v + 1) compares the very values the sort compares:
  // derived, it is safe like any other filter (topn-target-changed is retired).
  if (known && known->arrivesAs(c.node, c.target->target)) return;  // derived: safe
  if (const auto* at = known ? known->reached(c.node) : nullptr) {
    const std::vector<ExprPtr> inner = keptThrough(c.target->target, f);
    for (const auto& e : *at)
      if (reachesTarget(e, c.target->target, inner, f)) return;  // derived through a cast
  }
  const PlanNode* probe = facts.probeRoot(p);
  if (facts.within(probe, c.node) && f.besideOnly) {
    out.push_back(makeFinding("target-not-derivable",
                              "RF" + std::to_string(id) + " -> " + exprToString(*c.target->target) +
                                  " at " + nodeRef(*c.node) + ": a filter beside " +
                                  nodeRef(*p.node) +
                                  " only has no probe key: it applies in the other side of a "
                                  "join above, never below its own probe side",
                              id, {p.node->id, c.node->id}, c.node->loc));
    return;
  }
  if (facts.within(probe, c.node)) {
    searchPath(facts, c, p, probe, f.probe, out);
    return;
  }
  // Beside the producer: in the other side of an ancestor join (CopySideways).
  std::vector<Finding> first;
  const SidewaysEntry* refused = nullptr;
  const std::vector<SidewaysEntry> entries = sidewaysEntries(upFrom(facts, p.node), f);
  for (const auto& s : entries) {
    const PlanNode* side = s.join->children[s.child].get();
    if (!facts.within(side, c.node)) continue;
    if (!s.decision.ok) {
      refused = refused ? refused : &s;
      continue;
    }
    std::vector<Finding> found;
    if (searchPath(facts, c, p, side, s.expr, found)) return;
    if (first.empty()) first = std::move(found);
  }
  if (!first.empty()) {
    for (auto& x : first) out.push_back(std::move(x));
    return;
  }
  std::vector<int> nodes{p.node->id, c.node->id};
  std::string why = "not in the probe subtree of " + nodeRef(*p.node);
  if (refused) {
    nodes.push_back(refused->join->id);
    why += ", and " + refused->decision.reason.text();
  } else {
    why +=
        ", and no equality of a join above it carries the producer's keys unchanged to this side";
  }
  out.push_back(makeFinding("consumer-outside-probe-side",
                            "RF" + std::to_string(id) + " -> " + exprToString(*c.target->target) +
                                " at " + nodeRef(*c.node) + ": " + why,
                            id, nodes, c.node->loc));
}

}  // namespace rfguard
