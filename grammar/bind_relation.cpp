// Binding of FROM items: tables, views, CTEs, derived tables and joins.
#include <cassert>
#include <set>

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

std::vector<std::pair<std::string, ExprPtr>> starItems(const Scope& scope) {
  if (!scope.star.empty()) return scope.star;
  std::vector<std::pair<std::string, ExprPtr>> out;
  for (const auto& rel : scope.rels)
    for (const auto& c : rel.columns) out.push_back({c.name, makeColumn(c.id, c.type, c.nullable)});
  return out;
}

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
  bool natural = false, innerNatural = false;
  if (auto* c = alt<P::CrossJoinContext>(ctx)) {
    rightCtx = c->right, at = c->getStart();  // CROSS
  } else if (auto* nj = alt<P::NaturalJoinContext>(ctx)) {
    rightCtx = nj->right, at = nj->getStart();  // NATURAL
    type = joinTypeOf(nj->type);
    natural = true;
    innerNatural = !nj->type->side;  // [INNER] NATURAL JOIN
  } else {
    auto* j = alt<P::JoinRelationContext>(ctx);
    rightCtx = j->right, criteria = j->criteria, at = j->join;
    type = joinTypeOf(j->type);
    if (j->type->getStart() != j->join) at = j->type->getStart();
  }
  size_t leftRels = scope.rels.size();
  Scope rightScope;
  rightScope.outer = scope.outer;
  auto* lateral = alt<P::LateralPrimaryContext>(rightCtx);
  PlanPtr right = lateral ? bindLateral(lateral, rightScope, &scope)
                          : bindRelationPrimary(rightCtx, rightScope);
  if (lateral && (natural || (criteria && !criteria->on)))
    error(at, "a LATERAL derived table is joined ON a condition, not USING or NATURAL");
  // `scope` becomes both sides' scope (copying it per join made a chain of n
  // joins copy O(n^2) relations); the left side's is its first `leftRels`.
  const bool usingColumns = natural || (criteria && !criteria->on);
  const std::map<std::string, ExprPtr> leftMerged =
      usingColumns ? scope.merged : std::map<std::string, ExprPtr>{};
  // USING's columns; NATURAL's: the names both sides have, in the left's order.
  std::vector<std::pair<std::string, SourceLoc>> shared;
  if (criteria && !criteria->on)
    for (auto* id : criteria->columns) shared.push_back({identText(id), locOf(id)});
  // SELECT *: the merged columns once, first, then each side's others (SQL's order).
  const bool ownStar = usingColumns || !scope.star.empty() || !rightScope.star.empty();
  std::vector<std::pair<std::string, ExprPtr>> leftStar, rightStar;
  if (ownStar) leftStar = starItems(scope), rightStar = starItems(rightScope);
  if (natural) {  // the names both sides output, in the left side's order
    std::set<std::string> right, seen;
    for (const auto& item : rightStar) right.insert(item.first);
    for (const auto& item : leftStar)
      if (right.count(item.first) && seen.insert(item.first).second)
        shared.push_back({item.first, locOf(at)});
    if (shared.empty() && innerNatural) type = JoinType::Cross;
  }
  for (const auto& r : rightScope.rels)
    addRel(*this, scope, r, rightCtx);  // USING reads rightScope

  auto join = makePooled<PlanNode>();
  join->op = PlanOp::Join;
  join->joinType = type;
  if (natural && shared.empty() && !innerNatural)
    join->predicate = makeBool(true, locOf(at));  // no column in common: every pair
  join->children = {left, right};
  join->loc = locOf(at);
  if (criteria && criteria->on) {
    BlockState block;
    ExprPtr cond = bindExpr(criteria->cond, scope, block);
    if (cond->type.kind != TypeKind::Boolean && cond->type.kind != TypeKind::Unknown)
      error(criteria->cond, "join condition must be boolean, got " + cond->type.toString());
    join->predicate = cond;
  } else if (!shared.empty()) {
    std::vector<ExprPtr> eqs;
    for (const auto& [name, where] : shared) {
      Scope ls;
      ls.rels.assign(scope.rels.begin(), scope.rels.begin() + leftRels);
      ls.merged = leftMerged;
      ExprPtr l = resolveColumn(nullptr, name, where, ls);
      ExprPtr r = resolveColumn(nullptr, name, where, rightScope);
      if (!comparable(l->type, r->type))
        error(where, std::string(natural ? "NATURAL JOIN" : "USING") + " column " + name +
                         " has types " + l->type.toString() + " and " + r->type.toString());
      eqs.push_back(call("=", {l, r}, where));
      // The merged column: from the side whose rows always survive, coalesced for FULL.
      const auto& info = joinInfo(type);
      ExprPtr merged = info.generatesNulls[0] && !info.generatesNulls[1] ? r
                       : info.generatesNulls[0] && info.generatesNulls[1]
                           ? call("coalesce", {l, r}, where)
                       : !info.outputs[0] ? r
                                          : l;
      scope.merged[name] = merged;
    }
    join->predicate = makeAnd(eqs);
  }
  if (ownStar) {
    std::set<std::string> names;
    scope.star.clear();
    for (const auto& [name, where] : shared)
      if (names.insert(name).second && scope.merged.count(name))
        scope.star.push_back({name, scope.merged[name]});
    for (const auto* side : {&leftStar, &rightStar})
      for (const auto& item : *side)
        if (!names.count(item.first)) scope.star.push_back(item);
  }
  const auto& info = joinInfo(type);
  // Above the join, the columns of a side it pads with NULLs may be NULL
  // whatever the table declares (the ON condition, bound above, reads the
  // inputs' own rows): what reads them later, correlated subqueries
  // included, must not take them for NOT NULL.
  std::set<std::string> padded;
  for (size_t r = 0; r < scope.rels.size(); ++r)
    if (info.generatesNulls[r < leftRels ? 0 : 1])
      for (auto& c : scope.rels[r].columns) {
        c.nullable = true;
        padded.insert(c.id.str());
      }
  for (auto& item : scope.star)
    if (item.second->kind == ExprKind::Column && padded.count(item.second->name))
      item.second = makeColumn(item.second->name, item.second->type, true, item.second->loc);
  if (!info.outputs[1]) scope.rels.resize(leftRels);
  if (!info.outputs[0]) scope.rels.erase(scope.rels.begin(), scope.rels.begin() + leftRels);
  if (lateral) return lateralJoin(left, right, type, join->predicate, ctx);
  computeOutput(*join);
  return join;
}

