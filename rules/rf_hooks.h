#pragma once
// The runtime-filter hooks of docs/design.md section 3: pure functions that decide one
// step each and say which rule decided and why.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/cmp_op.h"
#include "ir/plan.h"
#include "rules/reason.h"
#include "rules/rf_rules.h"

namespace rfguard {

/// One hook's answer: yes or no, the rule that decided, and the reason in words.
struct Decision {
  bool ok = false;
  RfRule rule = RfRule::GenerateFromJoinConjunct;  ///< rules/rf_rules.cpp names and documents it
  Reason reason;                                   ///< why, in words (reason.text())

  static Decision yes(RfRule rule, Reason reason) { return {true, rule, std::move(reason)}; }
  static Decision no(RfRule rule, Reason reason) { return {false, rule, std::move(reason)}; }
  /// The same with the words written only when read: `make` holds its values by copy.
  template <class F>
  static Decision yesLater(RfRule rule, F&& make) {
    return {true, rule, Reason::later(std::forward<F>(make))};
  }
  template <class F>
  static Decision noLater(RfRule rule, F&& make) {
    return {false, rule, Reason::later(std::forward<F>(make))};
  }
};

/// A join conjunct `probe OP build` with each side over one child.
struct EquiConjunct {
  ExprPtr probe;         ///< over the join's left (probe) child
  ExprPtr build;         ///< over the join's right (build) child
  CmpOp op = CmpOp::Eq;  ///< probe OP build
};

/// True when the node returns at most one row whatever the data (a global aggregate...).
bool atMostOneRow(const PlanNode& node);
/// Splits a conjunct of `join` into probe and build sides, if it compares one with the
/// other (`=`, `<=>`, or a range operator, flipped so that the probe side is on the left).
std::optional<EquiConjunct> splitConjunct(const PlanNode& join, const ExprPtr& conjunct);
/// Whether `conjunct` is a binary call with `e` as an operand: the only conjuncts
/// splitConjunct can return with `e` as their probe or build side (checked first,
/// without asking the plan which side each operand comes from).
bool hasOperand(const Expr& conjunct, const ExprPtr& e);

/// Which build sides a range comparison (`<`, `<=`, `>`, `>=`) may produce from.
enum class RangeBuild {
  OneRow,  ///< a scalar filter: only a build side of at most one row (what the planner places)
  /// also a min/max bound of any build side: `p < b` passes a probe row only if
  /// p < max(b), which every row that satisfies the conjunct does (what the
  /// verifier accepts, as DuckDB, Trino and others build them)
  AnyRows,
};

/// May `join` produce a filter for its probe side from `conjunct` (a top-level AND conjunct)?
Decision canGenerate(const PlanNode& join, const ExprPtr& conjunct, EquiConjunct* split,
                     RangeBuild range = RangeBuild::OneRow);

/// May filter `f`, applied at `node`'s output as `e`, move into child `child`? On
/// success `rewritten` is `e` over that child's columns.
Decision canPassThrough(const PlanNode& node, size_t child, const ExprPtr& e,
                        const RuntimeFilter& f, ExprPtr* rewritten);

/// May `f`, applied as `e` at join `join`'s output, be copied across the equality
/// `conjunct` to the other side? On success `target` and `copy` say where and as what.
Decision rewriteToChild(const PlanNode& join, const ExprPtr& conjunct, const ExprPtr& e,
                        const RuntimeFilter& f, size_t* target, ExprPtr* copy);

/// One way a filter may continue below a join: into `child` as `expr`.
struct JoinMove {
  size_t child = 0;  ///< also set when refused: where the move would have gone
  ExprPtr expr;
  Decision decision;  ///< why (ok) or why not (!ok, expr unset)
  /// The copy entered the NOT IN side of a NULL-aware anti join: below it a
  /// NULL key decides the NOT IN, so the rest of the way is judged with
  /// nullKeysCount(f).
  bool intoNotIn = false;
};

/// `f` as the hooks must judge it below the NOT IN side of a NULL-aware anti
/// join: a row whose key is NULL counts there (matchesNullKeys is true), though
/// the producer's `=` rejects NULL keys above. The NOT IN list (5) with a
/// LEFT JOIN inside that turns the 5 into NULL, when the filter removes its
/// match, makes `7 NOT IN (NULL)` unknown where `7 NOT IN (5)` was true.
RuntimeFilter nullKeysCount(const RuntimeFilter& f);

/// Where filter `f`, applied as `e` at `join`'s output, continues under the sound
/// policy: lineage into each child, a composite key's copy, then a copy across
/// each equality that has `e` as a key (refused moves included, with reasons).
std::vector<JoinMove> soundJoinMoves(const PlanNode& join, const ExprPtr& e,
                                     const RuntimeFilter& f);

/// The other expressions filter `f`, applied as `e` at Filter node `n`'s output,
/// may continue as into its input: `y` for each top-level conjunct `e = y` or
/// `e <=> y` of its predicate (CopyAcrossFilterEquality). A row whose `y` lies
/// outside the build domain fails the conjunct, or has `e = y` outside it too.
std::vector<ExprPtr> copiesAcrossFilterEquality(const PlanNode& n, const ExprPtr& e,
                                                const RuntimeFilter& f);
/// Where a filter may continue inside a subquery plan: at each node as an expression.
struct SubqueryEntries {
  std::vector<std::pair<const PlanNode*, ExprPtr>> entries;  ///< (a Filter of the plan, key)
  Decision decision;  ///< ok when there is an entry; else why the filter cannot enter
};
/// Where filter `f`, applied as `e` at `holder`'s output, may enter the plan
/// `sub` of one of holder's subquery expressions: at each Filter of it with a
/// top-level `x = e` or `x <=> e` correlation conjunct, as `x`
/// (rules/rf_correlation.cpp says why nowhere else).
SubqueryEntries subqueryEntries(const PlanNode& holder, const PlanNode& sub, const ExprPtr& e,
                                const RuntimeFilter& f);
/// A sideways step (rules/rf_sideways.cpp): at `join`, an ancestor of the
/// producer, into its child `child` (the side away from the producer) as `expr`.
struct SidewaysEntry {
  const PlanNode* join = nullptr;
  size_t child = 0;
  ExprPtr expr;       ///< unset when refused
  Decision decision;  ///< CopySideways: why (ok) or why not
};
/// Where filter `f` may continue sideways from its producer `up[0]`, whose
/// ancestors up to the root follow in `up`: at each ancestor join with a
/// top-level `x = y` conjunct whose x carries the producer's key up unchanged
/// (refused entries included, with reasons).
std::vector<SidewaysEntry> sidewaysEntries(std::span<const PlanNode* const> up,
                                           const RuntimeFilter& f);

/// May `scan` apply `f` to `target`?
Decision canConsume(const PlanNode& scan, const ExprPtr& target, const RuntimeFilter& f);

}  // namespace rfguard
