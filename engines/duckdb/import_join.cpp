// DuckDB's joins, imported: conditions with their probe and build sides, the
// join types, and delim joins with the copies of their input.
#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/comparison.h"
#include "ir/printers.h"
#include "ir/types.h"

namespace rfguard::duckdb_import {

namespace {

/// DuckDB's join types, by the name its plans print.
const std::map<std::string, std::string>& joinTypes() {
  static const std::map<std::string, std::string> m = {{"INNER", "inner"},
                                                       {"LEFT", "left"},
                                                       {"RIGHT", "right"},
                                                       {"FULL", "full"},
                                                       {"OUTER", "full"},
                                                       {"SEMI", "left_semi"},
                                                       {"ANTI", "left_anti"},
                                                       {"RIGHT_SEMI", "right_semi"},
                                                       {"RIGHT_ANTI", "right_anti"},
                                                       {"SINGLE", "left"}};
  return m;
}

}  // namespace

Built Importer::importJoin(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  if (!expectChildren(o, 2)) return out;
  Built l = childOf(o, 0);
  Built r = childOf(o, 1);
  if (failed) return out;
  std::string jt = op == "CROSS_PRODUCT" ? "CROSS" : infoText(n, "Join Type");
  std::string type;
  bool mark = jt == "MARK";
  if (jt == "CROSS") {
    type = "cross";
  } else if (mark) {
    type = "left_semi";  // FILTER above sets the real type
  } else if (auto it = joinTypes().find(jt); it != joinTypes().end()) {
    type = it->second;
    if (jt == "SINGLE")
      loss(ptr + "/extra_info/Join Type",
           "a SINGLE join (scalar subquery: an error on a second match) is imported as LEFT");
  } else {
    return error(ptr + "/extra_info/Join Type", "join type \"" + jt + "\" is not imported"), out;
  }
  auto conds = infoList(n, "Conditions");
  if (conds.empty()) conds = infoList(n, "Condition");
  // The side that is a subquery's result: what SUBQUERY means above. A delim
  // join's placeholder stands for the outer input; a scalar subquery's
  // result is compared to as SUBQUERY.
  {
    std::string k0 = opName((*kids)[0]), k1 = opName((*kids)[1]);
    bool subqueryRight = k0 == "COLUMN_DATA_SCAN" || (!delims.empty() && k1 != "DUMMY_SCAN");
    bool subqueryLeft = k1 == "DUMMY_SCAN";
    for (const auto& c : conds)
      if (c.find("SUBQUERY") != std::string::npos) subqueryRight = true, subqueryLeft = false;
    if (subqueryLeft)
      for (auto& c : l.cols) c.subquery = true;
    else if (subqueryRight)
      for (auto& c : r.cols) c.subquery = true;
  }
  std::vector<Json> conjuncts;
  std::vector<std::pair<std::pair<std::string, std::string>, std::pair<std::string, std::string>>>
      equalKeys;  // ((id, name), (id, name)) of plain-column equalities
  Cols both = l.cols;
  both.insert(both.end(), r.cols.begin(), r.cols.end());
  for (const auto& text : conds) {
    std::string cp = ptr + "/extra_info/Conditions";
    std::string err;
    TextExprPtr e = parseExpr(text, err);
    if (!e) return error(cp, "cannot read " + clipQuoted(text) + ": " + err), out;
    Json j;
    if (isComparison(e)) {
      // DuckDB's join conditions: left side over the probe child, right over the build child.
      const Col *ha = nullptr, *hb = nullptr;
      std::optional<Json> a, b;
      if (hintedPair(e->args[0], l.cols, e->args[1], r.cols, ha, hb)) {
        a = Json{{"column", ha->id}};
        b = Json{{"column", hb->id}};
      } else {
        a = expr(e->args[0], l.cols, cp);
        b = expr(e->args[1], r.cols, cp);
      }
      if (failed) return out;
      if (!a || !b) continue;
      j = Json{{"call", e->text}, {"args", {*a, *b}}};
      if (a->contains("column") && b->contains("column")) shareType((*a)["column"], (*b)["column"]);
      const ComparisonInfo& cmp = *comparisonNamed(e->text);  // isComparison(e)
      if (cmp.equality && a->contains("column") && b->contains("column") &&
          e->args[0]->kind == TextExpr::Kind::Name && e->args[1]->kind == TextExpr::Kind::Name)
        equalKeys.push_back(
            {{(*a)["column"], e->args[0]->text}, {(*b)["column"], e->args[1]->text}});
      // DuckDB 1.5 builds join filters at INNER, RIGHT and SEMI joins only, for
      // =, <, <=, > and >= (join_filter_pushdown_optimizer.cpp): only those
      // joins can be the producer of a dynamic filter.
      static const std::set<std::string> producing = {"INNER", "RIGHT", "SEMI"};
      // The probe key: a column, or (DuckDB pushes through them) an integral cast of one.
      const Json* keyCol = a->contains("column") ? &*a : nullptr;
      if (!keyCol && a->contains("cast") && (*a)["cast"].contains("column")) {
        static const std::set<std::string> integral = {"tinyint", "smallint", "int", "bigint"};
        if (integral.count((*a)["type"].get<std::string>())) keyCol = &(*a)["cast"];
      }
      if (!copying && cmp.filterOp && keyCol) {  // not <> nor IS DISTINCT FROM
        const bool gen = producing.count(jt) > 0 && !cmp.nullSafe;
        bool found = false;
        for (const auto& k : l.cols)
          if (k.id == (*keyCol)["column"] && !k.origin.empty())
            keys.push_back({id, k.origin, *a, *b, e->text, gen}), found = true;
        for (const auto& k : rowidCols)  // a row id read without being projected
          if (!found && k.id == (*keyCol)["column"])
            keys.push_back({id, k.origin, *a, *b, e->text, gen}), found = true;
      }
    } else {
      auto t = expr(e, both, cp);
      if (failed) return out;
      if (!t) continue;
      j = *t;
    }
    conjuncts.push_back(j);
  }
  out.node = Json{{"id", id}, {"op", "join"}, {"join_type", type}};
  if (type != "cross") {
    if (conjuncts.empty()) {
      out.node["condition"] = Json{{"literal", true}, {"type", "boolean"}};
    } else {
      Json pred = conjuncts[0];
      for (size_t i = 1; i < conjuncts.size(); ++i)
        pred = Json{{"call", "and"}, {"args", {pred, conjuncts[i]}}};
      out.node["condition"] = pred;
    }
  }
  out.node["children"] = {l.node, r.node};
  bool leftOnly = type == "left_semi" || type == "left_anti" || mark;
  bool rightOnly = type == "right_semi" || type == "right_anti";
  if (type == "inner") {
    // Equal keys: DuckDB may print one key's name for the other above.
    for (const auto& [a, b] : equalKeys) {
      for (auto* side : {&l.cols, &r.cols})
        for (auto& c : *side) {
          if (c.id == a.first) c.aliases.push_back(b.second), c.equal.push_back(b.first);
          if (c.id == b.first) c.aliases.push_back(a.second), c.equal.push_back(a.first);
        }
    }
  }
  // A right delim join's placeholder (the build side) is its input: DuckDB
  // counts the input's columns first.
  bool inputFirst = opName((*kids)[1]) == "DUMMY_SCAN" && !delims.empty();
  const Built& first = inputFirst ? r : l;
  const Built& second = inputFirst ? l : r;
  bool firstOut = inputFirst ? !leftOnly : !rightOnly;
  bool secondOut = inputFirst ? !rightOnly : !leftOnly;
  if (!rightOnly) out.rfOut = l.rfOut;
  if (!leftOnly) out.rfOut.insert(out.rfOut.end(), r.rfOut.begin(), r.rfOut.end());
  if (firstOut) out.cols = first.cols;
  if (secondOut) {
    size_t from = out.cols.size();
    out.cols.insert(out.cols.end(), second.cols.begin(), second.cols.end());
    // DuckDB outputs only the build columns used above, and does not print which.
    if (type != "cross")
      for (size_t k = from + 1; k < out.cols.size(); ++k) out.cols[k].uncertain = true;
  }
  if (mark) out.cols.push_back(makeCol("", "SUBQUERY"));
  return out;
}

Built Importer::importDelimJoin(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  // A decorrelated subquery: children are the input, the join (whose
  // placeholder child stands for the input) and the distinct grouping of the
  // input's correlated columns (what DELIM_SCAN reads).
  if (!expectChildren(o, 3)) return out;
  q.sourcePointer.erase(id);
  delims.push_back({&(*kids)[0],
                    ptr + "/children/0",
                    &(*kids)[2],
                    ptr + "/children/2",
                    infoText(n, "Delim Index"),
                    op == "LEFT_DELIM_JOIN" ? "COLUMN_DATA_SCAN" : "DUMMY_SCAN",
                    false,
                    {}});
  // The correlated columns by name: the input's side of each condition.
  for (const auto& c : infoList(n, "Conditions")) {
    std::string err;
    TextExprPtr e = parseExpr(c, err);
    size_t side = op == "LEFT_DELIM_JOIN" ? 0 : 1;
    if (e && e->kind == TextExpr::Kind::Call && e->args.size() == 2 &&
        e->args[side]->kind == TextExpr::Kind::Name)
      delims.back().names.push_back(e->args[side]->text);
    else
      delims.back().names.push_back("");
  }
  Built j = childOf(o, 1);
  bool placed = delims.back().placed;
  delims.pop_back();
  if (failed) return out;
  if (!placed)
    return error(ptr + "/children/1", op + ": its join has no " +
                                          (op == "LEFT_DELIM_JOIN" ? std::string("COLUMN_DATA_SCAN")
                                                                   : std::string("DUMMY_SCAN")) +
                                          " standing for the input"),
           out;
  return j;
}

Built Importer::importDelimInput(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  q.sourcePointer.erase(id);
  delims.back().placed = true;
  DelimContext ctx = delims.back();
  delims.pop_back();  // the input is outside the delim join's scope
  Built in = build(*ctx.input, ctx.inputPtr);
  delims.push_back(ctx);
  delims.back().placed = true;
  return in;
}

Built Importer::importDelimScan(Op& o) {
  auto& [n, ptr, op, kids, id, out] = o;
  std::string index = infoText(n, "Delim Index");
  auto it = std::find_if(delims.rbegin(), delims.rend(),
                         [&](const DelimContext& d) { return d.index == index; });
  if (it == delims.rend())
    return error(ptr, "DELIM_SCAN " + index + " outside its delim join"), out;
  DelimContext ctx = *it;
  ++copying;
  Built in = build(*ctx.input, ctx.inputPtr);
  --copying;
  if (failed) return out;
  Json keysJ = Json::array();
  auto groups = infoList(*ctx.distinct, "Groups");
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const std::string& g = groups[gi];
    std::string err;
    TextExprPtr e = parseExpr(g, err);
    const Col* col = e ? column(e, in.cols, ctx.distinctPtr + "/extra_info/Groups") : nullptr;
    if (!col)
      return error(ctx.distinctPtr + "/extra_info/Groups", "cannot read " + clipQuoted(g)), out;
    keysJ.push_back(Json{{"name", col->id}, {"expr", {{"column", col->id}}}});
    Col k = *col;
    k.origin.clear();  // a copy's columns lead to no scan DuckDB filtered
    // Named as the correlated column the subquery reads.
    if (gi < ctx.names.size() && !ctx.names[gi].empty() && ctx.names[gi] != k.name) {
      k.aliases.push_back(k.name);
      k.name = ctx.names[gi];
    }
    out.cols.push_back(k);
    out.rfOut.push_back(col->id);
  }
  out.node = Json{{"id", id},
                  {"op", "aggregate"},
                  {"keys", keysJ},
                  {"aggs", Json::array()},
                  {"children", {in.node}}};
  return out;
}

}  // namespace rfguard::duckdb_import
