// Reading plan JSON nodes and documents with errors located by JSON pointer.
#include "ir/json_reader.h"
#include "ir/locating_sax.h"
#include "ir/plan_json.h"

#include <functional>
#include <limits>

namespace rfguard {

using Json = nlohmann::json;
using Scope = JsonReader::Scope;

namespace {

bool readLoc(JsonReader& r, const Json& j, const std::string& ptr, SourceLoc& loc) {
  auto it = j.find("loc");
  if (it == j.end()) return true;
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number_integer() ||
      !(*it)[1].is_number_integer()) {
    r.error(ptr + "/loc", "loc must be [line, column]");
    return false;
  }
  loc = {(*it)[0].get<int>(), (*it)[1].get<int>()};
  return true;
}

}  // namespace

long long JsonReader::nonNegative(const Json& j, const std::string& ptr, const char* key,
                                  long long dflt) {
  const Json* v = field(j, ptr, key, Json::value_t::number_integer, false);
  if (!v) return dflt;
  if (v->is_number_unsigned() || v->get<long long>() >= 0) return v->get<long long>();
  error(ptr + "/" + key, std::string(key) + " must not be negative");
  return dflt;
}

void JsonReader::readRuntimeFilters(PlanNode& n, const Json& j, const std::string& ptr) {
  const Json* fs = field(j, ptr, "runtime_filters", Json::value_t::array, false);
  // A join's filters read the build (right) and probe (left) sides; a TopN
  // filter on a LIMIT reads its input for both; a set operation's read one
  // input's columns for the build and another's for the probe (which inputs
  // they may be is the verifier's to judge).
  Scope side[2];
  if (isSetOperation(n.op)) {
    for (const auto& c : n.children)
      for (const auto& col : c->output) side[0][col.id] = side[1][col.id] = col;
  } else {
    for (int s = 0; s < 2; ++s)
      for (const auto& c : n.children[n.children.size() > 1 ? s : 0]->output) side[s][c.id] = c;
  }
  for (size_t i = 0; fs && i < fs->size() && !failed; ++i) {
    std::string p = ptr + "/runtime_filters/" + std::to_string(i);
    const Json& fj = (*fs)[i];
    if (!allowed(fj, p,
                 {"id", "build", "probe", "op", "null_allowed", "accept_null", "kinds", "scope",
                  "non_blocking"}))
      return;
    RuntimeFilter f;
    const Json* id = field(fj, p, "id", Json::value_t::number_integer);
    if (!id) return;
    if (id->get<int64_t>() < 1 || id->get<int64_t>() > std::numeric_limits<int>::max())
      return error(p + "/id", "filter id must be a positive integer");
    f.id = id->get<int>();
    if (!fj.contains("build")) return error(p, "missing field \"build\"");
    f.build = expr(fj["build"], p + "/build", side[1]);
    // No "probe": a filter for the other side of joins above only.
    f.besideOnly = !fj.contains("probe");
    f.probe = f.besideOnly ? f.build : expr(fj["probe"], p + "/probe", side[0]);
    std::string op = str(fj, p, "op");
    auto parsed = parseCmpOp(op);
    if (!failed && !parsed) return error(p + "/op", "unknown filter comparison \"" + op + "\"");
    f.op = parsed.value_or(CmpOp::Eq);
    f.nullAllowed = f.op == CmpOp::NullSafeEq;
    if (const Json* na = field(fj, p, "null_allowed", Json::value_t::boolean, false))
      f.nullAllowed = na->get<bool>();
    if (const Json* an = field(fj, p, "accept_null", Json::value_t::boolean, false))
      f.acceptNull = an->get<bool>();
    if (const Json* nb = field(fj, p, "non_blocking", Json::value_t::boolean, false))
      f.nonBlocking = nb->get<bool>();
    const Json* kinds = field(fj, p, "kinds", Json::value_t::array);
    for (size_t k = 0; kinds && k < kinds->size() && !failed; ++k) {
      auto kind =
          (*kinds)[k].is_string() ? parseKind((*kinds)[k].get<std::string>()) : std::nullopt;
      if (!kind)
        return error(p + "/kinds/" + std::to_string(k),
                     "unknown filter kind (bloom, in, min_max, bitset)");
      f.kinds.push_back(*kind);
    }
    std::string scope = str(fj, p, "scope", false);
    if (!scope.empty() && scope != "local" && scope != "global")
      return error(p + "/scope", "scope must be \"local\" or \"global\"");
    f.scope = scope == "local" ? FilterScope::Local : FilterScope::Global;
    n.runtimeFilters.push_back(f);
  }
}

