// The differential driver (differential.h): the engine with its runtime
// filters on and off, differences shrunk, linted, judged and written out.
#include "testgen/differential.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "engines/engine.h"
#include "pipeline/session.h"
#include "testgen/diff_tables.h"
#include "testgen/join_queries.h"
#include "testgen/opinion.h"
#include "testgen/shrink.h"

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

/// Runs `sql` with the runtime filters on and off, up to `tries` times (an
/// engine's filters race its probe scans); true at the first run whose results differ.
bool differs(engine::Engine& db, const std::string& sql, int tries, engine::Result& on,
             engine::Result& off, bool& refused, std::string& error) {
  refused = false;
  for (int t = 0; t < tries; ++t) {
    on = {}, off = {};
    if (!db.setRuntimeFilters(true, error) || !db.execute(sql, &on, error) ||
        !db.setRuntimeFilters(false, error) || !db.execute(sql, &off, error)) {
      refused = true;  // a query the engine does not take (types, syntax): not a difference
      std::string ignored;
      db.setRuntimeFilters(true, ignored);
      return false;
    }
    db.setRuntimeFilters(true, error);
    if (on.rows != off.rows) return true;
  }
  return false;
}

/// Runs of a query spent looking for one that shows the engine's wrong result.
constexpr int kPlanTries = 20;

/// The engine's plan for a reproducer, imported and linted.
struct PlanLint {
  Json findings = Json::array();
  int runs = 0;           ///< profiled runs
  bool wrongRun = false;  ///< the plan linted is of a run that returned the wrong result
};

/// Lints the engine's plan for `sql`, imported from its profile. The run is
/// repeated, up to `tries` times, until it returns `wrong` (the result with
/// the pushdown): a run whose filters arrived after its probe scans started
/// returns the right result and its plan shows no filter there to flag.
PlanLint lintPlan(const engine::Adapter& eng, engine::Engine& db, const std::string& sql,
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
  DiffQuery query;
  std::vector<KeptRows> kept;
  engine::Result on, off;
  int tests = 0;
};

