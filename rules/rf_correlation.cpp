// Copies of a filter's key that a Filter node's own conjuncts justify.
//
// CopyAcrossCorrelation: a filter that reaches a node holding a subquery
// expression continues into the subquery's plan only at a correlation conjunct
// over its own key.
//
// The subquery is evaluated once per row o of its holder, and its value for o
// (EXISTS, IN, a scalar such as count(*)) depends on every row its plan sees.
// A filter arriving at the holder as `e` says: rows o with e(o) outside the
// build domain K are not needed. Inside the subquery, a Filter C with a
// top-level conjunct `x = e` (or `x <=> e`) passes a row r for o only if
// x(r) = e(o); a row with x(r) outside K therefore passes C only for rows o that
// are not needed. So at C's output the filter applies as `x`, and from there on
// the ordinary hooks decide, whatever sits between the subquery's root and C
// (an aggregate or a LIMIT above C sees the same rows for every needed o).
//
// Anywhere else the filter changes the subquery's value. With o = {1},
// s = {1, 2} and K = {1}: `WHERE (SELECT count(*) FROM s) = 2` keeps o, but a
// filter on s.k from K leaves one row of s and drops o; and
// `WHERE NOT EXISTS (SELECT 1 FROM s WHERE s.v = o.v)` changes the same way when
// s's rows are filtered on a key the correlation does not compare.
#include "ir/cmp_op.h"
#include "ir/functions.h"
#include "rules/rf_hooks.h"

namespace rfguard {

namespace {

/// Calls `f(node)` on every node of the plan under `root`, nested subquery
/// plans aside (their rows are another subquery's).
template <class F>
void forEachPlanNode(const PlanNode& root, const F& f) {
  f(root);
  for (const auto& c : root.children) forEachPlanNode(*c, f);
}

/// Calls `f(y)` for each top-level conjunct `e = y`, `y = e`, `e <=> y` or
/// `y <=> e` of `predicate`: the equalities both rules below copy a key across.
template <class F>
void forEachEqualityPartner(const ExprPtr& predicate, const ExprPtr& e, const F& f) {
  forEachConjunct(predicate, [&](const ExprPtr& conj) {
    if (conj->kind != ExprKind::Call || conj->args.size() != 2) return true;
    auto op = parseCmpOp(conj->name);
    if (!op || !isEquality(*op)) return true;
    for (size_t i = 0; i < 2; ++i)
      if (exprEquals(conj->args[i], e)) f(conj->args[1 - i]);
    return true;
  });
}

}  // namespace

// CopyAcrossFilterEquality. SELECT ... FROM (SELECT * FROM a WHERE a.k = a.v) x
// JOIN b ON x.k = b.k: a filter arriving as a.k at the WHERE may be applied to
// a.v below it, since a row with a.v outside the build domain either fails
// `a.k = a.v` or has a.k = a.v outside it, and the producer drops it. Not with
// sides that compare inexactly (BIGINT = DOUBLE: 2^53 + 1 = 2^53), and not with
// a range comparison, across which a key's value does not carry.
std::vector<ExprPtr> copiesAcrossFilterEquality(const PlanNode& n, const ExprPtr& e,
                                                const RuntimeFilter& f) {
  std::vector<ExprPtr> out;
  if (n.op != PlanOp::Filter || !n.predicate || !isEquality(f.op)) return out;
  forEachEqualityPartner(n.predicate, e, [&](const ExprPtr& y) {
    if (!exprEquals(y, e) && !hasSubquery(*y) && hasColumnRef(*y) && isDeterministic(*y) &&
        producesColumnsOf(*n.children[0], *y) && comparesExactly(e->type, y->type))
      out.push_back(y);
  });
  return out;
}

SubqueryEntries subqueryEntries(const PlanNode& holder, const PlanNode& sub, const ExprPtr& e,
                                const RuntimeFilter& f) {
  SubqueryEntries out;
  const std::string where = nodeRef(holder);
  // The holder evaluates the subquery per input row: the filter's expression
  // over that row is `e` below a Filter, `e` substituted below a Project.
  ExprPtr outer;
  if (holder.op == PlanOp::Filter || holder.op == PlanOp::Project) {
    if (!canPassThrough(holder, 0, e, f, &outer).ok) outer = nullptr;
  }
  if (!outer) {
    out.decision = Decision::noLater(RfRule::CopyAcrossCorrelation, [where, e] {
      return where + " evaluates a subquery whose rows decide its value; `" + exprToString(*e) +
             "` cannot follow into it here";
    });
    return out;
  }
  forEachPlanNode(sub, [&](const PlanNode& c) {
    if (c.op != PlanOp::Filter || !c.predicate) return;
    forEachEqualityPartner(c.predicate, outer, [&](const ExprPtr& other) {
      if (!hasSubquery(*other) && producesColumnsOf(*c.children[0], *other) && hasColumnRef(*other))
        out.entries.push_back({&c, other});
    });
  });
  if (out.entries.empty()) {
    out.decision = Decision::noLater(RfRule::CopyAcrossCorrelation, [where, outer] {
      return "entered a subquery of " + where + " that does not compare `" + exprToString(*outer) +
             "` in a correlation conjunct: the filtered rows change the subquery's value";
    });
    return out;
  }
  out.decision = Decision::yesLater(RfRule::CopyAcrossCorrelation, [where, outer] {
    return where + ": a subquery row passes its correlation conjunct only for rows whose `" +
           exprToString(*outer) + "` it equals";
  });
  return out;
}

}  // namespace rfguard
