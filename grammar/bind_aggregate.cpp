// Binding of GROUP BY (with ROLLUP, CUBE, GROUPING SETS) and aggregate calls.
#include <algorithm>
#include <functional>

#include "grammar/binder.h"
#include "ir/ascii.h"
#include "ir/functions.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

constexpr size_t kMaxGroupingSets = 4096;

bool isAggregateCall(const Expr& e) {
  const FunctionInfo* fn = functionOf(e);
  return fn && fn->kind == FunctionKind::Aggregate;
}

}  // namespace

PlanPtr Binder::bindGrouping(P::QuerySpecContext* ctx, PlanPtr input, const Scope& scope,
                             std::vector<ExprPtr*> exprs, std::vector<WindowCall>& windows,
                             const std::vector<std::pair<std::string, ExprPtr>>& items) {
  BlockState plain;
  auto bindKey = [&](P::ExprContext* e) -> ExprPtr {
    std::string text = this->text(e);
    // GROUP BY 2: the second select item, or (Calcite) the constant 2.
    if (auto position =
            dialectRules(dialect).groupByPosition ? positionLiteral(text) : std::nullopt) {
      size_t ord = *position;
      if (ord < 1 || ord > items.size()) {
        error(e, "GROUP BY position " + text + " is not in the select list");
        return makeNull({}, locOf(e));
      }
      if (hasAggregate(*items[ord - 1].second))
        error(e, "GROUP BY position " + text + " refers to an aggregate");
      return items[ord - 1].second;
    }
    // A bare name that no FROM relation has may be a select-list alias.
    std::string lower = text;
    asciiLowerInPlace(lower);
    bool fromColumn = false;
    for (const auto& rel : scope.rels)
      for (const auto& c : rel.columns) fromColumn = fromColumn || c.name == lower;
    if (!fromColumn)
      for (const auto& [name, expr] : items)
        if (name == lower && !hasAggregate(*expr)) return expr;
    return bindExpr(e, scope, plain);
  };
  std::vector<std::vector<ExprPtr>> sets = {{}};
  for (auto* ge : ctx->groups) {
    std::vector<std::vector<ExprPtr>> elementSets;
    if (auto* s = alt<P::SingleGroupContext>(ge)) {
      elementSets = {{bindKey(s->item)}};
    } else if (auto* r = alt<P::RollupContext>(ge)) {
      std::vector<ExprPtr> es;
      for (auto* e : r->items) es.push_back(bindKey(e));
      for (size_t n = es.size() + 1; n-- > 0;) elementSets.push_back({es.begin(), es.begin() + n});
    } else if (auto* c = alt<P::CubeContext>(ge)) {
      std::vector<ExprPtr> es;
      for (auto* e : c->items) es.push_back(bindKey(e));
      if (es.size() > 12) {
        error(ge, "CUBE of more than 12 expressions is not supported");
        return input;
      }
      for (size_t mask = (size_t{1} << es.size()); mask-- > 0;) {
        std::vector<ExprPtr> set;
        for (size_t i = 0; i < es.size(); ++i)
          if (mask & (size_t{1} << (es.size() - 1 - i))) set.push_back(es[i]);
        elementSets.push_back(set);
      }
    } else {
      auto* gs = alt<P::GroupingSetsContext>(ge);
      for (auto* set : gs->sets) {
        std::vector<ExprPtr> es;
        for (auto* e : set->items) es.push_back(bindKey(e));
        elementSets.push_back(es);
      }
    }
    std::vector<std::vector<ExprPtr>> product;
    for (const auto& s : sets)
      for (const auto& t : elementSets) {
        auto joined = s;
        joined.insert(joined.end(), t.begin(), t.end());
        product.push_back(joined);
      }
    sets = std::move(product);
    if (sets.size() > kMaxGroupingSets) {
      error(ge, "more than " + std::to_string(kMaxGroupingSets) + " grouping sets");
      return input;
    }
  }

  auto agg = makePooled<PlanNode>();
  agg->op = PlanOp::Aggregate;
  agg->children = {input};
  agg->loc = ctx->group ? locOf(ctx->group) : locOf(ctx);
  std::string aq = uniqueQualifier("agg");
  LocalNames taken;
  std::vector<ExprPtr> keys;
  for (const auto& set : sets) {
    std::vector<int> idx;
    for (const auto& e : set) {
      auto it = std::find_if(keys.begin(), keys.end(),
                             [&](const ExprPtr& k) { return exprEquals(k, e); });
      int i = static_cast<int>(it - keys.begin());
      if (it == keys.end()) keys.push_back(e);
      if (std::find(idx.begin(), idx.end(), i) == idx.end()) idx.push_back(i);
    }
    agg->groupingSets.push_back(idx);
  }
  for (const auto& k : keys) {
    std::string name;
    if (k->kind == ExprKind::Column) {
      name = k->name;
    } else {
      std::string base = "key";
      for (const auto& [n, e] : items)
        if (exprEquals(e, k)) base = n;
      name = aq + "." + uniqueName(base, taken);
    }
    agg->exprs.push_back({name, k});
  }
  if (agg->groupingSets.size() == 1) agg->groupingSets.clear();

  std::function<ExprPtr(const ExprPtr&)> translate = [&](const ExprPtr& e) -> ExprPtr {
    for (const auto& k : agg->exprs)
      if (exprEquals(k.expr, e)) return makeColumn(k.name, k.expr->type, true, e->loc);
    if (isAggregateCall(*e)) {
      if (e->name == "grouping")
        for (const auto& arg : e->args)
          if (std::none_of(agg->exprs.begin(), agg->exprs.end(),
                           [&](const NamedExpr& k) { return exprEquals(k.expr, arg); }))
            error(arg->loc,
                  "grouping() takes GROUP BY expressions; " + exprToString(*arg) + " is not one");
      for (const auto& a : agg->aggs)
        if (a.func == e->name && a.distinct == e->distinct && a.args.size() == e->args.size() &&
            std::equal(a.args.begin(), a.args.end(), e->args.begin(),
                       [](const ExprPtr& x, const ExprPtr& y) { return exprEquals(x, y); }))
          return makeColumn(a.name, a.type, !aggregateNeverNull(a.func), e->loc);
      std::string base = e->name;
      for (const auto& [n, ie] : items)
        if (ie == e) base = n;
      AggCall a{aq + "." + uniqueName(base, taken), e->name, e->args, e->distinct, e->type};
      agg->aggs.push_back(a);
      return makeColumn(a.name, a.type, !aggregateNeverNull(a.func), e->loc);
    }
    if (e->kind == ExprKind::Column && produces(*input, e->name)) {
      error(e->loc,
            "column " + e->name + " must appear in GROUP BY or be used in an aggregate function");
      return e;
    }
    if (e->kind != ExprKind::Call && e->kind != ExprKind::Cast) return e;
    return mapArgs(*e, translate);
  };
  for (ExprPtr* p : exprs) *p = translate(*p);
  for (auto& w : windows) {
    for (auto& a : w.args) a = translate(a);
    for (auto& p : w.partitionBy) p = translate(p);
    for (auto& k : w.orderBy) k.expr = translate(k.expr);
  }
  computeOutput(*agg);
  return agg;
}

}  // namespace rfguard
