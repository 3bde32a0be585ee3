// Reading plan JSON: the fields each kind of node has, once its children are read.
#include "ir/functions.h"
#include "ir/json_reader.h"

namespace rfguard {

using Json = nlohmann::json;
using Scope = JsonReader::Scope;

void JsonReader::tableConstraints(const Json& tj, const std::string& ptr, TableDef& t) {
  // "foreign_keys": [{"columns": ["cid"], "references": "cust", "ref_columns": ["id"]}]
  auto names = [&](const Json& fj, const std::string& fp, const char* key) {
    std::vector<std::string> out;
    const Json* a = field(fj, fp, key, Json::value_t::array);
    if (a && a->empty()) error(fp + "/" + key, "expected at least one column");
    for (size_t m = 0; a && m < a->size() && !failed; ++m) {
      if (!(*a)[m].is_string())
        error(fp + "/" + key + "/" + std::to_string(m), "expected a column name");
      else
        out.push_back((*a)[m].get<std::string>());
    }
    return out;
  };
  if (const Json* fks = field(tj, ptr, "foreign_keys", Json::value_t::array, false))
    for (size_t k = 0; k < fks->size() && !failed; ++k) {
      const std::string fp = ptr + "/foreign_keys/" + std::to_string(k);
      const Json& fj = (*fks)[k];
      if (!allowed(fj, fp, {"columns", "references", "ref_columns"})) return;
      ForeignKey fk;
      fk.columns = names(fj, fp, "columns");
      fk.refTable = str(fj, fp, "references");
      fk.refColumns = names(fj, fp, "ref_columns");
      for (size_t m = 0; m < fk.columns.size() && !failed; ++m)
        if (t.columnIndex(fk.columns[m]) < 0)
          error(fp + "/columns/" + std::to_string(m), "not a column of " + t.name);
      if (!failed && fk.columns.size() != fk.refColumns.size())
        error(fp + "/ref_columns", "as many referenced columns as columns are needed");
      t.foreignKeys.push_back(std::move(fk));
    }
  // "checks": [expression, ...] over the table's columns by bare name.
  if (const Json* checks = field(tj, ptr, "checks", Json::value_t::array, false)) {
    Scope scope;
    for (const auto& c : t.columns) scope[c.name] = Column{ColumnId(c.name), c.type, c.nullable};
    for (size_t k = 0; k < checks->size() && !failed; ++k) {
      const std::string cp = ptr + "/checks/" + std::to_string(k);
      ExprPtr e = expr((*checks)[k], cp, scope);
      if (failed) return;
      if (hasSubquery(*e) || hasAggregate(*e) || hasWindow(*e) || !isDeterministic(*e))
        return error(cp, "a CHECK constraint is a deterministic condition on one row");
      if (e->type.kind != TypeKind::Boolean && !e->isNull)
        return error(cp, "a CHECK constraint is a condition, not " + e->type.toString());
      t.checks.push_back(std::move(e));
    }
  }
}

void JsonReader::foreignKeysResolved(const TableDef& t, const std::string& ptr) {
  for (size_t k = 0; k < t.foreignKeys.size() && !failed; ++k) {
    const ForeignKey& fk = t.foreignKeys[k];
    const std::string fp = ptr + "/foreign_keys/" + std::to_string(k);
    const TableDef* parent = catalog_.table(fk.refTable);
    if (!parent)
      return error(fp + "/references", "table \"" + fk.refTable + "\" is not in the catalog");
    for (size_t m = 0; m < fk.refColumns.size(); ++m)
      if (parent->columnIndex(fk.refColumns[m]) < 0)
        return error(fp + "/ref_columns/" + std::to_string(m), "not a column of " + parent->name);
    if (!parent->isKey(fk.refColumns))
      return error(fp + "/ref_columns", "not the primary key or a UNIQUE set of " + parent->name);
  }
}

void JsonReader::nodeFields(PlanNode& n, const Json& j, const std::string& ptr,
                            const Scope& scope) {
  switch (n.op) {
    case PlanOp::Scan: {
      n.table = str(j, ptr, "table");
      n.alias = str(j, ptr, "alias");
      if (failed) return;
      const TableDef* t = catalog_.table(n.table);
      if (!t) return error(ptr + "/table", "table \"" + n.table + "\" is not in the catalog");
      if (n.alias.empty() || !aliases_.insert(n.alias).second)
        return error(ptr + "/alias",
                     "alias \"" + n.alias + "\" is empty or not unique in the plan");
      setScanTable(n, *t);
      const Json* cols = field(j, ptr, "columns", Json::value_t::array);
      for (size_t i = 0; cols && i < cols->size() && !failed; ++i) {
        const Json& c = (*cols)[i];
        if (!c.is_string() || t->columnIndex(c.get<std::string>()) < 0)
          return error(ptr + "/columns/" + std::to_string(i), "not a column of " + n.table);
        n.scanColumns.push_back(n.alias + "." + c.get<std::string>());
      }
      return;
    }
    case PlanOp::Filter:
      if (!j.contains("predicate")) return error(ptr, "missing field \"predicate\"");
      n.predicate = expr(j["predicate"], ptr + "/predicate", scope);
      return;
    case PlanOp::Project:
      n.exprs = namedList(j, ptr, "exprs", scope);
      return;
    case PlanOp::Join: {
      std::string t = str(j, ptr, "join_type");
      auto jt = parseJoinType(t);
      if (!jt)
        return failed ? void() : error(ptr + "/join_type", "unknown join type \"" + t + "\"");
      n.joinType = *jt;
      if (j.contains("distribution")) {
        std::string d = str(j, ptr, "distribution");
        auto dist = parseJoinDistribution(d);
        if (!dist)
          return failed ? void()
                        : error(ptr + "/distribution",
                                "unknown distribution \"" + d +
                                    "\" (broadcast, shuffle, colocated or bucket_shuffle)");
        n.distribution = *dist;
      }
      bool needs = joinInfo(*jt).hasCondition;
      if (needs != j.contains("condition"))
        return error(ptr,
                     needs ? "missing field \"condition\"" : "a cross join has no \"condition\"");
      if (needs) n.predicate = expr(j["condition"], ptr + "/condition", scope);
      readRuntimeFilters(n, j, ptr);
      return;
    }
    case PlanOp::Aggregate: {
      n.exprs = namedList(j, ptr, "keys", scope);
      const Json* aggs = field(j, ptr, "aggs", Json::value_t::array);
      for (size_t i = 0; aggs && i < aggs->size() && !failed; ++i) {
        std::string p = ptr + "/aggs/" + std::to_string(i);
        const Json& a = (*aggs)[i];
        if (!allowed(a, p, {"name", "func", "args", "distinct"})) return;
        AggCall call{
            str(a, p, "name"), str(a, p, "func"), exprList(a, p, "args", scope), false, {}};
        const FunctionInfo* fn = lookupFunction(call.func);
        if (!fn || fn->kind != FunctionKind::Aggregate)
          return failed ? void()
                        : error(p + "/func", "\"" + call.func + "\" is not an aggregate function");
        const int nargs = static_cast<int>(call.args.size());
        if (!failed && (nargs < fn->minArgs || (fn->maxArgs >= 0 && nargs > fn->maxArgs)))
          return error(p + "/args",
                       call.func + " takes " + arityText(*fn) + ", got " + std::to_string(nargs));
        if (!failed && call.func == "grouping" && !groupingBits(n, call, {}))
          return error(p + "/args", "grouping() takes keys of this aggregate");
        const Json* d = field(a, p, "distinct", Json::value_t::boolean, false);
        call.distinct = d && d->get<bool>();
        call.type = returnType(*fn, call.args);
        n.aggs.push_back(call);
      }
      if (const Json* sets = field(j, ptr, "grouping_sets", Json::value_t::array, false)) {
        for (size_t i = 0; i < sets->size(); ++i) {
          std::vector<int> set;
          const Json& s = (*sets)[i];
          for (size_t k = 0; s.is_array() && k < s.size(); ++k) {
            if (!s[k].is_number_integer() || s[k].get<long long>() < 0 ||
                s[k].get<long long>() >= static_cast<long long>(n.exprs.size()))
              return error(ptr + "/grouping_sets/" + std::to_string(i) + "/" + std::to_string(k),
                           "not the index of a key");
            set.push_back(s[k].get<int>());
          }
          if (!s.is_array())
            return error(ptr + "/grouping_sets/" + std::to_string(i),
                         "expected an array of key indexes");
          n.groupingSets.push_back(set);
        }
      }
      return;
    }
    case PlanOp::Window: {
      const Json* ws = field(j, ptr, "windows", Json::value_t::array);
      for (size_t i = 0; ws && i < ws->size() && !failed; ++i) {
        std::string p = ptr + "/windows/" + std::to_string(i);
        const Json& w = (*ws)[i];
        if (!allowed(w, p, {"name", "func", "args", "partition_by", "order_by", "frame"})) return;
        WindowCall call{str(w, p, "name"),
                        str(w, p, "func"),
                        exprList(w, p, "args", scope),
                        exprList(w, p, "partition_by", scope),
                        sortKeys(w, p, "order_by", scope),
                        {},
                        std::nullopt};
        const FunctionInfo* fn = lookupFunction(call.func);
        if (!fn || (fn->kind != FunctionKind::Window && fn->kind != FunctionKind::Aggregate))
          return failed ? void()
                        : error(p + "/func", "\"" + call.func + "\" is not a window function");
        call.type = returnType(*fn, call.args);
        if (w.contains("frame") && !failed) {
          call.frame = frame(w["frame"], p + "/frame", call.orderBy);
          if (failed) return;
          if (fn->kind != FunctionKind::Aggregate)
            return error(p + "/frame", call.func + " takes no frame");
        }
        n.windows.push_back(call);
      }
      return;
    }
    case PlanOp::Sort:
      n.sortKeys = sortKeys(j, ptr, "keys", scope);
      return;
    case PlanOp::Limit:
      if (j.contains("limit")) n.limit = nonNegative(j, ptr, "limit", 0);
      n.offset = nonNegative(j, ptr, "offset", 0);
      if (j.contains("unprinted"))
        if (const Json* u = field(j, ptr, "unprinted", Json::value_t::boolean))
          n.unprinted = u->get<bool>();
      readRuntimeFilters(n, j, ptr);
      return;
    case PlanOp::Union:
    case PlanOp::Intersect:
    case PlanOp::Except: {
      const Json* all = field(j, ptr, "all", Json::value_t::boolean);
      n.all = all && all->get<bool>();
      n.outNames = j.value("columns", std::vector<std::string>{});
      for (size_t i = 0; i < n.children.size() && !failed; ++i)
        if (n.children[i]->output.size() != n.outNames.size())
          error(ptr + "/children/" + std::to_string(i),
                "child has " + std::to_string(n.children[i]->output.size()) +
                    " columns, the set operation " + std::to_string(n.outNames.size()));
      readRuntimeFilters(n, j, ptr);
      return;
    }
    case PlanOp::Values: {
      n.outNames = j.value("columns", std::vector<std::string>{});
      const Json* rows = field(j, ptr, "rows", Json::value_t::array);
      for (size_t i = 0; rows && i < rows->size() && !failed; ++i) {
        std::string p = ptr + "/rows/" + std::to_string(i);
        if (!(*rows)[i].is_array() || (*rows)[i].size() != n.outNames.size())
          return error(p, "row must have one value per column");
        std::vector<ExprPtr> row;
        for (size_t k = 0; k < (*rows)[i].size(); ++k)
          row.push_back(expr((*rows)[i][k], p + "/" + std::to_string(k), {}));
        n.rows.push_back(row);
      }
      return;
    }
  }
}

}  // namespace rfguard
