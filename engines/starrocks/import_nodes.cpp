// The operators of a StarRocks plan other than joins: scans (their predicates
// and the filters they apply), projections, aggregates, filters.
#include <algorithm>
#include <cctype>
#include <functional>

#include "engines/scan_below.h"
#include "engines/starrocks/import_state.h"
#include "ir/functions.h"

namespace rfguard::starrocks_import {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

/// `- filter_id = 3, probe_expr = (4: S_NATIONKEY)`: the id and the expression.
bool filterItem(const std::string& item, const std::string& key, int& id, std::string& expr) {
  const size_t at = item.find("filter_id = ");
  const size_t e = item.find(key + " = (");
  if (at == std::string::npos || e == std::string::npos) return false;
  try {
    id = std::stoi(item.substr(at + 12));
  } catch (const std::exception&) {
    return false;
  }
  if (id < 0 || id > 1000000) return false;
  int depth = 0;
  const size_t open = e + key.size() + 3;
  for (size_t i = open; i < item.size(); ++i) {
    depth += item[i] == '(' ? 1 : item[i] == ')' ? -1 : 0;
    if (depth == 0) {
      expr = item.substr(open + 1, i - open - 1);
      return true;
    }
  }
  return false;
}

/// An aggregate call's arguments: `sum[([6: C_ACCTBAL, DOUBLE, false]); args:
/// DOUBLE; ...]` -> `[6: C_ACCTBAL, DOUBLE, false]`; npos `at` when unreadable.
std::string callArgs(const std::string& call, size_t& at) {
  at = call.find("[(");
  if (at == std::string::npos) return "";
  std::string rest = call.substr(at + 2);
  if (const size_t sig = rest.find("); args:"); sig != std::string::npos)
    return trim(rest.substr(0, sig));
  if (rest.size() >= 2 && rest.compare(rest.size() - 2, 2, ")]") == 0)
    return trim(rest.substr(0, rest.size() - 2));
  at = std::string::npos;
  return "";
}

/// StarRocks's aggregate -> rfguard's, and whether DISTINCT.
std::string aggregateName(const std::string& f, bool& distinct) {
  distinct = f.rfind("multi_distinct_", 0) == 0;
  return distinct ? f.substr(15) : f;
}

}  // namespace

std::optional<Built> Importer::scan(const PlanOp& n) {
  std::string table = n.value("table: ");
  if (const size_t comma = table.find(','); comma != std::string::npos)
    table = table.substr(0, comma);
  table = lower(trim(table));
  if (table.empty()) return error(n, "a scan without its table (`table: ...`)"), std::nullopt;
  std::string alias = table;
  if (!aliases_.insert(alias).second) {  // the same table scanned again: ids must differ
    alias += "_" + std::to_string(n.line);
    aliases_.insert(alias);
  }
  Built out;
  Json columns = Json::array();
  TableDef& used = usedTables[table];
  if (used.name.empty()) used.name = table;
  if (const TableDef* def = schema_.table(table)) {
    used = *def;
    for (const auto& c : def->columns) {
      out.unbound.push_back({upper(c.name), alias + "." + c.name, c.type.toString()});
      columns.push_back(c.name);
    }
  } else {
    loss(n, "table " + table +
                " is not in a schema (--schema): its columns are the names the plan reads of "
                "it, typed as printed");
    // The columns any operator above names: every `[N: NAME, ...]` of the plan
    // that no other scan has is taken for this one's when first read.
    out.unbound.push_back({"*", alias, ""});
    openTables_[alias] = table;
    openColumns_[alias];
  }
  const int id = newId(n);
  Json node = {{"id", id},       {"op", "scan"},       {"table", table},
               {"alias", alias}, {"columns", columns}, {"children", Json::array()}};
  Built with;
  with.node = node;
  with.unbound = out.unbound;
  // Read the filters and predicates over the scan's columns, binding them.
  probeFilters(n, with, &with.node);
  Built result = filtered(n, std::move(with), n.value("Predicates: "), "predicate");
  return result;
}

