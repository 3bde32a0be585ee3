#include "tests/corpus_checks.h"

#include "grammar/sql.h"
#include "pipeline/equiv.h"

#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "testgen/mutate.h"
#include "verifier/bounded.h"
#include "verifier/counterexample.h"
#include "verifier/normal_form.h"
#include "verifier/verify.h"

namespace rfguard {

void MutantTally::add(const std::string& kind, bool wasCaught) {
  ++tried;
  caught += wasCaught;
  for (auto& [k, n] : byKind)
    if (k == kind) {
      ++n.first;
      n.second += wasCaught;
      return;
    }
  byKind.push_back({kind, {1, wasCaught ? 1 : 0}});
}

std::string findingLines(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs) {
    out += std::string(severityName(f.severity)) + " [" + f.code + "] nodes=";
    for (size_t i = 0; i < f.nodes.size(); ++i)
      out += (i ? "," : "") + std::string("#") + std::to_string(f.nodes[i]);
    if (f.loc.line) out += " at " + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col);
    out += ": " + f.message + "\n";
  }
  return out.empty() ? "clean\n" : out;
}

namespace {

std::string bag(const std::vector<rt::Row>& rows) {
  std::string s;
  for (const auto& r : rows) s += (s.empty() ? "" : " ") + rt::keyToString(r);
  return "{" + s + "}";
}

/// SQLite's tally of a search, and every evaluator defect it found.
std::string oracleLines(const BoundedVerdict& v) {
  std::string out;
  if (v.oracleRuns || !v.oracleSkipped.empty())
    out += "  sqlite: " + std::to_string(v.oracleRuns) + " queries" +
           (v.oracleSkipped.empty() ? "" : " (some not expressible: " + v.oracleSkipped + ")") +
           (v.oracleDisagreements.empty() ? ", all agree" : "") + "\n";
  for (const auto& d : v.oracleDisagreements) out += "  EVALUATOR DEFECT: " + d + "\n";
  return out;
}

}  // namespace

std::string verdictLines(const std::vector<BoundedVerdict>& vs) {
  std::string out;
  for (size_t i = 0; i < vs.size(); ++i) {
    const BoundedVerdict& v = vs[i];
    std::string what;
    for (int id : v.filters) what += (what.empty() ? "RF" : "+RF") + std::to_string(id);
    if (what.empty()) what = "no filters";
    if (i > 0) what += " alone";
    if (!v.error.empty() && v.safe) {
      out += what + ": cannot check: " + v.error + "\n";
      continue;
    }
    if (v.safe) {
      out += what + ": safe up to bound " + std::to_string(v.bound) +
             (v.complete ? "" : " (" + v.limit + ")") + ", " + std::to_string(v.databases) +
             " databases" +
             (v.everyValue           ? ", every value"
              : v.valuesOpen.empty() ? ""
                                     : ", values open: " + v.valuesOpen) +
             "\n";
      if (!v.constants.empty()) out += "  " + v.constants + "\n";
      if (v.sliceBound >= 0 || !v.sliceLimit.empty())
        out += "  by slices: safe up to bound " + std::to_string(std::max(v.sliceBound, 0)) + " (" +
               std::to_string(v.slices) + " slices, " + std::to_string(v.sliceDatabases) +
               " databases" + (v.sliceEveryValue ? ", every value" : "") + ")" +
               (v.sliceLimit.empty() ? "" : "; " + v.sliceLimit) +
               (v.sliceValuesOpen.empty() ? "" : "; values open: " + v.sliceValuesOpen) + "\n";
    } else {
      const auto& c = *v.counterexample;
      out +=
          what + ": unsafe at bound " + std::to_string(v.bound + 1) + " (" +
          rt::contentName(c.content) + " content, " + std::to_string(v.databases) + " databases" +
          (c.repeated ? ", one row repeated " + std::to_string(c.repeated) + " times" : "") + "):";
      for (const auto& [t, tab] : c.db) out += " " + t + "=" + bag(tab.rows);
      if (c.content == rt::Content::Workers) out += "; " + partitioningText(c);
      out += "; original " + bag(c.original) + "; rewritten " + bag(c.rewritten) + "\n";
    }
    out += oracleLines(v);
  }
  return out;
}

std::string ImplicitChecks::line() const {
  std::string out = "implicit: " + std::to_string(placements - flagged) + " of " +
                    std::to_string(placements) + " sound placements clean, " +
                    std::to_string(caught) + "/" + std::to_string(mutants) + " mutants caught";
  if (bounded)
    out += ", " + std::to_string(bounded - unsafe) + " of " + std::to_string(bounded) +
           " bounded without counterexample";
  return out + "\n";
}

