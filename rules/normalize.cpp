#include "rules/normalize.h"

#include <array>
#include <cassert>

namespace rfguard {

// Each rule's function, declared from its registry line.
#define NORM_LOCAL(name, function, at, description) bool function(PlanPtr& node);
#define NORM_PASS(name, function, phase, description) bool function(PlanPtr& root);
#include "rules/norm_rules.def"
#undef NORM_LOCAL
#undef NORM_PASS

namespace {

const std::vector<NormRule> kRules = {
#define NORM_LOCAL(name, function, at, description) \
  {#name, description, function, nullptr, RulePhase::Rewrite, kAt##at},
#define NORM_PASS(name, function, phase, description) \
  {#name, description, nullptr, function, RulePhase::phase},
#include "rules/norm_rules.def"
#undef NORM_LOCAL
#undef NORM_PASS
};

constexpr int kMaxRounds = 32;
constexpr int kMaxLocalFirings = 256;

struct Run {
  Run(const NormalizeOptions& o, NormalizeReport& rep, PlanPtr* r) : opt(o), report(rep), root(r) {
    // Rules are tried at every node of every round: look their names up once
    // (from the few disabled names, without a string per rule).
    enabledRules.assign(kRules.size(), true);
    for (const auto& name : opt.disabled)
      for (size_t i = 0; i < kRules.size(); ++i)
        if (name == kRules[i].name) enabledRules[i] = false;
    for (size_t i = 0; i < kRules.size(); ++i)
      if (kRules[i].local && kRules[i].phase == RulePhase::Rewrite && enabledRules[i])
        for (size_t op = 0; op < localRules.size(); ++op)
          if (kRules[i].at & opSet(static_cast<PlanOp>(op))) localRules[op].push_back(&kRules[i]);
  }

  const NormalizeOptions& opt;
  NormalizeReport& report;
  PlanPtr* root;
  std::vector<bool> enabledRules;  ///< by position in kRules
  /// The enabled local rewrites that can fire at each kind of node, in order
  /// (most nodes are neither filters nor joins: no rule is tried at them).
  std::array<std::vector<const NormRule*>, kPlanOps> localRules;

  bool enabled(const NormRule& r) const {
    assert(&r >= kRules.data() && &r < kRules.data() + kRules.size());
    return enabledRules[static_cast<size_t>(&r - kRules.data())];
  }

  void fired(const NormRule& r) {
    auto it = report.fired.find(std::string_view(r.name));
    if (it == report.fired.end()) it = report.fired.emplace(r.name, 0).first;
    ++it->second;
    if (opt.onStep) {
      refreshOutputs(**root);
      opt.onStep(r.name, **root);
    }
    if (!opt.verify) return;
    refreshOutputs(**root);
    for (const auto& p : verifyPlan(**root))
      report.problems.push_back(std::string(r.name) + ": " + p);
  }

  ExprPtr subqueries(const ExprPtr& e) {
    if (e->kind == ExprKind::Subquery) {
      auto copy = mapArgs(*e, [&](const ExprPtr& a) { return subqueries(a); });
      copy->plan = clonePlan(*e->plan);
      NormalizeOptions inner = opt;
      inner.finish = false;  // Finish rules run once, from the outermost plan
      inner.verify = false;
      inner.onStep = nullptr;  // a subquery's steps are not whole plans
      normalize(copy->plan, inner, report);
      return copy;
    }
    if (e->args.empty()) return e;
    return mapArgs(*e, [&](const ExprPtr& a) { return subqueries(a); });
  }

  bool local(PlanPtr& node) {
    bool changed = false;
    for (int firing = 0; firing < kMaxLocalFirings; ++firing) {
      bool any = false;
      for (const NormRule* r : localRules[static_cast<size_t>(node->op)]) {
        if (!r->local(node)) continue;
        any = changed = true;
        fired(*r);
        break;
      }
      if (!any) break;
    }
    // A child that changed may have changed its output: this node's follows,
    // so that a round leaves every output fresh along the paths it changed
    // (the rules keep the nodes they make and move fresh themselves).
    bool below = false;
    for (auto& c : node->children) below = local(c) || below;
    if (below) computeOutput(*node);
    return changed || below;
  }
};

}  // namespace

const std::vector<NormRule>& normalisationRules() {
  return kRules;
}

void keepJoinsAsWritten(NormalizeOptions& options) {
  options.disabled.insert({"ReorderJoins", "ChooseBuildSides"});
}

bool isRuleName(const std::string& name) {
  for (const auto& r : kRules)
    if (name == r.name) return true;
  return false;
}

void normalize(PlanPtr& root, const NormalizeOptions& options, NormalizeReport& report) {
  Run run{options, report, &root};
  bool rewroteSubqueries = false;
  std::function<void(PlanNode&)> visitSubqueries = [&](PlanNode& n) {
    bool any = false;
    forEachExpr(n, [&](const ExprPtr& e) { any = any || hasSubquery(*e); });
    if (any) mapExprs(n, [&](const ExprPtr& e) { return hasSubquery(*e) ? run.subqueries(e) : e; });
    rewroteSubqueries = rewroteSubqueries || any;
    for (auto& c : n.children) visitSubqueries(*c);
  };
  bool subqueries = false;
  std::function<bool(const PlanNode&)> anySubquery = [&](const PlanNode& n) {
    bool any = false;
    forEachExpr(n, [&](const ExprPtr& e) { any = any || hasSubquery(*e); });
    for (const auto& c : n.children) any = any || anySubquery(*c);
    return any;
  };
  // The plan comes with its outputs computed (the binder and the JSON reader
  // compute them, and the check at the end holds every rule to that).
  assert(outputsFresh(*root) && "a plan to normalise has its outputs computed");
  if (options.onStep) subqueries = anySubquery(*root);
  visitSubqueries(*root);
  if (rewroteSubqueries) refreshOutputs(*root);
  if (subqueries) options.onStep("NormalizeSubqueries", *root);
  // Start passes before the rounds: pruning here makes every output the rounds
  // refresh only as wide as the query reads. (After the subqueries' pass, which
  // gave each subquery expression its own copy of its plan to change.)
  for (const auto& r : kRules) {
    if (!options.finish || r.phase != RulePhase::StartAndFinish || !run.enabled(r)) continue;
    assert(r.pass && !r.local && "StartAndFinish rules are whole-plan passes");
    if (r.pass(root)) run.fired(r);
  }
  for (int round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    for (const auto& r : kRules) {
      if (!run.enabled(r) || r.phase != RulePhase::Rewrite) continue;
      if (r.pass && r.pass(root)) changed = true, run.fired(r);
    }
    changed = run.local(root) || changed;
    // Passes refresh what they change, local rewrites recompute their paths.
    assert(outputsFresh(*root) && "a rewrite left an output stale");
    if (!changed) break;
  }
  // Whole-plan passes leave the outputs fresh (each recomputes what it
  // changed), so nothing is refreshed after them; the check below holds them to it.
  for (const auto& r : kRules) {
    const bool finish = r.phase == RulePhase::Finish || r.phase == RulePhase::StartAndFinish;
    if (!options.finish || !finish || !run.enabled(r)) continue;
    assert(r.pass && !r.local && "Finish rules are whole-plan passes");
    if (r.pass(root)) run.fired(r);
  }
  assert(outputsFresh(*root) &&
         "a rule left outputs stale, or changed the plan and said it did not");
  assignIds(*root);
}

}  // namespace rfguard
