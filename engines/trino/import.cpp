// Trino's plan text imported into rfguard's plan JSON (docs/trino.md). Scans,
// joins, semi joins, aggregations (final or single: the partial and
// intermediate steps below them are one aggregation) and values become plan
// nodes; exchanges and filter lines none. Each dynamic filter becomes a target
// at the scan whose column its symbol is, and a runtime filter at the join it
// is attributed to (producers.cpp), whose condition is rebuilt from its
// filters and its exchanges' keys.
#include "engines/trino/import.h"

#include <functional>

#include "engines/plan_document.h"
#include "engines/trino/import_state.h"

namespace rfguard::trino_import {

std::string joinType(const std::string& t) {
  if (t == "INNER") return "inner";
  if (t == "LEFT") return "left";
  if (t == "RIGHT") return "right";
  if (t == "FULL") return "full";
  return "";
}

std::string distribution(const std::string& d) {
  if (d == "PARTITIONED") return "shuffle";
  if (d == "REPLICATED") return "broadcast";
  return "";
}

bool Importer::error(const PlanOp& n, const std::string& m) {
  diags_.error(file_, {n.line, n.col}, m);
  return false;
}

int Importer::newId(const PlanOp& n) {
  q_.sourcePointer[next_] = where(n);
  return next_++;
}

const Importer::Col* Importer::find(const Built& in, const ScanColumn& c) const {
  for (const auto& col : in.cols)
    if (col.source == c) return &col;
  return nullptr;
}

bool Importer::run(const PlanOp& root, Json& plan) {
  index(root, 0);
  resolveSymbols();
  attribute(root);
  q_.losses.push_back(
      {where(root),
       "Trino's plan text prints no join condition, projection, filter other than a dynamic "
       "filter, aggregate function, sort, limit or window: join conditions are rebuilt from "
       "the dynamic filters and the exchanges' hash keys, count(*) stands for each "
       "aggregation's functions, the rest is not imported"});
  auto b = build(root);
  if (!b) return false;
  plan = std::move(b->node);
  // A target whose filter no join could build goes too (said at the join).
  std::function<void(Json&)> prune = [&](Json& node) {
    if (auto t = node.find("runtime_filter_targets"); t != node.end()) {
      Json kept = Json::array();
      for (const auto& x : *t)
        if (definedFilters_.count(x["id"].get<int>())) kept.push_back(x);
      if (kept.empty())
        node.erase("runtime_filter_targets");
      else
        *t = kept;
    }
    for (auto& c : node["children"]) prune(c);
  };
  prune(plan);
  // Each consumer's producer: its join, where that join built the filter.
  for (const auto& a : attributed_)
    if (auto id = joinId_.find(a.join);
        id != joinId_.end() && definedFilters_.count(filterIds_.at({a.join, a.build, a.item.op})))
      q_.dynamicFilters[a.record].producers = {id->second};
  for (auto& [index, joins] : candidates_)
    for (const PlanOp* j : joins)
      if (auto id = joinId_.find(j); id != joinId_.end())
        q_.dynamicFilters[index].candidates.push_back(id->second);
  return true;
}

std::optional<Importer::Built> Importer::build(const PlanOp& n) {
  std::vector<Built> ins;
  for (const auto& in : n.inputs) {
    auto b = build(*in);
    if (!b) return std::nullopt;
    ins.push_back(std::move(*b));
  }
  auto one = [&]() -> bool {
    return ins.size() == 1 ||
           error(n, "this operator takes one input, not " + std::to_string(ins.size()));
  };
  switch (n.kind) {
    case OpKind::Scan:
      if (!ins.empty()) return error(n, "a scan with inputs"), std::nullopt;
      return scan(n);
    case OpKind::Values: {
      if (!ins.empty()) return error(n, "values with inputs"), std::nullopt;
      loss(n, "the values' " + std::to_string(n.rows) +
                  " rows are not printed: imported as rows without columns");
      Json rows = Json::array();
      for (long long i = 0; i < n.rows; ++i) rows.push_back(Json::array());
      Built out;
      out.node = Json{{"id", newId(n)},
                      {"op", "values"},
                      {"columns", Json::array()},
                      {"rows", rows},
                      {"children", Json::array()}};
      return out;
    }
    case OpKind::RemoteExchange:
    case OpKind::LocalExchange:
      if (ins.size() > 1) return unionOf(n, ins);
      if (!one()) return std::nullopt;
      return std::move(ins[0]);
    case OpKind::DynamicFilter:
      if (!one()) return std::nullopt;
      return std::move(ins[0]);
    case OpKind::Aggregation:
      if (!one()) return std::nullopt;
      if (n.step == "partial" || n.step == "intermediate") return std::move(ins[0]);
      return aggregate(n, std::move(ins[0]));
    case OpKind::Join:
    case OpKind::CrossJoin:
      if (ins.size() != 2) return error(n, "a join needs two inputs"), std::nullopt;
      return join(n, ins);
    case OpKind::SemiJoin:
      if (ins.size() != 2) return error(n, "a semijoin needs two inputs"), std::nullopt;
      return semiJoin(n, ins);
    case OpKind::Unknown:
      if (ins.empty())
        return error(n, "an operator rfguard does not know, with 0 inputs: \"" +
                            n.text.substr(0, 80) + "\""),
               std::nullopt;
      if (ins.size() > 1) {
        loss(n, "an operator rfguard does not know (\"" + n.text.substr(0, 80) + "\"), of " +
                    std::to_string(ins.size()) +
                    " inputs: imported as one that returns some of their rows, without columns");
        std::vector<Json> nodes;
        for (auto& in : ins) nodes.push_back(std::move(in.node));
        Built out;
        out.node = engine::opaqueOfInputs(std::move(nodes), [&] { return newId(n); });
        return out;
      }
      return opaque(n, std::move(ins[0]),
                    "an operator rfguard does not know (\"" + n.text.substr(0, 80) +
                        "\"): imported as one that may remove any rows");
  }
  return std::nullopt;
}

std::optional<Importer::Built> Importer::scan(const PlanOp& n) {
  const std::string& alias = alias_.at(&n);
  TableDef& used = usedTables[n.table];
  if (const TableDef* def = schema_.table(n.table)) {
    used = *def;
  } else {
    loss(n, "table " + n.table +
                " is not in a schema (--schema): its columns are the names its dynamic "
                "filters print, typed unknown");
    used.name = n.table;
    for (const auto& c : openColumns_[&n])
      if (used.columnIndex(c) < 0) {
        ColumnDef col;
        col.name = c;
        used.columns.push_back(col);
      }
  }
  const TableDef* def = schema_.table(n.table);
  Built out;
  Json columns = Json::array();
  std::vector<std::string> names;
  if (def)
    for (const auto& c : def->columns) names.push_back(c.name);
  else
    names.assign(openColumns_[&n].begin(), openColumns_[&n].end());
  for (const auto& c : names) {
    std::string type = "unknown";
    if (def) type = def->columns[def->columnIndex(c)].type.toString();
    out.cols.push_back({alias + "." + c, {&n, c}, type});
    columns.push_back(c);
  }
  Json node = {{"id", newId(n)}, {"op", "scan"}, {"table", n.table}, {"alias", alias}};
  node["columns"] = columns;
  node["children"] = Json::array();
  Json targets = Json::array();
  for (const auto& a : attributed_) {
    if (a.target.scan != &n) continue;
    targets.push_back({{"id", filterIds_.at({a.join, a.build, a.item.op})},
                       {"target", {{"column", columnId(a.target)}}}});
  }
  if (!targets.empty()) node["runtime_filter_targets"] = targets;
  out.node = std::move(node);
  return out;
}

std::optional<Importer::Built> Importer::aggregate(const PlanOp& n, Built in) {
  const int id = newId(n);
  Built out;
  Json keys = Json::array();
  for (const auto& s : n.symbols) {
    const auto c = owner(s);
    const Col* col = c ? find(in, *c) : nullptr;
    if (!col) {
      loss(n, "group key " + s +
                  " is computed by an operator the plan does not print: left out of the "
                  "grouping");
      continue;
    }
    Col k = *col;
    k.id = "g" + std::to_string(id) + "." + std::to_string(keys.size()) + "_" + c->column;
    keys.push_back({{"name", k.id}, {"expr", {{"column", col->id}}}});
    out.cols.push_back(k);
  }
  // Its aggregate functions are not printed: count(*) stands for them, so
  // that a change in any group's rows shows in the result.
  const std::string count = "g" + std::to_string(id) + ".count";
  Json aggs = Json::array({Json{{"name", count}, {"func", "count"}, {"args", Json::array()}}});
  out.cols.push_back({count, {}, "bigint"});
  out.node = Json{{"id", id},
                  {"op", "aggregate"},
                  {"keys", keys},
                  {"aggs", aggs},
                  {"children", Json::array({std::move(in.node)})}};
  return out;
}

Importer::Built Importer::unionOf(const PlanOp& n, std::vector<Built>& ins) {
  // An exchange of several inputs is Trino's UNION ALL. Which column of each
  // input an output is, the plan does not print: each input is imported
  // without its columns, and the union is of rows.
  loss(n, "an exchange of " + std::to_string(ins.size()) +
              " inputs (a UNION ALL) whose columns are not printed: imported as a union of "
              "rows without columns; a filter through it has no probe column above it");
  std::vector<Json> nodes;
  for (auto& in : ins) nodes.push_back(std::move(in.node));
  Built out;
  out.node = engine::unionOfRows(std::move(nodes), [&] { return newId(n); });
  return out;
}

Importer::Built Importer::opaque(const PlanOp& n, Built in, const std::string& why) {
  loss(n, why);
  Built out;
  out.node = Json{{"id", newId(n)},
                  {"op", "limit"},
                  {"unprinted", true},
                  {"children", Json::array({std::move(in.node)})}};
  out.cols = std::move(in.cols);
  return out;
}

}  // namespace rfguard::trino_import

namespace rfguard::trino_import {

bool importPlanText(const std::string& text, const std::string& file, const std::string& name,
                    const Catalog& schema, nlohmann::json& doc,
                    std::vector<engine::ImportedQuery>& out, Diagnostics& diags) {
  std::unique_ptr<PlanOp> root;
  if (!readPlanText(text, file, root, diags)) return false;
  engine::ImportedQuery q;
  q.name = name;
  Importer imp(schema, file, q, diags);
  Json plan;
  if (!imp.run(*root, plan)) return false;
  Json qs = Json::array();
  qs.push_back({{"name", q.name}, {"plan", plan}});
  out.push_back(std::move(q));
  doc = engine::planDocument(schema, imp.usedTables, std::move(qs));
  return true;
}

}  // namespace rfguard::trino_import
