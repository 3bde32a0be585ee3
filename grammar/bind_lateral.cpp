// LATERAL derived tables: a derived table that reads the columns of the
// relations left of it, once for each of their rows. The plan has no
// per-row join, so the binder writes the forms that have a plain one:
//  - a subquery of an aggregate without GROUP BY (one row for each left
//    row): its columns as scalar subqueries of the left side's rows;
//  - a select-project subquery whose WHERE reads the left side: a join of
//    the left side and the subquery's FROM on that WHERE (for LEFT JOIN
//    LATERAL the subquery's select list is computed below the join, where a
//    left row that meets no row is padded with NULLs).
// Any other form that reads the left side (GROUP BY, LIMIT, DISTINCT, a
// reference below a join or an aggregate) is refused with a located error.
#include "grammar/binder.h"
#include "ir/join_type.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

PlanPtr project(std::vector<NamedExpr> exprs, PlanPtr child, SourceLoc loc) {
  PlanPtr p = planNode(PlanOp::Project, {std::move(child)}, loc);
  p->exprs = std::move(exprs);
  computeOutput(*p);
  return p;
}

PlanPtr filter(ExprPtr predicate, PlanPtr child, SourceLoc loc) {
  PlanPtr f = planNode(PlanOp::Filter, {std::move(child)}, loc);
  f->predicate = std::move(predicate);
  computeOutput(*f);
  return f;
}

/// Every pair of rows that meets, and nothing else (INNER, CROSS).
bool pairsOnly(JoinType type) {
  const JoinTypeInfo& i = joinInfo(type);
  return i.outputs[0] && i.outputs[1] && !i.generatesNulls[0] && !i.generatesNulls[1];
}

/// LEFT: the pairs, and each left row that meets none.
bool keepsLeft(JoinType type) {
  const JoinTypeInfo& i = joinInfo(type);
  return i.outputs[0] && i.outputs[1] && !i.generatesNulls[0] && i.generatesNulls[1];
}

PlanPtr join(JoinType type, PlanPtr left, PlanPtr right, ExprPtr predicate, SourceLoc loc) {
  PlanPtr j = planNode(PlanOp::Join, {std::move(left), std::move(right)}, loc);
  j->joinType = !predicate && pairsOnly(type) ? JoinType::Cross : type;
  j->predicate = std::move(predicate);
  computeOutput(*j);
  return j;
}

/// `n`'s columns, each read as itself.
std::vector<NamedExpr> passThrough(const PlanNode& n) {
  std::vector<NamedExpr> out;
  for (const auto& c : n.output)
    out.push_back(NamedExpr{c.id.str(), makeColumn(c.id.str(), c.type, c.nullable)});
  return out;
}

bool readsAny(const std::set<std::string>& columns, const std::set<std::string>& ids) {
  for (const auto& c : columns)
    if (ids.count(c)) return true;
  return false;
}

}  // namespace

PlanPtr Binder::bindLateral(P::LateralPrimaryContext* ctx, Scope& scope, const Scope* left) {
  if (!alt<P::DerivedTableContext>(ctx->inner)) {
    error(ctx, "LATERAL takes a derived table: a query in parentheses with an alias");
    return bindParenRelation(ctx->inner, scope);
  }
  if (!left) return bindParenRelation(ctx->inner, scope);  // nothing left of it to read
  // The derived table sees the left side's relations as an enclosing block's.
  Scope lateral = *left;
  const Scope* saved = scope.outer;
  scope.outer = &lateral;
  PlanPtr sub = bindParenRelation(ctx->inner, scope);
  scope.outer = saved;
  return sub;
}

