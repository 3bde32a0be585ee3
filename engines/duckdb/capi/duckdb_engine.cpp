#include "engines/duckdb/capi/duckdb_engine.h"

#include "engines/duckdb/adapter.h"

#include <dlfcn.h>
#include <duckdb.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <vector>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ir/watchdog.h"

namespace rfguard::engine {

namespace {

// DuckDB's C API, loaded on first use with dlopen. Linked, libduckdb.so (80,000
// relocations, bound at load) cost every rfguard process about 20 ms before
// main, whether it ran DuckDB or not. The library is opened by path (see
// candidates()), then by name through LD_LIBRARY_PATH and the system's paths.
#define RFGUARD_DUCKDB_FUNCTIONS(X) \
  X(duckdb_close)                   \
  X(duckdb_column_count)            \
  X(duckdb_column_logical_type)     \
  X(duckdb_column_name)             \
  X(duckdb_connect)                 \
  X(duckdb_create_config)           \
  X(duckdb_decimal_scale)           \
  X(duckdb_decimal_width)           \
  X(duckdb_destroy_config)          \
  X(duckdb_destroy_logical_type)    \
  X(duckdb_destroy_result)          \
  X(duckdb_disconnect)              \
  X(duckdb_free)                    \
  X(duckdb_get_type_id)             \
  X(duckdb_interrupt)               \
  X(duckdb_library_version)         \
  X(duckdb_open_ext)                \
  X(duckdb_query)                   \
  X(duckdb_result_error)            \
  X(duckdb_row_count)               \
  X(duckdb_set_config)              \
  X(duckdb_value_is_null)           \
  X(duckdb_value_varchar)

struct Api {
#define RFGUARD_DUCKDB_POINTER(name) decltype(&::name) name = nullptr;
  RFGUARD_DUCKDB_FUNCTIONS(RFGUARD_DUCKDB_POINTER)
#undef RFGUARD_DUCKDB_POINTER
  std::string error;  ///< why the library could not be loaded; empty when it was
};

/// Where libduckdb.so may be, in order. Explicit paths, because dlopen's own
/// search uses the RUNPATH of its caller, which under a sanitizer's dlopen
/// interceptor is the sanitizer's library, not rfguard.
std::vector<std::string> candidates() {
  const char* configured = std::getenv("RFGUARD_DUCKDB_LIBRARY");
  if (configured && *configured) return {configured};
  std::vector<std::string> out;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {  // installed: <prefix>/bin/rfguard and <prefix>/<libdir>/libduckdb.so
    const std::string path(exe, static_cast<size_t>(n));
    const std::string dir = path.substr(0, path.rfind('/'));
    out.push_back(dir + "/../" + RFGUARD_INSTALL_LIBDIR + "/libduckdb.so");
  }
  out.push_back(RFGUARD_DUCKDB_BUILD_LIBRARY);  // the copy the build found
  out.push_back("libduckdb.so");                // LD_LIBRARY_PATH and the system's
  return out;
}

Api loadApi() {
  Api a;
  void* lib = nullptr;
  std::string path, tried, why;
  for (const auto& c : candidates()) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      path = c;
      break;
    }
    const char* e = dlerror();
    tried += (tried.empty() ? "" : ", ") + c;
    // The reason that matters is the one of a library that is there.
    if (why.empty() || access(c.c_str(), F_OK) == 0) why = e ? e : "unknown error";
  }
  if (!lib) {
    a.error = "cannot load DuckDB (" + tried + "): " + why +
              "; set RFGUARD_DUCKDB_LIBRARY to a libduckdb.so";
    return a;
  }
#define RFGUARD_DUCKDB_LOAD(name)                                             \
  a.name = reinterpret_cast<decltype(a.name)>(dlsym(lib, #name));             \
  if (!a.name) {                                                              \
    a.error = "cannot load DuckDB (" + path + "): it has no function " #name; \
    return a;                                                                 \
  }
  RFGUARD_DUCKDB_FUNCTIONS(RFGUARD_DUCKDB_LOAD)
#undef RFGUARD_DUCKDB_LOAD
  return a;
}

const Api& api() {
  static const Api loaded = loadApi();
  return loaded;
}

/// A materialised result, destroyed with its scope.
struct ResultGuard {
  duckdb_result r{};
  ~ResultGuard() { api().duckdb_destroy_result(&r); }
};

std::string typeName(duckdb_result& r, idx_t col) {
  duckdb_logical_type t = api().duckdb_column_logical_type(&r, col);
  std::string name;
  switch (api().duckdb_get_type_id(t)) {
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
      name = "DECIMAL(" + std::to_string(api().duckdb_decimal_width(t)) + "," +
             std::to_string(api().duckdb_decimal_scale(t)) + ")";
      break;
    default:
      name = "OTHER";
      break;
  }
  api().duckdb_destroy_logical_type(&t);
  return name;
}

void collect(duckdb_result& r, Result& out) {
  out = Result{};
  idx_t cols = api().duckdb_column_count(&r);
  for (idx_t c = 0; c < cols; ++c) {
    out.columns.emplace_back(api().duckdb_column_name(&r, c));
    out.types.push_back(typeName(r, c));
  }
  idx_t rows = api().duckdb_row_count(&r);
  out.rows.reserve(rows);
  for (idx_t i = 0; i < rows; ++i) {
    std::vector<Cell> row;
    row.reserve(cols);
    for (idx_t c = 0; c < cols; ++c) {
      if (api().duckdb_value_is_null(&r, c, i)) {
        row.emplace_back(std::nullopt);
        continue;
      }
      char* v = api().duckdb_value_varchar(&r, c, i);
      row.emplace_back(std::string(v ? v : ""));
      api().duckdb_free(v);
    }
    out.rows.push_back(std::move(row));
  }
}

std::string secondsText(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

class DuckDb final : public Engine {
 public:
  ~DuckDb() override {
    if (con_) api().duckdb_disconnect(&con_);
    if (db_) api().duckdb_close(&db_);
    if (!profilePath_.empty()) std::remove(profilePath_.c_str());
  }

  bool open(const Options& options, std::string& error) {
    duckdb_config config;
    if (api().duckdb_create_config(&config) == DuckDBError) {
      error = "DuckDB: cannot create a configuration";
      return false;
    }
    api().duckdb_set_config(config, "threads", std::to_string(options.threads).c_str());
    if (options.memoryLimitMb > 0)
      api().duckdb_set_config(config, "memory_limit",
                              (std::to_string(options.memoryLimitMb) + "MB").c_str());
    timeoutSeconds_ = options.timeoutSeconds;
    char* err = nullptr;
    bool ok = api().duckdb_open_ext(nullptr, &db_, config, &err) == DuckDBSuccess;
    api().duckdb_destroy_config(&config);
    if (!ok) {
      error = std::string("DuckDB: cannot open an in-memory database: ") + (err ? err : "");
      api().duckdb_free(err);
      return false;
    }
    if (api().duckdb_connect(db_, &con_) == DuckDBError) {
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
  std::string version() const override { return api().duckdb_library_version(); }

  bool setRuntimeFilters(bool on, std::string& error) override {
    return execute(duckDbAdapter().runtimeFiltersStatement(on), nullptr, error);
  }

  bool execute(const std::string& sql, Result* out, std::string& error) override {
    ResultGuard g;
    // A statement over its time is interrupted from a watchdog thread; DuckDB
    // then fails it ("Interrupted!"), said here with the limit.
    std::optional<Watchdog> watchdog;
    if (timeoutSeconds_ > 0)
      watchdog.emplace(timeoutSeconds_, [con = con_] { api().duckdb_interrupt(con); });
    if (api().duckdb_query(con_, sql.c_str(), &g.r) == DuckDBError) {
      const char* e = api().duckdb_result_error(&g.r);
      error = e ? e : "DuckDB refused the statement";
      if (watchdog && watchdog->fired())
        error = "the statement ran over its time limit of " + secondsText(timeoutSeconds_) +
                " (--timeout) and was interrupted";
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
  double timeoutSeconds_ = 0;
};

}  // namespace

std::unique_ptr<Engine> openDuckDb(const Options& options, std::string& error) {
  if (!api().error.empty()) {
    error = api().error;
    return nullptr;
  }
  auto e = std::make_unique<DuckDb>();
  if (!e->open(options, error)) return nullptr;
  return e;
}

}  // namespace rfguard::engine
