// `rfguard duckdb diff`: random queries run in DuckDB with join filter
// pushdown on and off; a different result is a wrong-result bug of the
// pushdown. Each difference is shrunk to the simplest query and the fewest rows
// that still show it, and comes with DuckDB's plan for that reproducer imported
// and linted and a script that runs it in DuckDB.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "engines/duckdb/random_queries.h"
#include "engines/engine.h"
#include "pipeline/session.h"
#include "tools/cli/cli.h"
#include "tools/cli/duckdb_diff.h"
#include "tools/cli/duckdb_diff_tables.h"
#include "tools/cli/duckdb_opinion.h"
#include "tools/cli/duckdb_shrink.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

std::string resultText(const engine::Result& r) {
  if (r.rows.empty()) return "no rows";
  std::string out;
  for (size_t c = 0; c < r.columns.size(); ++c)
    out += (c ? ", " : "") + r.columns[c] + " = " + r.rows[0][c].value_or("NULL");
  return out;
}

/// Runs `sql` with the pushdown on and off, up to `tries` times (DuckDB's
/// filters race its probe scans); true at the first run whose results differ.
bool differs(engine::Engine& db, const std::string& sql, int tries, engine::Result& on,
             engine::Result& off, bool& refused, std::string& error) {
  refused = false;
  for (int t = 0; t < tries; ++t) {
    on = {}, off = {};
    if (!db.setRuntimeFilters(true, error) || !db.execute(sql, &on, error) ||
        !db.setRuntimeFilters(false, error) || !db.execute(sql, &off, error)) {
      refused = true;  // a query DuckDB does not take (types, syntax): not a difference
      std::string ignored;
      db.setRuntimeFilters(true, ignored);
      return false;
    }
    db.setRuntimeFilters(true, error);
    if (on.rows != off.rows) return true;
  }
  return false;
}

/// Runs of a query spent looking for one that shows DuckDB's wrong result.
constexpr int kPlanTries = 20;

/// DuckDB's plan for a reproducer, imported and linted.
struct PlanLint {
  Json findings = Json::array();
  int runs = 0;           ///< profiled runs
  bool wrongRun = false;  ///< the plan linted is of a run that returned the wrong result
};

/// Lints DuckDB's plan for `sql`, imported from its profile. The run is
/// repeated, up to `tries` times, until it returns `wrong` (the result with
/// the pushdown): a run whose filters arrived after its probe scans started
/// returns the right result and its plan shows no filter there to flag.
PlanLint lintDuckDbPlan(const engine::Adapter& eng, engine::Engine& db, const std::string& sql,
                        const SessionOptions& so, const engine::Result& wrong, int tries) {
  PlanLint out;
  std::string profile, error;
  for (; out.runs < tries && !out.wrongRun; ++out.runs) {
    engine::Result again;
    if (!db.profile(sql, again, profile, error)) return out;
    out.wrongRun = again.rows == wrong.rows;
  }
  Session s(so);
  Diagnostics diags;
  if (s.loadEngine(profile, eng.name() + "-diff", eng, diags) && !s.queries().empty())
    for (const auto& f : s.verify(s.queries()[0]))
      out.findings.push_back({{"code", f.code}, {"message", f.message}});
  return out;
}

/// Sets table t<i> to the rows `kept` of its generated contents (t<i>_all).
bool keepRows(engine::Engine& db, size_t i, const KeptRows& kept, std::string& error) {
  return db.execute(keepRowsSql(static_cast<int>(i), kept), nullptr, error);
}

/// A difference shrunk: the query, the rows kept of each table, its results.
struct Reproducer {
  DuckQuery query;
  std::vector<KeptRows> kept;
  engine::Result on, off;
  int tests = 0;
};

