// StarRocks's plans imported into rfguard's plan JSON: the fragments joined
// at their exchanges into one tree, each operator a plan node (or none, where
// it changes no rows), each `build runtime filters:` item a filter at its
// join and each `probe runtime filters:` item a target at its scan. What the
// text does not say is listed as a loss where it changes what is judged.
#include "engines/starrocks/import.h"

#include <cctype>

#include "engines/plan_document.h"
#include "engines/starrocks/import_state.h"
#include "ir/types.h"

namespace rfguard::starrocks_import {

std::string joinType(const std::string& op) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {"NULL AWARE LEFT ANTI JOIN", "null_aware_left_anti"},
      {"LEFT OUTER JOIN", "left"},
      {"RIGHT OUTER JOIN", "right"},
      {"FULL OUTER JOIN", "full"},
      {"LEFT SEMI JOIN", "left_semi"},
      {"RIGHT SEMI JOIN", "right_semi"},
      {"LEFT ANTI JOIN", "left_anti"},
      {"RIGHT ANTI JOIN", "right_anti"},
      {"INNER JOIN", "inner"},
      {"CROSS JOIN", "cross"}};
  for (const auto& [sr, ours] : kTypes)
    if (op.rfind(sr, 0) == 0) return ours;
  return "";
}

std::string distribution(const std::string& op) {
  const size_t open = op.find('(');
  if (open == std::string::npos) return "";
  const std::string d = op.substr(open + 1);
  if (d.rfind("BROADCAST", 0) == 0) return "broadcast";
  if (d.rfind("PARTITIONED", 0) == 0 || d.rfind("SHUFFLE", 0) == 0) return "shuffle";
  if (d.rfind("COLOCATE", 0) == 0) return "colocated";
  if (d.rfind("BUCKET_SHUFFLE", 0) == 0) return "bucket_shuffle";
  return "";
}

std::string clip(const std::string& s) {
  return s.size() <= 120 ? s : s.substr(0, 70) + " ... " + s.substr(s.size() - 45);
}

bool Importer::error(const PlanOp& n, const std::string& m) {
  diags_.error(file_, {n.line, n.col}, m);
  return false;
}

int Importer::newId(const PlanOp& n) {
  q_.sourcePointer[next_] = where(n);
  return next_++;
}

namespace {

/// Removes the targets of `drop` (rfguard filter ids) from every scan.
void removeTargets(Json& node, const std::set<int>& drop) {
  if (auto t = node.find("runtime_filter_targets"); t != node.end()) {
    Json kept = Json::array();
    for (const auto& x : *t)
      if (!drop.count(x["id"].get<int>())) kept.push_back(x);
    if (kept.empty())
      node.erase("runtime_filter_targets");
    else
      *t = kept;
  }
  if (auto f = node.find("runtime_filters"); f != node.end()) {
    Json kept = Json::array();
    for (const auto& x : *f)
      if (!drop.count(x["id"].get<int>())) kept.push_back(x);
    if (kept.empty())
      node.erase("runtime_filters");
    else
      *f = kept;
  }
  for (auto& c : node["children"]) removeTargets(c, drop);
}

}  // namespace

bool Importer::run(const std::vector<Fragment>& fragments, Json& plan) {
  const Fragment* root = nullptr;
  for (const auto& f : fragments) {
    if (f.outExchange < 0) {
      if (!root) root = &f;
      continue;
    }
    if (!byExchange_.emplace(f.outExchange, &f).second)
      return error(*f.root, "two fragments feed exchange " + std::to_string(f.outExchange));
  }
  if (!root)
    return error(*fragments.front().root,
                 "no fragment is the plan's root (each feeds an exchange)");
  usedFragments_.insert(root->id);
  // Every column's type and name, from wherever the plan prints them
  // (`[22: O_CUSTKEY, INT, false]`): a scan's filters name it `22: O_CUSTKEY`.
  std::vector<const PlanOp*> todo;
  for (const auto& f : fragments) todo.push_back(f.root.get());
  while (!todo.empty()) {
    const PlanOp* op = todo.back();
    todo.pop_back();
    for (const auto& p : op->props) learn(p.text);
    for (const auto& in : op->inputs) todo.push_back(in.get());
  }
  auto b = build(*root->root, 0);
  if (!b) return false;
  if (b->node.is_null()) return error(*root->root, "a plan without a single operator to import");
  for (const auto& f : fragments)
    if (!usedFragments_.count(f.id))
      q_.losses.push_back(
          {"line " + std::to_string(f.line),
           "fragment " + std::to_string(f.id) + " feeds no exchange of the plan: left out"});
  // A filter needs its producer and a consumer: one without either is left
  // out whole, and said (a producer alone would read as a closure defect).
  std::set<int> drop;
  for (const auto& [fid, scans] : pendingTargets_)
    if (!built_.count(fid)) {
      q_.losses.push_back(
          {q_.dynamicFilters[scans.front()].scanPointer,
           filterName(fid) + " is applied here but built by no join the plan prints: left out"});
      drop.insert(fid + 1);
    }
  for (int fid : built_)
    if (!pendingTargets_.count(fid)) {
      q_.losses.push_back(
          {"line " + std::to_string(producerLine_[fid]),
           filterName(fid) + " is built here but applied at no scan rfguard imported: left out"});
      drop.insert(fid + 1);
    }
  if (!drop.empty()) {
    removeTargets(b->node, drop);
    std::set<size_t> gone;
    for (int d : drop)
      for (size_t k : pendingTargets_[d - 1]) gone.insert(k);
    std::vector<engine::ImportedFilter> kept;
    for (size_t k = 0; k < q_.dynamicFilters.size(); ++k)
      if (!gone.count(k)) kept.push_back(std::move(q_.dynamicFilters[k]));
    q_.dynamicFilters = std::move(kept);
  }
  closeOpenScans(b->node);
  plan = std::move(b->node);
  return true;
}

