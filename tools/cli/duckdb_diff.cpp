// `rfguard duckdb diff`: random queries run in DuckDB with join filter
// pushdown on and off; a different result is a wrong-result bug of the
// pushdown. Each difference comes with DuckDB's plan imported and linted and a
// script that reproduces it in DuckDB.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "engines/duckdb/schema_sql.h"
#include "engines/engine.h"
#include "pipeline/session.h"
#include "tools/cli/cli.h"
#include "tools/cli/duckdb_diff.h"
#include "verifier/random_queries.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

/// The six tables: t0 large (a probe side big enough that DuckDB's filters
/// are ready before its scan starts), t1 mid-sized, t2 .. t5 small and
/// NULL-heavy. Little skew (2% of rows on ten hot values), so that chains of
/// joins over the large table stay small.
struct TableSpec {
  long long rows;
  int nullPercent;
};
std::vector<TableSpec> tableSpecs(long long big) {
  return {{big, 5}, {2000, 5}, {200, 20}, {60, 20}, {30, 30}, {100, 10}};
}

std::string resultText(const engine::Result& r) {
  if (r.rows.empty()) return "no rows";
  std::string out;
  for (size_t c = 0; c < r.columns.size(); ++c)
    out += (c ? ", " : "") + r.columns[c] + " = " + r.rows[0][c].value_or("NULL");
  return out;
}

}  // namespace

int runDuckDbDiff(const DuckDbDiffArgs& args, std::ostream& out, std::ostream& err) {
  std::string error;
  auto db = engine::open("duckdb", engine::Options{args.threads}, error);
  if (!db) {
    err << "rfguard duckdb: " << error << "\n";
    return kExitInputError;
  }
  // The schema, and its data as SQL that also goes into every reproducer.
  Catalog catalog;
  std::string setup;
  const auto specs = tableSpecs(args.bigRows);
  for (size_t i = 0; i < specs.size(); ++i) {
    TableDef t;
    t.name = "t" + std::to_string(i);
    for (const char* c : {"k", "v"}) {
      ColumnDef col;
      col.name = c;
      col.type = Type::of(TypeKind::Int);
      t.columns.push_back(col);
    }
    setup += duckdb_import::createTableSql(t) + ";\n" +
             duckdb_import::populateSql(t, specs[i].rows, args.seed, {}, specs[i].nullPercent, 2) +
             ";\n";
    catalog.addTable(t);
  }
  if (!db->execute(setup, nullptr, error)) {
    err << "rfguard duckdb diff: DuckDB refused the data: " << error << "\n";
    return kExitInputError;
  }
  std::mt19937_64 rng(args.seed);
  SessionOptions so;
  so.schema = catalog;
  Json diffs = Json::array();
  int ran = 0, refused = 0;
  for (int n = 0; n < args.queries; ++n) {
    const std::string sql = randomDuckDbQuery(rng, 2 + static_cast<int>(rng() % 4));
    engine::Result on, off;
    if (!db->execute("SET disabled_optimizers = ''", nullptr, error) ||
        !db->execute(sql, &on, error)) {
      ++refused;  // a query DuckDB does not take (types, syntax): not a difference
      if (args.format == "text" && args.verbose) out << "-- refused: " << error << "\n";
      continue;
    }
    if (!db->execute("SET disabled_optimizers = 'join_filter_pushdown'", nullptr, error) ||
        !db->execute(sql, &off, error)) {
      ++refused;
      continue;
    }
    db->execute("SET disabled_optimizers = ''", nullptr, error);
    ++ran;
    if (on.rows == off.rows) continue;
    // DuckDB's plan with pushdown, imported and linted.
    Json findings = Json::array();
    engine::Result again;
    std::string profile;
    if (db->profile(sql, again, profile, error)) {
      Session s(so);
      Diagnostics diags;
      if (s.loadFormat(profile, "duckdb-diff", InputFormat::DuckDb, diags) && !s.queries().empty())
        for (const auto& f : s.verify(s.queries()[0]))
          findings.push_back({{"code", f.code}, {"message", f.message}});
    }
    Json d{{"sql", sql},
           {"with_pushdown", resultText(on)},
           {"without_pushdown", resultText(off)},
           {"findings", findings}};
    if (!args.out.empty()) {
      std::filesystem::create_directories(args.out);
      std::string path =
          (std::filesystem::path(args.out) / ("diff_" + std::to_string(diffs.size() + 1) + ".sql"))
              .string();
      std::ofstream(path) << "-- rfguard duckdb diff --seed " << args.seed << ": query " << n + 1
                          << "\n"
                          << setup << "SET threads = " << args.threads << ";\n"
                          << "SET disabled_optimizers = '';\n"
                          << sql << ";  -- " << resultText(on) << "\n"
                          << "SET disabled_optimizers = 'join_filter_pushdown';\n"
                          << sql << ";  -- " << resultText(off) << "\n";
      d["script"] = path;
    }
    if (args.format == "text") {
      out << "-- difference " << diffs.size() + 1 << " (query " << n + 1 << "):\n"
          << sql << ";\n"
          << "   with pushdown:    " << resultText(on) << "\n"
          << "   without pushdown: " << resultText(off) << "\n";
      for (const auto& f : findings)
        out << "   lint: [" << f["code"].get<std::string>() << "] "
            << f["message"].get<std::string>() << "\n";
      if (findings.empty()) out << "   lint: DuckDB's plan has no finding\n";
    }
    diffs.push_back(d);
  }
  if (args.format == "json") {
    out << Json{{"engine", db->version()}, {"seed", args.seed},  {"threads", args.threads},
                {"queries", ran},          {"refused", refused}, {"differences", diffs}}
               .dump(2)
        << "\n";
  } else {
    out << "-- DuckDB " << db->version() << ", seed " << args.seed << ", " << args.threads
        << " threads, tables of " << specs[0].rows << ", 2000, 200, 60, 30 and 100 rows: " << ran
        << " queries run with and without join filter pushdown (" << refused << " refused), "
        << diffs.size() << " differences\n";
  }
  return diffs.empty() ? kExitOk : kExitFindings;
}

}  // namespace rfguard
