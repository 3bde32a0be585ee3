// The tables of a counterexample script: CREATE TABLE with the column types
// and the constraints of the schema, then the rows, referenced tables first.
#include <functional>
#include <set>

#include "verifier/plan_sql.h"
#include "verifier/plan_sql_printer.h"

namespace rfguard {

using plan_sql::Printer;
using plan_sql::q;

void collectSqlTypes(const PlanNode& plan, SqlTableTypes& out) {
  forEachNode(plan, [&](const PlanNode& n) {
    if (n.op != PlanOp::Scan) return;
    auto bare = [&](const ColumnId& id) { return id.substr(n.alias.size() + 1); };
    for (const auto& c : n.tableColumns) {
      const Type& t = c.type;
      const char* sql = t.kind == TypeKind::Boolean                 ? "BOOLEAN"
                        : t.isInteger() || t.kind == TypeKind::Date ? "BIGINT"
                        : t.isNumeric()                             ? "DOUBLE"
                        : t.isString() || t.isTemporal()            ? "VARCHAR"
                                                                    : nullptr;
      if (sql) out[n.table][bare(c.id)] = sql;
    }
    auto list = [&](const std::vector<ColumnId>& ids) {
      std::string cols;
      for (const auto& id : ids) cols += (cols.empty() ? "" : ", ") + q(bare(id));
      return cols;
    };
    std::string constraints =
        n.primaryKey.empty() ? "" : "PRIMARY KEY (" + list(n.primaryKey) + ")";
    for (const auto& set : n.uniqueKeys)
      constraints += (constraints.empty() ? "" : ", ") + std::string("UNIQUE (") + list(set) + ")";
    SqlFilters plain;
    for (const auto& check : n.checks) {
      Printer p{plain, "", 0, {}, {}, {}, {}, {}};
      for (const auto& c : n.tableColumns) p.rename[c.id] = q(bare(c.id));
      const std::string sql = p.ex(*check);
      // A CHECK without a form in SQL is left out: the database satisfies it anyway.
      if (p.why.empty())
        constraints += std::string(constraints.empty() ? "" : ", ") + "CHECK (" + sql + ")";
    }
    if (!constraints.empty()) out[n.table][""] = constraints;
    for (const auto& fk : n.foreignKeys) {
      std::string refs;
      for (const auto& c : fk.refColumns) refs += (refs.empty() ? "" : ", ") + q(c);
      std::string& clause = out[n.table][kReferencePrefix + fk.refTable];
      const std::string one = "FOREIGN KEY (" + list(fk.columns) + ") REFERENCES " +
                              sqlIdentifier(fk.refTable) + " (" + refs + ")";
      if (clause.find(one) == std::string::npos) clause += (clause.empty() ? "" : ", ") + one;
    }
  });
}

std::vector<std::string> referenceOrder(const rt::Database& db, const SqlTableTypes& types) {
  std::vector<std::string> order;
  std::set<std::string> done, open;
  std::function<void(const std::string&)> visit = [&](const std::string& name) {
    if (done.count(name) || !open.insert(name).second) return;  // a cycle: broken here
    if (auto known = types.find(name); known != types.end())
      for (const auto& [key, clause] : known->second)
        if (key.rfind(kReferencePrefix, 0) == 0) {
          const std::string parent = key.substr(kReferencePrefix.size());
          if (parent != name && db.count(parent)) visit(parent);
        }
    done.insert(name);
    order.push_back(name);
  };
  for (const auto& [name, t] : db) visit(name);
  return order;
}

std::string databaseToSql(const rt::Database& db, const SqlTableTypes& types, bool create) {
  std::string out;
  for (const std::string& name : referenceOrder(db, types)) {
    const rt::Table& t = db.at(name);
    auto known = types.find(name);
    std::string cols;
    for (const auto& c : t.columns) {
      cols += (cols.empty() ? "" : ", ") + q(c);
      if (known == types.end()) continue;
      if (auto it = known->second.find(c); it != known->second.end()) cols += " " + it->second;
    }
    std::string notes;
    if (known != types.end())
      for (const auto& [key, clause] : known->second) {
        if (key.empty()) cols += ", " + clause;
        if (key.rfind(kReferencePrefix, 0) != 0) continue;
        const std::string parent = key.substr(kReferencePrefix.size());
        if (db.count(parent))
          cols += ", " + clause;
        else
          notes += "-- " + clause + ": left out, no query reads " + parent +
                   " (rows holding the referenced keys complete the database)\n";
      }
    if (create) out += notes + "CREATE TABLE " + q(name) + " (" + cols + ");\n";
    for (const auto& r : t.rows) {
      std::string vals;
      for (const auto& v : r)
        vals +=
            (vals.empty() ? "" : ", ") + rt::sqlLiteral(v, std::holds_alternative<std::string>(v)
                                                               ? Type::of(TypeKind::Varchar)
                                                               : Type::of(TypeKind::Int));
      out += "INSERT INTO " + q(name) + " VALUES (" + vals + ");\n";
    }
  }
  return out;
}

std::string databaseToSqlite(const rt::Database& db) {
  return databaseToSql(db, {});
}

}  // namespace rfguard