PlanPtr Binder::bindRelationPrimary(P::RelationPrimaryContext* ctx, Scope& scope) {
  const Scope* left = lateralLeft;  // for this relation only
  lateralLeft = nullptr;
  if (auto* l = alt<P::LateralPrimaryContext>(ctx)) return bindLateral(l, scope, left);
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
    // (VALUES (..), (..)) [AS alias (names)]: constant rows; columns column1...
    // unless named; without an alias, one of its own no query can name.
    std::string alias = v->alias ? identText(v->alias) : uniqueQualifier("values");
    std::vector<std::string> names;
    for (auto* id : v->columns) names.push_back(identText(id));
    antlr4::ParserRuleContext* at =
        v->alias ? static_cast<antlr4::ParserRuleContext*>(v->alias) : ctx;
    BoundRel bound = bindValuesRows(v->rows, alias, names, at, scope.outer);
    addRel(*this, scope, relOf(alias, bound, bound.names), ctx);
    return bound.plan;
  }
  assert(false && "a parenthesised relation is a query, a relation or VALUES");
  return nullptr;
}

BoundRel Binder::bindValuesRows(const std::vector<P::ValuesRowContext*>& rows,
                                const std::string& qualifier, const std::vector<std::string>& names,
                                antlr4::ParserRuleContext* at, const Scope* outer) {
  auto node = makePooled<PlanNode>();
  node->op = PlanOp::Values;
  node->loc = locOf(at);
  const Scope none{{}, {}, outer, {}};
  BlockState block;
  size_t width = 0;
  for (auto* row : rows) {
    std::vector<ExprPtr> values;
    for (auto* e : row->items) values.push_back(bindExpr(e, none, block));
    if (node->rows.empty()) width = values.size();
    if (values.size() != width)
      error(row, "VALUES row has " + std::to_string(values.size()) +
                     (values.size() == 1 ? " value" : " values") + ", the first has " +
                     std::to_string(width));
    node->rows.push_back(std::move(values));
  }
  if (!names.empty() && names.size() != width)
    error(at, "VALUES " + qualifier + " names " + std::to_string(names.size()) +
                  " columns but its rows have " + std::to_string(width));
  BoundRel out{node, {}};
  for (size_t i = 0; i < width; ++i) {
    out.names.push_back(i < names.size() ? names[i] : "column" + std::to_string(i + 1));
    node->outNames.push_back(qualifier + "." + out.names.back());
  }
  computeOutput(*node);
  return out;
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
    BoundRel bound;
    ++cteDepth;
    if (cte.recursive && cte.level >= 0) {  // a step reading the level before
      bound = bindRecursionLevel(i, cte.level, ctx);
      if (!ctes_[i].readings.empty()) ctes_[i].readings.back().push_back(bound.plan.get());
    } else if (cte.recursive) {
      bound = bindRecursion(i, alias, ctx);
    } else {
      cte.active = true;
      bound = bindQuery(cte.query, nullptr, alias);
      ctes_[i].active = false;
    }
    --cteDepth;
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
