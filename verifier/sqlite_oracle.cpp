#include "verifier/sqlite_oracle.h"

#include <sqlite3.h>

#include "verifier/plan_sql.h"

namespace rfguard {

SqliteOracle::SqliteOracle() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) db_ = nullptr;
  // SQLite's LIKE ignores ASCII case unless told otherwise; SQL's does not.
  if (db_) sqlite3_exec(db_, "PRAGMA case_sensitive_like = ON;", nullptr, nullptr, nullptr);
}

SqliteOracle::~SqliteOracle() {
  for (auto& [sql, st] : statements_) sqlite3_finalize(st);
  for (auto& [name, st] : inserts_) sqlite3_finalize(st);
  if (db_) sqlite3_close(db_);
}

bool SqliteOracle::exec(const std::string& sql, std::string& error) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) == SQLITE_OK) return true;
  error = std::string("SQLite: ") + (msg ? msg : "error");
  sqlite3_free(msg);
  return false;
}

// The schema is created once; each database only replaces the rows, so that
// prepared queries stay valid (a schema change would force SQLite to re-prepare).
bool SqliteOracle::load(const rt::Database& db, const SqlTableTypes& types, std::string& error) {
  if (!db_) return error = "cannot open an in-memory SQLite database", false;
  for (const auto& [name, t] : db) {
    if (inserts_.count(name)) continue;
    std::string cols, marks;
    auto known = types.find(name);
    for (const auto& c : t.columns) {
      cols += (cols.empty() ? "" : ", ") + sqlIdentifier(c);
      if (known != types.end())
        if (auto it = known->second.find(c); it != known->second.end()) cols += " " + it->second;
      marks += marks.empty() ? "?" : ", ?";
    }
    if (!exec("CREATE TABLE " + sqlIdentifier(name) + " (" + cols + ");", error)) return false;
    sqlite3_stmt* st = nullptr;
    std::string ins = "INSERT INTO " + sqlIdentifier(name) + " VALUES (" + marks + ")";
    if (sqlite3_prepare_v2(db_, ins.c_str(), -1, &st, nullptr) != SQLITE_OK)
      return error = std::string("SQLite: ") + sqlite3_errmsg(db_), false;
    inserts_[name] = st;
  }
  if (!exec("BEGIN;", error)) return false;
  for (const auto& [name, t] : db) {
    if (!exec("DELETE FROM " + sqlIdentifier(name) + ";", error)) return false;
    sqlite3_stmt* st = inserts_[name];
    for (const auto& r : t.rows) {
      sqlite3_reset(st);
      for (size_t i = 0; i < r.size(); ++i) {
        int k = static_cast<int>(i) + 1;
        if (auto x = std::get_if<int64_t>(&r[i]))
          sqlite3_bind_int64(st, k, *x);
        else if (auto d = std::get_if<double>(&r[i]))
          sqlite3_bind_double(st, k, *d);
        else if (auto s = std::get_if<std::string>(&r[i]))
          sqlite3_bind_text(st, k, s->c_str(), static_cast<int>(s->size()), SQLITE_TRANSIENT);
        else
          sqlite3_bind_null(st, k);
      }
      if (sqlite3_step(st) != SQLITE_DONE)
        return error = std::string("SQLite: ") + sqlite3_errmsg(db_), false;
    }
  }
  return exec("COMMIT;", error);
}

bool SqliteOracle::query(const std::string& sql, std::vector<rt::Row>& rows, std::string& error) {
  sqlite3_stmt*& st = statements_[sql];
  if (!st && sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    error = std::string("SQLite: ") + sqlite3_errmsg(db_);
    statements_.erase(sql);
    return false;
  }
  sqlite3_reset(st);
  rows.clear();
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    rt::Row r;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER:
          r.push_back(static_cast<int64_t>(sqlite3_column_int64(st, i)));
          break;
        case SQLITE_FLOAT:
          r.push_back(sqlite3_column_double(st, i));
          break;
        case SQLITE_NULL:
          r.push_back(rt::null());
          break;
        default:
          r.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, i))));
      }
    }
    rows.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) error = std::string("SQLite: ") + sqlite3_errmsg(db_);
  return rc == SQLITE_DONE;
}

bool sqliteParses(const std::string& sql) {
  static sqlite3* db = [] {
    sqlite3* d = nullptr;
    return sqlite3_open(":memory:", &d) == SQLITE_OK ? d : nullptr;
  }();
  if (!db) return true;
  sqlite3_stmt* st = nullptr;
  const int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &st, nullptr);
  const bool overflow = rc != SQLITE_OK &&
                        std::string(sqlite3_errmsg(db)).find("stack overflow") != std::string::npos;
  sqlite3_finalize(st);
  return !overflow;
}

}  // namespace rfguard
