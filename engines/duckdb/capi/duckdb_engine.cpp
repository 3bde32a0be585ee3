#include "engines/duckdb/capi/duckdb_engine.h"

#include <duckdb.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace rfguard::engine {

namespace {

/// A materialised result, destroyed with its scope.
struct ResultGuard {
  duckdb_result r{};
  ~ResultGuard() { duckdb_destroy_result(&r); }
};

std::string typeName(duckdb_result& r, idx_t col) {
  duckdb_logical_type t = duckdb_column_logical_type(&r, col);
  std::string name;
  switch (duckdb_get_type_id(t)) {
    case DUCKDB_TYPE_BOOLEAN:
      name = "BOOLEAN";
      break;
    case DUCKDB_TYPE_TINYINT:
      name = "TINYINT";
      break;
    case DUCKDB_TYPE_SMALLINT:
      name = "SMALLINT";
      break;
    case DUCKDB_TYPE_INTEGER:
      name = "INTEGER";
      break;
    case DUCKDB_TYPE_BIGINT:
      name = "BIGINT";
      break;
    case DUCKDB_TYPE_HUGEINT:
      name = "HUGEINT";
      break;
    case DUCKDB_TYPE_FLOAT:
      name = "FLOAT";
      break;
    case DUCKDB_TYPE_DOUBLE:
      name = "DOUBLE";
      break;
    case DUCKDB_TYPE_DATE:
      name = "DATE";
      break;
    case DUCKDB_TYPE_TIMESTAMP:
      name = "TIMESTAMP";
      break;
    case DUCKDB_TYPE_INTERVAL:
      name = "INTERVAL";
      break;
    case DUCKDB_TYPE_VARCHAR:
      name = "VARCHAR";
      break;
    case DUCKDB_TYPE_DECIMAL:
      name = "DECIMAL(" + std::to_string(duckdb_decimal_width(t)) + "," +
             std::to_string(duckdb_decimal_scale(t)) + ")";
      break;
    default:
      name = "OTHER";
      break;
  }
  duckdb_destroy_logical_type(&t);
  return name;
}

void collect(duckdb_result& r, Result& out) {
  out = Result{};
  idx_t cols = duckdb_column_count(&r);
  for (idx_t c = 0; c < cols; ++c) {
    out.columns.emplace_back(duckdb_column_name(&r, c));
    out.types.push_back(typeName(r, c));
  }
  idx_t rows = duckdb_row_count(&r);
  out.rows.reserve(rows);
  for (idx_t i = 0; i < rows; ++i) {
    std::vector<Cell> row;
    row.reserve(cols);
    for (idx_t c = 0; c < cols; ++c) {
      if (duckdb_value_is_null(&r, c, i)) {
        row.emplace_back(std::nullopt);
        continue;
      }
      char* v = duckdb_value_varchar(&r, c, i);
      row.emplace_back(std::string(v ? v : ""));
      duckdb_free(v);
    }
    out.rows.push_back(std::move(row));
  }
}

class DuckDb final : public Engine {
 public:
  ~DuckDb() override {
    if (con_) duckdb_disconnect(&con_);
    if (db_) duckdb_close(&db_);
    if (!profilePath_.empty()) std::remove(profilePath_.c_str());
  }

  bool open(const Options& options, std::string& error) {
    duckdb_config config;
    if (duckdb_create_config(&config) == DuckDBError) {
      error = "DuckDB: cannot create a configuration";
      return false;
    }
    duckdb_set_config(config, "threads", std::to_string(options.threads).c_str());
    char* err = nullptr;
    bool ok = duckdb_open_ext(nullptr, &db_, config, &err) == DuckDBSuccess;
    duckdb_destroy_config(&config);
    if (!ok) {
      error = std::string("DuckDB: cannot open an in-memory database: ") + (err ? err : "");
      duckdb_free(err);
      return false;
    }
    if (duckdb_connect(db_, &con_) == DuckDBError) {
      error = "DuckDB: cannot connect";
      return false;
    }
    // DuckDB picks the profile's format by the file's extension.
    char path[] = "/tmp/rfguard-duckdb-profile-XXXXXX.json";
    int fd = mkstemps(path, 5);
    if (fd < 0) {
      error = "cannot create a temporary file for DuckDB's profile";
      return false;
    }
    close(fd);
    profilePath_ = path;
    return true;
  }

  std::string name() const override { return "duckdb"; }
  std::string version() const override { return duckdb_library_version(); }

  bool execute(const std::string& sql, Result* out, std::string& error) override {
    ResultGuard g;
    if (duckdb_query(con_, sql.c_str(), &g.r) == DuckDBError) {
      const char* e = duckdb_result_error(&g.r);
      error = e ? e : "DuckDB refused the statement";
      return false;
    }
    if (out) collect(g.r, *out);
    return true;
  }

  bool profile(const std::string& sql, Result& out, std::string& planJson,
               std::string& error) override {
    std::remove(profilePath_.c_str());
    if (!execute("PRAGMA enable_profiling='json'", nullptr, error) ||
        !execute("PRAGMA profiling_output='" + profilePath_ + "'", nullptr, error))
      return false;
    bool ok = execute(sql, &out, error);
    std::string ignored;
    execute("PRAGMA disable_profiling", nullptr, ignored);
    if (!ok) return false;
    std::ifstream in(profilePath_);
    std::ostringstream buf;
    buf << in.rdbuf();
    planJson = buf.str();
    if (planJson.empty()) {
      error = "DuckDB wrote no profile for the query";
      return false;
    }
    return true;
  }

  bool explain(const std::string& sql, std::string& planJson, std::string& error) override {
    Result r;
    if (!execute("EXPLAIN (FORMAT JSON) " + sql, &r, error)) return false;
    if (r.rows.empty() || r.rows[0].size() < 2 || !r.rows[0][1]) {
      error = "DuckDB's EXPLAIN returned no plan";
      return false;
    }
    planJson = *r.rows[0][1];
    return true;
  }

  bool tables(std::vector<EngineTable>& out, std::string& error) override {
    Result r;
    if (!execute("SELECT table_name, column_name, data_type, is_nullable "
                 "FROM information_schema.columns WHERE table_schema = 'main' "
                 "ORDER BY table_name, ordinal_position",
                 &r, error))
      return false;
    out.clear();
    for (const auto& row : r.rows) {
      if (out.empty() || out.back().name != *row[0]) out.push_back({*row[0], {}});
      out.back().columns.push_back({*row[1], *row[2], row[3] && *row[3] == "YES"});
    }
    return true;
  }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
  std::string profilePath_;
};

}  // namespace

std::unique_ptr<Engine> openDuckDb(const Options& options, std::string& error) {
  auto e = std::make_unique<DuckDb>();
  if (!e->open(options, error)) return nullptr;
  return e;
}

}  // namespace rfguard::engine