void Importer::probeFilters(const PlanOp& n, Built& at, Json* scanNode) {
  for (const auto& item : n.list("probe runtime filters:")) {
    int fid = 0;
    std::string text, why;
    if (!filterItem(item.text, "probe_expr", fid, text)) {
      q_.losses.push_back({"line " + std::to_string(item.line),
                           "cannot read the runtime filter \"" + clip(item.text) + "\": left out"});
      continue;
    }
    auto e = expr(text, at, why);
    if (!e) {
      q_.losses.push_back(
          {"line " + std::to_string(item.line),
           filterName(fid) + "'s target \"" + clip(text) + "\" (" + why + "): left out"});
      continue;
    }
    Json* target = scanNode;
    std::string note;
    if (!target) {
      // At an exchange: rfguard applies filters at scans; imported at the
      // scan below where it removes the same rows (engines/scan_below.h).
      const engine::ScanBelow below =
          at.node.is_null() ? engine::ScanBelow{} : engine::scanBelow(at.node, *e);
      if (!below.scan) {
        loss(n, filterName(fid) + " is applied at exchange " + std::to_string(n.id) +
                    " above an operator that changes rows (rfguard applies filters at scans): "
                    "left out");
        continue;
      }
      target = below.scan;
      *e = below.target;
      note = filterName(fid) + " is applied at exchange " + std::to_string(n.id) +
             ": imported at the scan below it" +
             (below.throughKeys ? ", through the group keys of an aggregate (a filter of a "
                                  "group key removes whole groups either way)"
                                : ", whose rows reach the exchange unchanged");
    }
    const Json t = {{"id", fid + 1}, {"target", *e}};
    if (auto& ts = (*target)["runtime_filter_targets"];
        ts.is_array() && std::find(ts.begin(), ts.end(), t) != ts.end()) {
      loss(n, filterName(fid) + " is applied at exchange " + std::to_string(n.id) +
                  " and at the scan below it, which rfguard imports as one");
      continue;
    }
    if (!note.empty()) loss(n, note);
    (*target)["runtime_filter_targets"].push_back(t);
    engine::ImportedFilter f;
    f.scanPointer = "line " + std::to_string(item.line);
    f.column = e->contains("column") ? (*e)["column"].get<std::string>() : clip(text);
    f.kinds = {"in", "bloom", "min_max"};
    q_.dynamicFilters.push_back(f);
    pendingTargets_[fid].push_back(q_.dynamicFilters.size() - 1);
  }
}

Built Importer::filtered(const PlanOp& n, Built in, const std::string& predicates,
                         const char* what) {
  if (predicates.empty()) return in;
  std::vector<Json> parts;
  for (const auto& p : splitTop(predicates, ',')) {
    std::string why;
    auto e = expr(p, in, why);
    if (!e) {
      loss(n,
           std::string("cannot read the ") + what + " \"" + clip(p) + "\" (" + why + "): left out");
      continue;
    }
    parts.push_back(*e);
  }
  if (parts.empty()) return in;
  Json pred = parts[0];
  for (size_t i = 1; i < parts.size(); ++i)
    pred = Json{{"call", "and"}, {"args", {pred, parts[i]}}};
  Built out;
  out.node = Json{
      {"id", newId(n)}, {"op", "filter"}, {"predicate", pred}, {"children", {std::move(in.node)}}};
  out.bound = std::move(in.bound);
  out.unbound = std::move(in.unbound);
  return out;
}

std::optional<Built> Importer::project(const PlanOp& n, Built in) {
  struct Item {
    int id;
    std::string text;
    std::optional<Json> e;
  };
  std::vector<Item> items;
  bool onlyColumns = true;
  for (const auto& p : n.list("output columns:")) {
    const size_t arrow = p.text.find(" <-> ");
    int id = 0;
    try {
      id = std::stoi(p.text.substr(0, arrow));
    } catch (const std::exception&) {
      loss(n, "cannot read the projection \"" + clip(p.text) + "\": left out");
      continue;
    }
    Item it{id, trim(p.text.substr(arrow + 5)), std::nullopt};
    std::string why;
    it.e = expr(it.text, in, why);
    if (!it.e) {
      loss(n,
           "cannot read the projection \"" + clip(p.text) + "\" (" + why + "): imported as NULL");
      it.e = Json{{"literal", nullptr}, {"type", "unknown"}};
    }
    // `9 <-> [9: L_ORDERKEY, ...]`: the column passes under its own id.
    onlyColumns = onlyColumns && it.e->contains("column") && in.bound.count(id) &&
                  in.bound[id] == (*it.e)["column"];
    items.push_back(std::move(it));
  }
  Built out;
  if (onlyColumns) {  // no node: the input's columns narrowed to these
    for (const auto& it : items) out.bound[it.id] = in.bound[it.id];
    out.node = std::move(in.node);
    return out;
  }
  const int id = newId(n);
  Json exprs = Json::array();
  for (const auto& it : items) {
    auto name = names_.find(it.id);
    std::string col = "p" + std::to_string(id) + "." +
                      lower(name == names_.end() ? "c" : name->second) + "_" +
                      std::to_string(it.id);
    for (char& c : col)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_') c = '_';
    exprs.push_back({{"name", col}, {"expr", *it.e}});
    out.bound[it.id] = col;
  }
  out.node =
      Json{{"id", id}, {"op", "project"}, {"exprs", exprs}, {"children", {std::move(in.node)}}};
  return out;
}

