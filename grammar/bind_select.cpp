// Binding of one SELECT block: FROM, WHERE, grouping, windows, select list, ORDER BY.
#include <algorithm>

#include "grammar/binder.h"
#include "ir/ascii.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

PlanPtr unary(PlanOp op, PlanPtr child, SourceLoc loc) {
  auto n = makePooled<PlanNode>();
  n->op = op;
  n->children = {std::move(child)};
  n->loc = loc;
  return n;
}

std::string defaultName(const Expr& e) {
  if (e.kind == ExprKind::Column) {
    auto dot = e.name.rfind('.');
    return dot == std::string::npos ? e.name : e.name.substr(dot + 1);
  }
  if (e.kind == ExprKind::Call && std::isalpha(static_cast<unsigned char>(e.name[0])))
    return e.name;
  return "expr";
}

/// The name expression `e` is, with nothing around it; nullptr if it is more.
P::NameExprContext* bareName(P::ExprContext* e) {
  if (!e->rest.empty()) return nullptr;
  auto* pred = alt<P::PredicatedContext>(e->first);
  if (!pred || pred->pred || !pred->rest.empty()) return nullptr;
  auto* name = alt<P::NameExprContext>(pred->first);
  return name && !name->call ? name : nullptr;
}

// A select item that is a bare column reference is named as SQL names it
// (a derived table's column alias, not the id of the column underneath).
std::string referencedName(P::ExprContext* e) {
  auto* name = bareName(e);
  return name ? Binder::identText(name->column ? name->column : name->name) : "";
}

/// `t.*` as a whole select item (the grammar reads it as a name expression).
P::NameExprContext* qualifiedStar(P::SelectExprContext* item) {
  auto* name = bareName(item->value);
  return name && name->allColumns ? name : nullptr;
}

}  // namespace

PlanPtr Binder::bindFrom(P::QuerySpecContext* ctx, const Scope* outer, Scope& scope) {
  scope.rels.reserve(ctx->relations.size());  // one each unless one is a join
  PlanPtr plan;
  for (auto* rel : ctx->relations) {
    // Each comma item binds on its own: a JOIN's ON clause sees only its own operands.
    Scope itemScope;
    itemScope.outer = outer;
    // A LATERAL first in the item reads the items left of it.
    auto* lateral = alt<P::LateralPrimaryContext>(rel->first);
    if (lateral && !rel->joins.empty())
      error(rel,
            "a LATERAL derived table joined within its comma item is not supported: write "
            "the joins as JOIN LATERAL");
    lateralLeft = plan ? &scope : nullptr;
    PlanPtr p = bindRelation(rel, itemScope);
    lateralLeft = nullptr;
    if (!scope.star.empty() || !itemScope.star.empty()) {  // a join USING on either side
      auto before = starItems(scope), added = starItems(itemScope);
      before.insert(before.end(), added.begin(), added.end());
      scope.star = std::move(before);
    }
    for (auto& r : itemScope.rels) {
      for (const auto& have : scope.rels)
        if (have.alias == r.alias)
          error(rel, "table name \"" + r.alias + "\" specified more than once");
      scope.rels.push_back(std::move(r));  // itemScope is done with
    }
    for (auto& [k, v] : itemScope.merged) scope.merged[k] = v;
    if (!plan) {
      plan = p;
      continue;
    }
    if (lateral) {
      plan = lateralJoin(plan, p, JoinType::Cross, nullptr, rel);
      continue;
    }
    auto join = makePooled<PlanNode>();
    join->op = PlanOp::Join;
    join->joinType = JoinType::Cross;
    join->children = {plan, p};
    join->loc = locOf(rel);
    computeOutput(*join);
    plan = join;
  }
  if (!plan) {  // SELECT without FROM reads one empty row
    plan = makePooled<PlanNode>();
    plan->op = PlanOp::Values;
    plan->rows = {{}};
    plan->loc = locOf(ctx);
  }
  return plan;
}

