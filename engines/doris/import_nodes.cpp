// The operators of a shape plan other than joins: scans (and the filters they
// apply), projections, filters, and aggregates, whose keys and aggregates the
// shape does not print.
#include "engines/doris/import_state.h"

#include <algorithm>

namespace rfguard::doris_import {

std::optional<Importer::Built> Importer::scan(const ShapeNode& n) {
  auto [table, alias] = scanNames(n);
  const bool aliased = alias != table;
  if (table.empty()) return error(n, "a scan without its table"), std::nullopt;
  if (!aliases_.insert(alias).second) {
    // The same table scanned twice without aliases, or the same scan in
    // copies of a CTE: ids must differ.
    const std::string base = alias + "_" + std::to_string(n.line);
    int& k = suffixes_[base];  // the copies named so far: no search from _2 each time
    alias = base;
    while (!aliases_.insert(alias).second) alias = base + "_" + std::to_string(++k + 1);
  }
  Built out;
  Json columns = Json::array();
  const TableDef* def = schema_.table(table);
  if (def) {
    for (const auto& c : def->columns) {
      out.cols.push_back(
          {alias + "." + c.name, c.name, aliased ? alias : table, c.type.toString()});
      columns.push_back(c.name);
    }
  } else {
    loss(n, "table " + table +
                " is not in a schema (--schema): its columns are the names "
                "the filters it applies name, typed unknown");
  }
  const int id = newId(n);
  Json node = {{"id", id}, {"op", "scan"}, {"table", table}, {"alias", alias}};
  // apply RFs: RF1 RF3
  Json targets = Json::array();
  for (const auto& [w, rf] : appliedFilters(n, "scan")) {
    auto spec = rfs_.find(rf);
    // The target: the filter's destination that is a column of this table,
    // else one that is an expression over its columns (`abs(c_custkey)`,
    // `expr_cast(c_custkey as BIGINT)`).
    std::string target;
    std::optional<Json> computed;
    for (const auto& d : spec->second.dsts)
      if (!def || def->columnIndex(lastPart(d)) >= 0) target = lastPart(d);
    if (target.empty() && def)
      for (const auto& d : spec->second.dsts) {
        std::string why;
        auto e = parseDorisExpr(d, over(out.cols), why);
        if (e && !e->contains("column") && !computed) computed = e, target = d;
      }
    if (target.empty()) {
      loss(n, "the scan applies " + w + " to " + spec->second.src +
                  "'s targets, none of "
                  "them a column of " +
                  table);
      continue;
    }
    if (!def && !std::count_if(out.cols.begin(), out.cols.end(),
                               [&](const Col& c) { return c.name == target; })) {
      out.cols.push_back({alias + "." + target, target, alias, "unknown"});
      columns.push_back(target);
    }
    consumed_.insert(rf);
    targets.push_back({{"id", rfId(rf)},
                       {"target", computed ? *computed : Json{{"column", alias + "." + target}}}});
    engine::ImportedFilter f;
    f.scanPointer = where(n);
    f.column = computed ? target : alias + "." + target;
    f.kinds = kKinds;
    q_.dynamicFilters.push_back(f);
    pendingTargets_[rfId(rf)].push_back(q_.dynamicFilters.size() - 1);
  }
  node["columns"] = columns;
  node["children"] = Json::array();
  // The table as the plan uses it: the schema's, or the columns named here.
  TableDef& t = usedTables[table];
  if (def) {
    t = *def;
  } else {
    t.name = table;
    for (const auto& c : out.cols)
      if (t.columnIndex(c.name) < 0) {
        ColumnDef col;
        col.name = c.name;
        t.columns.push_back(col);
      }
  }
  if (!targets.empty()) node["runtime_filter_targets"] = targets;
  out.node = std::move(node);
  return out;
}

std::optional<Importer::Built> Importer::project(const ShapeNode& n, Built child) {
  const size_t open = n.text.find('[');
  if (open == std::string::npos) return child;  // no list: every column passes
  size_t end = 0;
  const std::string list = balanced(n.text, open, end);
  const Resolver resolve = over(child.cols, &child.same);
  struct Item {
    std::string text, alias;
    std::optional<Json> expr;
    std::string why;
  };
  std::vector<Item> items;
  bool onlyColumns = true;
  for (const auto& item : splitTop(list, ',')) {
    Item it{item, "", std::nullopt, ""};
    if (const size_t as = item.rfind(" AS `"); as != std::string::npos && item.back() == '`')
      it.text = item.substr(0, as), it.alias = item.substr(as + 5, item.size() - as - 6);
    it.expr = parseDorisExpr(it.text, resolve, it.why);
    onlyColumns = onlyColumns && it.expr && it.expr->contains("column") && it.alias.empty();
    items.push_back(std::move(it));
  }
  if (onlyColumns) {
    // Columns only: no node, the child's columns narrowed to them (which
    // makes the names above less ambiguous, and changes no row).
    Built out;
    for (const auto& it : items)
      for (const auto& c : child.cols)
        if (c.id == (*it.expr)["column"]) out.cols.push_back(c);
    out.node = std::move(child.node);
    out.same = std::move(child.same);
    return out;
  }
  const int id = newId(n);
  Built out;
  Json exprs = Json::array();
  std::vector<std::pair<std::string, std::string>> renames;
  int i = 0;
  for (auto& it : items) {
    Col col;
    col.name = it.alias.empty() ? lastPart(it.text) : it.alias;
    col.qual = "";
    col.type = "unknown";
    if (!it.expr) {
      loss(n, "cannot read the projection \"" + clip(it.text) + "\" (" + it.why +
                  "): imported as NULL");
      it.expr = Json{{"literal", nullptr}, {"type", "unknown"}};
    } else if (it.expr->contains("column")) {
      for (const auto& c : child.cols)
        if (c.id == (*it.expr)["column"]) col.qual = c.qual, col.type = c.type, col.name = c.name;
      if (!it.alias.empty()) col.name = it.alias, col.qual = "";
    }
    col.id = "p" + std::to_string(id) + "." + std::to_string(i++) + "_" + alnum(col.name);
    if (it.expr->contains("column")) renames.emplace_back((*it.expr)["column"], col.id);
    exprs.push_back({{"name", col.id}, {"expr", *it.expr}});
    out.cols.push_back(col);
  }
  out.node = Json{{"id", id}, {"op", "project"}, {"exprs", exprs}, {"children", {child.node}}};
  out.same = sameAfter(child.same, renames);
  return out;
}

std::optional<Importer::Built> Importer::filter(const ShapeNode& n, Built child) {
  size_t end = 0;
  const std::string text = balanced(n.text, n.text.find('('), end);
  std::string why;
  auto e = parseDorisExpr(text, over(child.cols, &child.same), why);
  if (!e) {
    loss(n, "cannot read the filter \"" + clip(text) + "\" (" + why + "): left out");
    return child;
  }
  Built out;
  out.node =
      Json{{"id", newId(n)}, {"op", "filter"}, {"predicate", *e}, {"children", {child.node}}};
  out.cols = std::move(child.cols);
  out.same = std::move(child.same);
  return out;
}

std::optional<Importer::Built> Importer::aggregate(const ShapeNode& n, Built child,
                                                   const std::set<std::string>& used) {
  // The shape prints neither keys nor aggregates: the keys are the child's
  // columns the operators above read of it outside aggregate calls (a column
  // above an aggregate is one of its keys); the aggregates are the calls the
  // operators above print (`sum(l_quantity)` in a HAVING filter) that read
  // the child; aggregates nothing above reads are left out.
  const int id = newId(n);
  Built out;
  Json keys = Json::array(), aggs = Json::array();
  std::vector<std::pair<std::string, std::string>> renames;
  std::string names;
  for (const auto& c : child.cols) {
    if (!used.count(c.name) && !used.count(c.qual + "." + c.name)) continue;
    Col k = c;
    k.id = "g" + std::to_string(id) + "." + std::to_string(keys.size()) + "_" + alnum(c.name);
    keys.push_back({{"name", k.id}, {"expr", {{"column", c.id}}}});
    renames.emplace_back(c.id, k.id);
    names += (names.empty() ? "" : ", ") + c.name;
    out.cols.push_back(k);
  }
  const Resolver resolve = over(child.cols, &child.same);
  for (const auto& u : used) {
    if (u.rfind(kAggregateMark, 0) != 0) continue;
    const std::string call = u.substr(kAggregateMark.size());
    const size_t open = call.find('(');
    std::string func = call.substr(0, open), args = call.substr(open + 1);
    args.pop_back();  // ')'
    for (char& ch : func) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    bool distinct = false;
    if (args.rfind("DISTINCT ", 0) == 0 || args.rfind("distinct ", 0) == 0)
      distinct = true, args = args.substr(9);
    Json agg = {{"name", "g" + std::to_string(id) + ".a" + std::to_string(aggs.size())},
                {"func", func}};
    if (func == "count" && trim(args) == "*") {
      agg["args"] = Json::array();
    } else {
      std::string why;
      auto e = parseDorisExpr(args, resolve, why);
      if (!e) continue;  // an aggregate of another input
      agg["args"] = Json::array({*e});
    }
    if (distinct) agg["distinct"] = true;
    out.cols.push_back({agg["name"], u, "", "unknown"});
    aggs.push_back(agg);
  }
  loss(n, "hashAgg prints neither its group keys nor its aggregates: grouped by the " +
              std::to_string(keys.size()) + " columns the operators above name" +
              (names.empty() ? "" : " (" + names + ")") + ", with the " +
              std::to_string(aggs.size()) + " aggregates they read");
  out.node = Json{
      {"id", id}, {"op", "aggregate"}, {"keys", keys}, {"aggs", aggs}, {"children", {child.node}}};
  out.same = sameAfter(child.same, renames);
  return out;
}

}  // namespace rfguard::doris_import
