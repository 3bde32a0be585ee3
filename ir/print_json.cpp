// Writing plan JSON. The key order is fixed so that plan -> JSON -> plan -> JSON
// is byte-identical.
#include <cmath>

#include "ir/printers.h"

namespace rfguard {

using Json = nlohmann::ordered_json;

namespace {

const char* subqueryName(SubqueryKind k) {
  return k == SubqueryKind::Exists ? "exists" : k == SubqueryKind::In ? "in" : "scalar";
}

Json literalValue(const Expr& e) {
  if (e.isNull) return nullptr;
  if (e.type.kind == TypeKind::Boolean) return e.value == "true";
  if (e.type.isInteger()) return std::stoll(e.value);
  return e.value;
}

Json sortKeyJson(const SortKey& k) {
  return Json{
      {"expr", exprToJson(*k.expr)}, {"ascending", k.ascending}, {"nulls_first", k.nullsFirst}};
}

Json exprList(const std::vector<ExprPtr>& es) {
  Json a = Json::array();
  for (const auto& e : es) a.push_back(exprToJson(*e));
  return a;
}

Json filtersJson(const std::vector<RuntimeFilter>& filters) {
  Json fs = Json::array();
  for (const auto& f : filters) {
    Json kinds = Json::array();
    for (auto k : f.kinds) kinds.push_back(kindName(k));
    Json j{{"id", f.id}, {"build", exprToJson(*f.build)}};
    if (!f.besideOnly) j["probe"] = exprToJson(*f.probe);
    j["op"] = cmpSpelling(f.op);
    j["null_allowed"] = f.nullAllowed;
    if (f.acceptNull) j["accept_null"] = true;
    j["kinds"] = kinds;
    j["scope"] = scopeName(f.scope);
    if (f.nonBlocking) j["non_blocking"] = true;
    fs.push_back(j);
  }
  return fs;
}

Json namedList(const std::vector<NamedExpr>& es) {
  Json a = Json::array();
  for (const auto& ne : es) a.push_back(Json{{"name", ne.name}, {"expr", exprToJson(*ne.expr)}});
  return a;
}

}  // namespace

Json frameToJson(const WindowFrame& frame) {
  auto bound = [](const FrameBound& b) {
    Json j{{"bound", frameBoundName(b.kind)}};
    if (b.kind == FrameBound::Kind::Preceding || b.kind == FrameBound::Kind::Following)
      j["offset"] = b.offset;
    return j;
  };
  return Json{{"unit", frame.rows ? "rows" : "range"},
              {"start", bound(frame.start)},
              {"end", bound(frame.end)}};
}

Json exprToJson(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Column:
      return Json{{"column", e.name}};
    case ExprKind::Literal:
      return Json{{"literal", literalValue(e)}, {"type", e.type.toString()}};
    case ExprKind::Cast:
      return Json{{"cast", exprToJson(*e.args[0])}, {"type", e.type.toString()}};
    case ExprKind::Call: {
      Json j{{"call", e.name}, {"args", exprList(e.args)}};
      if (e.distinct) j["distinct"] = true;
      return j;
    }
    case ExprKind::Subquery: {
      Json j{{"subquery", subqueryName(e.subquery)}};
      if (!e.args.empty()) j["arg"] = exprToJson(*e.args[0]);
      j["plan"] = planToJson(*e.plan);
      return j;
    }
  }
  return nullptr;
}