PlanPtr JsonReader::node(const Json& j, const std::string& ptr, const Scope& outer) {
  auto n = makePooled<PlanNode>();
  if (failed) return n;
  if (!j.is_object()) return error(ptr, "expected a plan node object"), n;
  std::string op = str(j, ptr, "op");
  auto parsed = parseOp(op);
  if (!parsed) return failed ? n : (error(ptr + "/op", "unknown op \"" + op + "\""), n);
  n->op = *parsed;
  static const std::map<PlanOp, std::vector<const char*>> kKeys = {
      {PlanOp::Scan, {"id", "op", "loc", "children", "table", "alias", "columns"}},
      {PlanOp::Filter, {"id", "op", "loc", "children", "predicate"}},
      {PlanOp::Project, {"id", "op", "loc", "children", "exprs"}},
      {PlanOp::Join,
       {"id", "op", "loc", "children", "join_type", "distribution", "condition",
        "runtime_filters"}},
      {PlanOp::Aggregate, {"id", "op", "loc", "children", "keys", "aggs", "grouping_sets"}},
      {PlanOp::Window, {"id", "op", "loc", "children", "windows"}},
      {PlanOp::Sort, {"id", "op", "loc", "children", "keys"}},
      {PlanOp::Limit,
       {"id", "op", "loc", "children", "limit", "offset", "unprinted", "runtime_filters"}},
      {PlanOp::Union, {"id", "op", "loc", "children", "all", "columns", "runtime_filters"}},
      {PlanOp::Intersect, {"id", "op", "loc", "children", "all", "columns", "runtime_filters"}},
      {PlanOp::Except, {"id", "op", "loc", "children", "all", "columns", "runtime_filters"}},
      {PlanOp::Values, {"id", "op", "loc", "children", "columns", "rows"}},
  };
  std::vector<const char*> keys = kKeys.at(n->op);
  keys.push_back("runtime_filter_targets");  // on any node: the verifier judges where they sit
  keys.push_back("estimated_rows");          // on any node: what rfguard plan printed
  if (!allowed(j, ptr, keys) || !readLoc(*this, j, ptr, n->loc)) return n;
  if (auto it = j.find("estimated_rows"); it != j.end()) {
    if (!it->is_number() || it->get<double>() < 0)
      return error(ptr + "/estimated_rows", "estimated_rows must be a number >= 0"), n;
    n->estimatedRows = it->get<double>();
  }
  const Json* id = field(j, ptr, "id", Json::value_t::number_integer);
  if (!id) return n;
  n->id = id->get<int>();
  if (!ids_.insert(n->id).second)
    return error(ptr + "/id", "node id " + std::to_string(n->id) + " is not unique"), n;
  const Json* children = field(j, ptr, "children", Json::value_t::array);
  if (!children) return n;
  for (size_t i = 0; i < children->size() && !failed; ++i)
    n->children.push_back(node((*children)[i], ptr + "/children/" + std::to_string(i), outer));
  size_t want = n->op == PlanOp::Join                                ? 2
                : (n->op == PlanOp::Scan || n->op == PlanOp::Values) ? 0
                                                                     : 1;
  bool setop = isSetOperation(n->op);
  if (failed) return n;
  if (setop ? n->children.size() < 2 : n->children.size() != want)
    return error(ptr + "/children", "a " + std::string(opName(n->op)) + " node needs " +
                                        (setop       ? "at least 2 children"
                                         : want == 1 ? "1 child"
                                                     : std::to_string(want) + " children") +
                                        ", it has " + std::to_string(n->children.size())),
           n;
  Scope scope = outer;
  for (const auto& c : n->children)
    for (const auto& col : c->output) scope[col.id] = col;
  nodeFields(*n, j, ptr, scope);
  if (!failed) computeOutput(*n);
  if (!failed && j.contains("runtime_filter_targets")) pending_.push_back({n.get(), &j, ptr});
  return n;
}

