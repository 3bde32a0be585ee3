// The data-driven corpus runner (CockroachDB datadriven / LLVM FileCheck style;
// the file format is in tests/corpus_file.h). `--rewrite` (or RFGUARD_REWRITE=1)
// writes actual outputs back into the file; read every rewritten diff before
// committing it.
//
// Directives:
//   schema                 SQL DDL added to this file's catalog; prints "ok" or errors
//   plan [format=text|json|dot] [disable=Rule,Rule] [rules]
//                          SQL queries over the file's catalog, normalised and printed
//   bound                  SQL queries printed as bound, before normalisation
//   error                  SQL that must fail; prints the located errors
//   plan-json              a plan JSON document, read and printed as text (or errors)
//   roundtrip [rf]         SQL queries: plan -> JSON -> plan -> JSON must be identical
//                          (with runtime filters placed first when rf is given)
//   plan-file PATH [rf]    every query of a SQL file (path relative to the .test file), normalised
//                          (and with runtime filters placed)
//   rf [profile=P] [cost] [composite] [disable=...] [summary|explain] [format=json|dot]
//                          SQL queries, normalised, runtime filters placed: the plan, a
//                          one-line-per-filter summary, or the plan plus every decision
//   replay-file PATH [strategy=S]
//                          a publication scenario (path relative to the .test file)
//                          replayed: the text report and the exit code
//   check [bound=N] [profile=P] [oracle] [databases=N] [method=auto|whole|slices]
//   check-file PATH [bound=N] [profile=P] [oracle] [databases=N] [method=...]
//                          bounded verification of the filters (SQL planned with the
//                          profile, plan JSON as given): one line per verdict
//   equiv [bound=N] [oracle] [databases=N] [proof=false] [rule=R sound=true|false]
//                          two SQL queries over the file's catalog, the original then the
//                          rewritten: equivalent on every database by their normal forms
//                          (unless proof=false), equivalent up to the bound, or the
//                          counterexample
//   any SQL directive: join-order=from keeps the joins as written (default cost)
//   any SQL directive: dialect=postgres|duckdb|calcite|sqlite (docs/dialects.md)
//   any SQL directive: expect=Rule,... expect-not=Rule,... (docs/corpus.md)
//   lint [profile=P] [composite]
//                          SQL queries planned with the profile, or a plan JSON document
//                          (input starting with `{`) as given, then verified: one line
//                          per finding, or "clean"
//
// Every case that loads SQL queries also checks each join-order and build-side
// step of its normalisation (ReorderJoins, ChooseBuildSides) against the plan
// before it: proved by normal form, or else equivalent to the bound by the
// search; otherwise it prints "REORDERING NOT PROVED".
// Every case that loads SQL queries also places the sound profile's filters on
// a copy of each normalised plan and verifies them, and every unsafe edit of
// that placement (testgen/mutate.h): a finding on the sound placement prints
// "SOUND PLACEMENT FLAGGED", an edit without a finding "MUTANT NOT CAUGHT";
// no expectation holds either. `--mutants` prints the tally by kind at the end.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "tests/corpus_checks.h"
#include "tests/corpus_expect.h"
#include "tests/corpus_file.h"
#include "tools/cli/replay.h"
#include "verifier/bounded.h"
#include "verifier/verify.h"

using namespace rfguard;
using namespace rfguard::corpus;

