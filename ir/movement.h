#pragma once
// The one per-operator movement table: how a predicate over an operator's
// output enters its inputs. Predicate pushdown (rules/push_filter.cpp),
// runtime-filter movement (canPassThrough), outer-join simplification and the
// lineage index all consult it; each decides which passages it trusts.
// Joins are the join-type table's to decide (ir/join_type.h): WHERE conjuncts,
// ON conjuncts and runtime filters enter their sides under different conditions.
#include <map>
#include <string>

#include "ir/plan.h"

namespace rfguard {

/// How a predicate over an operator's output may enter an input.
enum class Passage {
  Unchanged,      ///< Filter, Sort: rows are kept or reordered, never changed
  Substituted,    ///< Project: through its mapping, when the result is deterministic
  GroupKeys,      ///< Aggregate: over group keys present in every grouping set
  PartitionKeys,  ///< Window: over PARTITION BY columns common to every window
  Positional,     ///< Union, Intersect, Except: by column position; EXCEPT's left input only
  JoinSides,      ///< Join: as the join-type table says
  Blocked,        ///< Limit: filtering below changes which rows are picked
  Leaf,           ///< Scan, Values: no inputs
};

/// One row of the table.
struct OperatorMovement {
  PlanOp op;
  Passage passage;
  const char* why;  ///< the reason, with the counterexample where a passage is refused
};

/// The table row of an operator.
const OperatorMovement& movementOf(PlanOp op);

/// The expression a Project defines output `id` by (the last of that name), or null.
const ExprPtr* projectedAs(const PlanNode& project, const std::string& id);

/// May any predicate enter input `child` of `n`? False for Blocked and Leaf
/// passages, joins (the join-type table's to say), EXCEPT's right input and a
/// key-less aggregate (it returns a row even for no input).
bool opensInto(const PlanNode& n, size_t child);

/// `e`, a predicate over `n`'s output, as a predicate over input `child`, or
/// nullptr when it may not enter that input: a column it reads has no
/// counterpart there (an aggregate result, a key missing from some grouping set,
/// a column outside some window's PARTITION BY), the projection makes it
/// non-deterministic, the input is EXCEPT's right one, or the passage is
/// Blocked, Leaf or JoinSides.
ExprPtr moveInto(const PlanNode& n, size_t child, const ExprPtr& e);
/// `e`, over a set operation's output columns, over input `child`'s columns by
/// position, whether or not a predicate may move there (EXCEPT's right input).
ExprPtr positionalInto(const PlanNode& n, size_t child, const ExprPtr& e);

}  // namespace rfguard
