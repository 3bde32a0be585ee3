// Binding of FROM items: tables, views, CTEs, derived tables and joins.
#include <cassert>

#include "grammar/binder.h"
#include "grammar/suggest.h"

namespace rfguard {

using P = rfsql::RfSqlParser;

namespace {

JoinType joinTypeOf(P::JoinTypeContext* jt) {
  const size_t side = jt->side ? jt->side->getType() : 0;
  const bool semi = jt->kind && jt->kind->getType() == P::SEMI;
  const bool anti = jt->kind && jt->kind->getType() == P::ANTI;
  if (side == P::LEFT)
    return semi ? JoinType::LeftSemi : anti ? JoinType::LeftAnti : JoinType::Left;
  if (side == P::RIGHT)
    return semi ? JoinType::RightSemi : anti ? JoinType::RightAnti : JoinType::Right;
  if (side == P::FULL) return JoinType::Full;
  return JoinType::Inner;
}

void addRel(Binder& b, Scope& scope, RelScope rel, antlr4::ParserRuleContext* at) {
  for (const auto& r : scope.rels)
    if (r.alias == rel.alias)
      b.error(at, "table name \"" + rel.alias + "\" specified more than once");
  scope.rels.push_back(std::move(rel));
}

RelScope relOf(const std::string& alias, const BoundRel& bound,
               const std::vector<std::string>& names) {
  RelScope rel{alias, {}};
  for (size_t i = 0; i < bound.plan->output.size(); ++i) {
    const Column& c = bound.plan->output[i];
    rel.columns.push_back({i < names.size() ? names[i] : c.id.str(), c.id, c.type, c.nullable});
  }
  return rel;
}

}  // namespace

PlanPtr Binder::bindRelation(P::RelationContext* ctx, Scope& scope) {
  PlanPtr plan = bindRelationPrimary(ctx->first, scope);
  for (auto* join : ctx->joins) plan = bindJoin(plan, join, scope);
  return plan;
}

PlanPtr Binder::bindJoin(PlanPtr left, P::JoinClauseContext* ctx, Scope& scope) {
  P::RelationPrimaryContext* rightCtx;
  JoinType type = JoinType::Cross;
  P::JoinCriteriaContext* criteria = nullptr;
  antlr4::Token* at;
  if (auto* c = alt<P::CrossJoinContext>(ctx)) {
    rightCtx = c->right, at = c->getStart();  // CROSS
  } else {
    auto* j = alt<P::JoinRelationContext>(ctx);
    rightCtx = j->right, criteria = j->criteria, at = j->join;
    type = joinTypeOf(j->type);
    if (j->type->getStart() != j->join) at = j->type->getStart();
  }
  size_t leftRels = scope.rels.size();
  Scope rightScope;
  rightScope.outer = scope.outer;
  PlanPtr right = bindRelationPrimary(rightCtx, rightScope);
  // `scope` becomes both sides' scope (copying it per join made a chain of n
  // joins copy O(n^2) relations); the left side's is its first `leftRels`.
  const std::map<std::string, ExprPtr> leftMerged =
      criteria && !criteria->on ? scope.merged : std::map<std::string, ExprPtr>{};
  for (const auto& r : rightScope.rels)
    addRel(*this, scope, r, rightCtx);  // USING reads rightScope

  auto join = makePooled<PlanNode>();
  join->op = PlanOp::Join;
  join->joinType = type;
  join->children = {left, right};
  join->loc = locOf(at);
  if (criteria && criteria->on) {
    BlockState block;
    ExprPtr cond = bindExpr(criteria->cond, scope, block);
    if (cond->type.kind != TypeKind::Boolean && cond->type.kind != TypeKind::Unknown)
      error(criteria->cond, "join condition must be boolean, got " + cond->type.toString());
    join->predicate = cond;
  } else if (criteria) {
    std::vector<ExprPtr> eqs;
    for (auto* id : criteria->columns) {
      std::string name = identText(id);
      Scope ls;
      ls.rels.assign(scope.rels.begin(), scope.rels.begin() + leftRels);
      ls.merged = leftMerged;
      ExprPtr l = resolveColumn(nullptr, name, locOf(id), ls);
      ExprPtr r = resolveColumn(nullptr, name, locOf(id), rightScope);
      if (!comparable(l->type, r->type))
        error(id, "USING column " + name + " has types " + l->type.toString() + " and " +
                      r->type.toString());
      eqs.push_back(call("=", {l, r}, locOf(id)));
      // The merged column: from the side whose rows always survive, coalesced for FULL.
      const auto& info = joinInfo(type);
      ExprPtr merged = info.generatesNulls[0] && !info.generatesNulls[1] ? r
                       : info.generatesNulls[0] && info.generatesNulls[1]
                           ? call("coalesce", {l, r}, locOf(id))
                       : !info.outputs[0] ? r
                                          : l;
      scope.merged[name] = merged;
    }
    join->predicate = makeAnd(eqs);
  }
  const auto& info = joinInfo(type);
  if (!info.outputs[1]) scope.rels.resize(leftRels);
  if (!info.outputs[0]) scope.rels.erase(scope.rels.begin(), scope.rels.begin() + leftRels);
  computeOutput(*join);
  return join;
}

PlanPtr Binder::bindRelationPrimary(P::RelationPrimaryContext* ctx, Scope& scope) {
  if (auto* p = alt<P::ParenPrimaryContext>(ctx)) return bindParenRelation(p->inner, scope);
  return bindTableRef(alt<P::TableRefContext>(ctx), scope);
}

PlanPtr Binder::bindParenRelation(P::ParenRelationPrimaryContext* ctx, Scope& scope) {
  if (auto* p = alt<P::ParenRelationContext>(ctx)) return bindRelation(p->inner, scope);
  if (auto* d = alt<P::DerivedTableContext>(ctx)) {
    std::string alias = identText(d->alias);
    BoundRel bound = bindQuery(d->body, scope.outer, alias);
    std::vector<std::string> names = bound.names;
    const auto& ids = d->columns;
    if (!ids.empty()) {
      if (ids.size() != bound.plan->output.size())
        error(d->alias, "derived table " + alias + " names " + std::to_string(ids.size()) +
                            " columns but its query returns " +
                            std::to_string(bound.plan->output.size()));
      names.clear();
      for (auto* id : ids) names.push_back(identText(id));
    }
    addRel(*this, scope, relOf(alias, bound, names), ctx);
    return bound.plan;
  }
  if (auto* v = alt<P::ValuesTableContext>(ctx)) {
    // (VALUES (..), (..)) AS alias (names): constant rows; columns column1... unless named.
    std::string alias = identText(v->alias);
    auto node = makePooled<PlanNode>();
    node->op = PlanOp::Values;
    node->loc = locOf(ctx);
    const Scope none{{}, {}, scope.outer};
    BlockState block;
    size_t width = 0;
    for (auto* row : v->rows) {
      std::vector<ExprPtr> values;
      for (auto* e : row->items) values.push_back(bindExpr(e, none, block));
      if (node->rows.empty()) width = values.size();
      if (values.size() != width)
        error(row, "VALUES row has " + std::to_string(values.size()) +
                       (values.size() == 1 ? " value" : " values") + ", the first has " +
                       std::to_string(width));
      node->rows.push_back(std::move(values));
    }
    const auto& ids = v->columns;
    if (!ids.empty() && ids.size() != width)
      error(v->alias, "VALUES " + alias + " names " + std::to_string(ids.size()) +
                          " columns but its rows have " + std::to_string(width));
    std::vector<std::string> names;
    for (size_t i = 0; i < width; ++i) {
      names.push_back(i < ids.size() ? identText(ids[i]) : "column" + std::to_string(i + 1));
      node->outNames.push_back(alias + "." + names.back());
    }
    computeOutput(*node);
    addRel(*this, scope, relOf(alias, BoundRel{node, names}, names), ctx);
    return node;
  }
  assert(false && "a parenthesised relation is a query, a relation or VALUES");
  return nullptr;
}

PlanPtr Binder::bindTableRef(P::TableRefContext* ctx, Scope& scope) {
  auto* t = ctx;
  std::string name = identText(t->name);
  std::string alias = t->alias ? identText(t->alias) : name;
  // A reference that cannot be bound: the error, and an empty Values node in its place.
  auto refused = [&](const std::string& why) {
    error(ctx, why);
    auto none = makePooled<PlanNode>();
    none->op = PlanOp::Values;
    none->loc = locOf(ctx);
    return none;
  };
  // Every reference binds its own copy of a WITH query or view; the cap keeps a
  // small text that doubles at each level from growing without bound.
  if (++relations > limits.maxRelations)
    return refused("the query references more than " + std::to_string(limits.maxRelations) +
                   " tables once WITH queries and views are expanded");
  for (size_t i = ctes_.size(); i-- > 0;) {
    CteDef& cte = ctes_[i];
    if (cte.name != name || cte.active) continue;
    if (cteDepth >= limits.maxCteDepth)
      return refused("WITH queries nested more than " + std::to_string(limits.maxCteDepth) +
                     " deep");
    cte.active = true;
    ++cteDepth;
    BoundRel bound = bindQuery(cte.query, nullptr, alias);
    --cteDepth;
    ctes_[i].active = false;
    std::vector<std::string> names = cte.columns.empty() ? bound.names : cte.columns;
    if (!cte.columns.empty() && cte.columns.size() != bound.plan->output.size())
      error(ctx, "WITH query " + name + " names " + std::to_string(cte.columns.size()) +
                     " columns but returns " + std::to_string(bound.plan->output.size()));
    addRel(*this, scope, relOf(alias, bound, names), ctx);
    return bound.plan;
  }
  if (const ViewDef* view = catalog.view(name)) {
    BoundRel bound = bindView(*this, *view, alias);
    std::vector<std::string> names = view->columnNames.empty() ? bound.names : view->columnNames;
    addRel(*this, scope, relOf(alias, bound, names), ctx);
    return bound.plan;
  }
  const TableDef* table = catalog.table(name);
  if (!table) {
    std::vector<std::string> names;
    for (const auto& cte : ctes()) names.push_back(cte.name);
    for (const auto& [t, def] : catalog.tables()) names.push_back(def.name);
    for (const auto& [v, def] : catalog.views()) names.push_back(def.name);
    return refused("unknown table \"" + name + "\"" + didYouMean(name, names));
  }
  auto scan = makePooled<PlanNode>();
  scan->op = PlanOp::Scan;
  scan->loc = locOf(ctx);
  scan->alias = uniqueQualifier(alias);
  // Read under its own name (the common case), the scan shares the catalog's ids.
  const std::vector<ColumnId>* own =
      scan->alias == table->name ? catalog.ownColumnIds(table->name) : nullptr;
  if (own)
    setScanTable(*scan, *table, *own);
  else
    setScanTable(*scan, *table);
  RelScope rel{alias, {}};
  rel.columns.reserve(table->columns.size());
  scan->scanColumns.reserve(table->columns.size());
  for (size_t i = 0; i < table->columns.size(); ++i) {
    const Column& c = scan->tableColumns[i];  // the id "alias.name", shared
    scan->scanColumns.push_back(c.id);
    rel.columns.push_back({table->columns[i].name, c.id, c.type, c.nullable});
  }
  addRel(*this, scope, std::move(rel), ctx);
  computeOutput(*scan);
  return scan;
}

}  // namespace rfguard
