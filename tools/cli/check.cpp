// `rfguard check`: for each query, search small databases for one on which its
// runtime filters change the result (docs/check.md). A .sql file is normalised
// and planned with the profile; a .json plan is checked as given.
#include "tools/cli/check.h"
#include "tools/cli/engine_oracle.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "pipeline/check.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "tools/cli/verdict_output.h"
#include "verifier/bounded.h"
#include "verifier/counterexample.h"
#include "verifier/plan_sql.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

struct Outcome {
  bool unsafe = false, error = false, defect = false, inconclusive = false;
  /// Checks by verdict, for the summary line.
  size_t safeChecks = 0, unsafeChecks = 0, openChecks = 0, errorChecks = 0, emptyChecks = 0;
};

/// "-- 2 files, 5 queries, 7 checks: 5 safe, 1 unsafe, 1 inconclusive".
std::string summaryLine(size_t files, size_t queries, const Outcome& o) {
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  const size_t checks =
      o.safeChecks + o.unsafeChecks + o.openChecks + o.errorChecks + o.emptyChecks;
  std::string line = "-- " + count(files, "file", "files") + ", " +
                     count(queries, "query", "queries") + ", " + count(checks, "check", "checks") +
                     ": " + std::to_string(o.safeChecks) + " safe, " +
                     std::to_string(o.unsafeChecks) + " unsafe";
  if (o.openChecks) line += ", " + std::to_string(o.openChecks) + " inconclusive";
  if (o.errorChecks) line += ", " + std::to_string(o.errorChecks) + " not checkable";
  if (o.emptyChecks) line += ", " + std::to_string(o.emptyChecks) + " with nothing placed";
  return line + "\n";
}

/// No counterexample, but the requested bound over every value reached neither
/// by the whole plan nor by its slices (the session's word: pipeline/check.h).
bool inconclusive(const BoundedVerdict& v, int requested) {
  return checkVerdictWord(v, requested) == "inconclusive";
}

Json verdictJson(const BoundedVerdict& v, const std::string& sql, int requested, Outcome& o) {
  Json j;
  if (!v.filters.empty()) {
    Json ids = Json::array();
    for (int id : v.filters) ids.push_back(id);
    j["filters"] = ids;
  }
  j["verdict"] = checkVerdictWord(v, requested);
  j["bound"] = v.bound;
  j["complete"] = v.complete;
  if (v.safe && v.error.empty() && (!v.filters.empty() || v.databases > 0)) {
    j["every_value"] = v.everyValue;
    if (!v.domain.empty()) j["domain"] = v.domain;
    if (!v.valuesOpen.empty()) j["values_open"] = v.valuesOpen;
    if (!v.undecided.empty()) j["undecided"] = v.undecided;
    j["solver_ms"] = v.solverMs;
  }
  j["databases_checked"] = v.databases;
  j["databases_per_bound"] = v.databasesPerBound;
  if (!v.limit.empty()) j["limit"] = v.limit;
  if (!v.constants.empty()) {
    j["constants"] = v.constants;
    j["constants_reached"] = v.constantsReached;
  }
  if (v.sliceBound >= 0 || !v.sliceLimit.empty()) {
    Json s{{"bound", v.sliceBound},
           {"slices", v.slices},
           {"databases_checked", v.sliceDatabases},
           {"every_value", v.sliceEveryValue}};
    if (!v.sliceLimit.empty()) s["limit"] = v.sliceLimit;
    if (!v.sliceValuesOpen.empty()) s["values_open"] = v.sliceValuesOpen;
    j["by_slices"] = s;
  }
  if (!v.error.empty()) j["error"] = v.error;
  if (Json o = oracleJson(v); !o.is_null()) j["oracle"] = o;
  if (v.counterexample) {
    Json c{{"content", rt::contentName(v.counterexample->content)}};
    c.update(counterexampleJson(*v.counterexample, sql));
    j["counterexample"] = c;
  }
  const bool empty = v.filters.empty() && v.databases == 0 && v.safe && v.error.empty();
  const std::string& verdict = j["verdict"].get_ref<const std::string&>();
  (empty                       ? o.emptyChecks
   : verdict == "error"        ? o.errorChecks
   : verdict == "inconclusive" ? o.openChecks
   : verdict == "safe"         ? o.safeChecks
                               : o.unsafeChecks)++;
  o.unsafe = o.unsafe || !v.safe;
  o.error = o.error || (!v.error.empty() && v.safe);
  o.defect = o.defect || !v.oracleDisagreements.empty();
  o.inconclusive = o.inconclusive || inconclusive(v, requested);
  return j;
}