Binder::SelectItems Binder::bindSelectItems(P::QuerySpecContext* ctx, const Scope& scope,
                                            BlockState& block) {
  SelectItems items;
  items.reserve(ctx->items.size());  // one each but for stars
  for (auto* item : ctx->items) {
    auto* se = alt<P::SelectExprContext>(item);
    auto* qs = se ? qualifiedStar(se) : nullptr;
    if (!se || qs) {
      std::string alias = qs ? identText(qs->name) : "";
      if (se && se->alias) error(se->alias, alias + ".* takes no alias");
      bool found = false;
      if (!qs && !scope.star.empty()) {  // SELECT * over a join USING: merged columns once
        items.insert(items.end(), scope.star.begin(), scope.star.end());
        continue;
      }
      for (const auto& rel : scope.rels) {
        if (qs && rel.alias != alias) continue;
        found = true;
        for (const auto& c : rel.columns)
          items.push_back({c.name, makeColumn(c.id, c.type, c.nullable, locOf(item))});
      }
      if (!found)
        error(item, qs ? "unknown table or alias \"" + alias + "\" in " + alias + ".*"
                       : std::string("SELECT * needs a FROM clause"));
      continue;
    }
    ExprPtr e = bindExpr(se->value, scope, block);
    std::string name = se->alias ? identText(se->alias) : referencedName(se->value);
    items.push_back({name.empty() ? defaultName(*e) : name, e});
  }
  return items;
}

// Positions and output names refer to the select list; anything else is an
// expression over the FROM clause, bound now so grouping sees it.
std::vector<Binder::OrderKey> Binder::bindOrderKeys(P::OrderByContext* orderBy,
                                                    const SelectItems& items, const Scope& scope,
                                                    BlockState& block) {
  std::vector<OrderKey> order;
  if (!orderBy) return order;
  for (auto* si : orderBy->items) {
    OrderKey o{si, -1, nullptr};
    std::string text = this->text(si->value);
    if (auto position = positionLiteral(text)) {
      size_t ord = *position;
      if (ord < 1 || ord > items.size()) {
        // Reported; the key is dropped so that binding goes on with a valid plan.
        error(si, "ORDER BY position " + text + " is not in the select list");
        continue;
      }
      o.item = static_cast<int>(ord) - 1;
    } else {
      std::string lower = text;
      asciiLowerInPlace(lower);
      for (size_t i = 0; i < items.size() && o.item < 0; ++i)
        if (items[i].first == lower && lower.find('.') == std::string::npos)
          o.item = static_cast<int>(i);
      if (o.item < 0) o.expr = bindExpr(si->value, scope, block);
    }
    order.push_back(o);
  }
  return order;
}

BoundRel Binder::projectSelectList(P::QuerySpecContext* ctx, PlanPtr plan, const std::string& hint,
                                   const SelectItems& items, const std::vector<OrderKey>& order,
                                   P::LimitClauseContext* limit) {
  auto project = unary(PlanOp::Project, plan, locOf(ctx));
  std::string q = uniqueQualifier(hint);
  LocalNames taken;
  std::vector<std::string> names;
  names.reserve(items.size());
  project->exprs.reserve(items.size());
  for (const auto& [name, e] : items) {
    names.push_back(name);
    project->exprs.push_back({q + "." + uniqueName(name, taken), e});
  }
  bool distinct = ctx->quant && ctx->quant->getStart()->getType() == P::DISTINCT;
  std::vector<SortKey> keys;
  size_t visible = project->exprs.size();
  for (const auto& o : order) {
    if (o.item >= 0) {
      if (static_cast<size_t>(o.item) < project->exprs.size()) {
        const auto& ne = project->exprs[o.item];
        keys.push_back(bindSortItem(
            o.ctx, makeColumn(ne.name, ne.expr->type, ne.expr->nullable, locOf(o.ctx))));
      }
      continue;
    }
    std::string id;
    for (const auto& ne : project->exprs)
      if (exprEquals(ne.expr, o.expr)) id = ne.name;
    if (id.empty()) {
      if (distinct)
        error(o.ctx, "with SELECT DISTINCT, ORDER BY expressions must appear in the select list");
      id = q + "." + uniqueName("sort", taken);
      project->exprs.push_back({id, o.expr});
    }
    keys.push_back(
        bindSortItem(o.ctx, makeColumn(id, o.expr->type, o.expr->nullable, o.expr->loc)));
  }
  computeOutput(*project);
  plan = project;
  if (distinct) {
    auto agg = unary(PlanOp::Aggregate, plan, locOf(ctx));
    for (const auto& c : project->output)
      agg->exprs.push_back({c.id, makeColumn(c.id, c.type, c.nullable, project->loc)});
    computeOutput(*agg);
    plan = agg;
  }
  plan = bindSortAndLimit(plan, keys, limit);
  if (project->exprs.size() > visible) {  // drop the hidden sort columns again
    auto trim = unary(PlanOp::Project, plan, project->loc);
    for (size_t i = 0; i < visible; ++i) {
      const Column& c = project->output[i];
      trim->exprs.push_back({c.id, makeColumn(c.id, c.type, c.nullable, project->loc)});
    }
    computeOutput(*trim);
    plan = trim;
  }
  return BoundRel{plan, names};
}

