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
// microseconds. rfguard and PostgreSQL take turns, in up to ten rounds of every
// query (runRounds), so a slow stretch of a shared machine falls on both alike
// and the ratio of the two stays fair (timed one whole run after the other, a
// few seconds of noise during either skewed it by a fifth or more). DuckDB runs
// afterwards: its threads would make every reference count in rfguard's
// process an atomic operation.
// Nothing here is a test: it prints and exits 0 unless a query fails to plan
// somewhere (exit 1) or the input is bad (exit 2).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include <dlfcn.h>
#include <sched.h>

#include "engines/duckdb/schema_sql.h"
#include "engines/engine.h"
#include "grammar/sql.h"
#include "pipeline/session.h"
#include "tools/bench_harness.h"

#ifdef RFGUARD_HAVE_LIBPQ
#include "tools/pg_cluster.h"
#endif

using namespace rfguard;
using namespace rfguard::bench;

namespace {

/// The malloc in use: rfguard's own executable links mimalloc, the library
/// leaves it to its host; `make bench` runs this tool both ways.
std::string allocatorName() {
  using Version = int (*)();
  if (auto v = reinterpret_cast<Version>(dlsym(RTLD_DEFAULT, "mi_version")))
    return "allocator: mimalloc " + std::to_string(v());
  return "allocator: the C library's malloc";
}

struct Row {
  std::string name;
  double parseBind = 0, normalise = 0, filters = 0, total = 0;
  std::optional<double> postgres, duckdb;
};

/// rfguard in-process: the catalog (schema and views) is loaded once; each
/// repetition loads the query over it, normalises, places filters and verifies.
class RfguardTimer {
 public:
  explicit RfguardTimer(const Corpus& c) : c_(c), samples_(c.queries.size()) {}

  bool loadCatalog() {
    std::vector<Query> none;
    Diagnostics d;
    std::string ddl = c_.schema;
    for (const auto& v : c_.views) ddl += v + "\n";
    if (loadSql(ddl, "schema.sql", base_, none, d)) return true;
    std::cerr << d.render();
    return false;
  }

  bool sample(size_t q, bool warmUp) {
    const auto& [name, sql] = c_.queries[q];
    Session s;
    Diagnostics diags;
    auto t0 = Clock::now();
    if (!s.loadAs(sql, name + ".sql", false, diags, base_)) {
      std::cerr << name << ": rfguard: " << diags.render();
      return false;
    }
    auto t1 = Clock::now();
    s.normalize();
    auto t2 = Clock::now();
    s.placeFilters();
    size_t findings = 0;
    for (const auto& r : s.queries()) findings += s.verify(r).size();
    auto t3 = Clock::now();
    if (findings) std::cerr << name << ": rfguard: " << findings << " findings\n";
    if (warmUp) return true;
    auto& m = samples_[q];
    m.parseBind.push_back(micros(t0, t1));
    m.normalise.push_back(micros(t1, t2));
    m.filters.push_back(micros(t2, t3));
    m.total.push_back(micros(t0, t3));
    return true;
  }

  /// One row per query: the medians of its samples.
  std::vector<Row> rows() const {
    std::vector<Row> out;
    for (size_t q = 0; q < c_.queries.size(); ++q) {
      const auto& m = samples_[q];
      out.push_back({c_.queries[q].first, median(m.parseBind), median(m.normalise),
                     median(m.filters), median(m.total), std::nullopt, std::nullopt});
    }
    return out;
  }

 private:
  struct Samples {
    std::vector<double> parseBind, normalise, filters, total;
  };
  const Corpus& c_;
  Catalog base_;
  std::vector<Samples> samples_;
};

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
/// PostgreSQL's planning time of each query, over one warm session.
class PostgresTimer {
 public:
  explicit PostgresTimer(const Corpus& c) : c_(c), ms_(c.queries.size()) {}

  /// Starts the cluster and creates the schema; says why not otherwise.
  bool start() {
    std::string why;
    if (!pg_.start(why) || !pg_.exec(postgresDdl(c_), why)) {
      std::cout << "PostgreSQL: skipped (" << why << ")\n";
      return false;
    }
    std::vector<std::string> version;
    pg_.exec("SHOW server_version", why, &version);
    std::cout << "PostgreSQL " << (version.empty() ? "?" : version[0])
              << ": planning time of EXPLAIN (SUMMARY ON), warm session, in turns with rfguard\n";
    return true;
  }

  bool sample(size_t q, bool warmUp) {
    static const std::regex planning(R"(Planning Time: ([0-9.]+) ms)");
    std::string why;
    std::vector<std::string> lines;
    if (!pg_.exec("EXPLAIN (SUMMARY ON) " + postgresQuery(c_.queries[q].second), why, &lines)) {
      std::cerr << c_.queries[q].first << ": PostgreSQL: " << why;
      return false;
    }
    std::smatch m;
    for (const auto& l : lines)
      if (!warmUp && std::regex_search(l, m, planning)) ms_[q].push_back(std::stod(m[1]) * 1000);
    return true;
  }

  void fill(std::vector<Row>& rows) const {
    for (size_t q = 0; q < rows.size(); ++q)
      if (!ms_[q].empty()) rows[q].postgres = median(ms_[q]);
  }

 private:
  const Corpus& c_;
  bench::Cluster pg_;
  std::vector<std::vector<double>> ms_;
};
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
  RfguardTimer rf(c);
  if (!rf.loadCatalog()) return 1;
  std::cout << "rfguard: " << c.queries.size() << " queries of " << file << ", " << reps
            << " warm repetitions each, catalog loaded once, " << allocatorName() << "\n";
  std::vector<Sampler> samplers{[&](size_t q, bool warmUp) { return rf.sample(q, warmUp); }};
#ifdef RFGUARD_HAVE_LIBPQ
  // rfguard and the server it starts (which inherits the mask) share one CPU:
  // they take turns anyway, and a shared machine's slow stretches, which come
  // and go per CPU, then fall on both (the ratio's spread over runs was three
  // times as wide with each on a CPU of its own).
  cpu_set_t all;
  const bool pinned = postgres && sched_getaffinity(0, sizeof all, &all) == 0;
  if (pinned) {
    cpu_set_t one;
    CPU_ZERO(&one);
    const int cpu = std::max(0, sched_getcpu());
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0)
      std::cout << "rfguard and the PostgreSQL server on CPU " << cpu << "\n";
  }
  std::optional<PostgresTimer> pg;
  if (postgres && pg.emplace(c).start())
    samplers.push_back([&](size_t q, bool warmUp) { return pg->sample(q, warmUp); });
  else
    pg.reset();
#else
  if (postgres) std::cout << "PostgreSQL: skipped (built without libpq: libpq-dev)\n";
#endif
  bool ok = runRounds(c.queries.size(), reps, samplers);
  std::vector<Row> rows = rf.rows();
#ifdef RFGUARD_HAVE_LIBPQ
  if (pg) pg->fill(rows);
  if (pinned) sched_setaffinity(0, sizeof all, &all);  // DuckDB as before, on every CPU
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