std::string soundCheck(const PlanNode& plan, const std::string& name, MutantTally& tally,
                       BoundedTally* bounded, ImplicitChecks& checks) {
  std::string out;
  for (bool composite : {false, true}) {
    PlanPtr copy = clonePlan(plan);
    RfReport rf;
    RfOptions options;
    options.composite = composite;
    planRuntimeFilters(*copy, rf, options);
    std::string where = name + (composite ? " (composite)" : "");
    auto fs = verifyRuntimeFilters(*copy);
    ++checks.placements;
    checks.flagged += !fs.empty();
    if (!fs.empty()) out += "SOUND PLACEMENT FLAGGED in " + where + ":\n" + findingLines(fs);
    if (bounded && !composite && !rf.consumers.empty()) {
      BoundedOptions bo;
      bo.bound = bounded->bound;
      bo.oracle = true;
      // Budgets in databases only, so that the verdicts do not depend on the machine or
      // on a sanitizer build; the seconds are a safety net.
      bo.seconds = 600;
      bo.maxDatabases = 20000;
      bo.sliceMaxDatabases = 400000;  // slices: the fallback for plans too large to search whole
      bo.oracleDatabases = 20000;     // SQLite cross-checks the first 20,000 of every search
      bo.everyValue = false;          // the search's verdicts (the solver's: corpus/check)
      auto vs = checkFilters(*copy, bo);
      const BoundedVerdict& v = vs[0];
      ++checks.bounded;
      checks.unsafe += !v.safe || !v.error.empty() || !v.oracleDisagreements.empty();
      if (v.databases) {
        ++bounded->plans;
        const int b = bo.bound;
        const bool whole = v.complete && v.bound == b, sliced = !whole && v.sliceBound == b;
        bounded->complete += whole;
        bounded->sliced += sliced;
        if (!whole && !sliced && v.safe)  // the must-hold of issue 5: every one to bound 2
          out += "SOUND PLACEMENT SHORT OF BOUND " + std::to_string(b) + " in " + where + ": " +
                 (v.sliceLimit.empty() ? v.limit : v.sliceLimit) + "\n";
        bounded->databases += v.databases + v.sliceDatabases;
        bounded->sqlite += v.oracleRuns;
      }
      if (!v.safe || !v.error.empty() || !v.oracleDisagreements.empty())
        out += "SOUND PLACEMENT NOT SAFE in " + where + ":\n" + verdictLines(vs);
    }
    for (const auto& m : mutatePlacement(*copy)) {
      bool caught = false;
      for (const auto& f : verifyRuntimeFilters(*m.plan))
        for (const auto& code : m.expect) caught = caught || f.code == code;
      tally.add(m.kind, caught);
      ++checks.mutants;
      checks.caught += caught;
      if (!caught) out += "MUTANT NOT CAUGHT in " + where + ": " + m.kind + ": " + m.what + "\n";
    }
  }
  return out;
}

/// True when every expression of the plan is deterministic (else no two runs compare).
bool deterministic(const PlanNode& n) {
  bool ok = true;
  forEachExpr(n, [&](const ExprPtr& e) { ok = ok && isDeterministic(*e); });
  for (const auto& c : n.children) ok = ok && deterministic(*c);
  return ok;
}

std::string rewriteCheck(const PlanNode& bound, const PlanNode& normalised, const std::string& name,
                         BoundedTally& tally) {
  if (!deterministic(bound)) return "";
  ++tally.rewrites;
  // Every step proved for every database by the normal forms (or unchanged)?
  auto steps = normalisationTrace(bound, {});
  bool proved = true;
  for (size_t i = 1; proved && i < steps.size(); ++i)
    proved = structurallyIdentical(*steps[i - 1].plan, *steps[i].plan) ||
             provedEqual(*steps[i - 1].plan, *steps[i].plan);
  if (proved) {
    ++tally.rewritesProved;
    return "";
  }
  BoundedOptions bo;
  bo.bound = tally.bound;
  bo.oracle = true;
  bo.seconds = 600;  // a safety net: the budget is the database count
  bo.maxDatabases = 20000;
  BoundedVerdict v = checkEquivalent(bound, normalised, bo);
  if (!v.databases && v.error.empty()) {  // the space is too large to start
    ++tally.rewritesTooLarge;
    return "";
  }
  tally.rewritesComplete += v.complete && v.bound == bo.bound;
  tally.databases += v.databases;
  tally.sqlite += v.oracleRuns;
  bool evalError = !v.error.empty();
  if (v.safe && !evalError && v.oracleDisagreements.empty()) return "";
  return "NORMALISATION NOT EQUIVALENT in " + name + ":\n" + verdictLines({v});
}

