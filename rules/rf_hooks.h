#pragma once
// The runtime-filter hooks of DESIGN section 3: pure functions that decide one
// step each and say which rule decided and why.
#include <map>
#include <optional>
#include <string>

#include "ir/plan.h"

namespace rfguard {

/// One hook's answer: yes or no, the rule that decided, and the reason in words.
struct Decision {
  bool ok = false;
  std::string rule;    ///< Verb+Object+Side name, e.g. "PassThroughJoinNullGeneratingSide"
  std::string reason;  ///< why, in words

  static Decision yes(std::string rule, std::string reason) {
    return {true, std::move(rule), std::move(reason)};
  }
  static Decision no(std::string rule, std::string reason) {
    return {false, std::move(rule), std::move(reason)};
  }
};

/// A join conjunct `probe OP build` with each side over one child.
struct EquiConjunct {
  ExprPtr probe;   ///< over the join's left (probe) child
  ExprPtr build;   ///< over the join's right (build) child
  std::string op;  ///< "=", "<=>", "<", "<=", ">", ">=" (probe OP build)
};

/// True for `=` and `<=>`.
bool isEquality(const std::string& op);
/// True when the node returns at most one row whatever the data (a global aggregate...).
bool atMostOneRow(const PlanNode& node);
/// Splits a conjunct of `join` into probe and build sides, if it compares one with the
/// other (`=`, `<=>`, or a range operator, flipped so that the probe side is on the left).
std::optional<EquiConjunct> splitConjunct(const PlanNode& join, const ExprPtr& conjunct);

/// May `join` produce a filter for its probe side from `conjunct` (a top-level AND conjunct)?
Decision canGenerate(const PlanNode& join, const ExprPtr& conjunct, EquiConjunct* split);

/// May filter `f`, applied at `node`'s output as `e`, move into child `child`? On
/// success `rewritten` is `e` over that child's columns.
Decision canPassThrough(const PlanNode& node, size_t child, const ExprPtr& e,
                        const RuntimeFilter& f, ExprPtr* rewritten);

/// May `f`, applied as `e` at join `join`'s output, be copied across the equality
/// `conjunct` to the other side? On success `target` and `copy` say where and as what.
Decision rewriteToChild(const PlanNode& join, const ExprPtr& conjunct, const ExprPtr& e,
                        const RuntimeFilter& f, size_t* target, ExprPtr* copy);

/// May `scan` apply `f` to `target`?
Decision canConsume(const PlanNode& scan, const ExprPtr& target, const RuntimeFilter& f);

}  // namespace rfguard