std::optional<Built> Importer::aggregate(const PlanOp& n, Built in) {
  const size_t open = n.kind.find('(');
  const std::string phase = open == std::string::npos ? "" : n.kind.substr(open + 1);
  const std::string calls = n.value("aggregate: ");
  const std::string groupBy = n.value("group by: ");
  if (phase.rfind("merge", 0) == 0) {
    // The second phase of an aggregation: its input is the first phase's
    // result, whose outputs its arguments name. It changes no rows of
    // rfguard's plan, where the first phase is the whole aggregation.
    for (const auto& text : {calls, groupBy}) {
      std::string why;
      for (const auto& c : splitTop(text, ',')) {
        size_t at = 0;
        const std::string args = callArgs(c, at);
        if (!expr(at == std::string::npos ? c : args, in, why))
          loss(n, "cannot read \"" + clip(c) + "\" (" + why + ")");
      }
    }
    return filtered(n, std::move(in), n.value("having: "), "HAVING");
  }
  const int id = newId(n);
  Built out;
  Json keys = Json::array(), aggs = Json::array();
  for (const auto& k : splitTop(groupBy, ',')) {
    std::string why;
    learn(k);
    auto e = expr(k, in, why);
    if (!e)
      return error(n, "cannot read the group key \"" + clip(k) + "\" (" + why + ")"), std::nullopt;
    const std::string col = "g" + std::to_string(id) + ".k" + std::to_string(keys.size());
    keys.push_back({{"name", col}, {"expr", *e}});
    // A key keeps its id above the aggregate.
    if (k.size() > 1 && k[0] == '[') try {
        out.bound[std::stoi(k.substr(1))] = col;
      } catch (const std::exception&) {
      }
  }
  for (const auto& c : splitTop(calls, ',')) {
    size_t b = 0;
    const std::string args = callArgs(c, b);
    if (b == std::string::npos)
      return error(n, "cannot read the aggregate \"" + clip(c) + "\""), std::nullopt;
    bool distinct = false;
    const std::string func = aggregateName(lower(trim(c.substr(0, b))), distinct);
    const FunctionInfo* fn = lookupFunction(func);
    if (!fn || fn->kind != FunctionKind::Aggregate) {
      // Its result stays unnamed: what reads it above says so.
      loss(n, "an aggregate rfguard does not know (" + func + "): left out");
      continue;
    }
    const std::string name = "g" + std::to_string(id) + ".a" + std::to_string(aggs.size());
    Json agg = {{"name", name}, {"func", func}, {"args", Json::array()}};
    if (distinct) agg["distinct"] = true;
    if (args != "*" && !args.empty()) {
      std::string why;
      auto x = expr(args, in, why);
      if (!x)
        return error(n, "cannot read the aggregate \"" + clip(c) + "\" (" + why + ")"),
               std::nullopt;
      agg["args"] = Json::array({*x});
    }
    std::string result = "unknown";
    if (const size_t r = c.find("result: "); r != std::string::npos)
      result = typeFromStarRocks(c.substr(r + 8, c.find(';', r) - r - 8));
    out.unbound.push_back({upper(func), name, result == "unknown" ? "" : result});
    aggs.push_back(agg);
  }
  out.node = Json{{"id", id},
                  {"op", "aggregate"},
                  {"keys", keys},
                  {"aggs", aggs},
                  {"children", {std::move(in.node)}}};
  return filtered(n, std::move(out), n.value("having: "), "HAVING");
}

}  // namespace rfguard::starrocks_import