void Importer::closeOpenScans(Json& node) {
  if (node["op"] == "scan") {
    const std::string alias = node["alias"].get<std::string>();
    if (auto open = openColumns_.find(alias); open != openColumns_.end()) {
      TableDef& t = usedTables[openTables_[alias]];
      for (const auto& [name, type] : open->second) {
        node["columns"].push_back(name);
        if (t.columnIndex(name) >= 0) continue;
        ColumnDef c;
        c.name = name;
        if (auto parsed = parseType(type.empty() ? "unknown" : type)) c.type = *parsed;
        t.columns.push_back(c);
      }
    }
  }
  for (auto& c : node["children"]) closeOpenScans(c);
}

std::optional<Built> Importer::build(const PlanOp& n, int depth) {
  if (depth > kMaxPlanDepth)
    return error(n, "fragments nested more than " + std::to_string(kMaxPlanDepth) + " deep"),
           std::nullopt;
  const std::string& kind = n.kind;
  if (kind == "EXCHANGE" || kind == "MERGING-EXCHANGE") {
    auto f = byExchange_.find(n.id);
    if (f == byExchange_.end())
      return error(n, "exchange " + std::to_string(n.id) + ": no fragment feeds it"), std::nullopt;
    if (!usedFragments_.insert(f->second->id).second)
      return error(n, "fragment " + std::to_string(f->second->id) + " is read twice"), std::nullopt;
    auto in = build(*f->second->root, depth + 1);
    if (!in) return std::nullopt;
    // The columns it partitions by are its input's: read, they bind their
    // ids below (a scan without a schema learns its columns so).
    for (const auto& e : splitTop(n.value("partition exprs: "), ',')) {
      std::string why;
      expr(e, *in, why);
    }
    probeFilters(n, *in, nullptr);
    return in;
  }
  if (kind.size() >= 8 && kind.compare(kind.size() - 8, 8, "ScanNode") == 0) return scan(n);
  std::vector<Built> ins;
  for (const auto& c : n.inputs) {
    auto b = build(*c, depth + 1);
    if (!b) return std::nullopt;
    ins.push_back(std::move(*b));
  }
  if (kind == "HASH JOIN" || kind == "NESTLOOP JOIN" || kind == "CROSS JOIN") return join(n, ins);
  if (ins.size() != 1) {
    // A set operation or an operator rfguard does not know, of several
    // inputs: some of their rows, without columns (said).
    loss(n, kind + " of " + std::to_string(ins.size()) +
                " inputs: imported as an operator that returns some of their rows, without "
                "columns");
    std::vector<Json> nodes;
    for (auto& in : ins) nodes.push_back(std::move(in.node));
    Built out;
    out.node = engine::opaqueOfInputs(std::move(nodes), [&] { return newId(n); });
    return out;
  }
  Built in = std::move(ins[0]);
  if (kind == "Project") return project(n, std::move(in));
  if (kind.rfind("AGGREGATE", 0) == 0) return aggregate(n, std::move(in));
  if (kind == "SELECT") return filtered(n, std::move(in), n.value("predicates: "), "filter");
  // Operators that change no rows: a sort without a limit (a bag has no
  // order), an assertion of at most one row (it fails the query or passes
  // every row), a decode of dictionary-encoded strings.
  const std::string limit = n.value("limit: ");
  if ((kind == "SORT" && limit.empty()) || kind == "ASSERT NUMBER OF ROWS" || kind == "Decode")
    return in;
  // A TopN prints its keys by id alone: a limit that may cut any rows, as is
  // any operator rfguard does not know (said).
  if (kind != "SORT" && kind != "TOP-N")
    loss(n, kind == "ANALYTIC"
                ? "a window operator (ANALYTIC): imported as an operator that may cut any rows"
                : "an operator rfguard does not know (" + kind +
                      "): imported as one that may cut any rows");
  Built out;
  out.node = Json{
      {"id", newId(n)}, {"op", "limit"}, {"unprinted", true}, {"children", {std::move(in.node)}}};
  out.bound = std::move(in.bound);
  out.unbound = std::move(in.unbound);
  return out;
}

bool importPlanCases(const std::vector<PlanCase>& cases, const std::string& file,
                     const Catalog& schema, nlohmann::json& doc,
                     std::vector<engine::ImportedQuery>& out, Diagnostics& diags) {
  Json qs = Json::array();
  std::map<std::string, TableDef> tables;
  bool ok = true;
  for (const auto& c : cases) {
    engine::ImportedQuery q;
    q.name = c.name;
    Importer imp(schema, file, q, diags);
    Json plan;
    if (c.fragments.empty() || !imp.run(c.fragments, plan)) {
      if (c.fragments.empty()) diags.error(file, {c.line, 1}, "a plan section without fragments");
      ok = false;
      continue;
    }
    qs.push_back({{"name", q.name}, {"plan", plan}});
    out.push_back(std::move(q));
    engine::mergeTables(tables, imp.usedTables);
  }
  doc = engine::planDocument(schema, tables, std::move(qs));
  return ok;
}

}  // namespace rfguard::starrocks_import