void verdictText(const std::string& what, const BoundedVerdict& v, const std::string& sql,
                 int requested, double ms, std::ostream& out) {
  out << what << ": ";
  if (v.filters.empty() && v.databases == 0 && v.safe && v.error.empty()) {
    out << "none placed, nothing to check\n";
    return;
  }
  if (!v.error.empty() && v.safe) {
    out << "cannot check: " << v.error << "\n";
    return;
  }
  if (v.safe) {
    const bool open = inconclusive(v, requested);
    if (open) out << "INCONCLUSIVE: ";
    out << "safe up to bound " << v.bound;
    if (open && v.bound < requested) out << " of " << requested;
    if (!v.complete) out << " (" << v.limit << ")";
    // (Slices only: no whole search, no values to speak of.)
    if (v.databases > 0 || v.everyValue) out << " " << valuesText(v);
    out << " (" << databasesText(v) << ", " << durationText(ms) << ")\n";
    if (v.sliceBound >= 0)
      out << "  by slices: safe up to bound " << v.sliceBound << " "
          << (v.sliceEveryValue ? "over every value"
                                : "on values from a finite domain" +
                                      (v.sliceValuesOpen.empty() ? std::string()
                                                                 : " (" + v.sliceValuesOpen + ")"))
          << " (" << v.slices << " slices, " << v.sliceDatabases << " databases)"
          << (v.sliceLimit.empty() ? "" : "; " + v.sliceLimit) << "\n";
    else if (!v.sliceLimit.empty())
      out << "  by slices: " << v.sliceLimit << "\n";
    if (!v.constants.empty()) out << "  " << v.constants << "\n";
  } else {
    const auto& c = *v.counterexample;
    out << "UNSAFE at bound " << v.bound + 1 << " (" << databasesText(v) << ", "
        << rt::contentName(c.content) << " content, " << durationText(ms) << ")"
        << (c.repeated ? ", one row repeated " + std::to_string(c.repeated) + " times" : "")
        << "\n";
    counterexampleText(c, sql, out);
  }
  oracleText(v, out);
}

}  // namespace

