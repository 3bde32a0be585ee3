#pragma once
// Filters the planner places beside their producer: the sound profile's
// sideways copies (CopySideways, rules/rf_sideways.cpp) and Doris' decoupled
// filters (the doris profile), with the wait graph that keeps either from
// making scans wait on each other.
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rules/rf_hooks.h"
#include "rules/rf_planner.h"

namespace rfguard {

/// Which filters wait on which, as the planner places them: a blocking
/// consumer waits for its filter, and a filter is ready once its join's build
/// side has been read, so it waits on every blocking consumer there.
class WaitGraph {
 public:
  explicit WaitGraph(const PlanNode& root);
  /// Filter `id` is built at `node` from the rows of `build` (a join's right
  /// child when not given).
  void producer(int id, const PlanNode& node, const PlanNode* build = nullptr);
  void consumer(int id, const PlanNode& scan);
  /// `id`'s consumers wait on nothing from now on.
  void nonBlocking(int id);
  /// Would the consumers of `id` close a cycle of waits?
  bool closesCycle(int id) const;

 private:
  bool within(const PlanNode* a, const PlanNode* b) const;  ///< b in a's subtree
  const PlanNode* buildRoot(int id) const;
  std::unordered_map<const PlanNode*, std::pair<int, int>> span_;  ///< pre, post order
  std::unordered_map<int, const PlanNode*> producers_;
  std::unordered_map<int, const PlanNode*> builds_;  ///< filter id -> the input it is built from
  std::vector<std::pair<int, const PlanNode*>> consumers_;  ///< blocking ones
};

/// What the filter planner lends to the placements beside a producer.
struct SidewaysHost {
  RfReport& report;
  Profile profile;
  WaitGraph& waits;
  std::function<int()> newId;
  /// Places `f` from `start`, where it arrives as `e` by step `step`; returns
  /// the number of consumers placed.
  std::function<size_t(PlanNode& start, RuntimeFilter& f, const ExprPtr& e, int step)> propagate;
  /// Distinct values of column `e` in `side`'s output, where statistics give them.
  std::function<std::optional<double>(const PlanNode& side, const ExprPtr& e)> ndv;
  /// The kinds a filter from `s` built over `build` has.
  std::function<std::vector<FilterKind>(const PlanNode& build, const EquiConjunct& s)> kinds;
  /// (builder, column) pairs a filter beside its join only was placed for.
  std::set<std::pair<const PlanNode*, std::string>>& besideOnlyDone;
};

/// Sound profile: after `f` was generated at `up[0]` (its ancestors follow,
/// the root last), one more filter from the same keys for the other sides of
/// ancestor joins that CopySideways allows, where the producer's build side is
/// selective (SidewaysWhereSelective); non-blocking where blocking would close
/// a wait cycle.
void placeSideways(SidewaysHost& host, std::span<PlanNode* const> up, const RuntimeFilter& f);

/// At inner join `above[0]` (its ancestors follow, the root last), after its
/// own filters were generated: for each equality whose probe key an inner join
/// below takes from its build side (Doris' generateDecoupledRuntimeFilters).
/// Doris profile: Doris' decoupled filters. Sound profile: where that key is
/// no conjunct's build key there, a filter beside its join only
/// (RuntimeFilter::besideOnly), placed as placeSideways places.
void placeDecoupled(SidewaysHost& host, std::span<PlanNode* const> above);

}  // namespace rfguard