/// Shrinks the query, then the rows of each table it reads (largest first),
/// within `budget` tests of three tries each; leaves every table whole again.
Reproducer shrink(engine::Engine& db, const DuckQuery& found, const engine::Result& on,
                  const engine::Result& off, const std::vector<DiffTableSpec>& specs, int budget) {
  constexpr int kTries = 3;
  Reproducer r{found, {}, on, off, 0};
  for (const auto& s : specs) r.kept.push_back(KeptRows::all(s.rows));
  const int start = budget;
  std::string error;
  bool refused = false;
  engine::Result a, b;
  auto showsIt = [&](const DuckQuery& q) {
    if (!differs(db, duckQuerySql(q), kTries, a, b, refused, error)) return false;
    r.on = a, r.off = b;
    return true;
  };
  r.query = shrinkDuckQuery(found, showsIt, budget);
  std::vector<int> tables = duckQueryTables(r.query);
  std::sort(tables.begin(), tables.end(), [&](int x, int y) {
    return specs[static_cast<size_t>(x)].rows > specs[static_cast<size_t>(y)].rows;
  });
  const std::string sql = duckQuerySql(r.query);
  // In rounds, each table (largest first) down to chunks of 1/16, 1/256, ...
  // of its rows, then single rows: which rows of one table matter can depend
  // on the others (a join's build side is the smaller input; a filter keeps
  // the probe rows the build's keys match), so no table takes the budget
  // before the others have been cut.
  for (long long parts = 16; budget > 0; parts *= 16) {
    bool finest = true;
    for (int t : tables) {
      const size_t i = static_cast<size_t>(t);
      KeptRows good = r.kept[i];
      auto stillShows = [&](const KeptRows& candidate) {
        if (keepRows(db, i, candidate, error) && differs(db, sql, kTries, a, b, refused, error)) {
          good = candidate;
          r.on = a, r.off = b;
          return true;
        }
        keepRows(db, i, good, error);
        return false;
      };
      const long long chunk = r.kept[i].count() / parts;
      finest = finest && chunk <= 1;
      r.kept[i] = shrinkRows(r.kept[i], stillShows, budget, chunk);
    }
    if (finest) break;
  }
  for (size_t i = 0; i < specs.size(); ++i)
    if (r.kept[i].count() != specs[i].rows) keepRows(db, i, KeptRows::all(specs[i].rows), error);
  r.tests = start - budget;
  return r;
}

/// The rows kept, as "t0 12 of 100000, t2 3 of 200" (tables cut down only).
std::string keptText(const Reproducer& r) {
  std::string out;
  for (size_t i = 0; i < r.kept.size(); ++i)
    if (r.kept[i].count() != r.kept[i].total)
      out += (out.empty() ? "" : ", ") + ("t" + std::to_string(i)) + " " +
             std::to_string(r.kept[i].count()) + " of " + std::to_string(r.kept[i].total);
  return out.empty() ? "every row" : out;
}

}  // namespace