PlanPtr Binder::lateralJoin(PlanPtr left, PlanPtr sub, JoinType type, ExprPtr on,
                            antlr4::ParserRuleContext* at) {
  const SourceLoc loc = locOf(at);
  const std::set<std::string> leftIds = outputIds(*left);
  if (!readsAny(freeColumns(*sub), leftIds)) return join(type, left, sub, on, loc);
  const bool inner = pairsOnly(type);
  if (!inner && !keepsLeft(type)) {
    error(at,
          "a LATERAL derived table that reads the relations left of it is joined by INNER, "
          "CROSS or LEFT JOIN (as in PostgreSQL)");
    return join(type, left, sub, on, loc);
  }
  auto unsupported = [&](const std::string& what) {
    error(at, "a LATERAL derived table " + what +
                  " is not supported: write it as a join, or as correlated subqueries in the "
                  "select list");
    return join(type, left, sub, on, loc);
  };
  const PlanNode& top = *sub;
  if (top.op != PlanOp::Project || top.children.size() != 1)
    return unsupported("that reads the left side and ends in ORDER BY, LIMIT or a set operation");
  const PlanPtr& below = top.children[0];
  const bool trueOn = !on || (on->kind == ExprKind::Literal && on->value == "true");

  // One row for each left row: an aggregate without GROUP BY, its columns as
  // scalar subqueries of the left row (NULL where LEFT JOIN's ON fails).
  if (below->op == PlanOp::Aggregate && below->exprs.empty() && below->groupingSets.empty()) {
    std::map<std::string, ExprPtr> value;
    for (const auto& ne : top.exprs)
      value[ne.name] = makeSubquery(SubqueryKind::Scalar, project({ne}, below, loc), nullptr,
                                    ne.expr->type, loc);
    const ExprPtr cond = trueOn ? nullptr : substitute(on, value);
    std::vector<NamedExpr> out = passThrough(*left);
    for (const auto& ne : top.exprs)
      out.push_back(NamedExpr{
          ne.name, cond && !inner ? call("case", {cond, value[ne.name]}, loc) : value[ne.name]});
    PlanPtr r = project(std::move(out), left, loc);
    return cond && inner ? filter(on, r, loc) : r;
  }

  // The rows of `from` that pass WHERE: a join on WHERE's condition.
  PlanPtr from = below;
  ExprPtr where;
  if (below->op == PlanOp::Filter && below->children.size() == 1)
    from = below->children[0], where = below->predicate;
  if (readsAny(freeColumns(*from), leftIds))
    return unsupported(
        "that reads the left side in a GROUP BY, DISTINCT, LIMIT, join or nested query");
  if (inner) {
    std::vector<NamedExpr> out = passThrough(*left);
    out.insert(out.end(), top.exprs.begin(), top.exprs.end());
    PlanPtr r = project(std::move(out), join(JoinType::Inner, left, from, where, loc), loc);
    return trueOn ? r : filter(on, r, loc);
  }
  // LEFT: the select list below the join, which pads a left row that meets
  // no row; with the columns of `from` that WHERE reads.
  std::vector<NamedExpr> inside = top.exprs;
  std::set<std::string> named;
  for (const auto& ne : inside) {
    if (readsAny(freeColumnsOf(*ne.expr), leftIds))
      return unsupported("under LEFT JOIN whose select list reads the left side");
    named.insert(ne.name);
  }
  if (where)
    for (const auto& c : from->output)
      if (!named.count(c.id.str()) && freeColumnsOf(*where).count(c.id.str()))
        inside.push_back(NamedExpr{c.id.str(), makeColumn(c.id.str(), c.type, c.nullable)});
  const ExprPtr cond = where && !trueOn ? makeAnd({where, on})
                       : where          ? where
                       : on             ? on
                                        : makeBool(true, loc);
  PlanPtr joined = join(JoinType::Left, left, project(std::move(inside), from, loc), cond, loc);
  std::vector<NamedExpr> out = passThrough(*left);
  for (const auto& ne : top.exprs)
    out.push_back(NamedExpr{ne.name, makeColumn(ne.name, ne.expr->type, true)});
  return project(std::move(out), joined, loc);
}

}  // namespace rfguard
