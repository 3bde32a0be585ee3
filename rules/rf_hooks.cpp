// The sound policy of docs/design.md section 3. Each exclusion carries the smallest
// counterexample (one row per table) that makes it unsafe.
#include "rules/rf_hooks.h"

#include "ir/functions.h"
#include "ir/join_keys.h"
#include "rules/rf_group_keys.h"
#include "rules/rule_util.h"

namespace rfguard {

namespace {

std::string str(const ExprPtr& e) {
  return exprToString(*e);
}

/// A call whose arguments include a string: evaluated per row at the scan it costs too much.
bool expensiveOverString(const Expr& e) {
  if (e.kind == ExprKind::Call)
    for (const auto& a : e.args)
      if (a->type.isString()) return true;
  for (const auto& a : e.args)
    if (expensiveOverString(*a)) return true;
  return false;
}

}  // namespace

bool atMostOneRow(const PlanNode& n) {
  switch (n.op) {
    case PlanOp::Aggregate:
      return n.exprs.empty() && n.groupingSets.empty();
    case PlanOp::Values:
      return n.rows.size() <= 1;
    case PlanOp::Limit:
      return (n.limit && *n.limit <= 1) || atMostOneRow(*n.children[0]);
    case PlanOp::Project:
    case PlanOp::Filter:
    case PlanOp::Sort:
      return atMostOneRow(*n.children[0]);
    default:
      return false;
  }
}

std::optional<EquiConjunct> splitConjunct(const PlanNode& join, const ExprPtr& c) {
  static constexpr CmpOpSet kAny = {CmpOp::Eq, CmpOp::NullSafeEq, CmpOp::Lt,
                                    CmpOp::Le, CmpOp::Gt,         CmpOp::Ge};
  if (hasSubquery(*c)) return std::nullopt;
  auto side = [](const PlanNode& n) {
    return [&n](const Expr& e) { return hasColumnRef(e) && producesColumnsOf(n, e); };
  };
  auto k = joinKeyOf(*c, side(*join.children[0]), side(*join.children[1]), kAny);
  if (!k) return std::nullopt;
  return EquiConjunct{k->left(), k->right(), k->op};
}

bool hasOperand(const Expr& conjunct, const ExprPtr& e) {
  return conjunct.kind == ExprKind::Call && conjunct.args.size() == 2 &&
         (exprEquals(conjunct.args[0], e) || exprEquals(conjunct.args[1], e));
}

// A join produces a filter for its probe side only when unmatched probe rows
// never reach its output. Counterexample for LEFT: A = {1}, B = {} in
// A LEFT JOIN B ON A.k = B.k returns (1, NULL); a filter from B's empty domain
// would remove A's row. The same for FULL, and for LEFT ANTI / NOT IN, whose
// output is exactly the unmatched probe rows (A = {NULL}, B = {} for NOT IN).
// Only a top-level AND conjunct proves anything: a row that fails
// A.x = B.y in (A.x = B.y OR A.u = B.v) may still match through A.u = B.v.
Decision canGenerate(const PlanNode& join, const ExprPtr& conjunct, EquiConjunct* split,
                     RangeBuild range) {
  const auto& info = joinInfo(join.joinType);
  const RfRule rule = RfRule::GenerateFromJoinConjunct;
  const NodeName where(join);
  if (!info.hasCondition)
    return Decision::noLater(rule, [where] {
      return where.str() + " is a cross join: only a scalar filter could apply";
    });
  if (!info.probeRowsOnlyIfMatched)
    return Decision::noLater(rule, [where] {
      return where.str() + " outputs unmatched probe rows, so no build domain may filter them";
    });
  // A NULL-aware join that outputs its build side (NOT IN with the outer rows as
  // the build, DataFusion's shape): every probe row decides the NOT IN of every
  // build row, matched or not. Counterexample: probe (the NOT IN list) = {5},
  // build = {NULL}: NULL NOT IN (5) is NULL, no row; a filter from the build's
  // keys {} removes 5, and NULL NOT IN () is true.
  if (info.nullAware && !info.outputs[0])
    return Decision::noLater(rule, [where] {
      return where.str() +
             " is NOT IN over its probe side: every probe row decides the result, matched or not";
    });
  if (conjunct->kind == ExprKind::Call && conjunct->name == "or")
    return Decision::noLater(rule, [conjunct] {
      return "`" + str(conjunct) + "` is a disjunction: failing one branch proves nothing";
    });
  auto s = splitConjunct(join, conjunct);
  if (!s)
    return Decision::noLater(rule, [conjunct] {
      return "`" + str(conjunct) + "` does not compare a probe expression with a build expression";
    });
  if (!isEquality(s->op)) {
    // ScalarFilter: `a.v >= (SELECT min(x) ...)` compares with a build side of at most
    // one row s; probe rows with NOT (a.v >= s) fail the join condition itself.
    if (atMostOneRow(*join.children[1])) {
      if (split) *split = *s;
      return Decision::yesLater(RfRule::GenerateScalarFilter, [where, probe = s->probe,
                                                               op = s->op] {
        return where.str() + " compares with a build side of at most one row: a scalar filter `" +
               str(probe) + " " + cmpSpelling(op) + " s`";
      });
    }
    // A min/max bound: `a.v < b.v` with b.v in {3, 9} passes a.v < 9, the max;
    // a row with a.v >= 9 is below no build value and fails the conjunct. NULL
    // build values bound nothing and NULL probe values fail: the bound of the
    // non-NULL values is exact. (An empty build side passes nothing.)
    // Not on floating point, where NaN has no place in the order (kindMisfit).
    const bool ordered = kindMisfit(FilterKind::MinMax, s->probe->type).empty() &&
                         kindMisfit(FilterKind::MinMax, s->build->type).empty();
    if (range == RangeBuild::AnyRows && ordered) {
      if (split) *split = *s;
      return Decision::yesLater(
          RfRule::GenerateFromJoinConjunct, [where, probe = s->probe, op = s->op] {
            return where.str() + " bounds `" + str(probe) + " " + cmpSpelling(op) +
                   "` by the build side's " + (op == CmpOp::Lt || op == CmpOp::Le ? "max" : "min");
          });
    }
    return Decision::noLater(rule, [conjunct] {
      return "`" + str(conjunct) +
             "` is a range comparison and the build side may return more than one row";
    });
  }
  for (const Type* t : {&s->build->type, &s->probe->type})
    if (auto m = compareMisfit(s->op, *t); !m.empty())
      return Decision::no(rule, "no " + m + ": NaN and -0.0 make null-safe hashing unreliable");
  if (!comparable(s->probe->type, s->build->type))
    return Decision::no(rule, "probe and build types do not compare");
  if (split) *split = *s;
  return Decision::yesLater(rule, [where, conjunct] {
    return where.str() + " drops unmatched probe rows and `" + str(conjunct) +
           "` is a top-level conjunct";
  });
}

namespace {
/// True when a LIMIT's input comes in an ORDER BY's order: a sort below it,
/// through nodes that keep their input's order (filters, projections).
bool orderedInput(const PlanNode& limit) {
  const PlanNode* n = limit.children[0].get();
  while (n->op == PlanOp::Filter || n->op == PlanOp::Project) n = n->children[0].get();
  return n->op == PlanOp::Sort;
}
}  // namespace

Decision canPassThrough(const PlanNode& n, size_t child, const ExprPtr& e, const RuntimeFilter& f,
                        ExprPtr* rewritten) {
  const NodeName where(n);
  *rewritten = e;
  // The movement table (ir/movement.h) says how the filter enters each input;
  // the rule named is the one for the operator's passage.
  switch (movementOf(n.op).passage) {
    case Passage::Unchanged:
      return Decision::yesLater(RfRule::PassThroughRowPreserving, [where] {
        return where.str() + " keeps or orders rows without changing them";
      });
    case Passage::Blocked:
      // OFFSET 0 without a count cuts nothing: the node passes every row.
      if (n.op == PlanOp::Limit && !n.limit && n.offset == 0 && !n.unprinted)
        return Decision::yesLater(RfRule::PassThroughRowPreserving, [where] {
          return where.str() + " has no count and no offset: it passes every row";
        });
      // Without ORDER BY the query allows any n rows of the input. The filtered
      // run picks n rows among those the filter keeps, or all of them when fewer
      // are left; padded with rejected rows, which the producer drops anyway,
      // that is one of the answers the query allows. Sound only under that
      // nondeterminism: a finding class of its own (crossed-unordered-limit).
      if (n.op == PlanOp::Limit && !orderedInput(n))
        return Decision::noLater(RfRule::BlockAtUnorderedLimit, [where] {
          return where.str() +
                 " has no ORDER BY: the filtered run returns one of the answers the query "
                 "allows, not the one an unfiltered run would pick";
        });
      // SELECT * FROM (SELECT * FROM a ORDER BY a.v LIMIT 1) x JOIN b ON x.k = b.k,
      // a = {(1, v=1), (2, v=2)}, b = {2}: the limit picks k = 1, no match. A filter
      // from b's domain {2} below the limit would let it pick k = 2: a new row.
      return Decision::noLater(RfRule::BlockAtLimit, [where] {
        return where.str() + ": filtering below LIMIT/OFFSET changes which rows are picked";
      });
    case Passage::Substituted: {
      ExprPtr s = moveInto(n, child, e);
      if (!s)
        return Decision::noLater(RfRule::PassThroughProject, [where, e] {
          return where.str() + ": `" + str(e) + "` is computed by a non-deterministic projection";
        });
      *rewritten = s;
      return Decision::yesLater(RfRule::PassThroughProject, [where, e, s] {
        return where.str() + ": `" + str(e) + "` is `" + str(s) + "` below";
      });
    }
    case Passage::GroupKeys: {
      // With ROLLUP the grand-total row has k = NULL; a filter on k below the
      // aggregate would shrink the total, though the filter rejects only k-rows.
      ExprPtr s = moveInto(n, child, e);
      if (!s && (s = intoKeyedAggregates(n, e)))
        return *rewritten = s, Decision::yesLater(RfRule::PassThroughAggregateKeys, [where, e] {
          return where.str() + ": `" + str(e) +
                 "` reads group keys and min/max of them, which equal the keys";
        });
      if (!s && (s = intoRolledUpKeys(n, e, f)))
        return *rewritten = s, Decision::yesLater(RfRule::PassThroughAggregateKeys, [where, e] {
          return where.str() + ": `" + str(e) +
                 "` reads group keys; the rows of grouping sets without them have it "
                 "NULL, which the producer rejects";
        });
      if (!s)
        return Decision::noLater(RfRule::PassThroughAggregateKeys, [where, e] {
          return where.str() + ": `" + str(e) +
                 "` is not over group keys present in every grouping set";
        });
      *rewritten = s;
      return Decision::yesLater(RfRule::PassThroughAggregateKeys, [where, e] {
        return where.str() + ": `" + str(e) + "` reads group keys only, so it removes whole groups";
      });
    }
    case Passage::PartitionKeys: {
      // rank() OVER (ORDER BY v) ranks a row among all rows; removing other
      // partitions' rows below would change its rank.
      if (!moveInto(n, child, e)) {
        auto cols = columnsOf(*e);
        std::string window;  // the first window whose PARTITION BY misses a column, for the reason
        for (const auto& w : n.windows) {
          std::set<std::string> part;
          for (const auto& p : w.partitionBy)
            if (p->kind == ExprKind::Column) part.insert(p->name);
          if (window.empty() && !subsetOf(cols, part)) window = w.name;
        }
        return Decision::noLater(RfRule::PassThroughWindowPartition, [where, e, window] {
          return where.str() + ": `" + str(e) + "` is not over the PARTITION BY keys of " + window;
        });
      }
      return Decision::yesLater(RfRule::PassThroughWindowPartition, [where, e] {
        return where.str() + ": `" + str(e) +
               "` reads partition keys only, so it removes whole partitions";
      });
    }
    case Passage::Positional: {
      ExprPtr s = moveInto(n, child, e);
      if (!s) {
        // EXCEPT's right input: a B row the filter removes lets through only
        // the A rows equal to it, whose key is the same and outside the build
        // domain, so the producer drops them: (A - (B ∩ P)) ∩ P = (A - B) ∩ P,
        // for EXCEPT and EXCEPT ALL. "Equal" is set-operation equality, so the
        // key must be one value for equal rows: a column, or an expression over
        // columns that are not floating (-0.0 = 0.0, but their texts differ).
        s = positionalInto(n, child, e);
        bool exact = e->kind == ExprKind::Column || allColumnRefs(*s, [&](const std::string& c) {
                       const auto& out = n.children[child]->output;
                       return std::any_of(out.begin(), out.end(), [&](const Column& col) {
                         return col.id == c && !col.type.isFloating();
                       });
                     });
        if (!isDeterministic(*s) || !exact)
          return Decision::noLater(RfRule::PassThroughSetOp, [where, e] {
            return where.str() + ": `" + str(e) +
                   "` may differ between rows EXCEPT holds equal; filtering its right input "
                   "could let rows through";
          });
        *rewritten = s;
        return Decision::yesLater(RfRule::PassThroughSetOp, [where] {
          return where.str() +
                 ": its right input through the column mapping (a right row the filter "
                 "removes lets through only left rows the producer rejects)";
        });
      }
      *rewritten = s;
      return Decision::yesLater(RfRule::PassThroughSetOp, [where, child] {
        return where.str() + ": input " + std::to_string(child + 1) + " through the column mapping";
      });
    }
    case Passage::JoinSides: {
      const auto& info = joinInfo(n.joinType);
      if (!info.outputs[child] || !producesColumnsOf(*n.children[child], *e))
        return Decision::noLater(RfRule::PassThroughJoinLineage, [where, e, child] {
          return where.str() + ": `" + str(e) + "` does not come from its " +
                 (child ? "right" : "left") + " side";
        });
      if (!info.generatesNulls[child])
        return Decision::yesLater(RfRule::PassThroughJoinPreservedSide, [where, child] {
          return where.str() + ": the " + std::string(child ? "right" : "left") +
                 " side's rows reach the output unchanged or not at all";
        });
      // A LEFT JOIN B ON A.k = B.k JOIN C ON coalesce(B.k, 0) = C.k with A = {1},
      // B = {1}, C = {0}: no rows. A filter on B.k from C's domain {0} removes B's
      // row; A's row becomes (1, NULL), coalesce gives 0 = C.k: a wrong row.
      // With <=> the NULL-extended row matches a NULL in C the same way.
      if (matchesNullKeys(f))
        return Decision::noLater(RfRule::PassThroughJoinNullGeneratingSide, [where] {
          return where.str() +
                 ": a filter for which a NULL key counts (`<=>`, null-allowing, or below a NOT IN "
                 "list) cannot enter a "
                 "NULL-generating side (a lost match becomes a NULL row that still matches)";
        });
      // e reads only this side's columns, so "NULL when all of them are NULL" is judged over its
      // own.
      if (!isNullPropagating(*e, columnsOf(*e)))
        return Decision::noLater(RfRule::PassThroughJoinNullGeneratingSide, [where, e] {
          return "entered the NULL-generating side of " + where.str() + " with `" + str(e) +
                 "`, which is not NULL-propagating";
        });
      return Decision::yesLater(RfRule::PassThroughJoinNullGeneratingSide, [where, e] {
        return where.str() + ": `" + str(e) +
               "` is NULL on NULL-extended rows, which the filter rejects";
      });
    }
    case Passage::Leaf:
      break;
  }
  return Decision::noLater(RfRule::PassThroughLeaf,
                           [where] { return where.str() + " has no inputs"; });
}

Decision canConsume(const PlanNode& scan, const ExprPtr& target, const RuntimeFilter& f) {
  const RfRule rule = RfRule::ConsumeAtScan;
  bool own = allColumnRefs(*target, [&](const std::string& c) { return hasTableColumn(scan, c); });
  if (!own || hasSubquery(*target))
    return Decision::noLater(rule, [target, alias = scan.alias] {
      return "`" + str(target) + "` is not computable from " + alias + "'s columns";
    });
  if (!scan.runtimeFilterAllowed)
    return Decision::no(rule, "table " + scan.table + " does not accept runtime filters");
  if (!isDeterministic(*target))
    return Decision::noLater(rule,
                             [target] { return "`" + str(target) + "` is not deterministic"; });
  if (expensiveOverString(*target))
    return Decision::noLater(rule, [target] {
      return "`" + str(target) + "` evaluates a function over a string column at every row";
    });
  if (auto m = compareMisfit(f.op, target->type); !m.empty()) return Decision::no(rule, "no " + m);
  // A filter copied across `a.k = d.x` reaches a double target with int bounds:
  // NaN has no place in a min_max order, so such a target takes no filter that
  // carries min_max (the kinds are the producer's, one set for all targets).
  if (auto m = kindMisfit(f, target->type); !m.empty())
    return Decision::noLater(rule, [target, m] {
      return "the filter's kinds do not suit `" + str(target) + "`: no " + m;
    });
  return Decision::yesLater(
      rule, [target, alias = scan.alias] { return alias + " computes `" + str(target) + "`"; });
}

}  // namespace rfguard
