#pragma once
// The runtime-filter planner: generate filters at joins, carry each one down
// to every scan where that is provably safe, and record why for each edge.
#include <string>
#include <utility>
#include <vector>

#include "ir/plan.h"
#include "rules/rf_hooks.h"
#include "rules/rf_lineage.h"
#include "rules/rf_profiles.h"

namespace rfguard {

/// An expression as the report shows it, printed when asked: a placement records
/// an edge per node and filter, and most runs (an optimizer's, a lint) print none.
class ExprText {
 public:
  ExprText() = default;
  ExprText(ExprPtr e) : expr_(std::move(e)) {}  // NOLINT: an expression's own text
  ExprText(const SortKey& k)  // NOLINT: a sort key's, direction and NULLs included
      : expr_(k.expr), sortKey_(true), ascending_(k.ascending), nullsFirst_(k.nullsFirst) {}
  /// The text: the expression (or sort key) printed as everywhere else.
  std::string str() const;
  /// The expression (a sort key's expression for a sort key).
  const ExprPtr& expr() const { return expr_; }

 private:
  ExprPtr expr_;
  bool sortKey_ = false;
  bool ascending_ = true;
  bool nullsFirst_ = false;
};

/// One step of a consumer's derivation: a node, the rule that allowed it, the expression before and
/// after.
struct RfStep {
  int node = 0;
  RfRule rule = RfRule::PassThroughUnchanged;
  ExprText before;
  ExprText after;
  int parent = -1;  ///< the previous step in RfReport::steps, -1 at the producer
  int jumpTo = 0;   ///< a run of unchanged pass-throughs down to this scan (see derivation())
};

/// How filter `filter` reached scan `scan`; RfReport::derivation() lists the steps.
struct RfDerivation {
  int filter = 0;
  int scan = 0;
  ExprText target;
  int last = -1;  ///< the final step (ConsumeAtScan) in RfReport::steps
};

/// A decision the planner took: a generation attempt or an edge it considered.
struct RfEdge {
  int filter = 0;  ///< 0 for a generation attempt that made no filter
  int node = 0;    ///< where the decision was taken
  ExprText what;   ///< the conjunct or expression considered
  Decision decision;
};

/// A consumer left out because another filter of the same join, from the same
/// build key, already reaches the same scan expression (equivalence copies
/// and repeated conjuncts build such twins).
struct RfMerge {
  int filter = 0;  ///< the filter whose consumer went
  int into = 0;    ///< the filter that keeps it
  int scan = 0;
  ExprText target;
  bool whole = false;  ///< the filter had no consumer left and went too
};

/// Everything the planner decided, for --explain and for tests.
struct RfReport {
  std::vector<RfStep> steps;       ///< every step taken; derivations share their prefixes
  std::vector<RfEdge> generation;  ///< one per join conjunct considered
  std::vector<RfEdge> rejected;    ///< edges not taken
  std::vector<RfDerivation> consumers;
  std::vector<int> dropped;     ///< filters removed for lack of a consumer
  std::vector<RfEdge> skipped;  ///< filters the cost model did not build, with the reason
  std::vector<RfMerge> merged;  ///< duplicate consumers left out, and filters left empty
  std::shared_ptr<const LineageIndex> lineage;  ///< expands jump steps in derivation()

  /// The steps from the producer to the scan, in order.
  std::vector<RfStep> derivation(const RfDerivation& d) const;
};

/// A step's expression, or "before => after" where the step rewrote it.
std::string changeText(const RfStep& s);

/// How to plan.
struct RfOptions {
  Profile profile = Profile::Sound;
  /// Hologres' trigger thresholds: build a filter only when the probe side has at
  /// least 100,000 rows and the build side at most a tenth of that, by statistics.
  bool cost = false;
  /// One composite filter over all equality conjuncts of a join (two or more, all `=`
  /// or all `<=>`) instead of one filter per conjunct.
  bool composite = false;
  RfOptions() = default;
  RfOptions(Profile p) : profile(p) {}  // NOLINT: a profile alone is a complete option set
};

/// Plans runtime filters on a normalised plan with node ids assigned; fills
/// `runtimeFilters` on joins and `runtimeFilterTargets` on scans (replacing any).
void planRuntimeFilters(PlanNode& root, RfReport& report, const RfOptions& options = {});

/// The --explain text: per filter, its generation, consumers with derivations, and rejected edges.
std::string explainRuntimeFilters(const RfReport& report);

}  // namespace rfguard
