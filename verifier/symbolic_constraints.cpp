// A table's integrity constraints as constraints of the encoding: keys, CHECK
// constraints, and foreign keys between the tables the plans read.
#include "verifier/symbolic_encode.h"

namespace rfguard::sym {

namespace {

/// The index of bare column `name` in `t`, or -1.
int columnOf(const TableVars& t, const std::string& name) {
  for (size_t j = 0; j < t.columns.size(); ++j)
    if (t.columns[j] == name) return static_cast<int>(j);
  return -1;
}

}  // namespace

Rel Encoder::tableRel(const PlanNode& n, const TableVars& t) {
  Rel rel;
  for (size_t j = 0; j < n.tableColumns.size(); ++j) {
    rel.ids.push_back(n.tableColumns[j].id);
    rel.kinds.push_back(t.kinds[j]);
  }
  rel.rows = t.rows;
  return rel;
}

bool Encoder::tableConstraints(const PlanNode& n, TableVars& t) {
  auto bare = [&](const ColumnId& id) { return std::string(id).substr(n.alias.size() + 1); };
  auto indexes = [&](const std::vector<ColumnId>& ids, std::vector<size_t>& out) {
    for (const auto& id : ids) {
      const int at = columnOf(t, bare(id));
      if (at < 0) return false;
      out.push_back(static_cast<size_t>(at));
    }
    return true;
  };
  // Keys: distinct among present rows; a primary key is never NULL, a UNIQUE
  // set is distinct only among rows where none of its columns is NULL.
  std::vector<std::pair<std::vector<size_t>, bool>> keys;  // columns, primary
  std::vector<size_t> pk;
  if (!n.primaryKey.empty() && indexes(n.primaryKey, pk)) keys.push_back({pk, true});
  for (const auto& set : n.uniqueKeys) {
    std::vector<size_t> u;
    if (indexes(set, u)) keys.push_back({u, false});
  }
  for (const auto& [cols, primary] : keys)
    for (int i = 0; i < bound_; ++i) {
      if (primary)
        for (size_t j : cols) constraints.push_back(!t.rows[i].cols[j].null);
      for (int k = 0; k < i; ++k) {
        z3::expr clash = t.rows[i].present && t.rows[k].present;
        for (size_t j : cols)
          clash = clash && !t.rows[i].cols[j].null && !t.rows[k].cols[j].null &&
                  equal(t.rows[i].cols[j], t.rows[k].cols[j]);
        constraints.push_back(!clash);
      }
    }
  // CHECK: no present row makes one FALSE (NULL passes).
  if (!n.checks.empty()) {
    const Rel rel = tableRel(n, t);
    for (const auto& check : n.checks)
      for (const Row& row : rel.rows) {
        Val v{c_.int_val(0), c_.bool_val(false)};
        Kind k = Kind::Bool;
        if (!value(*check, rel, row, v, k)) {
          gap = "a CHECK constraint of " + n.table + " (" + gap + ")";
          return false;
        }
        constraints.push_back(z3::implies(row.present, !falsity(v)));
      }
  }
  // Foreign keys: linked once every table is made (linkForeignKeys).
  for (const auto& fk : n.foreignKeys) {
    TableVars::Reference r{{}, fk.refTable, fk.refColumns};
    if (!indexes(fk.columns, r.columns)) return fail("a foreign key of " + n.table);
    t.references.push_back(std::move(r));
  }
  return true;
}

void Encoder::linkForeignKeys() {
  for (const auto& [name, t] : tables)
    for (const auto& r : t.references) {
      auto parent = tables.find(r.table);
      if (parent == tables.end()) continue;  // no plan reads it: rows can complete it
      std::vector<size_t> to;
      for (const auto& c : r.refColumns) {
        const int at = columnOf(parent->second, c);
        if (at < 0) break;
        to.push_back(static_cast<size_t>(at));
      }
      if (to.size() != r.columns.size()) continue;
      for (const Row& row : t.rows) {
        z3::expr bound = row.present;
        for (size_t c : r.columns) bound = bound && !row.cols[c].null;
        z3::expr found = c_.bool_val(false);
        for (const Row& p : parent->second.rows) {
          z3::expr match = p.present;
          for (size_t i = 0; i < to.size(); ++i)
            match = match && !p.cols[to[i]].null && equal(row.cols[r.columns[i]], p.cols[to[i]]);
          found = found || match;
        }
        constraints.push_back(z3::implies(bound, found));
      }
    }
}

}  // namespace rfguard::sym
