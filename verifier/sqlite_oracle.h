#pragma once
// The SQLite oracle: the same databases and queries run in an embedded real
// database, whose answers must equal the evaluator's.
#include <map>
#include <string>
#include <vector>

#include "evaluation/evaluator.h"

struct sqlite3;
struct sqlite3_stmt;

namespace rfguard {

class SqliteOracle {
 public:
  SqliteOracle();
  ~SqliteOracle();
  SqliteOracle(const SqliteOracle&) = delete;
  SqliteOracle& operator=(const SqliteOracle&) = delete;

  /// Replaces the tables by `db`'s. False with `error` on failure.
  bool load(const rt::Database& db, std::string& error);
  /// Runs a query over the loaded tables.
  bool query(const std::string& sql, std::vector<rt::Row>& rows, std::string& error);

 private:
  bool exec(const std::string& sql, std::string& error);
  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> inserts_;     ///< per table
  std::map<std::string, sqlite3_stmt*> statements_;  ///< prepared queries, by text
};

}  // namespace rfguard
