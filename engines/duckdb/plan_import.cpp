#include "engines/duckdb/plan_import.h"

#include <algorithm>
#include <cctype>

#include "engines/duckdb/import_state.h"
#include "ir/comparison.h"
#include "ir/json_depth.h"
#include "ir/locating_sax.h"
#include "ir/printers.h"
#include "ir/types.h"

namespace rfguard::duckdb_import {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string alnum(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return out.empty() ? "c" : out;
}

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
  // The import's call names are the catalog's.
  return e->kind == TextExpr::Kind::Call && comparisonNamed(e->text) && e->args.size() == 2;
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

Built Importer::childOf(Op& o, size_t i) {
  if (i >= o.kids->size()) {
    error(o.ptr + "/children", o.op + " needs " + std::to_string(i + 1) + " children");
    return {};
  }
  Parent saved = parent;
  parent = {&o.n, i};
  namesAbove.emplace_back();
  printedNames(o.n, namesAbove.back());
  Built b = build((*o.kids)[i], o.ptr + "/children/" + std::to_string(i));
  namesAbove.pop_back();
  parent = saved;
  return b;
}

bool Importer::expectChildren(Op& o, size_t count) {
  if (o.kids->size() != count)
    error(o.ptr + "/children", o.op + " has " + std::to_string(o.kids->size()) +
                                   " children, expected " + std::to_string(count));
  return !failed;
}

Built Importer::overChild(Op& o, Built (Importer::*f)(Op&, Built&)) {
  if (!expectChildren(o, 1)) return o.out;
  Built c = childOf(o, 0);
  if (failed) return o.out;
  return (this->*f)(o, c);
}

Built Importer::build(const Json& n, const std::string& ptr) {
  if (failed) return {};
  // Copies (DELIM_SCAN, CTE_SCAN) re-enter subtrees: bound the depth however
  // the document nests them.
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(++x) {}
    ~Depth() { --d; }
  } depthGuard(depth);
  if (depth > kMaxImportDepth)
    return error(ptr, "operators nested more than " + std::to_string(kMaxImportDepth) + " deep"),
           Built{};
  if (!n.is_object()) return error(ptr, "expected a DuckDB operator (an object)"), Built{};
  const std::string op = opName(n);
  const Json* kids = childrenOf(n);
  if (op.empty() || !kids)
    return error(ptr, "not a DuckDB operator: no \"name\" or \"children\""), Built{};
  const int id = nextId++;
  q.sourcePointer[id] = ptr;
  if (auto c = n.find("operator_cardinality"); c != n.end() && c->is_number_integer())
    q.cardinality[id] = c->get<long long>();
  if (copying) q.copied.insert(id);
  Op o{n, ptr, op, kids, id, {}};
  o.out.node = Json{{"id", id}};

  // Wrappers around the plan.
  if (op == "RESULT_COLLECTOR" || op == "EXPLAIN_ANALYZE" || op == "QUERY") {
    if (!expectChildren(o, 1)) return o.out;
    q.sourcePointer.erase(id);
    return childOf(o, 0);
  }
  if (op == "SEQ_SCAN" || op == "TABLE_SCAN") return importScan(o);
  if (op == "FILTER") return importFilter(o);
  if (op == "PROJECTION") return overChild(o, &Importer::importProjection);
  if (isJoinOp(op) || op == "CROSS_PRODUCT") return importJoin(o);
  if (op == "HASH_GROUP_BY" || op == "PERFECT_HASH_GROUP_BY" || op == "UNGROUPED_AGGREGATE" ||
      op == "SIMPLE_AGGREGATE")
    return overChild(o, &Importer::importAggregate);
  if (op == "ORDER_BY" || op == "TOP_N") return overChild(o, &Importer::importOrder);
  if (op == "LIMIT" || op == "STREAMING_LIMIT" || op == "LIMIT_PERCENT")
    return overChild(o, &Importer::importLimit);
  if (op == "UNION") return importUnion(o);
  if (op == "WINDOW" || op == "STREAMING_WINDOW") return overChild(o, &Importer::importWindow);
  if (op == "LEFT_DELIM_JOIN" || op == "RIGHT_DELIM_JOIN") return importDelimJoin(o);
  if ((op == "COLUMN_DATA_SCAN" || op == "DUMMY_SCAN") && !delims.empty() &&
      !delims.back().placed && delims.back().placeholder == op)
    return importDelimInput(o);
  if (op == "DELIM_SCAN") return importDelimScan(o);
  if (op == "CTE") return importCte(o);
  if (op == "CTE_SCAN") return importCteScan(o);
  if (op == "EMPTY_RESULT" || op == "COLUMN_DATA_SCAN") {
    if (!expectChildren(o, 0)) return o.out;
    return opaque(op, id, ptr);
  }
  return error(ptr, "DuckDB operator " + op + " is not imported"), o.out;
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
  // Read through the locating SAX handler: every refusal of the JSON reader
  // (syntax, a number out of range such as 1e999) has the byte it happened at.
  Json j;
  LocatingSax sax(j);
  if (!Json::sax_parse(text, &sax, nlohmann::detail::input_format_t::json, true)) {
    if (!sax.tooDeep.empty()) {
      diags.errorAt(name, sax.tooDeep,
                    "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
      return false;
    }
    // The byte DuckDB's JSON breaks at, as line:column.
    SourceLoc at{1, 1};
    for (size_t i = 0; i + 1 < sax.errorPos && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++at.line;
        at.col = 1;
      } else {
        ++at.col;
      }
    }
    const bool range = sax.errorText.find("out_of_range") != std::string::npos;
    std::string what = sax.errorText;
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    diags.error(name, at,
                range ? "a JSON number out of range (" + what + ")"
                      : "not JSON: DuckDB's plan is read from its JSON profile or EXPLAIN "
                        "(FORMAT JSON)");
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
