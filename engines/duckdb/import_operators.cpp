// DuckDB's other operators, imported: projections, aggregates, ORDER BY and
// TOP_N, limits, UNION, windows and CTEs.
#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/printers.h"
#include "ir/types.h"

namespace rfguard::duckdb_import {

const Col* Importer::projected(const TextExprPtr& e, size_t i, const Cols& child,
                               const std::string& ptr) {
  // SELECT * over a join prints every column by its bare name, in the child's
  // order (`k, v, k, v`): a name that is the child's i-th column's is that one.
  if (e->kind == TextExpr::Kind::Name && e->text.find('.') == std::string::npos &&
      i < child.size() && child[i].name == e->text && !child[i].id.empty())
    return &child[i];
  return column(e, child, ptr);  // a name that stays ambiguous is said so
}

Built Importer::importProjection(Op& o, Built& c) {
  auto& [n, ptr, op, kids, id, out] = o;
  Json exprs = Json::array();
  auto items = infoList(n, "Projections");
  // An expression printed over several lines arrives as several items.
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    std::string err;
    if (parseExpr(items[i], err)) continue;
    for (size_t k = i + 1; k < items.size() && k < i + 8; ++k) {
      std::string joined = items[i];
      for (size_t m = i + 1; m <= k; ++m) joined += "\n" + items[m];
      std::string e2;
      if (parseExpr(joined, e2)) {
        items[i] = joined;
        items.erase(items.begin() + i + 1, items.begin() + k + 1);
        break;
      }
    }
  }
  // Each item parsed once.
  std::vector<TextExprPtr> parsed(items.size());
  std::vector<std::string> errs(items.size());
  bool allParsed = true;
  for (size_t i = 0; i < items.size(); ++i) {
    parsed[i] = parseExpr(items[i], errs[i]);
    allParsed = allParsed && parsed[i];
  }
  // #n over a join DuckDB trimmed to the columns used above (it prints no
  // output list): the positions count the kept columns, which the names the
  // operators above use tell.
  const std::vector<const Col*> trimmed =
      allParsed ? trimmedColumns(parsed, c.cols) : std::vector<const Col*>{};
  for (size_t i = 0; i < items.size(); ++i) {
    std::string p = ptr + "/extra_info/Projections";
    const TextExprPtr& e = parsed[i];
    const std::string& err = errs[i];
    Json j;
    std::string name = "c" + std::to_string(i);
    std::string origin, agg, table;
    if (!trimmed.empty()) {
      const Col* col = trimmed[i];
      const TextExpr* ref = compressedRef(e);
      if (col != &c.cols[ref->index])
        loss(p, items[i] +
                    " counts the columns of a join DuckDB trimmed to those used above, "
                    "which it does not print: taken as " +
                    col->id + ", the one of them the operators above name");
      j = Json{{"column", col->id}};
      // DuckDB's integral compression subtracts a constant; string compression
      // is the value itself (import_expr.cpp reads both the same way).
      if (e->kind == TextExpr::Kind::Call && e->args.size() == 2) {
        auto offset = expr(e->args[1], c.cols, p);
        if (failed) return out;
        if (offset && !(offset->contains("literal") && (*offset)["literal"] == 0))
          j = Json{{"call", "-"}, {"args", {j, *offset}}};
      }
      name = col->name;
      origin = col->origin;
      agg = col->agg;
    } else if (!e) {
      loss(p, "cannot read " + clipQuoted(items[i]) + " (" + err + "): imported as NULL");
      j = Json{{"literal", nullptr}, {"type", "unknown"}};
    } else if (const Col* col = (e->kind == TextExpr::Kind::Name || e->kind == TextExpr::Kind::Ref)
                                    ? projected(e, i, c.cols, p)
                                    : nullptr) {
      j = Json{{"column", col->id}};
      name = e->kind == TextExpr::Kind::Name ? lastNamePart(e->text) : col->name;
      origin = col->origin;
      agg = col->agg;
      table = col->table;  // a qualified name above (ORDER BY memory.main.a.v) still finds it
    } else if (e->kind == TextExpr::Kind::Name) {
      // DuckDB prints an aliased expression by its alias alone.
      loss(p, "projection \"" + items[i] +
                  "\": DuckDB printed only its alias, not its expression: imported as NULL");
      j = Json{{"literal", nullptr}, {"type", "unknown"}};
      name = e->text;
    } else {
      auto t = expr(e, c.cols, p);
      if (failed) return out;
      j = t ? *t : Json{{"literal", nullptr}, {"type", "unknown"}};
      // A compress/decompress of a column is the column.
      if (t && t->contains("column")) {
        for (const auto& k : c.cols)
          if (k.id == (*t)["column"]) origin = k.origin, name = k.name, table = k.table;
      }
    }
    std::string cid = "p" + std::to_string(id) + "." + std::to_string(i) + "_" + alnum(name);
    exprs.push_back(Json{{"name", cid}, {"expr", j}});
    out.cols.push_back(makeCol(cid, name, table, origin, agg));
    out.rfOut.push_back(cid);
  }
  out.node = Json{{"id", id}, {"op", "project"}, {"exprs", exprs}, {"children", {c.node}}};
  return out;
}