BoundRel Binder::bindQuerySpec(P::QuerySpecContext* ctx, const Scope* outer,
                               const std::string& hint, P::OrderByContext* orderBy,
                               P::LimitClauseContext* limit) {
  Scope scope;
  scope.outer = outer;
  PlanPtr plan = bindFrom(ctx, outer, scope);
  if (ctx->where) {
    BlockState block;
    ExprPtr pred = bindExpr(ctx->where, scope, block);
    if (pred->type.kind != TypeKind::Boolean && pred->type.kind != TypeKind::Unknown)
      error(ctx->where, "WHERE condition must be boolean, got " + pred->type.toString());
    plan = unary(PlanOp::Filter, plan, locOf(ctx->where));
    plan->predicate = pred;
    computeOutput(*plan);
  }

  // Select items, bound before grouping; aggregates and windows stay inline for now.
  std::vector<WindowCall> windows;
  BlockState block;
  block.allowAggregates = block.allowWindows = true;
  block.windows = &windows;
  block.windowQualifier = uniqueQualifier("win");
  SelectItems items = bindSelectItems(ctx, scope, block);
  ExprPtr having;
  if (ctx->having) {
    BlockState hb;
    hb.allowAggregates = true;
    having = bindExpr(ctx->having, scope, hb);
  }
  // QUALIFY (DuckDB, Snowflake): a filter after the window functions, which
  // may name select-list aliases (a FROM column of the name comes first).
  ExprPtr qualify;
  if (ctx->qualify) {
    Scope qs = scope;
    for (const auto& [name, e] : items) {
      bool column = false;
      for (const auto& rel : scope.rels)
        for (const auto& c : rel.columns) column = column || c.name == name;
      if (!column && !qs.merged.count(name)) qs.merged[name] = e;
    }
    qualify = bindExpr(ctx->qualify, qs, block);
    if (qualify->type.kind != TypeKind::Boolean && qualify->type.kind != TypeKind::Unknown)
      error(ctx->qualify, "QUALIFY condition must be boolean, got " + qualify->type.toString());
  }
  std::vector<OrderKey> order = bindOrderKeys(orderBy, items, scope, block);
  bool aggregated = ctx->group || having || (qualify && hasAggregate(*qualify));
  for (const auto& it : items) aggregated = aggregated || hasAggregate(*it.second);
  for (const auto& o : order) aggregated = aggregated || (o.expr && hasAggregate(*o.expr));
  if (aggregated) {
    std::vector<ExprPtr*> exprs;
    for (auto& it : items) exprs.push_back(&it.second);
    if (having) exprs.push_back(&having);
    if (qualify) exprs.push_back(&qualify);
    for (auto& o : order)
      if (o.expr) exprs.push_back(&o.expr);
    plan = bindGrouping(ctx, plan, scope, exprs, windows, items);
    if (having) {
      plan = unary(PlanOp::Filter, plan, locOf(ctx->having));
      plan->predicate = having;
      computeOutput(*plan);
    }
  }
  if (windows.empty()) {
    releaseQualifier(block.windowQualifier);
  } else {
    plan =
        unary(PlanOp::Window, plan, windows[0].args.empty() ? locOf(ctx) : windows[0].args[0]->loc);
    plan->windows = windows;
    computeOutput(*plan);
  }
  if (qualify) {
    plan = unary(PlanOp::Filter, plan, locOf(ctx->qualify));
    plan->predicate = qualify;
    computeOutput(*plan);
  }

  return projectSelectList(ctx, plan, hint, items, order, limit);
}

}  // namespace rfguard
