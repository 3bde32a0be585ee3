// Binding of whole queries: WITH, set operations, ORDER BY and LIMIT.
#include <algorithm>

#include "grammar/binder.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

BoundRel Binder::bindQuery(P::QueryContext* ctx, const Scope* outer, const std::string& hint) {
  size_t mark = ctes_.size();
  if (auto* with = ctx->ctes) {
    for (auto* c : with->ctes) {
      CteDef def;
      def.name = identText(c->name);
      for (auto* id : c->columns) def.columns.push_back(identText(id));
      def.query = c->body;
      def.recursive = with->recursive != nullptr;
      for (size_t i = mark; i < ctes_.size(); ++i)
        if (ctes_[i].name == def.name)
          error(c->name, "WITH query " + def.name + " is defined twice");
      ctes_.push_back(def);
    }
  }
  BoundRel r = bindQueryExpr(ctx->body, outer, hint, ctx->order, ctx->limit);
  ctes_.resize(mark);
  return r;
}

BoundRel Binder::bindQueryExpr(P::QueryExprContext* ctx, const Scope* outer,
                               const std::string& hint, P::OrderByContext* orderBy,
                               P::LimitClauseContext* limit) {
  if (ctx->ops.empty()) {
    auto* qp = ctx->first;
    if (qp->spec) return bindQuerySpec(qp->spec, outer, hint, orderBy, limit);
    if (!qp->rows.empty())
      return orderOverOutput(bindValuesRows(qp->rows, uniqueQualifier(hint), {}, qp, outer),
                             orderBy, limit);
    return orderOverOutput(bindQuery(qp->inner, outer, hint), orderBy, limit);
  }
  size_t i = 0;
  BoundRel r = foldSetOperations(ctx, i, 0, outer, hint);
  return orderOverOutput(std::move(r), orderBy, limit);
}

// Operands and operators are bound in the order of the tree a left-recursive
// grammar would build (left, right, then the operator): the qualifiers the
// set operations take ("q", "q2", ...) follow that order.
BoundRel Binder::foldSetOperations(P::QueryExprContext* ctx, size_t& i, int minPrec,
                                   const Scope* outer, const std::string& hint) {
  BoundRel left = bindOperand(operandOf(ctx, i), outer, "q");
  for (++i; i < operandCount(ctx);) {
    P::SetOperatorContext* setOp = ctx->ops[i - 1];
    antlr4::Token* opTok = setOp->op;
    PlanOp op = opTok->getType() == P::INTERSECT ? PlanOp::Intersect
                : opTok->getType() == P::UNION   ? PlanOp::Union
                                                 : PlanOp::Except;
    int prec = op == PlanOp::Intersect ? 1 : 0;
    if (prec < minPrec) break;
    BoundRel right = foldSetOperations(ctx, i, prec + 1, outer, "q");
    bool last = i == operandCount(ctx) && minPrec == 0;
    size_t ln = left.plan->output.size(), rn = right.plan->output.size();
    if (ln != rn && !failed()) {
      error(opTok, std::string(opName(op)) +
                       " needs the same number of columns on both sides, got " +
                       std::to_string(ln) + " and " + std::to_string(rn));
    }
    auto n = planNode(op, {left.plan, right.plan}, locOf(opTok));
    n->all = setOp->quant && setOp->quant->getStart()->getType() == P::ALL;
    std::string q = uniqueQualifier(last ? hint : "q");
    LocalNames taken;
    for (const auto& name : left.names) n->outNames.push_back(q + "." + uniqueName(name, taken));
    computeOutput(*n);
    for (size_t c = 0; c < std::min(ln, rn); ++c)
      if (!comparable(left.plan->output[c].type, right.plan->output[c].type))
        error(opTok, "column " + std::to_string(c + 1) + " of " + opName(op) + " has types " +
                         left.plan->output[c].type.toString() + " and " +
                         right.plan->output[c].type.toString());
    left = BoundRel{n, left.names};
  }
  return left;
}

BoundRel Binder::orderOverOutput(BoundRel rel, P::OrderByContext* orderBy,
                                 P::LimitClauseContext* limit) {
  std::vector<SortKey> keys;
  if (orderBy) {
    // ORDER BY over a set operation or parenthesised query sees its output columns only.
    Scope scope;
    RelScope out;
    for (size_t i = 0; i < rel.names.size() && i < rel.plan->output.size(); ++i)
      out.columns.push_back({rel.names[i], rel.plan->output[i].id, rel.plan->output[i].type,
                             rel.plan->output[i].nullable});
    scope.rels.push_back(out);
    BlockState block;
    for (auto* item : orderBy->items) {
      ExprPtr e;
      std::string text = this->text(item->value);
      if (auto position = positionLiteral(text)) {
        size_t ord = *position;
        if (ord < 1 || ord > rel.plan->output.size()) {
          error(item, "ORDER BY position " + text + " is not in the select list");
          continue;
        }
        const Column& c = rel.plan->output[ord - 1];
        e = makeColumn(c.id, c.type, c.nullable, locOf(item));
      } else {
        e = bindExpr(item->value, scope, block);
      }
      keys.push_back(bindSortItem(item, e));
    }
  }
  rel.plan = bindSortAndLimit(rel.plan, keys, limit);
  return rel;
}

PlanPtr Binder::bindSortAndLimit(PlanPtr plan, const std::vector<SortKey>& keys,
                                 P::LimitClauseContext* limit) {
  if (!keys.empty()) {
    auto sort = planNode(PlanOp::Sort, {plan}, keys[0].expr->loc);
    sort->sortKeys = keys;
    computeOutput(*sort);
    plan = sort;
  }
  if (!limit) return plan;
  auto lim = planNode(PlanOp::Limit, {plan}, locOf(limit));
  auto number = [&](antlr4::Token* t) -> long long {
    std::string s = t->getText();
    if (s.size() > 18) {
      error(t, "LIMIT/OFFSET value " + s + " is too large");
      return 0;
    }
    return std::stoll(s);
  };
  if (limit->limit) lim->limit = number(limit->limit);
  if (limit->fetch) lim->limit = number(limit->fetch);
  if (limit->offset) lim->offset = number(limit->offset);
  computeOutput(*lim);
  return lim;
}

}  // namespace rfguard
