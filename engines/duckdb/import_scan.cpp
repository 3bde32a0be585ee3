// DuckDB's scans and filters, imported: a scan's projections, table filters
// and dynamic filters; a FILTER's expression.
#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/printers.h"
#include "ir/types.h"

namespace rfguard::duckdb_import {

Built Importer::importScan(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (!expectChildren(o, 0)) return out;
  std::string table = infoText(n, "Table");
  if (table.empty()) return error(ptr + "/extra_info", "a scan without \"Table\""), out;
  table = lastNamePart(table);  // memory.main."name" is the table name
  if (table.empty()) return error(ptr + "/extra_info/Table", "a scan of no table name"), out;
  std::string alias = table;
  for (int k = 2; !aliases.insert(alias).second; ++k) alias = table + "_" + std::to_string(k);
  aliasTable[alias] = table;
  TableUse& use = tables[table];
  use.inSchema = schema.table(table) != nullptr;
  std::vector<std::string> read;
  auto useColumn = [&](const std::string& c) {
    if (std::find(read.begin(), read.end(), c) == read.end()) read.push_back(c);
    if (std::find(use.columns.begin(), use.columns.end(), c) == use.columns.end())
      use.columns.push_back(c);
  };
  for (const auto& p : infoList(n, "Projections")) {
    TextExprPtr e;
    std::string err;
    e = parseExpr(p, err);
    if (!e || e->kind != TextExpr::Kind::Name)
      return error(ptr + "/extra_info/Projections", "not a column name: " + p), out;
    std::string c = e->text;
    useColumn(c);
    out.cols.push_back(makeCol(alias + "." + c, c, table, alias + "." + c));
  }
  // The table's columns by name, for the scan's own filters.
  Cols all = out.cols;
  std::vector<Json> conjuncts;
  std::string filters = infoText(n, "Filters");
  for (const auto& piece : splitConjuncts(filters)) {
    if (piece.rfind("optional:", 0) == 0) {
      std::string rest = trim(piece.substr(9));
      // A TOP_N's threshold: "Dynamic Filter (v)".
      if (rest.rfind("Dynamic Filter", 0) == 0 && !copying) {
        size_t open = rest.find('('), close = rest.rfind(')');
        std::string c = open != std::string::npos && close > open
                            ? trim(rest.substr(open + 1, close - open - 1))
                            : "";
        auto it = std::find_if(out.cols.begin(), out.cols.end(),
                               [&](const Col& k) { return k.name == c; });
        if (it == out.cols.end())
          loss(ptr + "/extra_info/Filters", "a TopN dynamic filter (" + rest +
                                                ") on no column the scan outputs is not imported");
        else
          pendingTopN.push_back({id, it->id, ptr});
      }
      continue;  // optional pieces are pruning hints: the filter itself stays above
    }
    std::string err;
    TextExprPtr e = parseExpr(piece, err);
    if (!e)
      return error(ptr + "/extra_info/Filters", "cannot read " + clipQuoted(piece) + ": " + err),
             out;
    // Columns a filter reads are read by the scan, projected or not.
    std::vector<TextExprPtr> stack{e};
    while (!stack.empty()) {
      auto x = stack.back();
      stack.pop_back();
      if (x->kind == TextExpr::Kind::Name && x->text != "*") {
        std::string c = x->text.substr(x->text.rfind('.') + 1);
        useColumn(c);
        bool known = std::any_of(all.begin(), all.end(), [&](const Col& k) { return k.name == c; });
        if (!known) all.push_back(makeCol(alias + "." + c, c, table, alias + "." + c));
      }
      for (auto& a : x->args) stack.push_back(a);
    }
    auto j = expr(e, all, ptr + "/extra_info/Filters");
    if (!j) return out;
    conjuncts.push_back(*j);
  }
  Json scan{{"id", id},       {"op", "scan"},    {"table", table},
            {"alias", alias}, {"columns", read}, {"children", Json::array()}};
  for (const auto& c : read) out.rfOut.push_back(alias + "." + c);
  if (!copying) {
    dynamicFilters(id, infoText(n, "Dynamic Filters"), all, ptr);
    // Present but empty: DuckDB prints no filter on a virtual column (the row id).
    auto ei = n.find("extra_info");
    if (ei != n.end() && ei->is_object() && ei->contains("Dynamic Filters") &&
        infoText(n, "Dynamic Filters").empty())
      pending.push_back({id, alias + ".rowid", ptr, {"min_max"}, 0});
  }
  if (conjuncts.empty()) {
    out.node = scan;
    return out;
  }
  Json pred = conjuncts[0];
  for (size_t i = 1; i < conjuncts.size(); ++i)
    pred = Json{{"call", "and"}, {"args", {pred, conjuncts[i]}}};
  int fid = nextId++;
  q.sourcePointer[fid] = ptr;
  // DuckDB's scan outputs its rows after its filters: the filter node's count.
  if (auto c = q.cardinality.find(id); c != q.cardinality.end()) q.cardinality[fid] = c->second;
  if (copying) q.copied.insert(fid);
  out.node = Json{{"id", fid}, {"op", "filter"}, {"predicate", pred}, {"children", {scan}}};
  return out;
}

Built Importer::importFilter(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (!expectChildren(o, 1)) return out;
  std::vector<std::string> pieces = splitConjuncts(infoText(n, "Expression"));
  // A MARK join's column, filtered on: IN (SUBQUERY) or NOT IN (NOT SUBQUERY),
  // and for a long IN list of constants (a COLUMN_DATA_SCAN), IN (...).
  std::string markType;
  for (auto it = pieces.begin(); it != pieces.end();) {
    std::string p = *it;
    while (p.size() > 1 && p.front() == '(' && p.back() == ')') p = trim(p.substr(1, p.size() - 2));
    const std::string u = upper(p);
    if (u == "SUBQUERY" || u == "NOT SUBQUERY" || u == "IN (...)" || u == "NOT IN (...)") {
      markType = u == "SUBQUERY" || u == "IN (...)" ? "left_semi" : "null_aware_left_anti";
      it = pieces.erase(it);
    } else {
      ++it;
    }
  }
  Built c;
  if (!markType.empty()) {
    const Json& cj = (*kids)[0];
    if (!isJoinOp(opName(cj)) || infoText(cj, "Join Type") != "MARK")
      return error(ptr + "/extra_info/Expression",
                   "SUBQUERY filtered on above something other than a MARK join"),
             out;
    Parent saved = parent;
    parent = {&n, 0};
    c = build(cj, ptr + "/children/0");
    parent = saved;
    if (failed) return out;
    c.node["join_type"] = markType;
    q.markJoins.insert(c.node.value("id", 0));
    c.cols.pop_back();  // the mark column is consumed here
  } else {
    c = childOf(o, 0);
  }
  if (failed) return out;
  std::vector<Json> conjuncts;
  for (const auto& p : pieces) {
    auto j = exprText(p, c.cols, ptr + "/extra_info/Expression");
    if (failed) return out;
    if (j) conjuncts.push_back(*j);
  }
  if (conjuncts.empty()) {
    q.sourcePointer.erase(id);
    return c;
  }
  Json pred = conjuncts[0];
  for (size_t i = 1; i < conjuncts.size(); ++i)
    pred = Json{{"call", "and"}, {"args", {pred, conjuncts[i]}}};
  out.node = Json{{"id", id}, {"op", "filter"}, {"predicate", pred}, {"children", {c.node}}};
  out.cols = c.cols;
  out.rfOut = c.rfOut;
  return out;
}

}  // namespace rfguard::duckdb_import
