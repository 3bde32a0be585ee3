#include "engines/duckdb/plan_import.h"

#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/json_depth.h"
#include "ir/printers.h"
#include "ir/types.h"

namespace rfguard::duckdb_import {

namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

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

std::string alnum(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return out.empty() ? "c" : out;
}

}  // namespace

std::string opName(const Json& n) {
  std::string name;
  if (n.contains("operator_name") && n["operator_name"].is_string())
    name = n["operator_name"].get<std::string>();
  else if (n.contains("name") && n["name"].is_string())
    name = n["name"].get<std::string>();
  return trim(name);
}

const Json* childrenOf(const Json& n) {
  auto it = n.find("children");
  return it != n.end() && it->is_array() ? &*it : nullptr;
}

bool isComparison(const TextExprPtr& e) {
  static const std::set<std::string> cmps = {
      "=", "<>", "<", "<=", ">", ">=", "<=>", "is_distinct_from"};
  return e->kind == TextExpr::Kind::Call && cmps.count(e->text) && e->args.size() == 2;
}

bool isJoinOp(const std::string& op) {
  return op == "HASH_JOIN" || op == "NESTED_LOOP_JOIN" || op == "PIECEWISE_MERGE_JOIN" ||
         op == "BLOCKWISE_NL_JOIN" || op == "IE_JOIN";
}

std::vector<std::string> infoList(const Json& n, const char* key) {
  std::vector<std::string> out;
  auto ei = n.find("extra_info");
  if (ei == n.end() || !ei->is_object()) return out;
  auto it = ei->find(key);
  if (it == ei->end()) return out;
  if (it->is_string()) {
    std::string s = trim(it->get<std::string>());
    if (!s.empty()) out.push_back(s);
  } else if (it->is_array()) {
    for (const auto& v : *it)
      if (v.is_string() && !trim(v.get<std::string>()).empty())
        out.push_back(trim(v.get<std::string>()));
  }
  return out;
}

std::string infoText(const Json& n, const char* key) {
  auto l = infoList(n, key);
  std::string out;
  for (const auto& s : l) out += (out.empty() ? "" : " AND ") + s;
  return out;
}

void Importer::error(const std::string& ptr, const std::string& msg) {
  if (!failed) diags.errorAt(file, ptr, msg);
  failed = true;
}

std::string typeFromDuckDb(const std::string& t) {
  std::string u = upper(trim(t));
  static const std::map<std::string, std::string> m = {{"BOOLEAN", "boolean"},
                                                       {"TINYINT", "tinyint"},
                                                       {"SMALLINT", "smallint"},
                                                       {"INTEGER", "int"},
                                                       {"INT", "int"},
                                                       {"BIGINT", "bigint"},
                                                       {"HUGEINT", "bigint"},
                                                       {"UTINYINT", "smallint"},
                                                       {"USMALLINT", "int"},
                                                       {"UINTEGER", "bigint"},
                                                       {"FLOAT", "real"},
                                                       {"REAL", "real"},
                                                       {"DOUBLE", "double"},
                                                       {"VARCHAR", "varchar"},
                                                       {"TEXT", "text"},
                                                       {"DATE", "date"},
                                                       {"TIMESTAMP", "timestamp"},
                                                       {"INTERVAL", "interval"}};
  if (auto it = m.find(u); it != m.end()) return it->second;
  if (u.rfind("DECIMAL(", 0) == 0 || u.rfind("VARCHAR(", 0) == 0) {
    std::string s = u;
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (parseType(s)) return parseType(s)->toString();
  }
  return "";
}

