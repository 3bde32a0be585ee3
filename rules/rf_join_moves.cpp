// The sound policy's moves across a join (docs/design.md section 3): copying a filter
// across an equality of the join's condition, as one key or as a composite
// tuple, beside passing it into a side (canPassThrough). Each exclusion
// carries the smallest counterexample that makes it unsafe.
#include "ir/functions.h"
#include "rules/rf_hooks.h"
#include "rules/rule_util.h"

namespace rfguard {

// Copies across a join equality l = r. From the side that keeps its rows
// (preserved, or any side of INNER/SEMI/ANTI) the copy is sound: a removed
// row only loses matches that the filter rejects anyway. From a NULL-generating
// side it needs the NULL conditions: (A LEFT JOIN B ON A.k = B.k) JOIN C ON
// B.k <=> C.k with A = {1}, B = {}, C = {NULL}: one row (1, NULL, NULL). A
// filter copied from B.k to A.k with C's domain {NULL} removes A's row.
// Into NOT IN's list only an `=` filter that keeps NULL keys (accept_null):
// A NOT IN (B) with B = {NULL} returns nothing; removing B's NULL row would
// return A. With B's NULL rows kept, a B row the filter removes has a key
// outside the build domain C; it decides `a NOT IN B` only for an a equal to
// it (outside C) or a NULL a (and B empties only when it held no NULL and no
// key of C), and the producer's `=` drops both. A `<=>` producer keeps the
// NULL a: A = {NULL}, B = {5}, C = {NULL} returns nothing, and B filtered to
// {} lets NULL through to match C's NULL.
Decision rewriteToChild(const PlanNode& join, const ExprPtr& conjunct, const ExprPtr& e,
                        const RuntimeFilter& f, size_t* target, ExprPtr* copy) {
  const RfRule rule = RfRule::CopyAcrossJoinEquality;
  const NodeName where(join);
  auto s = splitConjunct(join, conjunct);
  if (!s)
    return Decision::noLater(rule, [where, conjunct] {
      return "`" + exprToString(*conjunct) + "` is not an equality of the two sides of " +
             where.str();
    });
  size_t from;
  if (exprEquals(e, s->probe))
    from = 0;
  else if (exprEquals(e, s->build))
    from = 1;
  else
    return Decision::noLater(rule, [e, conjunct] {
      return "`" + exprToString(*e) + "` is not a key of `" + exprToString(*conjunct) + "`";
    });
  // Only an equality carries a key's value across: A JOIN B ON A.k < B.k JOIN C ON
  // B.k <=> C.k with A = {3}, B = {4}, C = {4} returns one row; a filter copied from
  // B.k to A.k with C's domain {4} removes A's row.
  if (!isEquality(s->op))
    return Decision::noLater(rule, [where, conjunct] {
      return "`" + exprToString(*conjunct) + "` is a range comparison of the two sides of " +
             where.str() + ": a key's value does not carry across it";
    });
  // a.big = b.d AND b.d = c.big (BIGINT, DOUBLE, BIGINT): through DOUBLE
  // 2^53 + 1 = 2^53, so a = {2^53 + 1}, b = {2^53}, c = {2^53} joins; a filter
  // of c's keys {2^53} copied to a.big would drop a's row. A key's value
  // carries across only an equality that compares the values themselves.
  if (!comparesExactly(s->probe->type, s->build->type))
    return Decision::noLater(rule, [where, conjunct, l = s->probe->type, r = s->build->type] {
      return "`" + exprToString(*conjunct) + "` compares " + l.toString() + " with " +
             r.toString() + " in a common type that is not exact: a key's value does not " +
             "carry across it (" + where.str() + ")";
    });
  const auto& info = joinInfo(join.joinType);
  if (info.nullAware && (f.op != CmpOp::Eq || !f.acceptNull || matchesNullKeys(f)))
    return Decision::noLater(RfRule::CopyAcrossNullAwareJoin, [where] {
      return where.str() +
             " is NULL-aware (NOT IN): only an `=` filter that accepts NULL keys (accept_null) "
             "may cross it";
    });
  if (!info.outputs[from])
    return Decision::noLater(rule, [where, e] {
      return "`" + exprToString(*e) + "` is not in " + where.str() + "'s output";
    });
  if (info.generatesNulls[from]) {
    if (matchesNullKeys(f))
      return Decision::noLater(rule, [where] {
        return "a filter for which a NULL key counts (`<=>`, null-allowing, or below a NOT IN "
               "list) copied from the "
               "NULL-generating side of " +
               where.str() + " to its preserved side";
      });
    if (!isNullPropagating(*e, columnsOf(*e)))
      return Decision::noLater(rule, [where, e] {
        return "`" + exprToString(*e) + "` on the NULL-generating side of " + where.str() +
               " is not NULL-propagating";
      });
  }
  *target = 1 - from;
  *copy = from == 0 ? s->build : s->probe;
  return Decision::yesLater(rule, [where, e, op = s->op, to = *copy] {
    return where.str() + ": `" + exprToString(*e) + "` " + cmpSpelling(op) + " `" +
           exprToString(*to) + "`";
  });
}

namespace {

/// A composite key (k1, k2...) crosses a join when every part is a key of one of
/// its equality conjuncts on the same side: the copy is the tuple of other sides.
std::optional<JoinMove> compositeCopy(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f) {
  if (!isComposite(*e) || !n.predicate) return std::nullopt;
  std::vector<ExprPtr> parts;
  size_t target = 2;
  const std::vector<ExprPtr> conjs = conjuncts(n.predicate);
  for (const auto& part : e->args) {
    bool mapped = false;
    for (const auto& conj : conjs) {
      if (!hasOperand(*conj, part)) continue;  // not a key of it: no copy
      size_t t = 0;
      ExprPtr copy;
      if (!rewriteToChild(n, conj, part, f, &t, &copy).ok || (target != 2 && t != target)) continue;
      target = t;
      parts.push_back(copy);
      mapped = true;
      break;
    }
    if (!mapped) return std::nullopt;
  }
  ExprPtr tuple = makeComposite(parts);
  return JoinMove{
      target, tuple,
      Decision::yesLater(RfRule::CopyAcrossJoinEquality, [where = NodeName(n), e, tuple] {
        return where.str() + ": every part of `" + exprToString(*e) + "` is a key; copied as `" +
               exprToString(*tuple) + "`";
      })};
}

}  // namespace

namespace {

/// The merged key of an outer join: `coalesce(l, r)` (or `coalesce(r, l)`) of a
/// conjunct `l = r` enters each side as its own key. (a FULL JOIN b ON a.k = b.k)
/// JOIN c ON coalesce(a.k, b.k) = c.k: an a row with a.k = x outside the build
/// domain outputs coalesce = x whether matched (b.k = x) or not, and a b row it
/// stops matching outputs its own b.k = x: every row the filter changes has the
/// merged key outside the domain, which the producer drops. Only for `=` across
/// exact types and a filter that does not match NULL keys (a NULL key never
/// matches, and its row's merged key is NULL).
void mergedKeyMoves(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f,
                    std::vector<JoinMove>& moves) {
  if (!isCallOf(*e, "coalesce") || e->args.size() != 2 || matchesNullKeys(f)) return;
  forEachConjunct(n.predicate, [&](const ExprPtr& conj) {
    auto s = splitConjunct(n, conj);
    if (!s || s->op != CmpOp::Eq || !comparesExactly(s->probe->type, s->build->type)) return true;
    const bool lr = exprEquals(e->args[0], s->probe) && exprEquals(e->args[1], s->build);
    const bool rl = exprEquals(e->args[0], s->build) && exprEquals(e->args[1], s->probe);
    if (!lr && !rl) return true;
    const std::string where = nodeRef(n);
    for (size_t c = 0; c < 2; ++c) {
      const ExprPtr key = c == 0 ? s->probe : s->build;
      moves.push_back({c, key, Decision::yesLater(RfRule::CopyAcrossJoinEquality, [where, e, key] {
                         return where + ": the merged key `" + exprToString(*e) + "` is `" +
                                exprToString(*key) + "` on every row this side's row makes";
                       })});
    }
    return false;
  });
}

}  // namespace

RuntimeFilter nullKeysCount(const RuntimeFilter& f) {
  RuntimeFilter g = f;
  g.nullAllowed = true;
  return g;
}

std::vector<JoinMove> soundJoinMoves(const PlanNode& n, const ExprPtr& e, const RuntimeFilter& f) {
  std::vector<JoinMove> moves;
  moves.reserve(4);  // both sides and a copy or two: one allocation
  for (size_t c = 0; c < 2; ++c) {
    JoinMove m{c, nullptr, {}};
    m.decision = canPassThrough(n, c, e, f, &m.expr);
    if (!m.decision.ok) m.expr = nullptr;
    if (m.decision.ok || m.decision.rule != RfRule::PassThroughJoinLineage) moves.push_back(m);
  }
  if (!n.predicate) return moves;
  const bool notIn = joinInfo(n.joinType).nullAware;
  mergedKeyMoves(n, e, f, moves);
  if (auto tuple = compositeCopy(n, e, f)) {
    tuple->intoNotIn = notIn;
    moves.push_back(*tuple);
  }
  forEachConjunct(n.predicate, [&](const ExprPtr& conj) {
    if (!hasOperand(*conj, e)) return true;
    auto s = splitConjunct(n, conj);
    if (!s || (!exprEquals(e, s->probe) && !exprEquals(e, s->build))) return true;
    JoinMove m;
    m.child = exprEquals(e, s->probe) ? 1 : 0;  // where the copy would go, also when refused
    m.decision = rewriteToChild(n, conj, e, f, &m.child, &m.expr);
    if (!m.decision.ok) m.expr = nullptr;
    m.intoNotIn = notIn && m.decision.ok;
    moves.push_back(m);
    return true;
  });
  return moves;
}

}  // namespace rfguard