Json planToJson(const PlanNode& n) {
  Json j{{"id", n.id}, {"op", opName(n.op)}};
  if (n.loc.line) j["loc"] = Json::array({n.loc.line, n.loc.col});
  if (n.estimatedRows) j["estimated_rows"] = std::llround(*n.estimatedRows);
  switch (n.op) {
    case PlanOp::Scan: {
      j["table"] = n.table;
      j["alias"] = n.alias;
      Json cols = Json::array();
      for (const auto& c : n.scanColumns) cols.push_back(c.substr(n.alias.size() + 1));
      j["columns"] = cols;
      break;
    }
    case PlanOp::Filter:
      j["predicate"] = exprToJson(*n.predicate);
      break;
    case PlanOp::Project:
      j["exprs"] = namedList(n.exprs);
      break;
    case PlanOp::Join:
      j["join_type"] = joinInfo(n.joinType).name;
      if (n.distribution != JoinDistribution::Unknown)
        j["distribution"] = joinDistributionName(n.distribution);
      if (n.predicate) j["condition"] = exprToJson(*n.predicate);
      if (!n.runtimeFilters.empty()) j["runtime_filters"] = filtersJson(n.runtimeFilters);
      break;
    case PlanOp::Aggregate: {
      j["keys"] = namedList(n.exprs);
      if (!n.groupingSets.empty()) j["grouping_sets"] = n.groupingSets;
      Json aggs = Json::array();
      for (const auto& a : n.aggs) {
        Json aj{{"name", a.name}, {"func", a.func}, {"args", exprList(a.args)}};
        if (a.distinct) aj["distinct"] = true;
        aggs.push_back(aj);
      }
      j["aggs"] = aggs;
      break;
    }
    case PlanOp::Window: {
      Json ws = Json::array();
      for (const auto& w : n.windows) {
        Json order = Json::array();
        for (const auto& k : w.orderBy) order.push_back(sortKeyJson(k));
        Json call{{"name", w.name},
                  {"func", w.func},
                  {"args", exprList(w.args)},
                  {"partition_by", exprList(w.partitionBy)},
                  {"order_by", order}};
        if (w.frame) call["frame"] = frameToJson(*w.frame);
        ws.push_back(call);
      }
      j["windows"] = ws;
      break;
    }
    case PlanOp::Sort: {
      Json keys = Json::array();
      for (const auto& k : n.sortKeys) keys.push_back(sortKeyJson(k));
      j["keys"] = keys;
      break;
    }
    case PlanOp::Limit:
      if (n.limit) j["limit"] = *n.limit;
      if (n.offset) j["offset"] = n.offset;
      if (n.unprinted) j["unprinted"] = true;
      if (!n.runtimeFilters.empty()) j["runtime_filters"] = filtersJson(n.runtimeFilters);
      break;
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except:
      j["all"] = n.all;
      j["columns"] = n.outNames;
      if (!n.runtimeFilters.empty()) j["runtime_filters"] = filtersJson(n.runtimeFilters);
      break;
    case PlanOp::Values: {
      j["columns"] = n.outNames;
      Json rows = Json::array();
      for (const auto& r : n.rows) rows.push_back(exprList(r));
      j["rows"] = rows;
      break;
    }
  }
  if (!n.runtimeFilterTargets.empty()) {
    Json ts = Json::array();
    for (const auto& t : n.runtimeFilterTargets)
      ts.push_back(Json{{"id", t.id}, {"target", exprToJson(*t.target)}});
    j["runtime_filter_targets"] = ts;
  }
  Json children = Json::array();
  for (const auto& c : n.children) children.push_back(planToJson(*c));
  j["children"] = children;
  return j;
}

Json catalogToJson(const Catalog& catalog, const std::vector<Query>&) {
  Json tables = Json::array();
  for (const auto& [name, t] : catalog.tables()) {
    Json cols = Json::array();
    for (const auto& c : t.columns) {
      Json cj{{"name", c.name}, {"type", c.type.toString()}, {"nullable", c.nullable}};
      if (c.primaryKey) cj["primary_key"] = true;
      if (c.ndv) cj["ndv"] = *c.ndv;
      cols.push_back(cj);
    }
    Json tj{{"name", t.name}, {"columns", cols}};
    if (t.rows) tj["rows"] = *t.rows;
    if (!t.runtimeFilter) tj["runtime_filter"] = false;
    if (!t.distributionKey.empty()) tj["distribution_key"] = t.distributionKey;
    if (!t.uniqueKeys.empty()) tj["unique"] = t.uniqueKeys;
    if (!t.foreignKeys.empty()) {
      Json fks = Json::array();
      for (const auto& fk : t.foreignKeys)
        fks.push_back(Json{
            {"columns", fk.columns}, {"references", fk.refTable}, {"ref_columns", fk.refColumns}});
      tj["foreign_keys"] = fks;
    }
    if (!t.checks.empty()) tj["checks"] = exprList(t.checks);
    tables.push_back(tj);
  }
  return Json{{"tables", tables}};
}

Json documentToJson(const Catalog& catalog, const std::vector<Query>& queries) {
  Json qs = Json::array();
  for (const auto& q : queries) {
    Json qj{{"name", q.name}};
    if (!q.sql.empty()) qj["sql"] = q.sql;
    if (!q.file.empty()) qj["file"] = q.file;
    if (q.loc.line) qj["loc"] = Json::array({q.loc.line, q.loc.col});
    if (!q.suppress.empty()) qj["suppress"] = q.suppress;
    qj["plan"] = planToJson(*q.plan);
    qs.push_back(qj);
  }
  return Json{{"format", "rfguard-plan"},
              {"version", 1},
              {"catalog", catalogToJson(catalog, queries)},
              {"queries", qs}};
}

}  // namespace rfguard