Built Importer::importAggregate(Op& o, Built& c) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (!infoList(n, "Grouping Sets").empty())
    return error(ptr + "/extra_info/Grouping Sets", "grouping sets are not imported"), out;
  Json keysJ = Json::array(), aggs = Json::array();
  auto groups = infoList(n, "Groups");
  for (size_t i = 0; i < groups.size(); ++i) {
    std::string p = ptr + "/extra_info/Groups";
    std::string err;
    TextExprPtr e = parseExpr(groups[i], err);
    if (!e) return error(p, "cannot read " + clipQuoted(groups[i]) + ": " + err), out;
    const Col* col = column(e, c.cols, "");
    if (col) {
      keysJ.push_back(Json{{"name", col->id}, {"expr", {{"column", col->id}}}});
      out.cols.push_back(*col);
      out.rfOut.push_back(col->id);
      continue;
    }
    auto t = expr(e, c.cols, p);
    if (failed) return out;
    std::string cid = "g" + std::to_string(id) + ".k" + std::to_string(i);
    keysJ.push_back(
        Json{{"name", cid}, {"expr", t ? *t : Json{{"literal", nullptr}, {"type", "unknown"}}}});
    out.cols.push_back(makeCol(cid, groups[i]));
    out.rfOut.push_back(cid);
  }
  auto aggTexts = infoList(n, "Aggregates");
  for (size_t i = 0; i < aggTexts.size(); ++i) {
    std::string p = ptr + "/extra_info/Aggregates";
    std::string err;
    TextExprPtr e = parseExpr(aggTexts[i], err);
    if (!e || e->kind != TextExpr::Kind::Call)
      return error(p, "cannot read the aggregate " + clipQuoted(aggTexts[i]) +
                          (err.empty() ? "" : ": " + err)),
             out;
    std::string func = e->text;
    if (func == "count_star") func = "count";
    if (func == "sum_no_overflow") func = "sum";
    if (func == "first" || func == "any_value" || func == "arbitrary") {
      loss(p, func + "(): any value of the group, imported as min()");
      func = "min";
    }
    Json args = Json::array();
    for (const auto& a : e->args) {
      auto t = expr(a, c.cols, p);
      if (failed) return out;
      args.push_back(t ? *t : Json{{"literal", nullptr}, {"type", "unknown"}});
    }
    std::string cid = "g" + std::to_string(id) + ".a" + std::to_string(i) + "_" + alnum(func);
    Json a{{"name", cid}, {"func", func}, {"args", args}};
    if (e->distinct) a["distinct"] = true;
    aggs.push_back(a);
    out.cols.push_back(makeCol(cid, aggTexts[i], "", "", func));
    out.rfOut.push_back(cid);
  }
  out.node = Json{
      {"id", id}, {"op", "aggregate"}, {"keys", keysJ}, {"aggs", aggs}, {"children", {c.node}}};
  return out;
}

