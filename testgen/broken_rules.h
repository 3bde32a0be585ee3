#pragma once
// Deliberately broken rewrite rules, each the shape of a shipped wrong-result
// bug, for testing `rfguard equiv`: every one must be refuted where it applies
// (tools/rewrite_check.cpp, tests/unit/equiv_test.cpp).
#include <optional>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

/// One application of a broken rule: the plan before and after it.
struct BrokenRewrite {
  PlanPtr original, rewritten;
  std::string where;  ///< the node it applied at, e.g. "left join #4"
};

/// A broken rule: applied at the first site of `plan` where it applies, or nullopt.
struct BrokenRule {
  const char* name;
  const char* bug;  ///< what it does wrong, and which engine shipped it
  std::optional<BrokenRewrite> (*apply)(const PlanNode& plan);
};

/// Every broken rule:
///  - OuterJoinToInner: a LEFT / RIGHT / FULL join made INNER without a
///    NULL-rejecting predicate above it (the wrong outer-join simplification);
///  - CoalesceBelowNullGeneratingSide: coalesce(c, 0) over a LEFT join's padded
///    column moved into its right input (Trino #13109);
///  - NotInAsPlainAnti: a null-aware anti join (NOT IN) turned into a plain anti
///    join (NOT EXISTS), which keeps rows NOT IN rejects when the subquery has a NULL;
///  - FilterBelowLimit: a filter above a LIMIT moved below it;
///  - FilterIntoNullGeneratingSide: a filter above a LEFT join over its padded
///    columns moved into its right input (the padded rows it dropped come back);
///  - OnConjunctIntoPreservedSide: a LEFT join's ON conjunct over its left input
///    moved into that input (rows it padded are dropped).
const std::vector<BrokenRule>& brokenRules();

}  // namespace rfguard