int runCheck(const CheckArgs& args, std::ostream& out, std::ostream& err) {
  if (args.files.empty()) {
    err << "rfguard check: no input files (use - for stdin)\n";
    return kExitInputError;
  }
  BoundedOptions bo;
  bo.bound = args.bound;
  bo.seconds = args.seconds;
  bo.oracle = args.oracle != "none";
  bo.oracleFactory = engine::oracleFactory(args.oracle);
  bo.oracleDatabases = args.oracleDatabases;
  if (std::string why; !engine::oracleAvailable(args.oracle, why)) {
    err << "error: --oracle " << args.oracle << ": " << why << "\n";
    return kExitInputError;
  }
  bo.maxDatabases = args.databases;
  bo.method = parseMethod(args.method).value_or(BoundedOptions::Method::Auto);  // CLI11 checked
  Outcome outcome;
  bool inputError = false;
  Json files = Json::array();
  SessionOptions so;
  so.filters = RfOptions(*parseProfile(args.profile));
  so.keepBound = args.rewrites;
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  if (!args.emitSql.empty() && !makeOutputDirectory(args.emitSql, err)) return kExitInputError;
  // --emit-sql: each counterexample as DIR/<query>_<filters>.sql, runnable as is.
  std::set<std::string> emitted;
  auto emit = [&](const std::string& query, const std::string& what, const std::string& sql) {
    if (args.emitSql.empty() || sql.empty()) return;
    std::string base;
    for (char c : query + "_" + what)
      base += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
    std::string name = base;
    for (int n = 2; !emitted.insert(name).second; ++n) name = base + "_" + std::to_string(n);
    const std::string path = args.emitSql + "/" + name + ".sql";
    std::ofstream f(path, std::ios::binary);
    f << sql;
    if (!f) err << path << ": error: cannot write the counterexample\n";
  };
  // Progress on a terminal: one line, rewritten in place, cleared when a query is done.
  const bool tty = args.progress == "always" || (args.progress == "auto" && isatty(STDERR_FILENO));
  std::string current;
  auto lastDraw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  if (tty)
    bo.progress = [&](int bound, uint64_t databases, double seconds) {
      auto now = std::chrono::steady_clock::now();
      if (now - lastDraw < std::chrono::milliseconds(200)) return;
      lastDraw = now;
      char line[160];
      std::snprintf(line, sizeof line, "\r\033[K%s: bound %d, %llu databases, %.1f s",
                    current.c_str(), bound, static_cast<unsigned long long>(databases), seconds);
      err << line << std::flush;
    };
  auto clearProgress = [&] {
    if (tty) err << "\r\033[K" << std::flush;
  };
  Session session(so);
  ImportNoteLog notes(args.verbose);
  for (const auto& path : args.files) {
    Diagnostics diags;
    const size_t first = session.queries().size();
    if (!session.load(path, diags)) inputError = true;
    err << renderErrors(diags);
    session.run();  // plan JSON is checked as given; SQL gets the profile's placement
    Json queries = Json::array();
    for (size_t qi = first; qi < session.queries().size(); ++qi) {
      const QueryRun& run = session.queries()[qi];
      const Query& q = run.query;
      notes.add(run, err);
      const bool fromSql = !run.fromJson;
      const PlanPtr& bound = run.bound;
      const size_t losses = run.imported ? run.imported->losses.size() : 0;
      if (args.format == "text") {
        out << "-- " << q.name;
        if (q.loc.line) out << " (" << q.file << ":" << q.loc.line << ":" << q.loc.col << ")";
        out << "\n";
        // An engine's plan that lost something on import is checked as imported.
        if (losses)
          out << "-- checked as imported: the import lost " << losses
              << (losses == 1 ? " thing" : " things") << " (notes on stderr)\n";
      }
      Json checks = Json::array();
      auto t0 = std::chrono::steady_clock::now();
      current = q.name;
      // The session's check (pipeline/check.h), as the C++ API reports it too.
      const auto verdicts = checkQuery(run, bo);
      clearProgress();
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      for (size_t i = 0; i < verdicts.size(); ++i) {
        const BoundedVerdict& v = verdicts[i].bounded;
        const std::string& sql = verdicts[i].counterexampleSql;
        std::string ids;
        for (int id : v.filters) ids += "RF" + std::to_string(id);
        emit(q.name, ids.empty() ? "filters" : ids, sql);
        if (args.format == "text")
          verdictText(i == 0 && v.filters.size() > 1
                          ? "all filters (" + filtersText(v.filters) + ")"
                      : i == 0 ? filtersText(v.filters)
                               : filtersText(v.filters) + " alone",
                      v, sql, args.bound, i == 0 ? ms : 0, out);
        checks.push_back(verdictJson(v, sql, args.bound, outcome));
      }
      if (args.rewrites && fromSql && bound) {
        auto t1 = std::chrono::steady_clock::now();
        BoundedVerdict v = checkEquivalent(*bound, *q.plan, bo);
        if (v.safe && v.error.empty() && v.complete && v.bound >= bo.bound)
          checkEveryValue(*bound, *q.plan, bo, v);
        clearProgress();
        double rms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1)
                .count();
        std::string sql = v.counterexample
                              ? counterexampleScript(*bound, *v.counterexample, q.plan.get(),
                                                     engine::scriptSpellings())
                              : "";
        emit(q.name, "normalisation", sql);
        if (args.format == "text") verdictText("normalisation", v, sql, args.bound, rms, out);
        Json j = verdictJson(v, sql, args.bound, outcome);
        j["rewrite"] = "normalisation";
        checks.push_back(j);
      }
      Json qj{{"name", q.name}, {"checks", checks}};
      if (run.imported) qj["import_losses"] = losses;
      queries.push_back(qj);
    }
    files.push_back(
        Json{{"file", path}, {"input_error", !diags.items().empty()}, {"queries", queries}});
  }
  notes.summarise(err);
  size_t queryCount = 0;
  for (const auto& f : files) queryCount += f["queries"].size();
  if (args.format == "text") out << summaryLine(args.files.size(), queryCount, outcome);
  if (args.format == "json")
    out << Json{{"format", "rfguard-check"},
                {"version", 1},
                {"bound", args.bound},
                {"files", files},
                {"summary",
                 {{"files", args.files.size()},
                  {"queries", queryCount},
                  {"safe", outcome.safeChecks},
                  {"unsafe", outcome.unsafeChecks},
                  {"inconclusive", outcome.openChecks},
                  {"not_checkable", outcome.errorChecks},
                  {"nothing_placed", outcome.emptyChecks}}}}
               .dump(2)
        << "\n";
  if (inputError || outcome.error) return kExitInputError;
  if (outcome.unsafe || outcome.defect) return kExitFindings;
  return outcome.inconclusive ? kExitInconclusive : kExitOk;
}

}  // namespace rfguard