std::string reorderCheck(const PlanNode& bound, const NormalizeOptions& options,
                         const std::string& name, BoundedTally& tally) {
  auto steps = normalisationTrace(bound, options);
  std::string out;
  for (size_t i = 1; i < steps.size(); ++i) {
    if (steps[i].rule != "ReorderJoins" && steps[i].rule != "ChooseBuildSides") continue;
    ++tally.reorderings;
    if (provedEqual(*steps[i - 1].plan, *steps[i].plan)) {
      ++tally.reorderingsProved;
      continue;
    }
    BoundedOptions bo;
    bo.bound = tally.bound;
    bo.proofs = false;
    bo.maxDatabases = 20000;
    EquivResult r = checkRewrite(*steps[i - 1].plan, *steps[i].plan, bo);
    if (r.verdict == "equivalent") {
      ++tally.reorderingsSearched;
      continue;
    }
    out += "REORDERING NOT PROVED in " + name + ": " + steps[i].rule + " is " + r.verdict +
           (r.bounded.limit.empty() ? "" : " (" + r.bounded.limit + ")") + "\n";
  }
  return out;
}

std::string equivCase(const std::string& text, const Catalog& catalog, Dialect dialect,
                      const BoundedOptions& bo) {
  Catalog c = catalog;
  std::vector<Query> queries;
  Diagnostics diags;
  if (!loadSql(text, "input", c, queries, diags, {}, dialect)) return diags.render();
  if (queries.size() != 2) return "equiv needs two queries: the original, then the rewritten\n";
  std::string why;
  if (!comparable(*queries[0].plan, *queries[1].plan, why)) return "not comparable: " + why + "\n";
  EquivResult r = checkRewrite(*queries[0].plan, *queries[1].plan, bo);
  std::string out;
  if (r.verdict == "different" && r.bounded.counterexample) {
    const auto& x = *r.bounded.counterexample;
    out = "different at bound " + std::to_string(r.bounded.bound + 1) + " (" +
          std::to_string(r.bounded.databases) + " databases" + (x.ordered ? ", in order" : "") +
          (x.repeated ? ", one row repeated " + std::to_string(x.repeated) + " times" : "") + "):";
    for (const auto& [t, tab] : x.db) out += " " + t + "=" + bag(tab.rows);
    // In order, the rows as compared; otherwise as sorted bags.
    auto rows = [&](const std::vector<rt::Row>& rs) {
      if (!x.ordered) return bag(rs);
      std::string o;
      for (const auto& row : rs) o += (o.empty() ? "" : ", ") + rt::keyToString(row);
      return "[" + o + "]";
    };
    out += "; original " + rows(x.original) + "; rewritten " + rows(x.rewritten) +
           (x.tieAnswer ? " (an answer its ties allow)" : "") + "\n";
  } else if (r.verdict == "different" || r.verdict == "error") {
    out = r.verdict + ": " + r.reason + "\n";
  } else if (!r.proof.empty()) {
    out = "equivalent on every database: the same normal form (" + r.proof + ")\n";
  } else {
    out = r.verdict + " up to bound " + std::to_string(r.bounded.bound) +
          (r.bounded.limit.empty() ? "" : " (" + r.bounded.limit + ")") + ", " +
          std::to_string(r.bounded.databases) + " databases" +
          (r.bounded.everyValue
               ? ", every value\n"
               : "\n  values from " + r.bounded.domain + ": " + r.bounded.valuesOpen + "\n");
    if (!r.bounded.constants.empty() && r.bounded.constants != r.bounded.limit)
      out += "  " + r.bounded.constants + "\n";
    if (!r.bounded.undecided.empty() && r.bounded.undecided != r.bounded.limit)
      out += "  undecided " + r.bounded.undecided + "\n";
  }
  out += oracleLines(r.bounded);
  return out;
}

std::string checkCase(const std::string& text, const std::string& name, const Catalog& catalog,
                      const BoundedOptions& bo, const std::string& profile) {
  size_t first = text.find_first_not_of(" \t\r\n");
  bool json = first != std::string::npos && text[first] == '{';
  auto p = parseProfile(profile);
  if (!p) return "unknown profile " + profile + "\n";
  SessionOptions so;  // plan JSON is checked as given, SQL planned with the profile
  so.filters = RfOptions(*p);
  Session session(so);
  Diagnostics diags;
  if (!session.loadAs(text, name, json, diags, catalog)) return diags.render();
  session.run();
  std::string out;
  const auto& runs = session.queries();
  for (const auto& run : runs)
    out += (runs.size() > 1 ? "-- " + run.query.name + "\n" : "") +
           verdictLines(checkFilters(*run.query.plan, bo));
  return out;
}

}  // namespace rfguard