int runDuckDbDiff(const DuckDbDiffArgs& args, std::ostream& out, std::ostream& err) {
  const engine::Adapter& eng = *args.engine;
  std::string error;
  auto db = eng.open(
      engine::Options{args.threads, args.limits.memoryLimitMb, args.limits.timeoutSeconds}, error);
  if (!db) {
    err << "rfguard " << eng.name() << ": " << error << "\n";
    return kExitInputError;
  }
  // The schema, and its data as SQL that also goes into every reproducer.
  Catalog catalog;
  std::string setup;
  const auto specs = tableSpecs(args.bigRows, args.seed);
  for (size_t i = 0; i < specs.size(); ++i) {
    const TableDef& t = specs[i].def;
    engine::FillSpec fill;
    fill.rows = specs[i].rows;
    fill.seed = args.seed;
    fill.nullPercent = specs[i].nullPercent;
    fill.skewPercent = 2;
    setup += eng.createTableSql(t) + ";\n" + eng.populateSql(t, fill) + ";\n";
    if (specs[i].wide) setup += spreadSql(t, args.seed) + ";\n";
    catalog.addTable(t);
  }
  // Each table's generated rows numbered, for shrinking (keepRows).
  std::string numbered;
  for (size_t i = 0; i < specs.size(); ++i)
    numbered += "CREATE TABLE t" + std::to_string(i) + "_all AS SELECT rowid AS i, k, v FROM t" +
                std::to_string(i) + ";\n";
  if (!db->execute(setup, nullptr, error) || !db->execute(numbered, nullptr, error)) {
    err << "rfguard duckdb diff: DuckDB refused the data: " << error << "\n";
    return kExitInputError;
  }
  // rfguard's evaluator reads back the tables small enough for it.
  std::vector<TableDef> defs;
  for (const auto& spec : specs) defs.push_back(spec.def);
  EvaluatorOracle oracle(*db, defs);
  std::vector<bool> evaluable(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    evaluable[i] = args.evaluatorRows > 0 && specs[i].rows <= args.evaluatorRows;
    if (evaluable[i] && !oracle.load(static_cast<int>(i), error)) {
      err << "rfguard duckdb diff: reading t" << i << " back from DuckDB: " << error << "\n";
      return kExitInputError;
    }
  }
  // Each table's stand-in in the queries rfguard's evaluator judges: itself when
  // small enough, else the small tables in turn.
  std::vector<int> smallTables, smallList;
  for (size_t i = 0; i < specs.size(); ++i)
    if (evaluable[i]) smallList.push_back(static_cast<int>(i));
  for (size_t i = 0; i < specs.size() && !smallList.empty(); ++i)
    smallTables.push_back(evaluable[i] ? static_cast<int>(i) : smallList[i % smallList.size()]);
  int opinions[3] = {0, 0, 0};  // by EvaluatorOpinion::Verdict
  Json disagreements = Json::array();
  std::mt19937_64 rng(args.seed);
  SessionOptions so;
  so.schema = catalog;
  Json diffs = Json::array();
  int ran = 0, refused = 0;
  // A difference: shrunk, DuckDB's plan for the reproducer linted, judged by
  // rfguard's evaluator on the reproducer's rows and written out as a script.
  auto report = [&](const DuckQuery& query, const engine::Result& on, const engine::Result& off,
                    const std::string& origin) {
    const std::string found = duckQuerySql(query);
    Reproducer r = shrink(*db, query, on, off, specs, args.shrinkTests);
    const std::string sql = duckQuerySql(r.query);
    for (size_t i = 0; i < specs.size(); ++i)
      if (r.kept[i].count() != specs[i].rows) keepRows(*db, i, r.kept[i], error);
    const PlanLint lint = lintDuckDbPlan(eng, *db, sql, so, r.on, kPlanTries);
    // rfguard's evaluator on the reproducer's rows, against DuckDB without the pushdown.
    bool smallRepro = args.evaluatorRows > 0;
    const std::vector<int> reproTables = duckQueryTables(r.query);
    for (int t : reproTables)
      smallRepro = smallRepro && r.kept[static_cast<size_t>(t)].count() <= args.evaluatorRows;
    std::optional<EvaluatorOpinion> reproOpinion;
    if (smallRepro) {
      bool read = true;
      for (int t : reproTables) read = read && oracle.load(t, error);
      reproOpinion = read ? thirdOpinion(*db, oracle, r.query, false) : EvaluatorOpinion{};
      if (!read) reproOpinion->reason = "reading the reproducer's rows: " + error;
    }
    for (size_t i = 0; i < specs.size(); ++i)
      if (r.kept[i].count() != specs[i].rows) {
        keepRows(*db, i, KeptRows::all(specs[i].rows), error);
        if (evaluable[i]) oracle.load(static_cast<int>(i), error);
      }
    Json rows = Json::object();
    for (size_t i = 0; i < specs.size(); ++i) rows["t" + std::to_string(i)] = r.kept[i].count();
    Json d{{"sql", sql},
           {"with_pushdown", resultText(r.on)},
           {"without_pushdown", resultText(r.off)},
           {"findings", lint.findings},
           {"plan_runs", lint.runs},
           {"plan_run_wrong", lint.wrongRun},
           {"found_sql", found},
           {"found_in", origin},
           {"rows", rows},
           {"shrink_tests", r.tests}};
    if (reproOpinion) d["evaluator"] = opinionJson(*reproOpinion);
    if (!args.out.empty()) {
      std::filesystem::create_directories(args.out);
      std::string path =
          (std::filesystem::path(args.out) / ("diff_" + std::to_string(diffs.size() + 1) + ".sql"))
              .string();
      std::ofstream script(path);
      script << "-- rfguard duckdb diff --seed " << args.seed << ": " << origin << ", shrunk in "
             << r.tests << " tests; found as:\n-- " << found << "\n"
             << setup;
      for (size_t i = 0; i < specs.size(); ++i)
        if (r.kept[i].count() != specs[i].rows)
          script << deleteOtherRowsSql(static_cast<int>(i), r.kept[i]) << ";\n";
      script << "SET threads = " << args.threads << ";\n"
             << eng.runtimeFiltersStatement(true) << ";\n"
             << sql << ";  -- " << resultText(r.on) << "\n"
             << eng.runtimeFiltersStatement(false) << ";\n"
             << sql << ";  -- " << resultText(r.off) << "\n";
      d["script"] = path;
    }
    if (args.format == "text") {
      out << "-- difference " << diffs.size() + 1 << " (" << origin << "), shrunk in " << r.tests
          << " tests to " << keptText(r) << ":\n"
          << sql << ";\n"
          << "   with pushdown:    " << resultText(r.on) << "\n"
          << "   without pushdown: " << resultText(r.off) << "\n";
      out << "   DuckDB's plan, "
          << (lint.wrongRun ? "of a run that returned the wrong result"
                            : "no profiled run returned the wrong result")
          << " (" << lint.runs << (lint.runs == 1 ? " run" : " runs") << "):";
      for (const auto& f : lint.findings)
        out << "\n   lint: [" << f["code"].get<std::string>() << "] "
            << f["message"].get<std::string>();
      if (lint.findings.empty()) out << " no finding";
      out << "\n";
      if (reproOpinion)
        out << "   rfguard's evaluator, against DuckDB without pushdown: "
            << opinionText(*reproOpinion)
            << (reproOpinion->verdict == EvaluatorOpinion::Declined ? ": " + reproOpinion->reason
                                                                    : "")
            << "\n";
      if (sql != found) out << "   found as: " << found << ";\n";
    }
    diffs.push_back(d);
  };
  for (int n = 0; n < args.queries; ++n) {
    const DuckQuery query = randomDuckQuery(rng, 2 + static_cast<int>(rng() % 4));
    const std::string found = duckQuerySql(query);
    engine::Result on, off;
    bool wasRefused = false;
    const bool differ = differs(*db, found, 1, on, off, wasRefused, error);
    if (wasRefused) {
      ++refused;
      if (args.format == "text" && args.verbose) out << "-- refused: " << error << "\n";
      continue;
    }
    ++ran;
    const std::string origin = "query " + std::to_string(n + 1);
    if (differ) report(query, on, off, origin);
    if (smallTables.empty()) continue;
    // The same query over the tables small enough for rfguard's evaluator.
    const DuckQuery small = remapTables(query, smallTables);
    const EvaluatorOpinion o = thirdOpinion(*db, oracle, small, true);
    ++opinions[o.verdict];
    if (o.verdict == EvaluatorOpinion::Declined) {
      if (args.format == "text" && args.verbose)
        out << "-- rfguard's evaluator declined query " << n + 1 << ": " << o.reason << "\n";
      continue;
    }
    if (o.verdict != EvaluatorOpinion::Disagrees) continue;
    // Whose wrong result: DuckDB without its pushdown, on the same rows.
    const EvaluatorOpinion withoutPushdown = thirdOpinion(*db, oracle, small, false);
    const bool pushdownWrong = withoutPushdown.verdict == EvaluatorOpinion::Agrees;
    Json d = opinionJson(o);
    d["sql"] = duckQueryRowsSql(small, DuckDialect::DuckDb);
    d["rfguard_sql"] = duckQueryRowsSql(small, DuckDialect::RfGuard);
    d["without_pushdown"] = opinionJson(withoutPushdown);
    disagreements.push_back(d);
    if (args.format == "text")
      out << "-- rfguard's evaluator and DuckDB (" << origin
          << " over small tables, pushdown on) disagree:\n"
          << d["sql"].get<std::string>() << ";\n   " << opinionText(o) << "\n"
          << "   DuckDB without pushdown: "
          << (pushdownWrong ? "agrees with rfguard's evaluator: DuckDB's join filter pushdown"
                              " gave the wrong result"
                            : opinionText(withoutPushdown))
          << "\n";
    // A wrong result of the pushdown is a difference too, when a run shows it again.
    engine::Result smallOn, smallOff;
    if (pushdownWrong &&
        differs(*db, duckQuerySql(small), kPlanTries, smallOn, smallOff, wasRefused, error))
      report(small, smallOn, smallOff, origin + " over the small tables");
  }
  if (args.format == "json") {
    Json evaluator{{"max_rows", args.evaluatorRows},
                   {"agree", opinions[EvaluatorOpinion::Agrees]},
                   {"disagree", opinions[EvaluatorOpinion::Disagrees]},
                   {"declined", opinions[EvaluatorOpinion::Declined]},
                   {"disagreements", disagreements}};
    out << Json{{"engine", db->version()},     {"seed", args.seed},     {"threads", args.threads},
                {"tables", tablesJson(specs)}, {"queries", ran},        {"refused", refused},
                {"differences", diffs},        {"evaluator", evaluator}}
               .dump(2)
        << "\n";
  } else {
    out << "-- DuckDB " << db->version() << ", seed " << args.seed << ", " << args.threads
        << " threads, tables " << tablesText(specs) << ": " << ran
        << " queries run with and without join filter pushdown (" << refused << " refused), "
        << diffs.size() << " differences\n";
    if (args.evaluatorRows > 0)
      out << "-- rfguard's evaluator on the same queries over the tables of at most "
          << args.evaluatorRows << " rows: " << opinions[EvaluatorOpinion::Agrees] << " agree, "
          << opinions[EvaluatorOpinion::Disagrees] << " disagree, "
          << opinions[EvaluatorOpinion::Declined] << " declined\n";
  }
  return diffs.empty() && disagreements.empty() ? kExitOk : kExitFindings;
}

}  // namespace rfguard
