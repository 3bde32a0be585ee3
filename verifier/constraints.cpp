// Integrity constraints checked on a concrete database (the search's and the
// solver's): keys, foreign keys and CHECK constraints.
#include "verifier/constraints.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>

namespace rfguard {

namespace {

/// The index of column `id` of scan `s` in its table's column order, or npos.
size_t indexOf(const PlanNode& s, const std::string& id) {
  for (size_t i = 0; i < s.tableColumns.size(); ++i)
    if (s.tableColumns[i].id == id) return i;
  return std::string::npos;
}

size_t indexOfName(const PlanNode& s, const std::string& bare) {
  return indexOf(s, s.alias + "." + bare);
}

/// A key of the values of `cols` in `row`; false when one of them is NULL.
bool keyOf(const rt::Row& row, const std::vector<size_t>& cols, std::string& out) {
  out.clear();
  for (size_t c : cols) {
    if (rt::isNull(row[c])) return false;
    out += rt::valueKey(row[c]);
    out += '\x1f';
  }
  return true;
}

}  // namespace

TableConstraints::TableConstraints(const std::vector<const PlanNode*>& plans) {
  std::map<std::string, const PlanNode*> scans;  // the first scan of each table
  for (const PlanNode* p : plans)
    forEachNode(*p, [&](const PlanNode& n) {
      if (n.op == PlanOp::Scan) scans.emplace(n.table, &n);
    });
  for (const auto& entry : scans) {
    const PlanNode* s = entry.second;  // (clang 14 lambdas cannot capture a structured binding)
    Table t;
    t.name = entry.first;
    auto indexes = [&](const std::vector<ColumnId>& ids, std::vector<size_t>& out) {
      for (const auto& id : ids) out.push_back(indexOf(*s, id));
      return std::find(out.begin(), out.end(), std::string::npos) == out.end();
    };
    std::vector<size_t> pk;
    if (!s->primaryKey.empty() && indexes(s->primaryKey, pk)) t.distinct.push_back(pk);
    for (const auto& set : s->uniqueKeys) {
      std::vector<size_t> u;
      if (indexes(set, u)) t.distinct.push_back(u);
    }
    for (const auto& fk : s->foreignKeys) {
      auto parent = scans.find(fk.refTable);
      if (parent == scans.end()) continue;
      Reference r{{}, fk.refTable, {}};
      if (!indexes(fk.columns, r.columns)) continue;
      for (const auto& c : fk.refColumns) r.refColumns.push_back(indexOfName(*parent->second, c));
      if (std::find(r.refColumns.begin(), r.refColumns.end(), std::string::npos) ==
          r.refColumns.end())
        t.references.push_back(std::move(r));
    }
    if (!s->checks.empty()) {
      // NOT coalesce(c1 AND c2 ..., TRUE): the rows where some check is FALSE.
      auto scan = std::make_shared<PlanNode>(*s);
      scan->children.clear();
      scan->runtimeFilterTargets.clear();
      scan->scanColumns.clear();
      for (const auto& c : s->tableColumns) scan->scanColumns.push_back(c.id);
      auto filter = std::make_shared<PlanNode>();
      filter->op = PlanOp::Filter;
      filter->children.push_back(scan);
      filter->predicate =
          makeCall("not", {makeCall("coalesce", {makeAnd(s->checks), makeBool(true)})});
      refreshOutputs(*filter);
      assignIds(*filter);
      t.violations = filter;
      t.cache = rt::newEvalCache();
    }
    if (!t.distinct.empty() || !t.references.empty() || t.violations)
      tables_.push_back(std::move(t));
  }
}

bool TableConstraints::admissible(const rt::Database& db) const {
  static const rt::Table kEmpty;
  auto rowsOf = [&](const std::string& name) -> const rt::Table& {
    auto it = db.find(name);
    return it == db.end() ? kEmpty : it->second;
  };
  std::string k;
  for (const Table& t : tables_) {
    const rt::Table& table = rowsOf(t.name);
    if (table.rows.empty()) continue;
    if (table.rows.size() > 1)
      for (const auto& set : t.distinct) {
        std::set<std::string> seen;
        for (const rt::Row& row : table.rows)
          if (keyOf(row, set, k) && !seen.insert(k).second) return false;
      }
    for (const Reference& r : t.references) {
      std::set<std::string> present;
      for (const rt::Row& row : rowsOf(r.table).rows)
        if (keyOf(row, r.refColumns, k)) present.insert(k);
      for (const rt::Row& row : table.rows)
        if (keyOf(row, r.columns, k) && !present.count(k)) return false;
    }
    if (t.violations) {
      rt::EvalOptions o;
      o.cache = t.cache;
      rt::Relation out;
      std::string error;
      // An expression the evaluator cannot compute allows no database: never
      // search outside the schema.
      if (!rt::evaluate(*t.violations, db, o, out, error) || !out.rows.empty()) return false;
    }
  }
  return true;
}

void TableConstraints::keepTables(const std::function<bool(const std::string& table)>& keep) {
  tables_.erase(
      std::remove_if(tables_.begin(), tables_.end(), [&](const Table& t) { return !keep(t.name); }),
      tables_.end());
  for (Table& t : tables_)
    t.references.erase(std::remove_if(t.references.begin(), t.references.end(),
                                      [&](const Reference& r) { return !keep(r.table); }),
                       t.references.end());
}

}  // namespace rfguard