Built Importer::importOrder(Op& o, Built& c) {
  auto& [n, ptr, op, kids, id, out] = o;
  Json keysJ = Json::array();
  for (const auto& text : infoList(n, "Order By")) {
    std::string p = ptr + "/extra_info/Order By";
    TextSortKey k;
    std::string err;
    if (!parseSortKey(text, k, err))
      return error(p, "cannot read " + clipQuoted(text) + ": " + err), out;
    auto t = expr(k.expr, c.cols, p);
    if (failed) return out;
    if (!t) continue;
    keysJ.push_back(Json{{"expr", *t}, {"ascending", k.ascending}, {"nulls_first", k.nullsFirst}});
  }
  Json sort{{"id", id}, {"op", "sort"}, {"keys", keysJ}, {"children", {c.node}}};
  out.cols = c.cols;
  out.rfOut = c.rfOut;
  if (op == "ORDER_BY") {
    out.node = sort;
    return out;
  }
  int lid = nextId++;
  // The threshold of the first sort key, when it is a scan column unchanged.
  if (!copying && !keysJ.empty() && keysJ[0]["expr"].contains("column")) {
    for (const auto& k : c.cols)
      if (k.id == keysJ[0]["expr"]["column"] && !k.origin.empty())
        topnKeys.push_back({lid, k.origin, keysJ[0]["expr"], keysJ[0]["ascending"].get<bool>(),
                            keysJ[0]["nulls_first"].get<bool>()});
  }
  q.sourcePointer[lid] = ptr;
  out.node = Json{{"id", lid}, {"op", "limit"}, {"children", {sort}}};
  for (const char* key : {"Top", "Offset"}) {
    std::string v = infoText(n, key);
    if (v.empty()) continue;
    try {
      long long x = std::stoll(v);
      out.node[key == std::string("Top") ? "limit" : "offset"] = x;
    } catch (...) {
      return error(ptr + "/extra_info/" + key, "not a number: " + v), out;
    }
  }
  return out;
}

Built Importer::importLimit(Op& o, Built& c) {
  auto& [n, ptr, op, kids, id, out] = o;
  out.node = Json{{"id", id}, {"op", "limit"}, {"children", {c.node}}};
  bool known = false;
  for (const char* key : {"Limit", "Offset"}) {
    std::string v = infoText(n, key);
    if (v.empty()) continue;
    try {
      out.node[key == std::string("Limit") ? "limit" : "offset"] = std::stoll(v);
      known = true;
    } catch (...) {
      loss(ptr + "/extra_info/" + key, std::string(key) + " is not a constant: " + v);
    }
  }
  if (!known) {
    loss(ptr, op + ": DuckDB does not print its row count: imported without a limit");
    out.node["unprinted"] = true;  // it may still cut rows: never judged a no-op
  }
  out.cols = c.cols;
  out.rfOut = c.rfOut;
  return out;
}