/// Shrinks the query, then the rows of each table it reads (largest first),
/// within `budget` tests of three tries each; leaves every table whole again.
Reproducer shrink(engine::Engine& db, const DiffQuery& found, const engine::Result& on,
                  const engine::Result& off, const std::vector<DiffTableSpec>& specs, int budget) {
  constexpr int kTries = 3;
  Reproducer r{found, {}, on, off, 0};
  for (const auto& s : specs) r.kept.push_back(KeptRows::all(s.rows));
  const int start = budget;
  std::string error;
  bool refused = false;
  engine::Result a, b;
  auto showsIt = [&](const DiffQuery& q) {
    if (!differs(db, diffQuerySql(q), kTries, a, b, refused, error)) return false;
    r.on = a, r.off = b;
    return true;
  };
  r.query = shrinkDiffQuery(found, showsIt, budget);
  std::vector<int> tables = diffQueryTables(r.query);
  std::sort(tables.begin(), tables.end(), [&](int x, int y) {
    return specs[static_cast<size_t>(x)].rows > specs[static_cast<size_t>(y)].rows;
  });
  const std::string sql = diffQuerySql(r.query);
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

/// One differential run: the engine, its tables and what the run found.
class Driver {
 public:
  Driver(const DiffArgs& args, std::ostream& out, std::ostream& err)
      : args_(args), eng_(*args.engine), out_(out), err_(err), rng_(args.seed) {}

  DiffOutcome run() {
    if (!setUp()) return DiffOutcome::Error;
    for (int n = 0; n < args_.queries; ++n) runQuery(n);
    summary();
    return diffs_.empty() && disagreements_.empty() ? DiffOutcome::Clean : DiffOutcome::Differences;
  }

 private:
  std::string command() const { return "rfguard " + eng_.name() + " diff"; }
  bool text() const { return args_.format == "text"; }

  /// Opens the engine, creates and fills the tables (the SQL also goes into
  /// every reproducer) with numbered copies for shrinking, and reads the tables
  /// small enough for rfguard's evaluator back.
  bool setUp() {
    db_ = eng_.open(args_.options, error_);
    if (!db_) {
      err_ << "rfguard " << eng_.name() << ": " << error_ << "\n";
      return false;
    }
    specs_ = tableSpecs(args_.bigRows, args_.seed);
    Catalog catalog;
    for (const auto& spec : specs_) {
      const TableDef& t = spec.def;
      engine::FillSpec fill;
      fill.rows = spec.rows;
      fill.seed = args_.seed;
      fill.nullPercent = spec.nullPercent;
      fill.skewPercent = 2;
      setup_ += eng_.createTableSql(t) + ";\n" + eng_.populateSql(t, fill) + ";\n";
      if (spec.wide) setup_ += spreadSql(t, args_.seed) + ";\n";
      catalog.addTable(t);
    }
    so_.schema = catalog;
    std::string numbered;
    for (size_t i = 0; i < specs_.size(); ++i)
      numbered += "CREATE TABLE t" + std::to_string(i) + "_all AS SELECT rowid AS i, k, v FROM t" +
                  std::to_string(i) + ";\n";
    if (!db_->execute(setup_, nullptr, error_) || !db_->execute(numbered, nullptr, error_)) {
      err_ << command() << ": " << eng_.displayName() << " refused the data: " << error_ << "\n";
      return false;
    }
    std::vector<TableDef> defs;
    for (const auto& spec : specs_) defs.push_back(spec.def);
    oracle_ = std::make_unique<EvaluatorOracle>(*db_, defs);
    evaluable_.assign(specs_.size(), false);
    for (size_t i = 0; i < specs_.size(); ++i) {
      evaluable_[i] = args_.evaluatorRows > 0 && specs_[i].rows <= args_.evaluatorRows;
      if (evaluable_[i] && !oracle_->load(static_cast<int>(i), error_)) {
        err_ << command() << ": reading t" << i << " back from " << eng_.displayName() << ": "
             << error_ << "\n";
        return false;
      }
    }
    // Each table's stand-in in the queries rfguard's evaluator judges: itself
    // when small enough, else the small tables in turn.
    std::vector<int> smallList;
    for (size_t i = 0; i < specs_.size(); ++i)
      if (evaluable_[i]) smallList.push_back(static_cast<int>(i));
    for (size_t i = 0; i < specs_.size() && !smallList.empty(); ++i)
      smallTables_.push_back(evaluable_[i] ? static_cast<int>(i) : smallList[i % smallList.size()]);
    return true;
  }

  /// Query `n`: run with the filters on and off, then over the small tables by
  /// rfguard's evaluator.
  void runQuery(int n) {
    const DiffQuery query = randomDiffQuery(rng_, 2 + static_cast<int>(rng_() % 4));
    engine::Result on, off;
    bool refused = false;
    const bool differ = differs(*db_, diffQuerySql(query), 1, on, off, refused, error_);
    if (refused) {
      ++refused_;
      if (text() && args_.verbose) out_ << "-- refused: " << error_ << "\n";
      return;
    }
    ++ran_;
    const std::string origin = "query " + std::to_string(n + 1);
    if (differ) report(query, on, off, origin);
    if (!smallTables_.empty()) judgeSmall(remapTables(query, smallTables_), n, origin);
  }

  /// rfguard's evaluator on `small` (a query over the small tables) against the
  /// engine with its filters on; a disagreement is asked of the engine without
  /// them, and reported as a difference when a run shows it again.
  void judgeSmall(const DiffQuery& small, int n, const std::string& origin) {
    const EvaluatorOpinion o = thirdOpinion(*db_, *oracle_, small, true);
    ++opinions_[o.verdict];
    if (o.verdict == EvaluatorOpinion::Declined) {
      if (text() && args_.verbose)
        out_ << "-- rfguard's evaluator declined query " << n + 1 << ": " << o.reason << "\n";
      return;
    }
    if (o.verdict != EvaluatorOpinion::Disagrees) return;
    const EvaluatorOpinion withoutFilters = thirdOpinion(*db_, *oracle_, small, false);
    const bool filtersWrong = withoutFilters.verdict == EvaluatorOpinion::Agrees;
    Json d = opinionJson(o);
    d["sql"] = diffQueryRowsSql(small, DiffDialect::DuckDb);
    d["rfguard_sql"] = diffQueryRowsSql(small, DiffDialect::RfGuard);
    d["without_pushdown"] = opinionJson(withoutFilters);
    disagreements_.push_back(d);
    const std::string who = eng_.displayName();
    if (text())
      out_ << "-- rfguard's evaluator and " << who << " (" << origin
           << " over small tables, pushdown on) disagree:\n"
           << d["sql"].get<std::string>() << ";\n   " << opinionText(o) << "\n"
           << "   " << who << " without pushdown: "
           << (filtersWrong ? "agrees with rfguard's evaluator: " + who +
                                  "'s join filter pushdown gave the wrong result"
                            : opinionText(withoutFilters))
           << "\n";
    engine::Result on, off;
    bool refused = false;
    if (filtersWrong && differs(*db_, diffQuerySql(small), kPlanTries, on, off, refused, error_))
      report(small, on, off, origin + " over the small tables");
  }

  /// Every table cut down to `kept` whole again, in the engine and in the
  /// evaluator's copies.
  void restore(const std::vector<KeptRows>& kept) {
    for (size_t i = 0; i < specs_.size(); ++i) {
      if (kept[i].count() == specs_[i].rows) continue;
      keepRows(*db_, i, KeptRows::all(specs_[i].rows), error_);
      if (evaluable_[i]) oracle_->load(static_cast<int>(i), error_);
    }
  }

  /// rfguard's evaluator on the reproducer's rows (loaded now), against the
  /// engine without its filters; none when a table is too large.
  std::optional<EvaluatorOpinion> reproducerOpinion(const Reproducer& r) {
    if (args_.evaluatorRows <= 0) return std::nullopt;
    const std::vector<int> tables = diffQueryTables(r.query);
    for (int t : tables)
      if (r.kept[static_cast<size_t>(t)].count() > args_.evaluatorRows) return std::nullopt;
    bool read = true;
    for (int t : tables) read = read && oracle_->load(t, error_);
    EvaluatorOpinion o = read ? thirdOpinion(*db_, *oracle_, r.query, false) : EvaluatorOpinion{};
    if (!read) o.reason = "reading the reproducer's rows: " + error_;
    return o;
  }

  /// A difference: shrunk, the engine's plan for the reproducer linted, judged
  /// by rfguard's evaluator on the reproducer's rows and written out as a script.
  void report(const DiffQuery& query, const engine::Result& on, const engine::Result& off,
              const std::string& origin) {
    const std::string found = diffQuerySql(query);
    const Reproducer r = shrink(*db_, query, on, off, specs_, args_.shrinkTests);
    const std::string sql = diffQuerySql(r.query);
    for (size_t i = 0; i < specs_.size(); ++i)
      if (r.kept[i].count() != specs_[i].rows) keepRows(*db_, i, r.kept[i], error_);
    const PlanLint lint = lintPlan(eng_, *db_, sql, so_, r.on, kPlanTries);
    const std::optional<EvaluatorOpinion> opinion = reproducerOpinion(r);
    restore(r.kept);
    Json rows = Json::object();
    for (size_t i = 0; i < specs_.size(); ++i) rows["t" + std::to_string(i)] = r.kept[i].count();
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
    if (opinion) d["evaluator"] = opinionJson(*opinion);
    if (!args_.out.empty()) d["script"] = writeScript(r, sql, found, origin);
    if (text()) printDifference(r, sql, found, origin, lint, opinion);
    diffs_.push_back(d);
  }

  /// The reproducer as a script of the engine's SQL: the tables, the rows
  /// kept, the query with the filters on and off; returns its path.
  std::string writeScript(const Reproducer& r, const std::string& sql, const std::string& found,
                          const std::string& origin) {
    std::filesystem::create_directories(args_.out);
    const std::string path =
        (std::filesystem::path(args_.out) / ("diff_" + std::to_string(diffs_.size() + 1) + ".sql"))
            .string();
    std::ofstream script(path);
    script << "-- " << command() << " --seed " << args_.seed << ": " << origin << ", shrunk in "
           << r.tests << " tests; found as:\n-- " << found << "\n"
           << setup_;
    for (size_t i = 0; i < specs_.size(); ++i)
      if (r.kept[i].count() != specs_[i].rows)
        script << deleteOtherRowsSql(static_cast<int>(i), r.kept[i]) << ";\n";
    const std::string threads = eng_.threadsStatement(args_.options.threads);
    if (!threads.empty()) script << threads << ";\n";
    script << eng_.runtimeFiltersStatement(true) << ";\n"
           << sql << ";  -- " << resultText(r.on) << "\n"
           << eng_.runtimeFiltersStatement(false) << ";\n"
           << sql << ";  -- " << resultText(r.off) << "\n";
    return path;
  }

  void printDifference(const Reproducer& r, const std::string& sql, const std::string& found,
                       const std::string& origin, const PlanLint& lint,
                       const std::optional<EvaluatorOpinion>& opinion) {
    out_ << "-- difference " << diffs_.size() + 1 << " (" << origin << "), shrunk in " << r.tests
         << " tests to " << keptText(r) << ":\n"
         << sql << ";\n"
         << "   with pushdown:    " << resultText(r.on) << "\n"
         << "   without pushdown: " << resultText(r.off) << "\n";
    out_ << "   " << eng_.displayName() << "'s plan, "
         << (lint.wrongRun ? "of a run that returned the wrong result"
                           : "no profiled run returned the wrong result")
         << " (" << lint.runs << (lint.runs == 1 ? " run" : " runs") << "):";
    for (const auto& f : lint.findings)
      out_ << "\n   lint: [" << f["code"].get<std::string>() << "] "
           << f["message"].get<std::string>();
    if (lint.findings.empty()) out_ << " no finding";
    out_ << "\n";
    if (opinion)
      out_ << "   rfguard's evaluator, against " << eng_.displayName()
           << " without pushdown: " << opinionText(*opinion)
           << (opinion->verdict == EvaluatorOpinion::Declined ? ": " + opinion->reason : "")
           << "\n";
    if (sql != found) out_ << "   found as: " << found << ";\n";
  }

  void summary() {
    const int agree = opinions_[EvaluatorOpinion::Agrees];
    const int disagree = opinions_[EvaluatorOpinion::Disagrees];
    const int declined = opinions_[EvaluatorOpinion::Declined];
    if (args_.format == "json") {
      Json evaluator{{"max_rows", args_.evaluatorRows},
                     {"agree", agree},
                     {"disagree", disagree},
                     {"declined", declined},
                     {"disagreements", disagreements_}};
      out_ << Json{{"engine", db_->version()},
                   {"seed", args_.seed},
                   {"threads", args_.options.threads},
                   {"tables", tablesJson(specs_, eng_)},
                   {"queries", ran_},
                   {"refused", refused_},
                   {"differences", diffs_},
                   {"evaluator", evaluator}}
                  .dump(2)
           << "\n";
      return;
    }
    out_ << "-- " << eng_.displayName() << " " << db_->version() << ", seed " << args_.seed << ", "
         << args_.options.threads << " threads, tables " << tablesText(specs_, eng_) << ": " << ran_
         << " queries run with and without join filter pushdown (" << refused_ << " refused), "
         << diffs_.size() << " differences\n";
    if (args_.evaluatorRows > 0)
      out_ << "-- rfguard's evaluator on the same queries over the tables of at most "
           << args_.evaluatorRows << " rows: " << agree << " agree, " << disagree << " disagree, "
           << declined << " declined\n";
  }

  const DiffArgs& args_;
  const engine::Adapter& eng_;
  std::ostream& out_;
  std::ostream& err_;
  std::mt19937_64 rng_;
  std::unique_ptr<engine::Engine> db_;
  std::vector<DiffTableSpec> specs_;
  std::string setup_;  ///< the tables' SQL, as every reproducer script starts
  SessionOptions so_;
  std::unique_ptr<EvaluatorOracle> oracle_;
  std::vector<bool> evaluable_;  ///< per table: small enough for rfguard's evaluator
  std::vector<int> smallTables_;
  int opinions_[3] = {0, 0, 0};  // by EvaluatorOpinion::Verdict
  Json disagreements_ = Json::array();
  Json diffs_ = Json::array();
  int ran_ = 0, refused_ = 0;
  std::string error_;
};

}  // namespace

DiffOutcome runDifferential(const DiffArgs& args, std::ostream& out, std::ostream& err) {
  return Driver(args, out, err).run();
}

}  // namespace rfguard
