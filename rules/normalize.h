#pragma once
// Normalisation: subquery decorrelation, predicate pushdown, outer-join
// simplification and column pruning, each a named rule that can be switched off.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// A local rewrite at one node; returns true when it changed the plan.
using RuleFn = bool (*)(PlanPtr& node);

/// When the driver runs a rule. Every rule leaves outputs fresh: a local
/// rewrite those of the nodes it makes and moves (the driver recomputes their
/// ancestors on its way back up), a whole-plan pass those of what it changed
/// (refreshOutputs or computeOutput); debug builds check after every round.
enum class RulePhase {
  Rewrite,  ///< in the rounds, until no rule of this phase changes the plan
  Finish,   ///< a whole-plan pass once after the rounds, on the outermost plan only
  /// A whole-plan pass once before the rounds (after subquery plans are
  /// normalised) and again in the Finish phase, on the outermost plan only
  /// (column pruning: the rounds then carry only the columns the query reads).
  StartAndFinish,
};

/// A set of node kinds, one bit per PlanOp.
using PlanOpSet = uint32_t;
constexpr PlanOpSet opSet(PlanOp op) {
  return PlanOpSet{1} << static_cast<unsigned>(op);
}
/// The nodes a local rewrite can fire at, as its registry line names them.
inline constexpr PlanOpSet kAtFilter = opSet(PlanOp::Filter);
inline constexpr PlanOpSet kAtJoin = opSet(PlanOp::Join);
inline constexpr PlanOpSet kAtFilterOrJoin = kAtFilter | kAtJoin;

/// A named normalisation rule.
struct NormRule {
  const char* name;             ///< Verb+Object+Side, used by --disable
  const char* description;      ///< one line for --list-rules
  RuleFn local;                 ///< local rewrite, or nullptr for a whole-plan pass
  bool (*pass)(PlanPtr& root);  ///< whole-plan pass, or nullptr
  RulePhase phase = RulePhase::Rewrite;
  /// A local rewrite: the only nodes it can change (at any other it returns
  /// false at once); the driver tries it at no other.
  PlanOpSet at = 0;
};

/// Every rule, in the order the driver tries them.
const std::vector<NormRule>& normalisationRules();
/// True when `name` is a rule name.
bool isRuleName(const std::string& name);

/// What to run.
struct NormalizeOptions {
  std::set<std::string> disabled;  ///< rule names not to apply
  bool verify = false;             ///< check plan invariants after every rewrite
  bool finish = true;              ///< run the Finish phase (off for subquery plans)
  /// Called after every rule that changed the plan, with the rule's name and the
  /// whole plan as it stands (outputs refreshed, node ids not yet reassigned):
  /// the steps of a trace (rfguard plan --trace). Subquery plans normalised
  /// inside expressions show as one step, "NormalizeSubqueries".
  std::function<void(const std::string& rule, const PlanNode& root)> onStep;
};

/// Switches off the rules that order joins by estimates (ReorderJoins,
/// ChooseBuildSides; docs/join-order.md): the joins stay as written, as
/// `--join-order from` asks.
void keepJoinsAsWritten(NormalizeOptions& options);

/// What happened.
struct NormalizeReport {
  std::map<std::string, int, std::less<>> fired;  ///< rule name -> times it changed the plan
  std::vector<std::string> problems;              ///< invariant violations found by verify
};

/// Normalises the plan in place, then refreshes outputs and node ids.
void normalize(PlanPtr& root, const NormalizeOptions& options, NormalizeReport& report);

/// Invariant check: every column a node reads is produced by its children (or
/// is one of `outer`), scan aliases are unique, set operations are aligned.
std::vector<std::string> verifyPlan(const PlanNode& root, const std::set<std::string>& outer = {});

}  // namespace rfguard