Built Importer::importUnion(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (kids->size() < 2) return error(ptr + "/children", "UNION needs two children"), out;
  Json children = Json::array();
  Cols first;
  for (size_t i = 0; i < kids->size(); ++i) {
    Built c = childOf(o, i);
    if (failed) return out;
    if (i == 0) first = c.cols;
    if (c.cols.size() != first.size())
      return error(ptr + "/children/" + std::to_string(i), "UNION children differ in width"), out;
    std::vector<std::string> ids;
    for (const auto& k : c.cols) ids.push_back(k.id);
    if (ids != c.rfOut) {  // the rfguard node outputs more: project DuckDB's columns
      int pid = nextId++;
      Json exprs = Json::array();
      Cols pc;
      for (size_t k = 0; k < c.cols.size(); ++k) {
        std::string cid =
            "p" + std::to_string(pid) + "." + std::to_string(k) + "_" + alnum(c.cols[k].name);
        exprs.push_back(Json{{"name", cid}, {"expr", {{"column", c.cols[k].id}}}});
      }
      c.node = Json{{"id", pid}, {"op", "project"}, {"exprs", exprs}, {"children", {c.node}}};
    }
    children.push_back(c.node);
  }
  std::vector<std::string> colIds;
  for (size_t k = 0; k < first.size(); ++k) {
    std::string cid =
        "u" + std::to_string(id) + "." + std::to_string(k) + "_" + alnum(first[k].name);
    colIds.push_back(cid);
    out.cols.push_back(makeCol(cid, first[k].name));
  }
  out.rfOut = colIds;
  out.node =
      Json{{"id", id}, {"op", "union"}, {"all", true}, {"columns", colIds}, {"children", children}};
  return out;
}

Built Importer::importWindow(Op& o, Built& c) {
  auto& [n, ptr, op, kids, id, out] = o;
  Json windows = Json::array();
  out.cols = c.cols;
  out.rfOut = c.rfOut;
  auto items = infoList(n, "Projections");
  for (size_t i = 0; i < items.size(); ++i) {
    std::string p = ptr + "/extra_info/Projections";
    std::string err;
    TextExprPtr e = parseExpr(items[i], err);
    if (!e || e->kind != TextExpr::Kind::Call || !e->window)
      return error(p, "cannot read the window function " + clipQuoted(items[i]) +
                          (err.empty() ? "" : ": " + err)),
             out;
    std::string func = e->text;
    for (auto& ch : func) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (func == "count_star") func = "count";
    Json args = Json::array(), part = Json::array(), order = Json::array();
    for (const auto& a : e->args) {
      auto t = expr(a, c.cols, p);
      if (failed) return out;
      if (t) args.push_back(*t);
    }
    for (const auto& a : e->partitionBy) {
      auto t = expr(a, c.cols, p);
      if (failed) return out;
      if (t) part.push_back(*t);
    }
    for (const auto& k : e->orderBy) {
      auto t = expr(k.expr, c.cols, p);
      if (failed) return out;
      if (t)
        order.push_back(
            Json{{"expr", *t}, {"ascending", k.ascending}, {"nulls_first", k.nullsFirst}});
    }
    std::string cid = "w" + std::to_string(id) + "." + std::to_string(i) + "_" + alnum(func);
    Json call{
        {"name", cid}, {"func", func}, {"args", args}, {"partition_by", part}, {"order_by", order}};
    if (e->frame) call["frame"] = frameToJson(*e->frame);
    windows.push_back(call);
    out.cols.push_back(makeCol(cid, items[i]));
    out.rfOut.push_back(cid);
  }
  out.node = Json{{"id", id}, {"op", "window"}, {"windows", windows}, {"children", {c.node}}};
  return out;
}

Built Importer::importCte(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (!expectChildren(o, 2)) return out;
  q.sourcePointer.erase(id);
  ctes[infoText(n, "Table Index")] = {&(*kids)[0], ptr + "/children/0"};
  if (!infoText((*kids)[0], "Dynamic Filters").empty())
    loss(ptr, "dynamic filters inside a CTE are not imported");
  return childOf(o, 1);
}

Built Importer::importCteScan(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  const std::string index = infoText(n, "CTE Index");
  auto it = ctes.find(index);
  if (it == ctes.end()) return error(ptr, "CTE_SCAN of an unknown CTE"), out;
  if (!expanding.insert(index).second)
    return error(ptr,
                 "CTE_SCAN " + index + " inside its own CTE (a recursive CTE) is not imported"),
           out;
  q.sourcePointer.erase(id);
  ++copying;
  Built in = build(*it->second.first, it->second.second);
  --copying;
  expanding.erase(index);
  for (auto& c : in.cols) c.origin.clear();
  return in;
}

}  // namespace rfguard::duckdb_import