// Targets are read once the whole plan is: a target over another node's columns
// is a finding for the verifier (target-not-computable), not an input error.
void JsonReader::readTargets(const PlanNode& root) {
  Scope all;
  // Every node's columns, those of the plans inside subquery expressions too:
  // a scan there may consume a filter (the verifier judges whether it may).
  forEachNode(root, [&](const PlanNode& n) {
    for (const auto& c : n.tableColumns) all[c.id] = c;
    for (const auto& c : n.output) all[c.id] = c;
  });
  for (const auto& [n, j, ptr] : pending_) {
    const Json* ts = field(*j, ptr, "runtime_filter_targets", Json::value_t::array);
    for (size_t i = 0; ts && i < ts->size() && !failed; ++i) {
      std::string p = ptr + "/runtime_filter_targets/" + std::to_string(i);
      const Json& t = (*ts)[i];
      if (!allowed(t, p, {"id", "target"})) return;
      const Json* id = field(t, p, "id", Json::value_t::number_integer);
      if (!id || !t.contains("target"))
        return failed ? void() : error(p, "missing field \"target\"");
      n->runtimeFilterTargets.push_back({id->get<int>(), expr(t["target"], p + "/target", all)});
    }
  }
  pending_.clear();
}

bool readPlanDocument(const std::string& text, const std::string& file, Catalog& catalog,
                      std::vector<Query>& queries, Diagnostics& diags) {
  Json doc;
  LocatingSax sax(doc);
  if (text.size() > kMaxJsonBytes) {
    diags.errorAt(file, "",
                  "input too large: " + std::to_string(text.size()) + " bytes, more than " +
                      std::to_string(kMaxJsonBytes >> 20) + " MiB (split it into smaller files)");
    return false;
  }
  // Strict: anything after the document (a second document, garbage) is an error,
  // so that a file of two plans is never judged by one of them.
  if (!Json::sax_parse(text, &sax, nlohmann::detail::input_format_t::json, true)) {
    if (!sax.tooDeep.empty() || (sax.errorText.empty() && sax.path.size() >= kMaxJsonDepth)) {
      diags.errorAt(file, sax.tooDeep,
                    "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
      return false;
    }
    std::string what = sax.errorText;
    auto pos = what.find("] ");
    diags.errorAt(file, sax.errorPointer,
                  "malformed JSON at byte " + std::to_string(sax.errorPos) + ": " +
                      (pos == std::string::npos ? what : what.substr(pos + 2)));
    return false;
  }
  JsonReader r(catalog, diags, file);
  if (!r.allowed(doc, "", {"format", "version", "catalog", "queries"})) return false;
  if (r.str(doc, "", "format") != "rfguard-plan")
    return r.failed ? false : (r.error("/format", "format must be \"rfguard-plan\""), false);
  const Json* version = r.field(doc, "", "version", Json::value_t::number_integer);
  if (!version) return false;
  if (version->get<long long>() != 1)
    return r.error("/version", "unsupported version (this reads 1)"), false;
  const Json* cat = r.field(doc, "", "catalog", Json::value_t::object);
  if (!cat || !r.allowed(*cat, "/catalog", {"tables"})) return false;
  const Json* tables = r.field(*cat, "/catalog", "tables", Json::value_t::array);
  for (size_t i = 0; tables && i < tables->size() && !r.failed; ++i) {
    std::string p = "/catalog/tables/" + std::to_string(i);
    const Json& tj = (*tables)[i];
    if (!r.allowed(tj, p,
                   {"name", "columns", "rows", "runtime_filter", "distribution_key", "unique",
                    "foreign_keys", "checks"}))
      break;
    TableDef t;
    t.name = r.str(tj, p, "name");
    const Json* cols = r.field(tj, p, "columns", Json::value_t::array);
    for (size_t k = 0; cols && k < cols->size() && !r.failed; ++k) {
      std::string cp = p + "/columns/" + std::to_string(k);
      const Json& cj = (*cols)[k];
      if (!r.allowed(cj, cp, {"name", "type", "nullable", "ndv", "primary_key"})) break;
      ColumnDef c;
      c.name = r.str(cj, cp, "name");
      auto ty = r.type(cj, cp);
      const Json* nullable = r.field(cj, cp, "nullable", Json::value_t::boolean);
      if (r.failed) break;
      c.type = *ty;
      c.nullable = nullable->get<bool>();
      if (cj.contains("ndv")) c.ndv = r.nonNegative(cj, cp, "ndv", 0);
      // A primary-key column (each one of a composite key): its values are
      // distinct (together) and never NULL, so it cannot be nullable.
      if (const Json* pk = r.field(cj, cp, "primary_key", Json::value_t::boolean, false)) {
        c.primaryKey = pk->get<bool>();
        if (c.primaryKey && c.nullable)
          r.error(cp + "/nullable", "a primary-key column is never NULL: nullable must be false");
      }
      if (t.columnIndex(c.name) >= 0)
        r.error(cp + "/name", "column \"" + c.name + "\" is defined twice");
      t.columns.push_back(c);
    }
    if (tj.contains("rows")) t.rows = r.nonNegative(tj, p, "rows", 0);
    if (const Json* rf = r.field(tj, p, "runtime_filter", Json::value_t::boolean, false))
      t.runtimeFilter = rf->get<bool>();
    t.distributionKey = r.str(tj, p, "distribution_key", false);
    // "unique": [["a"], ["b", "c"]]: UNIQUE column sets.
    if (const Json* u = r.field(tj, p, "unique", Json::value_t::array, false))
      for (size_t k = 0; k < u->size() && !r.failed; ++k) {
        const std::string up = p + "/unique/" + std::to_string(k);
        const Json& set = (*u)[k];
        if (!set.is_array() || set.empty()) {
          r.error(up, "a UNIQUE set is a non-empty array of column names");
          break;
        }
        std::vector<std::string> key;
        for (size_t m = 0; m < set.size(); ++m) {
          if (!set[m].is_string() || t.columnIndex(set[m].get<std::string>()) < 0) {
            r.error(up + "/" + std::to_string(m), "not a column of " + t.name);
            break;
          }
          key.push_back(set[m].get<std::string>());
        }
        t.uniqueKeys.push_back(std::move(key));
      }
    if (!t.distributionKey.empty() && t.columnIndex(t.distributionKey) < 0)
      r.error(p + "/distribution_key", "not a column of " + t.name);
    if (!r.failed) r.tableConstraints(tj, p, t);
    if (!r.failed && !catalog.addTable(t))
      r.error(p + "/name", "table \"" + t.name + "\" is defined twice");
  }
  // Foreign keys reference tables of the whole catalog, in any order.
  for (size_t i = 0; tables && i < tables->size() && !r.failed; ++i)
    if (const TableDef* t = catalog.table((*tables)[i].value("name", "")))
      r.foreignKeysResolved(*t, "/catalog/tables/" + std::to_string(i));
  const Json* qs = r.field(doc, "", "queries", Json::value_t::array);
  for (size_t i = 0; qs && i < qs->size() && !r.failed; ++i) {
    std::string p = "/queries/" + std::to_string(i);
    const Json& qj = (*qs)[i];
    if (!r.allowed(qj, p, {"name", "sql", "file", "loc", "suppress", "plan"})) break;
    Query q;
    q.name = r.str(qj, p, "name");
    if (qj.contains("suppress")) {
      const Json& sj = qj["suppress"];
      if (!sj.is_array()) r.error(p + "/suppress", "expected an array of finding codes");
      for (size_t k = 0; sj.is_array() && k < sj.size() && !r.failed; ++k) {
        if (!sj[k].is_string())
          r.error(p + "/suppress/" + std::to_string(k), "expected a finding code (a string)");
        else
          q.suppress.push_back(sj[k].get<std::string>());
      }
    }
    q.sql = r.str(qj, p, "sql", false);
    q.file = r.str(qj, p, "file", false);
    readLoc(r, qj, p, q.loc);
    if (!qj.contains("plan")) r.error(p, "missing field \"plan\"");
    if (r.failed) break;
    r.ids_.clear();
    r.aliases_.clear();
    q.plan = r.node(qj["plan"], p + "/plan", {});
    if (!r.failed) r.readTargets(*q.plan);
    if (!r.failed) queries.push_back(std::move(q));
  }
  return !r.failed;
}

}  // namespace rfguard
