// Planning speed side by side (issue 16's harness): per TPC-H query, rfguard's
// in-process pipeline (parse + bind, normalise, place and verify filters),
// PostgreSQL's planning time (`Planning Time` of EXPLAIN (SUMMARY ON) over a warm
// session, on a throwaway cluster started from Debian's postgresql package when
// it is installed) and DuckDB's EXPLAIN through its C API (when linked), all in
// one run; per query medians, then the medians over queries and their ratios.
//
//   build/bench_planning [--repetitions N] [--sql FILE] [--no-postgres] [--no-duckdb]
//
// Times are wall-clock medians of N warm repetitions (default 30), in
// microseconds. Nothing here is a test: it prints and exits 0 unless a query
// fails to plan somewhere (exit 1) or the input is bad (exit 2).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include <dlfcn.h>
#include <unistd.h>

#include "engines/duckdb/schema_sql.h"
#include "engines/engine.h"
#include "grammar/sql.h"
#include "pipeline/session.h"

#ifdef RFGUARD_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

using namespace rfguard;
using Clock = std::chrono::steady_clock;

namespace {

double micros(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// The malloc in use: rfguard's own executable links mimalloc, the library
/// leaves it to its host; `make bench` runs this tool both ways.
std::string allocatorName() {
  using Version = int (*)();
  if (auto v = reinterpret_cast<Version>(dlsym(RTLD_DEFAULT, "mi_version")))
    return "allocator: mimalloc " + std::to_string(v());
  return "allocator: the C library's malloc";
}

/// A corpus file split as the bundled TPC-H script is written: the schema before
/// the first "-- name: ", then one chunk per query; CREATE VIEW statements are
/// set aside (every system creates them once, with the schema).
struct Corpus {
  std::string schema;
  std::vector<std::string> views;
  std::vector<std::pair<std::string, std::string>> queries;  ///< name, SQL
};

Corpus split(const std::string& text) {
  Corpus c;
  const size_t first = text.find("-- name: ");
  c.schema = text.substr(0, first);
  for (size_t pos = first; pos != std::string::npos;) {
    const size_t next = text.find("-- name: ", pos + 1);
    std::string chunk =
        text.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    const std::string name = chunk.substr(9, chunk.find('\n') - 9);
    std::smatch m;
    static const std::regex view(R"((create|CREATE) (view|VIEW)[^;]*;)");
    while (std::regex_search(chunk, m, view)) {
      c.views.push_back(m.str());
      chunk = m.prefix().str() + m.suffix().str();
    }
    c.queries.push_back({name, chunk});
    pos = next;
  }
  return c;
}

struct Row {
  std::string name;
  double parseBind = 0, normalise = 0, filters = 0, total = 0;
  std::optional<double> postgres, duckdb;
};

/// rfguard in-process: the catalog (schema and views) is loaded once; each
/// repetition loads the query over it, normalises, places filters and verifies.
bool timeRfguard(const Corpus& c, int reps, std::vector<Row>& rows) {
  Catalog base;
  std::vector<Query> none;
  Diagnostics d;
  std::string ddl = c.schema;
  for (const auto& v : c.views) ddl += v + "\n";
  if (!loadSql(ddl, "schema.sql", base, none, d)) {
    std::cerr << d.render();
    return false;
  }
  bool ok = true;
  for (const auto& [name, sql] : c.queries) {
    Row r;
    r.name = name;
    std::vector<double> pb, nm, fl, tot;
    for (int i = 0; i <= reps; ++i) {  // the first is the warm-up
      Session s;
      Diagnostics diags;
      auto t0 = Clock::now();
      if (!s.loadAs(sql, name + ".sql", false, diags, base)) {
        std::cerr << name << ": rfguard: " << diags.render();
        ok = false;
        break;
      }
      auto t1 = Clock::now();
      s.normalize();
      auto t2 = Clock::now();
      s.placeFilters();
      size_t findings = 0;
      for (const auto& q : s.queries()) findings += s.verify(q).size();
      auto t3 = Clock::now();
      if (findings) std::cerr << name << ": rfguard: " << findings << " findings\n";
      if (!i) continue;
      pb.push_back(micros(t0, t1));
      nm.push_back(micros(t1, t2));
      fl.push_back(micros(t2, t3));
      tot.push_back(micros(t0, t3));
    }
    r.parseBind = median(pb);
    r.normalise = median(nm);
    r.filters = median(fl);
    r.total = median(tot);
    rows.push_back(r);
  }
  return ok;
}

/// A query as PostgreSQL parses it: SQL-standard interval leading-field
/// precisions (`interval '90' day (3)`) dropped.
std::string postgresQuery(const std::string& sql) {
  static const std::regex precision(
      R"((interval\s*'[^']*'\s*(year|month|day|hour|minute|second))\s*\(\s*[0-9]+\s*\))",
      std::regex::icase);
  return std::regex_replace(sql, precision, "$1");
}

/// PostgreSQL's DDL: rfguard's table options (`WITH (rows = N, ...)`) dropped.
std::string postgresDdl(const Corpus& c) {
  static const std::regex options(R"(\)\s*WITH\s*\([^;]*\)\s*;)", std::regex::icase);
  std::string ddl = std::regex_replace(c.schema, options, ");");
  for (const auto& v : c.views) ddl += v + "\n";
  return ddl;
}

#ifdef RFGUARD_HAVE_LIBPQ
/// A throwaway cluster on a Unix socket in a temporary directory, stopped and
/// removed on destruction. As root, the server runs as the `postgres` user.
class Cluster {
 public:
  ~Cluster() {
    if (conn_) PQfinish(conn_);
    if (started_) run("pg_ctl -D " + dir_ + "/data -w -m immediate stop >/dev/null 2>&1");
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  bool start(std::string& why) {
    bin_ = findBin();
    if (bin_.empty()) return why = "no initdb found (Debian: apt-get install postgresql)", false;
    char tmpl[] = "/tmp/rfguard-pg-XXXXXX";
    if (!mkdtemp(tmpl)) return why = "cannot create a temporary directory", false;
    dir_ = tmpl;
    if (geteuid() == 0) {
      if (std::system(("chown postgres " + dir_ + " 2>/dev/null").c_str()) != 0)
        return why = "running as root and there is no postgres user to run the server", false;
      asUser_ = "runuser -u postgres -- ";
    }
    if (!run("initdb -D " + dir_ + "/data -A trust -U postgres --no-sync >" + dir_ +
             "/initdb.log 2>&1"))
      return why = "initdb failed (" + dir_ + "/initdb.log)", false;
    started_ = run("pg_ctl -D " + dir_ + "/data -w -l " + dir_ + "/server.log -o \"-k " + dir_ +
                   " -c listen_addresses='' -F\" start >/dev/null 2>&1");
    if (!started_) return why = "the server did not start (" + dir_ + "/server.log)", false;
    conn_ = PQconnectdb(("host=" + dir_ + " dbname=postgres user=postgres").c_str());
    if (PQstatus(conn_) != CONNECTION_OK) return why = PQerrorMessage(conn_), false;
    return true;
  }

  bool exec(const std::string& sql, std::string& why, std::vector<std::string>* lines = nullptr) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const auto st = PQresultStatus(r);
    const bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
    if (!ok) why = PQresultErrorMessage(r);
    if (ok && lines)
      for (int i = 0; i < PQntuples(r); ++i) lines->push_back(PQgetvalue(r, i, 0));
    PQclear(r);
    return ok;
  }

 private:
  static std::string findBin() {
    for (const auto& dir : {"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin",
                            "/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/14/bin"})
      if (std::filesystem::exists(std::string(dir) + "/initdb")) return dir;
    return "";
  }
  bool run(const std::string& cmd) {
    return std::system((asUser_ + bin_ + "/" + cmd).c_str()) == 0;
  }

  std::string bin_, dir_, asUser_;
  bool started_ = false;
  PGconn* conn_ = nullptr;
};

void timePostgres(const Corpus& c, int reps, std::vector<Row>& rows, bool& ok) {
  Cluster pg;
  std::string why;
  if (!pg.start(why) || !pg.exec(postgresDdl(c), why)) {
    std::cout << "PostgreSQL: skipped (" << why << ")\n";
    return;
  }
  std::vector<std::string> version;
  pg.exec("SHOW server_version", why, &version);
  std::cout << "PostgreSQL " << (version.empty() ? "?" : version[0])
            << ": planning time of EXPLAIN (SUMMARY ON), warm session\n";
  static const std::regex planning(R"(Planning Time: ([0-9.]+) ms)");
  for (size_t q = 0; q < c.queries.size(); ++q) {
    std::vector<double> ms;
    for (int i = 0; i <= reps; ++i) {
      std::vector<std::string> lines;
      if (!pg.exec("EXPLAIN (SUMMARY ON) " + postgresQuery(c.queries[q].second), why, &lines)) {
        std::cerr << c.queries[q].first << ": PostgreSQL: " << why;
        ok = false;
        break;
      }
      std::smatch m;
      for (const auto& l : lines)
        if (i && std::regex_search(l, m, planning)) ms.push_back(std::stod(m[1]) * 1000);
    }
    if (!ms.empty()) rows[q].postgres = median(ms);
  }
}
#endif

void timeDuckDb(const Corpus& c, int reps, std::vector<Row>& rows, bool& ok) {
  std::string why;
  auto e = engine::open("duckdb", engine::Options{2}, why);
  if (!e) {
    std::cout << "DuckDB: skipped (" << why << ")\n";
    return;
  }
  Catalog catalog;
  std::vector<Query> none;
  Diagnostics d;
  loadSql(c.schema, "schema.sql", catalog, none, d);
  for (const auto& [name, t] : catalog.tables())
    if (!e->execute(duckdb_import::createTableSql(t), nullptr, why)) {
      std::cout << "DuckDB: skipped (" << why << ")\n";
      return;
    }
  for (const auto& v : c.views)
    if (!e->execute(duckdb_import::duckdbDialect(v), nullptr, why)) {
      std::cout << "DuckDB: skipped (" << why << ")\n";
      return;
    }
  std::cout << "DuckDB " << e->version() << ": EXPLAIN (JSON) through the C API, warm\n";
  for (size_t q = 0; q < c.queries.size(); ++q) {
    const std::string sql = duckdb_import::duckdbDialect(c.queries[q].second);
    std::vector<double> us;
    for (int i = 0; i <= reps; ++i) {
      std::string plan;
      auto t0 = Clock::now();
      if (!e->explain(sql, plan, why)) {
        std::cerr << c.queries[q].first << ": DuckDB: " << why << "\n";
        ok = false;
        break;
      }
      if (i) us.push_back(micros(t0, Clock::now()));
    }
    if (!us.empty()) rows[q].duckdb = median(us);
  }
}

std::string cell(std::optional<double> v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%10.1f", v ? *v : 0.0);
  return v ? buf : "         -";
}

}  // namespace

int main(int argc, char** argv) {
  // A preloaded allocator (make bench's second run) is for rfguard alone: the
  // PostgreSQL server this starts keeps its own.
  unsetenv("LD_PRELOAD");
  int reps = 30;
  std::string file = RFGUARD_SOURCE_DIR "/corpus/examples/tpch.sql";
  bool postgres = true, duckdb = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repetitions" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--sql" && i + 1 < argc)
      file = argv[++i];
    else if (a == "--no-postgres")
      postgres = false;
    else if (a == "--no-duckdb")
      duckdb = false;
    else {
      std::cerr << "usage: bench_planning [--repetitions N] [--sql FILE] [--no-postgres] "
                   "[--no-duckdb]\n";
      return 2;
    }
  }
  std::ifstream in(file);
  if (!in) {
    std::cerr << file << ": cannot open\n";
    return 2;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const Corpus c = split(buf.str());
  if (c.queries.empty()) {
    std::cerr << file << ": no \"-- name: \" queries\n";
    return 2;
  }
  std::vector<Row> rows;
  bool ok = timeRfguard(c, reps, rows);
  std::cout << "rfguard: " << c.queries.size() << " queries of " << file << ", " << reps
            << " warm repetitions each, catalog loaded once, " << allocatorName() << "\n";
#ifdef RFGUARD_HAVE_LIBPQ
  if (postgres) timePostgres(c, reps, rows, ok);
#else
  if (postgres) std::cout << "PostgreSQL: skipped (built without libpq: libpq-dev)\n";
#endif
  if (duckdb) timeDuckDb(c, reps, rows, ok);

  std::cout << "\nmedian microseconds per query\n"
            << "query     parse+bind  normalise  filters+verify  rfguard   postgres    duckdb"
               "   rf/pg  filt/pg   rf/duck\n";
  std::vector<double> cols[7];
  auto ratio = [](double a, std::optional<double> b) {
    char out[16];
    std::snprintf(out, sizeof out, "%8.2f", b && *b > 0 ? a / *b : 0.0);
    return b ? std::string(out) : std::string("       -");
  };
  for (const auto& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "%-8s %11.1f %10.1f %15.1f %8.1f ", r.name.c_str(),
                  r.parseBind, r.normalise, r.filters, r.total);
    std::cout << line << cell(r.postgres) << cell(r.duckdb) << ratio(r.total, r.postgres) << " "
              << ratio(r.filters, r.postgres) << "  " << ratio(r.total, r.duckdb) << "\n";
    cols[0].push_back(r.parseBind);
    cols[1].push_back(r.normalise);
    cols[2].push_back(r.filters);
    cols[3].push_back(r.total);
    if (r.postgres) cols[4].push_back(*r.postgres);
    if (r.duckdb) cols[5].push_back(*r.duckdb);
  }
  auto med = [&](int i) { return cols[i].empty() ? std::optional<double>() : median(cols[i]); };
  char line[160];
  std::snprintf(line, sizeof line, "%-8s %11.1f %10.1f %15.1f %8.1f ", "median", *med(0), *med(1),
                *med(2), *med(3));
  std::cout << line << cell(med(4)) << cell(med(5)) << ratio(*med(3), med(4)) << " "
            << ratio(*med(2), med(4)) << "  " << ratio(*med(3), med(5)) << "\n"
            << "(ratios of the medians: rf/pg = rfguard's whole pipeline over PostgreSQL's "
               "planning, filt/pg = placing + verifying filters over it)\n";
  return ok ? 0 : 1;
}
