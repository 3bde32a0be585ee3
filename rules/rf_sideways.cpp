// CopySideways: a filter applied to an ancestor join's other side, by the
// chain of equalities (the placement Doris prints for TPC-H q9:
// `RF8 p_partkey->ps_partkey` at partsupp, the build side of the join above).
//
// Every row leaving the producer J has its probe key equal to one of the build
// keys K (J outputs matched probe rows only), and its build key in K. Carried up
// unchanged (through filters, sorts, limits, windows, projections that pass the
// column, and joins that output it, where a NULL-extended row gets NULL) it
// reaches an ancestor join A as a key x with x in K or NULL. If A has a
// top-level conjunct `x = y` (`x <=> y` while x cannot be NULL), a row of A's
// other side with y outside K (or NULL)
// matches no row coming up from J, so it may be removed whenever A does not
// output that side's unmatched rows: an inner join, either side of a semi join,
// a LEFT JOIN's right side, an anti join's filtering side. From there the filter
// continues down as `y` under the ordinary hooks.
//
// Counterexamples where the step is refused:
// - A preserves the other side (FULL, or the other side is a LEFT JOIN's left
//   or an anti join's output): (a JOIN c ON a.k = c.k) RIGHT JOIN b ON a.k = b.k
//   with a = {}, c = {}, b = {1}: one row (NULL, NULL, 1); b's row, outside the
//   empty K, would be removed.
// - A is NULL-aware (NOT IN over the other side): removing a list row outside K
//   can empty the list and let NULL probe keys through.
// - A `<=>` producer: NULL keys match, and NULL is not outside K. `x <=> y`
//   only while x is never NULL: (d LEFT JOIN (a JOIN b ON a.k = b.k) ON d.k =
//   a.k) JOIN c ON a.k <=> c.k with d = {1}, a = b = {}, c = {NULL}: the
//   NULL-extended row matches c's NULL, which an `=` filter from K = {} drops.
// - A key that is not carried up unchanged: x = k + 1 above J holds k + 1,
//   which is not in K.
// - A filter beside its join only (RuntimeFilter::besideOnly: K is the build
//   side's values of a column no `=` of J compares) across `x <=> y` while that
//   column may be NULL: (a JOIN b ON a.k = b.k) JOIN c ON b.v <=> c.v with
//   a = b = {(1, NULL)}, c = {NULL}: the row (1, NULL) matches c's NULL, which
//   an `=` filter of K = {NULL} drops. Such a filter has no probe key.
#include "ir/functions.h"
#include "rules/rf_hooks.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

/// The expressions `x` stands for at `parent`'s output, coming up from child
/// `child` unchanged: itself, or the names a projection gives it.
std::vector<ExprPtr> carriedUp(const PlanNode& parent, size_t child, const ExprPtr& x) {
  switch (parent.op) {
    case PlanOp::Filter:
    case PlanOp::Sort:
    case PlanOp::Limit:
    case PlanOp::Window:
      return {x};
    case PlanOp::Join:
      return joinInfo(parent.joinType).outputs[child] ? std::vector<ExprPtr>{x}
                                                      : std::vector<ExprPtr>{};
    case PlanOp::Project: {
      std::vector<ExprPtr> out;
      for (const auto& ne : parent.exprs)
        if (exprEquals(ne.expr, x)) out.push_back(makeColumn(ne.name, x->type, ne.expr->nullable));
      return out;
    }
    default:  // an aggregate, a set operation: not carried unchanged (refused)
      return {};
  }
}

}  // namespace

std::vector<SidewaysEntry> sidewaysEntries(std::span<const PlanNode* const> up,
                                           const RuntimeFilter& f) {
  std::vector<SidewaysEntry> out;
  if (up.size() < 2 || f.op != CmpOp::Eq || up[0]->op != PlanOp::Join || isComposite(*f.probe))
    return out;
  // At the producer's output: its build key, and its probe key where the two
  // compare exactly (2^53 + 1 joins 2^53 through DOUBLE but is not in K). Each
  // with whether it may be NULL there: matched keys are not (the producer's `=`).
  struct Key {
    ExprPtr x;
    bool mayBeNull;
  };
  const auto& produced = joinInfo(up[0]->joinType);
  std::vector<Key> keys;
  // A filter beside its join only holds a build column that no `=` of the
  // join compared: NULL there unless the column is NOT NULL.
  if (produced.outputs[1] && f.build->kind == ExprKind::Column)
    keys.push_back(
        {f.build, produced.preserves[1] ||
                      (f.besideOnly && (f.build->nullable || produced.generatesNulls[1]))});
  if (!f.besideOnly && produced.outputs[0] && produced.probeRowsOnlyIfMatched &&
      f.probe->kind == ExprKind::Column && comparesExactly(f.probe->type, f.build->type))
    keys.push_back({f.probe, produced.generatesNulls[0]});
  for (size_t i = 1; i < up.size() && !keys.empty(); ++i) {
    const PlanNode& a = *up[i];
    size_t s = 0;
    while (s < a.children.size() && a.children[s].get() != up[i - 1]) ++s;
    if (s == a.children.size()) break;  // a subquery plan's root: its rows are another query's
    if (a.op == PlanOp::Join && a.predicate) {
      const auto& info = joinInfo(a.joinType);
      const size_t o = 1 - s;
      forEachConjunct(a.predicate, [&](const ExprPtr& conj) {
        auto sp = splitConjunct(a, conj);
        if (!sp || !isEquality(sp->op) || !comparesExactly(sp->probe->type, sp->build->type))
          return true;
        const ExprPtr& mine = s == 0 ? sp->probe : sp->build;
        const ExprPtr& other = s == 0 ? sp->build : sp->probe;
        for (const auto& k : keys) {
          if (!exprEquals(k.x, mine)) continue;
          // `<=>` matches NULL with NULL: only keys that are never NULL here.
          const bool nullSafe = sp->op == CmpOp::NullSafeEq;
          std::string why;
          if (info.preserves[o] || info.nullAware)
            why =
                " keeps or counts the unmatched rows of its other side (outer, anti or NOT IN): "
                "a sideways filter there would change them";
          else if (nullSafe && k.mayBeNull)
            why =
                " compares with `<=>` a key that may be NULL (on rows a NULL-extending join made "
                "below it, or a column no `=` of the producer compared): those match NULL "
                "keys, which the filter drops";
          if (!why.empty()) {
            out.push_back({&a, o, nullptr,
                           Decision::noLater(RfRule::CopySideways,
                                             [where = nodeRef(a), why] { return where + why; })});
            continue;
          }
          out.push_back(
              {&a, o, other,
               Decision::yesLater(RfRule::CopySideways, [where = nodeRef(a), x = k.x, other] {
                 return where + ": `" + exprToString(*x) +
                        "` carries the producer's keys up; a row of the other side "
                        "with `" +
                        exprToString(*other) + "` outside them matches none";
               })});
        }
        return true;
      });
    }
    std::vector<Key> next;
    const bool nulls = a.op == PlanOp::Join && joinInfo(a.joinType).generatesNulls[s];
    for (const auto& k : keys)
      for (auto& y : carriedUp(a, s, k.x)) next.push_back({std::move(y), k.mayBeNull || nulls});
    keys = std::move(next);
  }
  return out;
}

}  // namespace rfguard