Built Importer::build(const Json& n, const std::string& ptr) {
  Built out;
  if (failed) return out;
  // Copies (DELIM_SCAN, CTE_SCAN) re-enter subtrees: bound the depth however
  // the document nests them.
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(++x) {}
    ~Depth() { --d; }
  } depthGuard(depth);
  if (depth > kMaxImportDepth)
    return error(ptr, "operators nested more than " + std::to_string(kMaxImportDepth) + " deep"),
           out;
  if (!n.is_object()) return error(ptr, "expected a DuckDB operator (an object)"), out;
  const std::string op = opName(n);
  const Json* kids = childrenOf(n);
  if (op.empty() || !kids)
    return error(ptr, "not a DuckDB operator: no \"name\" or \"children\""), out;
  auto child = [&](size_t i) -> Built {
    if (i >= kids->size()) {
      error(ptr + "/children", op + " needs " + std::to_string(i + 1) + " children");
      return {};
    }
    Parent saved = parent;
    parent = {&n, i};
    Built b = build((*kids)[i], ptr + "/children/" + std::to_string(i));
    parent = saved;
    return b;
  };
  auto expect = [&](size_t count) {
    if (kids->size() != count)
      error(ptr + "/children", op + " has " + std::to_string(kids->size()) +
                                   " children, expected " + std::to_string(count));
    return !failed;
  };
  const int id = nextId++;
  q.sourcePointer[id] = ptr;
  if (auto c = n.find("operator_cardinality"); c != n.end() && c->is_number_integer())
    q.cardinality[id] = c->get<long long>();
  if (copying) q.copied.insert(id);
  out.node = Json{{"id", id}};

  // Wrappers around the plan.
  if (op == "RESULT_COLLECTOR" || op == "EXPLAIN_ANALYZE" || op == "QUERY") {
    if (!expect(1)) return out;
    q.sourcePointer.erase(id);
    return child(0);
  }

  if (op == "SEQ_SCAN" || op == "TABLE_SCAN") {
    if (!expect(0)) return out;
    std::string table = infoText(n, "Table");
    if (table.empty()) return error(ptr + "/extra_info", "a scan without \"Table\""), out;
    if (auto dot = table.rfind('.'); dot != std::string::npos) table = table.substr(dot + 1);
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
            loss(ptr + "/extra_info/Filters",
                 "a TopN dynamic filter (" + rest +
                     ") on no column the scan outputs is not imported");
          else
            pendingTopN.push_back({id, it->id, ptr});
        }
        continue;  // optional pieces are pruning hints: the filter itself stays above
      }
      std::string err;
      TextExprPtr e = parseExpr(piece, err);
      if (!e)
        return error(ptr + "/extra_info/Filters", "cannot read \"" + piece + "\": " + err), out;
      // Columns a filter reads are read by the scan, projected or not.
      std::vector<TextExprPtr> stack{e};
      while (!stack.empty()) {
        auto x = stack.back();
        stack.pop_back();
        if (x->kind == TextExpr::Kind::Name && x->text != "*") {
          std::string c = x->text.substr(x->text.rfind('.') + 1);
          useColumn(c);
          bool known =
              std::any_of(all.begin(), all.end(), [&](const Col& k) { return k.name == c; });
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

  if (op == "FILTER") {
    if (!expect(1)) return out;
    std::vector<std::string> pieces = splitConjuncts(infoText(n, "Expression"));
    // A MARK join's column, filtered on: IN (SUBQUERY) or NOT IN (NOT SUBQUERY),
    // and for a long IN list of constants (a COLUMN_DATA_SCAN), IN (...).
    std::string markType;
    for (auto it = pieces.begin(); it != pieces.end();) {
      std::string p = *it;
      while (p.size() > 1 && p.front() == '(' && p.back() == ')')
        p = trim(p.substr(1, p.size() - 2));
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
      c = child(0);
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

  if (op == "PROJECTION") {
    if (!expect(1)) return out;
    Built c = child(0);
    if (failed) return out;
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
    for (size_t i = 0; i < items.size(); ++i) {
      std::string p = ptr + "/extra_info/Projections";
      std::string err;
      TextExprPtr e = parseExpr(items[i], err);
      Json j;
      std::string name = "c" + std::to_string(i);
      std::string origin, agg;
      if (!e) {
        loss(p, "cannot read \"" + items[i] + "\" (" + err + "): imported as NULL");
        j = Json{{"literal", nullptr}, {"type", "unknown"}};
      } else if (const Col* col =
                     (e->kind == TextExpr::Kind::Name || e->kind == TextExpr::Kind::Ref)
                         ? column(e, c.cols, "")
                         : nullptr) {
        j = Json{{"column", col->id}};
        name = e->kind == TextExpr::Kind::Name ? e->text : col->name;
        origin = col->origin;
        agg = col->agg;
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
            if (k.id == (*t)["column"]) origin = k.origin, name = k.name;
        }
      }
      std::string cid = "p" + std::to_string(id) + "." + std::to_string(i) + "_" + alnum(name);
      exprs.push_back(Json{{"name", cid}, {"expr", j}});
      out.cols.push_back(makeCol(cid, name, "", origin, agg));
      out.rfOut.push_back(cid);
    }
    out.node = Json{{"id", id}, {"op", "project"}, {"exprs", exprs}, {"children", {c.node}}};
    return out;
  }

  if (isJoinOp(op) || op == "CROSS_PRODUCT") {
    if (!expect(2)) return out;
    Built l = child(0);
    Built r = child(1);
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
      if (!e) return error(cp, "cannot read \"" + text + "\": " + err), out;
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
        if (a->contains("column") && b->contains("column"))
          shareType((*a)["column"], (*b)["column"]);
        if ((e->text == "=" || e->text == "<=>") && a->contains("column") &&
            b->contains("column") && e->args[0]->kind == TextExpr::Kind::Name &&
            e->args[1]->kind == TextExpr::Kind::Name)
          equalKeys.push_back(
              {{(*a)["column"], e->args[0]->text}, {(*b)["column"], e->args[1]->text}});
        // DuckDB 1.5 builds join filters at INNER, RIGHT and SEMI joins only, for
        // =, <, <=, > and >= (join_filter_pushdown_optimizer.cpp): only those
        // joins can be the producer of a dynamic filter.
        static const std::set<std::string> producing = {"INNER", "RIGHT", "SEMI"};
        static const std::set<std::string> filteringOps = {"=", "<", "<=", ">", ">="};
        // The probe key: a column, or (DuckDB pushes through them) an integral cast of one.
        const Json* keyCol = a->contains("column") ? &*a : nullptr;
        if (!keyCol && a->contains("cast") && (*a)["cast"].contains("column")) {
          static const std::set<std::string> integral = {"tinyint", "smallint", "int", "bigint"};
          if (integral.count((*a)["type"].get<std::string>())) keyCol = &(*a)["cast"];
        }
        if (!copying && e->text != "<>" && e->text != "is_distinct_from" && keyCol) {
          const bool gen = producing.count(jt) > 0 && filteringOps.count(e->text) > 0;
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

  if (op == "HASH_GROUP_BY" || op == "PERFECT_HASH_GROUP_BY" || op == "UNGROUPED_AGGREGATE" ||
      op == "SIMPLE_AGGREGATE") {
    if (!expect(1)) return out;
    Built c = child(0);
    if (failed) return out;
    if (!infoList(n, "Grouping Sets").empty())
      return error(ptr + "/extra_info/Grouping Sets", "grouping sets are not imported"), out;
    Json keysJ = Json::array(), aggs = Json::array();
    auto groups = infoList(n, "Groups");
    for (size_t i = 0; i < groups.size(); ++i) {
      std::string p = ptr + "/extra_info/Groups";
      std::string err;
      TextExprPtr e = parseExpr(groups[i], err);
      if (!e) return error(p, "cannot read \"" + groups[i] + "\": " + err), out;
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
        return error(p, "cannot read the aggregate \"" + aggTexts[i] + "\"" +
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

  if (op == "ORDER_BY" || op == "TOP_N") {
    if (!expect(1)) return out;
    Built c = child(0);
    if (failed) return out;
    Json keysJ = Json::array();
    for (const auto& text : infoList(n, "Order By")) {
      std::string p = ptr + "/extra_info/Order By";
      TextSortKey k;
      std::string err;
      if (!parseSortKey(text, k, err)) return error(p, "cannot read \"" + text + "\": " + err), out;
      auto t = expr(k.expr, c.cols, p);
      if (failed) return out;
      if (!t) continue;
      keysJ.push_back(
          Json{{"expr", *t}, {"ascending", k.ascending}, {"nulls_first", k.nullsFirst}});
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

  if (op == "LIMIT" || op == "STREAMING_LIMIT" || op == "LIMIT_PERCENT") {
    if (!expect(1)) return out;
    Built c = child(0);
    if (failed) return out;
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
    if (!known) loss(ptr, op + ": DuckDB does not print its row count: imported without a limit");
    out.cols = c.cols;
    out.rfOut = c.rfOut;
    return out;
  }

  if (op == "UNION") {
    if (kids->size() < 2) return error(ptr + "/children", "UNION needs two children"), out;
    Json children = Json::array();
    Cols first;
    for (size_t i = 0; i < kids->size(); ++i) {
      Built c = child(i);
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
    out.node = Json{
        {"id", id}, {"op", "union"}, {"all", true}, {"columns", colIds}, {"children", children}};
    return out;
  }

  if (op == "WINDOW" || op == "STREAMING_WINDOW") {
    if (!expect(1)) return out;
    Built c = child(0);
    if (failed) return out;
    Json windows = Json::array();
    out.cols = c.cols;
    out.rfOut = c.rfOut;
    auto items = infoList(n, "Projections");
    for (size_t i = 0; i < items.size(); ++i) {
      std::string p = ptr + "/extra_info/Projections";
      std::string err;
      TextExprPtr e = parseExpr(items[i], err);
      if (!e || e->kind != TextExpr::Kind::Call || !e->window)
        return error(p, "cannot read the window function \"" + items[i] + "\"" +
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
      Json call{{"name", cid},
                {"func", func},
                {"args", args},
                {"partition_by", part},
                {"order_by", order}};
      if (e->frame) call["frame"] = frameToJson(*e->frame);
      windows.push_back(call);
      out.cols.push_back(makeCol(cid, items[i]));
      out.rfOut.push_back(cid);
    }
    out.node = Json{{"id", id}, {"op", "window"}, {"windows", windows}, {"children", {c.node}}};
    return out;
  }

  if (op == "LEFT_DELIM_JOIN" || op == "RIGHT_DELIM_JOIN") {
    // A decorrelated subquery: children are the input, the join (whose
    // placeholder child stands for the input) and the distinct grouping of the
    // input's correlated columns (what DELIM_SCAN reads).
    if (!expect(3)) return out;
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
    Built j = child(1);
    bool placed = delims.back().placed;
    delims.pop_back();
    if (failed) return out;
    if (!placed)
      return error(ptr + "/children/1",
                   op + ": its join has no " +
                       (op == "LEFT_DELIM_JOIN" ? std::string("COLUMN_DATA_SCAN")
                                                : std::string("DUMMY_SCAN")) +
                       " standing for the input"),
             out;
    return j;
  }
  if ((op == "COLUMN_DATA_SCAN" || op == "DUMMY_SCAN") && !delims.empty() &&
      !delims.back().placed && delims.back().placeholder == op) {
    q.sourcePointer.erase(id);
    delims.back().placed = true;
    DelimContext ctx = delims.back();
    delims.pop_back();  // the input is outside the delim join's scope
    Built in = build(*ctx.input, ctx.inputPtr);
    delims.push_back(ctx);
    delims.back().placed = true;
    return in;
  }
  if (op == "DELIM_SCAN") {
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
        return error(ctx.distinctPtr + "/extra_info/Groups", "cannot read \"" + g + "\""), out;
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
  if (op == "CTE") {
    if (!expect(2)) return out;
    q.sourcePointer.erase(id);
    ctes[infoText(n, "Table Index")] = {&(*kids)[0], ptr + "/children/0"};
    if (!infoText((*kids)[0], "Dynamic Filters").empty())
      loss(ptr, "dynamic filters inside a CTE are not imported");
    return child(1);
  }
  if (op == "CTE_SCAN") {
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
  if (op == "EMPTY_RESULT" || op == "COLUMN_DATA_SCAN") {
    if (!expect(0)) return out;
    return opaque(op, id, ptr);
  }
  return error(ptr, "DuckDB operator " + op + " is not imported"), out;
}

std::vector<std::string> queryTexts(const std::string& text) {
  std::vector<std::string> out;
  Json j = Json::parse(text, nullptr, false);
  auto take = [&](const Json& p) {
    if (p.is_object() && p.contains("query_name") && p["query_name"].is_string())
      out.push_back(p["query_name"].get<std::string>());
  };
  if (j.is_array())
    for (const auto& p : j) take(p);
  else
    take(j);
  return out;
}

bool importDocument(const std::string& text, const std::string& name, const Catalog& schema,
                    Json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                    const EqualityHints& hints) {
  // Nesting beyond what a plan has is refused before parsing (the parsed
  // document is freed recursively).
  if (auto at = jsonNestingBeyond(text, 4 * kMaxImportDepth)) {
    diags.error(name, *at,
                "nested more than " + std::to_string(4 * kMaxImportDepth) + " levels deep");
    return false;
  }
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // The byte DuckDB's JSON breaks at, as line:column.
    SourceLoc at{1, 1};
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++at.line;
        at.col = 1;
      } else {
        ++at.col;
      }
    }
    diags.error(name, at,
                "not JSON: DuckDB's plan is read from its JSON profile or EXPLAIN (FORMAT JSON)");
    return false;
  }
  // The roots: one profile, an array of profiles, or one EXPLAIN array.
  std::vector<std::pair<const Json*, std::string>> roots;  // the operator, its pointer
  std::vector<std::string> names;
  auto profile = [&](const Json& p, const std::string& ptr) {
    const Json* kids = childrenOf(p);
    bool isOperator = !opName(p).empty();
    if (isOperator) {
      roots.push_back({&p, ptr});
    } else if (kids && kids->size() == 1) {
      roots.push_back({&(*kids)[0], ptr + "/children/0"});
    } else {
      diags.errorAt(name, ptr,
                    "a DuckDB profile with " + std::to_string(kids ? kids->size() : 0) +
                        " root operators (expected one)");
      return false;
    }
    names.push_back(p.contains("query_name") && p["query_name"].is_string()
                        ? p["query_name"].get<std::string>()
                        : "");
    return true;
  };
  if (j.is_object()) {
    if (!profile(j, "")) return false;
  } else if (j.is_array() && !j.empty() && j[0].is_object() && !opName(j[0]).empty() &&
             !j[0].contains("query_name")) {
    if (j.size() != 1) {
      diags.errorAt(name, "", "an EXPLAIN plan with " + std::to_string(j.size()) + " roots");
      return false;
    }
    roots.push_back({&j[0], "/0"});
    names.push_back("");
  } else if (j.is_array() && !j.empty()) {
    for (size_t i = 0; i < j.size(); ++i)
      if (!profile(j[i], "/" + std::to_string(i))) return false;
  } else {
    diags.errorAt(name, "", "not DuckDB's plan JSON (a profile object or an EXPLAIN array)");
    return false;
  }

  std::map<std::string, TableUse> tables;
  std::map<size_t, std::set<std::string>> used;  // query -> its tables
  bool ok = true;
  Json qs = Json::array();
  for (size_t i = 0; i < roots.size(); ++i) {
    ImportedQuery q;
    std::string stem = name;
    if (auto s = stem.find_last_of('/'); s != std::string::npos) stem = stem.substr(s + 1);
    if (auto d = stem.find('.'); d != std::string::npos) stem = stem.substr(0, d);
    q.name =
        roots.size() == 1 ? (stem.empty() ? "duckdb" : stem) : stem + "_" + std::to_string(i + 1);
    Importer im(schema, q, tables, diags, name, hints);
    Built b = im.build(*roots[i].first, roots[i].second);
    if (im.failed) {
      ok = false;
      continue;
    }
    im.attribute(b.node);
    im.addRowids(b.node);
    for (const auto& [alias, table] : im.aliasTable) used[queries.size()].insert(table);
    q.plan = b.node;
    Json qj{{"name", q.name}, {"plan", q.plan}};
    if (!names[i].empty()) qj["sql"] = names[i];
    qs.push_back(qj);
    queries.push_back(std::move(q));
  }

  // The catalog: the schema's tables, and tables known only from the scans.
  Json tjs = Json::array();
  for (const auto& [tname, use] : tables) {
    Json cols = Json::array();
    if (const TableDef* t = schema.table(tname)) {
      for (const auto& c : t->columns)
        cols.push_back(
            Json{{"name", c.name}, {"type", c.type.toString()}, {"nullable", c.nullable}});
      for (const auto& c : use.columns)
        if (t->columnIndex(c) < 0) {
          cols.push_back(Json{{"name", c},
                              {"type", c == "rowid" ? "bigint" : "unknown"},
                              {"nullable", c != "rowid"}});
          for (size_t qi = 0; qi < queries.size(); ++qi)
            if (used[qi].count(tname))
              queries[qi].losses.push_back(
                  {"", "column " + tname + "." + c +
                           (c == "rowid" ? " is DuckDB's row id: imported as an ordinary column"
                                         : " is not in the schema: its type is unknown")});
        }
      Json tj{{"name", tname}, {"columns", cols}};
      if (t->rows) tj["rows"] = *t->rows;
      tjs.push_back(tj);
    } else {
      for (const auto& c : use.columns) {
        auto it = use.types.find(c);
        std::string type = c == "rowid" ? "bigint" : it != use.types.end() ? it->second : "unknown";
        cols.push_back(Json{{"name", c}, {"type", type}, {"nullable", c != "rowid"}});
      }
      tjs.push_back(Json{{"name", tname}, {"columns", cols}});
      for (size_t qi = 0; qi < queries.size() && !use.opaque; ++qi)
        if (used[qi].count(tname))
          queries[qi].losses.push_back(
              {"", "table " + tname +
                       " is not in a schema (--schema): its columns' types are "
                       "guessed from the literals they are compared with, else unknown"});
    }
  }
  doc = Json{
      {"format", "rfguard-plan"}, {"version", 1}, {"catalog", {{"tables", tjs}}}, {"queries", qs}};
  return ok;
}

}  // namespace rfguard::duckdb_import
