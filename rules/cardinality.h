#pragma once
// Cardinality estimation, textbook style (System R selectivities, independence
// of conjuncts, |R|·|S| / max(ndv) for equi-joins), from the statistics a schema
// gives: WITH (rows = N), ndv_<column>, NOT NULL, single-column primary keys.
// docs/join-order.md lists every rule and default. Estimates are doubles (never
// below one row for a non-empty input); they order plans, they promise nothing.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// Defaults where statistics are missing.
struct EstimateDefaults {
  double tableRows = 1000;            ///< a table without WITH (rows = N)
  double ndvFraction = 0.1;           ///< distinct values of a column without ndv_: rows / 10
  double equalSelectivity = 0.1;      ///< column = constant without ndv_ (System R's 1/10)
  double rangeSelectivity = 1.0 / 3;  ///< <, <=, >, >= against a constant or column
  double likeSelectivity = 0.1;       ///< LIKE, ILIKE, SIMILAR TO, regexp_matches
  double nullSelectivity = 0.1;       ///< IS NULL on a nullable column
  double otherSelectivity = 0.25;     ///< any other predicate
  double antiMinimum = 0.1;           ///< an anti join keeps at least this share
};

/// Row and distinct-value estimates for the nodes of one plan, memoised per
/// node. The plan must outlive the estimator and not change while it is used.
class CardinalityEstimator {
 public:
  CardinalityEstimator() = default;
  explicit CardinalityEstimator(EstimateDefaults d) : d_(d) {}

  /// Estimated output rows of `n`.
  double rows(const PlanNode& n);
  /// Estimated distinct values of column `id` in the output of `n`.
  double ndv(const PlanNode& n, const std::string& id);
  /// Selectivity of `predicate` (a conjunction) over rows of `input`'s output.
  double selectivity(const ExprPtr& predicate, const PlanNode& input);
  /// Selectivity of one join conjunct between `left` and `right` (an equality
  /// of a column of each: 1 / max(ndv); otherwise as a filter over both).
  double joinSelectivity(const ExprPtr& conjunct, const PlanNode& left, const PlanNode& right);
  /// Estimated rows of a join of `type` with `condition` over the two inputs.
  double joinRows(JoinType type, const ExprPtr& condition, const PlanNode& left,
                  const PlanNode& right);
  const EstimateDefaults& defaults() const { return d_; }

 private:
  /// Distinct values, and whether a statistic (ndv_ or a primary key) gave them.
  struct Ndv {
    double value = 0;
    bool known = false;
  };
  double compute(const PlanNode& n);
  Ndv baseNdv(const PlanNode& scan, const std::string& id);
  Ndv ndvOf(const PlanNode& n, const std::string& id);
  double conjunctSelectivity(const Expr& c, const PlanNode* a, const PlanNode* b);
  double independent(const std::vector<const Expr*>& parts, const PlanNode* a, const PlanNode* b);
  double equiJoinSelectivity(const std::vector<const Expr*>& parts, const PlanNode& a,
                             const PlanNode& b);
  /// True when the columns `cols` of `n`'s output are unique in it (they cover a key).
  bool coversKey(const PlanNode& n, const std::vector<std::string_view>& cols);
  Ndv columnNdvIn(const Expr& col, const PlanNode* a, const PlanNode* b);

  /// Rows per node in an open-addressed table over a power of two, at most
  /// half full, keyed by node address (a plan has a few dozen nodes: a hash
  /// map allocated per entry, a sorted vector searched a dozen steps per look-up).
  struct RowsMemo {
    const PlanNode* node = nullptr;  ///< null: a free slot
    double rows = 0;
  };
  size_t memoSlot(const PlanNode* n) const;
  void memoGrow();

  EstimateDefaults d_;
  std::vector<RowsMemo> rows_;
  size_t rowsCount_ = 0;
  std::pair<const PlanNode*, double> last_{nullptr, 0};  ///< the last node asked about
};

/// Sets `estimatedRows` on every node of the plan (subquery plans included)
/// when some scan of it has a row-count statistic, and clears them otherwise:
/// estimates resting on defaults alone are not shown.
void annotateEstimates(PlanNode& root);

}  // namespace rfguard
