// WITH RECURSIVE r AS (base UNION [ALL] step): the plan has no loop, so the
// recursion is unrolled. Level 0 is the base, level L the step reading level
// L - 1 (each level a fresh copy); r is the union of levels 0 to kSteps, and
// a check that level kSteps + 1 adds nothing: no row under UNION ALL, no row
// outside the union under UNION. Where the check fails the engine would go
// on (or loop forever): recursion_done() makes the query have no result on
// that database, which verdicts do not compare (docs/equiv.md). The step must
// read r once, through projections, filters, inner joins, the preserved side
// of outer joins and UNION ALL (PostgreSQL's rule): then each level is the
// step of the one before and the unrolled union is the engine's result.
#include "grammar/binder.h"
#include "ir/join_type.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

/// Where the step reads `level` (the plan of level L - 1) through nodes that
/// keep each of its rows apart, true; the first node that does not, named in
/// `why`. `uses` counts the readings.
bool monotone(const PlanNode& n, const PlanNode* level, int& uses, std::string& why) {
  if (&n == level) return ++uses, true;
  bool ok = true;
  for (size_t i = 0; i < n.children.size() && ok; ++i) {
    int before = uses;
    ok = monotone(*n.children[i], level, uses, why);
    if (!ok || uses == before) continue;
    const bool kept = n.op == PlanOp::Project || n.op == PlanOp::Filter ||
                      (n.op == PlanOp::Union && n.all) ||
                      (n.op == PlanOp::Join && joinInfo(n.joinType).outputs[i] &&
                       !joinInfo(n.joinType).generatesNulls[i]);
    if (!kept) {
      why = std::string("through ") + opName(n.op) +
            (n.op == PlanOp::Join ? std::string(" (") + joinInfo(n.joinType).sql + ")" : "");
      ok = false;
    }
  }
  return ok;
}

}  // namespace

BoundRel Binder::bindOperand(P::QueryPrimaryContext* qp, const Scope* outer,
                             const std::string& hint) {
  return qp->spec            ? bindQuerySpec(qp->spec, outer, hint, nullptr, nullptr)
         : !qp->rows.empty() ? bindValuesRows(qp->rows, uniqueQualifier(hint), {}, qp, outer)
                             : bindQuery(qp->inner, outer, hint);
}

BoundRel Binder::bindRecursionLevel(size_t cte, int level, antlr4::ParserRuleContext* at) {
  P::QueryExprContext* body = ctes_[cte].query->body;
  if (level == 0) {  // the base: a reference to r in it is an error (active)
    ctes_[cte].active = true;
    BoundRel base = bindOperand(body->first, nullptr, "q");
    ctes_[cte].active = false;
    return base;
  }
  const int saved = ctes_[cte].level;
  ctes_[cte].level = level - 1;
  ctes_[cte].readings.emplace_back();
  BoundRel step = bindOperand(body->rest[0], nullptr, "q");
  const std::vector<const PlanNode*> read = ctes_[cte].readings.back();
  ctes_[cte].readings.pop_back();
  ctes_[cte].level = saved;
  if (level == 1 && !failed()) {
    const std::string& name = ctes_[cte].name;
    int uses = 0;
    std::string why;
    if (read.empty())
      error(at, "WITH RECURSIVE " + name + ": its second query does not read " + name +
                    "; without recursion, drop RECURSIVE");
    else if (read.size() > 1)
      error(at, "WITH RECURSIVE " + name + ": the second query reads " + name + " " +
                    std::to_string(read.size()) + " times; a recursive query reads itself once");
    else if (!monotone(*step.plan, read[0], uses, why) || uses != 1)
      error(at, "WITH RECURSIVE " + name + ": the second query reads " + name + " " +
                    (why.empty() ? "inside an expression" : why) +
                    ", which rfguard does not unroll (PostgreSQL refuses aggregates, subqueries, "
                    "outer joins' padded side and EXCEPT there too)");
  }
  return step;
}

BoundRel Binder::bindRecursion(size_t cte, const std::string& alias,
                               antlr4::ParserRuleContext* at) {
  P::QueryExprContext* body = ctes_[cte].query->body;
  const std::string name = ctes_[cte].name;
  if (body->ops.size() != 1 || body->ops[0]->op->getType() != P::UNION) {
    // Not `base UNION [ALL] step`: not recursive (a reference to itself in
    // it is to no query, as in any WITH query).
    ctes_[cte].active = true;
    BoundRel plain = bindQuery(ctes_[cte].query, nullptr, alias);
    ctes_[cte].active = false;
    return plain;
  }
  const bool all = body->ops[0]->quant && body->ops[0]->quant->getStart()->getType() == P::ALL;
  const SourceLoc loc = locOf(at);
  // The union of levels 0 to kSteps, bag or set.
  auto unionOf = [&](BoundRel& first) {
    PlanPtr acc = first.plan;
    for (int level = 1; level <= kRecursionSteps; ++level) {
      BoundRel next = bindRecursionLevel(cte, level, at);
      if (next.plan->output.size() != first.plan->output.size()) {
        if (!failed())
          error(at, "WITH RECURSIVE " + name + ": its two queries return " +
                        std::to_string(first.plan->output.size()) + " and " +
                        std::to_string(next.plan->output.size()) + " columns");
        return acc;
      }
      auto u = planNode(PlanOp::Union, {acc, next.plan}, loc);
      u->all = all;
      const std::string q = uniqueQualifier(alias);
      LocalNames taken;
      for (const auto& n : first.names) u->outNames.push_back(q + "." + uniqueName(n, taken));
      computeOutput(*u);
      acc = u;
    }
    return acc;
  };
  BoundRel base = bindRecursionLevel(cte, 0, at);
  PlanPtr result = unionOf(base);
  if (failed()) return BoundRel{result, base.names};
  // What level kSteps + 1 adds: its rows (UNION ALL), or those not in a copy
  // of the union (UNION).
  PlanPtr more = bindRecursionLevel(cte, kRecursionSteps + 1, at).plan;
  if (!all) {
    BoundRel again = bindRecursionLevel(cte, 0, at);
    auto except = planNode(PlanOp::Except, {more, unionOf(again)}, loc);
    const std::string q = uniqueQualifier(alias);
    for (size_t c = 0; c < base.names.size(); ++c)
      except->outNames.push_back(q + ".c" + std::to_string(c + 1));
    computeOutput(*except);
    more = except;
  }
  auto count = planNode(PlanOp::Aggregate, {more}, loc);
  AggCall c;
  c.func = "count";
  c.name = uniqueQualifier("recursion") + ".more";
  c.type = Type::of(TypeKind::BigInt);
  count->aggs = {c};
  computeOutput(*count);
  ExprPtr rows = makeSubquery(SubqueryKind::Scalar, count, nullptr, c.type, loc);
  auto done = planNode(PlanOp::Filter, {result}, loc);
  done->predicate = call("recursion_done", {rows}, loc);
  computeOutput(*done);
  return BoundRel{done, base.names};
}

}  // namespace rfguard
