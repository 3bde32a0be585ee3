#include "tools/cli/engine_oracle.h"

#include "engines/adapter.h"

namespace rfguard::engine {

namespace {

/// One engine cell as the evaluator's value, by the engine's column type.
rt::Value cellValue(const Cell& c, const std::string& type) {
  if (!c) return rt::null();
  if (type == "BOOLEAN") return rt::boolean(*c == "true");
  const bool integer = type == "TINYINT" || type == "SMALLINT" || type == "INTEGER" ||
                       type == "BIGINT" || type == "HUGEINT";
  try {
    if (integer) return rt::Value(static_cast<int64_t>(std::stoll(*c)));
    if (type == "DOUBLE" || type == "FLOAT" || type.rfind("DECIMAL", 0) == 0)
      return rt::Value(std::stod(*c));
  } catch (const std::exception&) {  // out of range (a HUGEINT sum): compare as text
  }
  return rt::Value(*c);
}

class EngineOracle final : public SqlOracle {
 public:
  EngineOracle(const Adapter& adapter, std::unique_ptr<Engine> e)
      : adapter_(adapter), engine_(std::move(e)) {}
  std::string name() const override { return adapter_.displayName(); }
  const SqlSpelling* spelling() const override { return adapter_.spelling(); }

  bool load(const rt::Database& db, const SqlTableTypes& types, std::string& error) override {
    // The tables are created once, typed; each database replaces their rows,
    // emptied referencing tables first (engines check foreign keys).
    std::string sql;
    rt::Database fresh;
    const std::vector<std::string> order = referenceOrder(db, types);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (created_.insert(*it).second)
        fresh[*it] = rt::Table{db.at(*it).columns, {}};
      else
        sql += "DELETE FROM " + sqlIdentifier(*it) + ";\n";
    }
    sql = databaseToSql(fresh, types) + sql + databaseToSql(db, types, false);
    if (!engine_->execute(sql, nullptr, error)) return error = name() + ": " + error, false;
    return true;
  }

  bool query(const std::string& sql, std::vector<rt::Row>& rows, std::string& error) override {
    Result r;
    if (!engine_->execute(sql, &r, error)) return error = name() + ": " + error, false;
    rows.clear();
    for (const auto& cells : r.rows) {
      rt::Row row;
      for (size_t i = 0; i < cells.size(); ++i) row.push_back(cellValue(cells[i], r.types[i]));
      rows.push_back(std::move(row));
    }
    return true;
  }

 private:
  const Adapter& adapter_;
  std::unique_ptr<Engine> engine_;
  std::set<std::string> created_;
};

}  // namespace

std::unique_ptr<SqlOracle> openOracle(const std::string& name, std::string& error) {
  const Adapter* adapter = findAdapter(name);
  if (!adapter) return error = "unknown engine \"" + name + "\"", nullptr;
  Options o;
  o.threads = 1;  // tiny databases: one thread, no scheduling noise
  std::unique_ptr<Engine> e = adapter->open(o, error);
  if (!e) return nullptr;
  return std::make_unique<EngineOracle>(*adapter, std::move(e));
}

bool oracleAvailable(const std::string& name, std::string& why) {
  if (name == "sqlite" || name == "none" || name.empty()) return true;
  return openOracle(name, why) != nullptr;
}

OracleFactory oracleFactory(const std::string& name) {
  if (name == "sqlite" || name == "none" || name.empty()) return {};
  return [name](std::string& error) { return openOracle(name, error); };
}

}  // namespace rfguard::engine
