#pragma once
// Oracles: the same databases and queries run in a real database, whose answers
// must equal the evaluator's. SQLite is built in; other engines (DuckDB) plug in
// through SqlOracle from engines/, so that the verifier does not link them.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"
#include "verifier/plan_sql.h"

struct sqlite3;
struct sqlite3_stmt;

namespace rfguard {

class SqlOracle {
 public:
  virtual ~SqlOracle() = default;
  /// "SQLite", "DuckDB": how outputs name it.
  virtual std::string name() const = 0;
  /// How the SQL it is given is spelled (verifier/plan_sql.h); null: SQLite's.
  virtual const SqlSpelling* spelling() const = 0;
  /// Replaces the tables by `db`'s (columns typed by `types` where known).
  virtual bool load(const rt::Database& db, const SqlTableTypes& types, std::string& error) = 0;
  /// Runs a query over the loaded tables; booleans come back as 0/1.
  virtual bool query(const std::string& sql, std::vector<rt::Row>& rows, std::string& error) = 0;
};

/// Makes a fresh oracle (one per search), or null with `error`.
using OracleFactory = std::function<std::unique_ptr<SqlOracle>(std::string& error)>;

class SqliteOracle : public SqlOracle {
 public:
  SqliteOracle();
  ~SqliteOracle() override;
  SqliteOracle(const SqliteOracle&) = delete;
  SqliteOracle& operator=(const SqliteOracle&) = delete;

  std::string name() const override { return "SQLite"; }
  const SqlSpelling* spelling() const override { return nullptr; }
  /// Replaces the tables by `db`'s. False with `error` on failure.
  bool load(const rt::Database& db, std::string& error) { return load(db, {}, error); }
  bool load(const rt::Database& db, const SqlTableTypes& types, std::string& error) override;
  /// Runs a query over the loaded tables.
  bool query(const std::string& sql, std::vector<rt::Row>& rows, std::string& error) override;

 private:
  bool exec(const std::string& sql, std::string& error);
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> inserts_;     ///< per table
  std::map<std::string, sqlite3_stmt*> statements_;  ///< prepared queries, by text
};

}  // namespace rfguard