namespace {

/// The bounded search a `check` or `equiv` case asks for (bound=, oracle,
/// databases=). The budget is the database count, so that an expectation holds
/// on a loaded machine or a sanitizer build alike; the seconds are a safety net.
BoundedOptions boundedOptions(const Case& c) {
  BoundedOptions bo;
  bo.bound = std::stoi(arg(c, "bound", "2"));
  bo.oracle = arg(c, "oracle") == "true";
  bo.maxDatabases = std::stoull(arg(c, "databases", "2000000"));
  bo.seconds = 600;
  // The solver's budget is a count of its resource units (the CLI's default
  // of 10 seconds' worth): the same verdict on any machine.
  bo.solverSeconds = 10;
  return bo;
}

/// One line per generated filter: where it went, or why it went nowhere.
std::string summarize(const RfReport& rf) {
  std::string out;
  for (const auto& g : rf.generation) {
    if (!g.filter) continue;
    std::string line = "RF" + std::to_string(g.filter) + " from `" + g.what.str() + "`:";
    bool any = false;
    for (const auto& d : rf.consumers)
      if (d.filter == g.filter)
        line += std::string(any ? "," : "") + " " + d.target.str(), any = true;
    if (!any) {
      line += " none";
      for (const auto& e : rf.rejected)
        if (e.filter == g.filter)
          line += " [" + std::string(ruleName(e.decision.rule)) + " at #" + std::to_string(e.node) +
                  "]";
    }
    out += line + "\n";
  }
  for (const auto& s : rf.skipped)
    out += "skipped `" + s.what.str() + "`: " + s.decision.reason.text() + "\n";
  return out.empty() ? "no filter\n" : out;
}

MutantTally tally;     // over every file of the run
BoundedTally bounded;  // likewise

std::string run(const Case& c, Catalog& catalog, const std::string& dir, bool& ok) {
  Diagnostics diags;
  std::vector<Query> queries;
  ok = true;
  if (c.directive == "plan-file") {
    std::string path = dir + "/" + (c.args.empty() ? "" : c.args[0]);
    std::ifstream in(path);
    if (!in) return "cannot open " + path + "\n";
    std::stringstream buf;
    buf << in.rdbuf();
    SessionOptions so;
    so.normalize.verify = true;
    so.placeFilters = c.args.size() > 1 && c.args[1] == "rf";
    so.keepBound = true;
    Session session(so);
    bool good = session.loadAs(buf.str(), c.args[0], false, diags);
    session.run();
    std::string out = diags.render();
    ImplicitChecks checks;
    for (const auto& run : session.queries()) {
      const Query& q = run.query;
      for (const auto& p : run.normalization.problems) out += "INVARIANT BROKEN: " + p + "\n";
      out += soundCheck(*q.plan, q.name, tally, &bounded, checks);
      if (run.bound) out += reorderCheck(*run.bound, so.normalize, q.name, bounded);
      out += "-- " + q.name + "\n" + planToText(*q.plan) + "\n";
    }
    if (!good) out += "load failed\n";
    return out + expectations(argList(c, "expect"), argList(c, "expect-not"), session) +
           checks.line();
  }
  if (c.directive == "replay-file") {
    std::string path = dir + "/" + (c.args.empty() ? "" : c.args[0]);
    std::ifstream in(path);
    if (!in) return "cannot open " + path + "\n";
    std::stringstream buf;
    buf << in.rdbuf();
    ReplayArgs ra;
    ra.file = c.args[0];
    ra.strategy = arg(c, "strategy", "correct");
    std::ostringstream out, err;
    int code = replayDocument(buf.str(), ra, out, err);
    return out.str() + err.str() + "exit " + std::to_string(code) + "\n";
  }
  if (c.directive == "schema") {
    bool good = loadSql(c.input, "input", catalog, queries, diags);
    return good && queries.empty()
               ? "ok\n"
               : diags.render() + (queries.empty() ? "" : "schema holds a query\n");
  }
  if (c.directive == "check" || c.directive == "check-file") {
    std::string text = c.input;
    std::string name = "input";
    if (c.directive == "check-file") {
      std::ifstream in(dir + "/" + (c.args.empty() ? "" : c.args[0]));
      if (!in) return "cannot open " + c.args[0] + "\n";
      std::stringstream buf;
      buf << in.rdbuf();
      text = buf.str();
      name = c.args[0];
    }
    BoundedOptions bo = boundedOptions(c);
    const std::string method = arg(c, "method", "auto");
    auto m = parseMethod(method);
    if (!m) return "unknown method " + method + "\n";
    bo.method = *m;
    return checkCase(text, name, catalog, bo, arg(c, "profile", "sound"));
  }
  if (c.directive == "equiv") {
    BoundedOptions bo = boundedOptions(c);
    bo.proofs = arg(c, "proof", "true") == "true";
    auto dialect = dialectNamed(arg(c, "dialect", "default"));
    if (!dialect) return "unknown dialect " + arg(c, "dialect") + "\n";
    std::string out = equivCase(c.input, catalog, *dialect, bo);
    // A rewrite of a rule suite (corpus/equiv/rules/) says whether it is the
    // rule as written (sound=true) or the rule with a side condition dropped
    // (sound=false): the verdict must agree, whatever the recording says.
    const std::string sound = arg(c, "sound");
    const bool refuted = out.rfind("different at bound", 0) == 0;
    if (sound == "false" && !refuted) out += "UNSOUND VARIANT NOT REFUTED\n";
    if (sound == "true" && out.rfind("different", 0) == 0) out += "SOUND REWRITE REFUTED\n";
    if (!sound.empty() && sound != "true" && sound != "false")
      out += "UNKNOWN RULE sound=" + sound + "\n";
    return out;
  }
  if ((c.directive == "lint" && c.input.rfind("{", 0) == 0) || c.directive == "plan-json") {
    Session session;  // plan JSON: judged as given
    if (!session.loadAs(c.input, "input", true, diags)) return diags.render();
    std::string out;
    const auto& runs = session.queries();
    for (const auto& run : runs) {
      if (c.directive == "plan-json")
        out += "-- " + run.query.name + "\n" + planToText(*run.query.plan);
      else
        out += (runs.size() > 1 ? "-- " + run.query.name + "\n" : "") +
               findingLines(session.verify(run));
    }
    return out;
  }
  // Every other directive loads SQL queries over the file's catalog and runs the
  // pipeline (pipeline/session.h) the way the CLI and the library do.
  SessionOptions so;
  so.normalize.verify = true;
  auto dialect = dialectNamed(arg(c, "dialect", "default"));
  if (!dialect) return "unknown dialect " + arg(c, "dialect") + "\n";
  so.dialect = *dialect;
  for (const auto& d : argList(c, "disable")) so.normalize.disabled.insert(d);
  if (arg(c, "join-order", "cost") == "from") keepJoinsAsWritten(so.normalize);
  so.keepBound = true;  // for the rewrite checks below
  const bool place = c.directive == "rf" || c.directive == "lint" || arg(c, "rf") == "true";
  so.placeFilters = place;
  if (place) {
    auto profile = parseProfile(arg(c, "profile", "sound"));
    if (!profile) return "unknown profile " + arg(c, "profile") + "\n";
    so.filters = RfOptions(*profile);
    so.filters.cost = arg(c, "cost") == "true";
    so.filters.composite = arg(c, "composite") == "true";
  }
  Session session(so);
  bool good = session.loadAs(c.input, "input", false, diags, catalog);
  if (c.directive == "error") {
    if (good) return "expected an error, but the input was accepted\n";
    return diags.render();
  }
  // Errors first, then the plans of the statements that did load.
  std::string out = good ? "" : diags.render();
  if (c.directive == "bound") {
    for (const auto& q : session.queries()) out += planToText(*q.query.plan);
    return out;
  }
  session.run();
  const Catalog& loaded = session.inputs().back().catalog;
  ImplicitChecks checks;
  for (auto& run : session.queries()) {
    Query& q = run.query;
    for (const auto& p : run.normalization.problems) out += "INVARIANT BROKEN: " + p + "\n";
    out += soundCheck(*q.plan, q.name, tally, &bounded, checks);
    if (c.directive == "plan" && !run.normalization.fired.empty())
      out += rewriteCheck(*run.bound, *q.plan, q.name, bounded);
    if (run.bound) out += reorderCheck(*run.bound, so.normalize, q.name, bounded);
    const RfReport& rf = run.placement;
    if (place && arg(c, "summary") == "true") {
      out += summarize(rf);
      continue;
    }
    if (c.directive == "lint") {
      out += (session.queries().size() > 1 ? "-- " + q.name + "\n" : "") +
             findingLines(session.verify(run));
      continue;
    }
    if (c.directive == "roundtrip") {
      std::string first = documentToJson(loaded, {q}).dump(2);
      Catalog again;
      std::vector<Query> back;
      Diagnostics d2;
      if (!readPlanDocument(first, "roundtrip", again, back, d2)) return d2.render();
      std::string second = documentToJson(again, back).dump(2);
      out += first == second ? "ok\n" : "round trip differs:\n" + first + "\n" + second + "\n";
      continue;
    }
    std::string format = arg(c, "format", "text");
    if (format == "json")
      out += documentToJson(loaded, {q}).dump(2) + "\n";
    else if (format == "dot")
      out += planToDot({q});
    else
      out += planToText(*q.plan);
    if (arg(c, "explain") == "true") out += explainRuntimeFilters(rf);
    if (arg(c, "rules") == "true") {
      out += "rules:";
      for (const auto& [name, n] : run.normalization.fired)
        out += " " + name + "(" + std::to_string(n) + ")";
      out += "\n";
    }
  }
  return out + expectations(argList(c, "expect"), argList(c, "expect-not"), session) +
         checks.line();
}

}  // namespace

int main(int argc, char** argv) {
  rfguard::tuneHeapForSearch();
  bool rewrite = std::getenv("RFGUARD_REWRITE") != nullptr;
  bool mutants = false;
  if (const char* b = std::getenv("RFGUARD_CORPUS_BOUND"))
    bounded.bound = std::max(1, std::atoi(b));
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rewrite")
      rewrite = true;
    else if (a == "--mutants")
      mutants = true;
    else
      files.push_back(a);
  }
  int failures = 0, total = 0;
  for (const auto& path : files) {
    std::ifstream in(path);
    if (!in) {
      std::cerr << path << ": cannot open\n";
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    auto lines = splitLines(buf.str());
    std::vector<Case> cases;
    std::string err;
    if (!parseFile(lines, cases, err)) {
      std::cerr << path << ": " << err << "\n";
      return 2;
    }
    Catalog catalog;
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    std::ostringstream rewritten;
    size_t next = 0;
    for (const auto& c : cases) {
      ++total;
      bool ok;
      std::string actual = run(c, catalog, dir, ok);
      for (; next < c.begin; ++next) rewritten << lines[next] << "\n";
      writeCase(rewritten, lines, c, actual);
      next = c.end;
      if (auto a = alarms(actual); !a.empty()) {
        ++failures;
        std::cerr << path << ":" << c.line << ": " << c.directive << ": a check failed\n";
        for (const auto& l : a) std::cerr << "  " << l << "\n";
        continue;
      }
      if (actual == c.expected) continue;
      if (!rewrite) {
        ++failures;
        std::cerr << path << ":" << c.line << ": " << c.directive << " output differs\n";
        auto exp = splitLines(c.expected), act = splitLines(actual);
        for (size_t i = 0; i < std::max(exp.size(), act.size()); ++i) {
          std::string e = i < exp.size() ? exp[i] : "<missing>",
                      a = i < act.size() ? act[i] : "<missing>";
          if (e != a) std::cerr << "  line " << i + 1 << "\n  - " << e << "\n  + " << a << "\n";
        }
      }
    }
    for (; next < lines.size(); ++next) rewritten << lines[next] << "\n";
    if (rewrite) std::ofstream(path) << rewritten.str();
  }
  std::cout << total - failures << " passed, " << failures << " failed\n";
  if (mutants) {
    for (const auto& [kind, n] : tally.byKind)
      std::cout << "mutants " << kind << ": " << n.first << " tried, " << n.second << " caught\n";
    std::cout << "mutants: " << tally.tried << " tried, " << tally.caught << " caught\n";
    std::cout << "bounded: " << bounded.plans << " sound placements checked, " << bounded.complete
              << " complete to bound " << bounded.bound << ", " << bounded.sliced
              << " more by slices, " << bounded.databases << " databases, " << bounded.sqlite
              << " SQLite queries agreeing\n";
    std::cout << "rewrites: " << bounded.rewrites << " normalisations checked, "
              << bounded.rewritesProved << " proved step by step by normal form, "
              << bounded.rewritesComplete << " more complete to bound " << bounded.bound << ", "
              << bounded.rewritesTooLarge << " too large to search\n";
    std::cout << "reorderings: " << bounded.reorderings << " join-order and build-side steps, "
              << bounded.reorderingsProved << " proved by normal form, "
              << bounded.reorderingsSearched << " more equivalent to bound " << bounded.bound
              << "\n";
  }
  return failures ? 1 : 0;
}
