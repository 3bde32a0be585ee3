#include "tools/cli/equiv.h"
#include "tools/cli/engine_oracle.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "pipeline/equiv.h"
#include "tools/cli/verdict_output.h"

namespace rfguard {

namespace {

using Json = nlohmann::ordered_json;

Json resultJson(const EquivResult& r) {
  Json j{{"verdict", r.verdict},
         {"bound", reportedBound(r)},
         {"requested_bound", r.requested},
         {"databases", r.bounded.databases},
         {"databases_per_bound", r.bounded.databasesPerBound}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (!r.proof.empty()) j["proof"] = r.proof;
  if (!r.subtree.empty()) j["subtree"] = r.subtree;
  if (!r.bounded.limit.empty()) j["limit"] = r.bounded.limit;
  if (r.proof.empty() && r.reason.empty()) {
    j["every_value"] = r.bounded.everyValue;
    if (!r.bounded.domain.empty()) j["domain"] = r.bounded.domain;
    if (!r.bounded.valuesOpen.empty()) j["values_open"] = r.bounded.valuesOpen;
    if (!r.bounded.undecided.empty()) j["undecided"] = r.bounded.undecided;
    j["solver_ms"] = r.bounded.solverMs;
  }
  if (!r.bounded.constants.empty()) {
    j["constants"] = r.bounded.constants;
    j["constants_reached"] = r.bounded.constantsReached;
  }
  if (r.bounded.counterexample) {
    j["counterexample"] = counterexampleJson(*r.bounded.counterexample, r.sql);
    j["counterexample"]["ordered"] = r.bounded.counterexample->ordered;
    if (!r.bounded.around.empty()) j["around"] = r.bounded.around;
  }
  if (Json o = oracleJson(r.bounded); !o.is_null()) j["oracle"] = o;
  j["ms"] = r.ms;
  return j;
}

void resultText(const EquivResult& r, std::ostream& out) {
  if (!r.subtree.empty()) out << "on the changed subtree " << r.subtree << ": ";
  if (!r.proof.empty()) {
    out << "equivalent on every database: the same normal form (" << r.proof << ")\n";
  } else if (r.verdict == "equivalent") {
    out << "equivalent up to bound " << r.bounded.bound << " " << valuesText(r.bounded) << " ("
        << databasesText(r.bounded) << ", " << durationText(r.ms) << ")\n";
  } else if (r.verdict == "inconclusive" && r.bounded.bound >= r.requested &&
             !r.bounded.everyValue) {
    out << "inconclusive: no difference up to bound " << r.bounded.bound << " "
        << valuesText(r.bounded) << " (" << databasesText(r.bounded) << ", " << durationText(r.ms)
        << ")\n";
  } else if (r.verdict == "inconclusive") {
    out << "inconclusive: equivalent up to bound " << r.bounded.bound << " of the " << r.requested
        << " asked for " << valuesText(r.bounded) << " (" << r.bounded.limit << "; "
        << databasesText(r.bounded) << ", " << durationText(r.ms) << ")\n";
  } else if (r.verdict == "error") {
    out << "cannot compare: " << r.reason << "\n";
  } else if (!r.bounded.counterexample) {
    out << "DIFFERENT: " << r.reason << "\n";
  } else {
    const auto& c = *r.bounded.counterexample;
    out << "DIFFERENT at bound " << reportedBound(r) << " (" << databasesText(r.bounded) << ", "
        << durationText(r.ms) << ")" << (c.ordered ? ", results compared in order" : "")
        << (c.repeated ? ", one row repeated " + std::to_string(c.repeated) + " times" : "")
        << "\n";
    if (!r.bounded.around.empty()) out << "  found from " << r.bounded.around << "\n";
    counterexampleText(c, r.sql, out);
  }
  if (!r.bounded.undecided.empty() && r.verdict != "different")
    out << "  undecided " << r.bounded.undecided << "\n";
  if (!r.bounded.constants.empty() && r.verdict != "different" &&
      r.bounded.constants != r.bounded.limit)
    out << "  " << r.bounded.constants << "\n";
  oracleText(r.bounded, out);
}

/// 2 error, 1 different (or an evaluator defect), 4 inconclusive, 0 equivalent:
/// a CI gate tells "equivalent" from "did not finish" by the code alone.
int exitCode(const EquivResult& r) {
  if (r.verdict == "error") return kExitInputError;
  if (r.verdict == "different" || !r.bounded.oracleDisagreements.empty()) return kExitFindings;
  if (r.verdict == "inconclusive") return kExitInconclusive;
  return kExitOk;
}

/// The worse of two exit codes: an input error, then findings, then inconclusive.
int worse(int a, int b) {
  auto rank = [](int c) {
    return c == kExitInputError ? 3 : c == kExitFindings ? 2 : c == kExitInconclusive ? 1 : 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

BoundedOptions boundedOptions(const EquivArgs& args) {
  BoundedOptions bo;
  bo.bound = args.bound;
  bo.seconds = args.seconds;
  // --databases alone leaves no clock: the solver then has the resource count
  // of the default budget, which is the same on any machine too.
  bo.solverSeconds = args.seconds >= 1e9 ? BoundedOptions{}.seconds : args.seconds;
  bo.maxDatabases = args.databases;
  bo.oracle = args.oracle != "none";
  bo.oracleFactory = engine::oracleFactory(args.oracle);
  bo.oracleDatabases = args.oracleDatabases;
  bo.method = BoundedOptions::Method::Whole;
  bo.proofs = !args.noProof;
  return bo;
}

int runTrace(const EquivArgs& args, const SessionOptions& so, std::ostream& out,
             std::ostream& err) {
  Diagnostics diags;
  std::string text;
  std::vector<TraceStep> steps;
  if (!readInputFile(args.trace, text, diags) ||
      !readTrace(text, args.trace, so.schema, steps, diags)) {
    err << renderErrors(diags);
    return kExitInputError;
  }
  auto verdicts = checkTrace(steps, boundedOptions(args));
  int code = kExitOk;
  const TraceVerdict* first = nullptr;
  Json js = Json::array();
  if (args.format == "text")
    out << "-- " << args.trace << ": " << steps.size()
        << (steps.size() == 1 ? " plan, " : " plans, ") << verdicts.size()
        << (verdicts.size() == 1 ? " step\n" : " steps\n");
  for (const auto& v : verdicts) {
    const TraceStep& s = steps[v.step];
    const std::string rule = s.rule.empty() ? "(no rule named)" : s.rule;
    if (!first && !v.skipped && v.result.verdict == "different") first = &v;
    code = worse(code, v.skipped ? kExitOk : exitCode(v.result));
    if (args.format == "text") {
      out << "step " << v.step << " " << rule << " (" << s.where << "): ";
      if (v.skipped)
        out << "not checked (after the first unsound step)\n";
      else if (v.identical)
        out << "structurally identical\n";
      else
        resultText(v.result, out);
      continue;
    }
    Json j{{"step", v.step}, {"rule", s.rule}, {"where", s.where}};
    if (v.skipped) {
      j["verdict"] = "skipped";
    } else {
      j.update(resultJson(v.result));
      j["identical"] = v.identical;
    }
    js.push_back(j);
  }
  if (args.format == "text") {
    if (first)
      out << "-- first unsound step: " << first->step << " ("
          << (steps[first->step].rule.empty() ? "no rule named" : steps[first->step].rule) << ")\n";
    else {
      size_t full = 0, identical = 0, open = 0, proved = 0;
      int lowest = args.bound;
      for (const auto& v : verdicts) {
        identical += v.identical;
        proved += !v.result.proof.empty();
        full += !v.identical && v.result.proof.empty() && v.result.verdict == "equivalent";
        if (v.result.verdict == "inconclusive" || v.result.verdict == "error") {
          ++open;
          lowest = std::min(lowest, v.result.bounded.bound);
        }
      }
      out << "-- no unsound step: " << full << " equivalent up to bound " << args.bound << ", ";
      if (proved) out << proved << " equivalent by normal form, ";
      out << identical << " structurally identical";
      if (open) out << ", " << open << " open (the lowest reached bound " << lowest << ")";
      out << "\n";
    }
  } else {
    Json f = nullptr;
    if (first) f = Json{{"step", first->step}, {"rule", steps[first->step].rule}};
    out << Json{{"format", "rfguard-equiv-trace"}, {"version", 1}, {"trace", args.trace},
                {"requested_bound", args.bound},   {"steps", js},  {"first_unsound", f}}
               .dump(2)
        << "\n";
  }
  return code;
}

}  // namespace

int runEquiv(const EquivArgs& args, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();  // the time reported is the command's
  SessionOptions so;
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  if (std::string why; !engine::oracleAvailable(args.oracle, why)) {
    err << "error: --oracle " << args.oracle << ": " << why << "\n";
    return kExitInputError;
  }
  if (!args.trace.empty()) {
    if (!args.files.empty()) {
      err << "rfguard equiv: give either --trace FILE or ORIGINAL REWRITTEN, not both\n";
      return kExitInputError;
    }
    return runTrace(args, so, out, err);
  }
  if (args.files.size() != 2) {
    err << "rfguard equiv: needs two inputs, ORIGINAL and REWRITTEN (or --trace FILE); got "
        << args.files.size() << "\n";
    return kExitInputError;
  }
  EquivSide sides[2];
  Catalog schema = so.schema;
  for (int i = 0; i < 2; ++i) {
    Diagnostics diags;
    std::string text;
    Catalog declared;
    if (!readInputFile(args.files[i], text, diags) ||
        !loadEquivSide(text, args.files[i], so.from, schema, sides[i], declared, diags,
                       so.dialect)) {
      err << renderErrors(diags);
      return kExitInputError;
    }
    if (schema.tables().empty()) schema = declared;  // the original's tables for the rewritten
    for (const auto& n : sides[i].notes) err << args.files[i] << ": note: " << n << "\n";
  }
  std::string why;
  if (!comparable(*sides[0].plan, *sides[1].plan, why)) {
    err << "rfguard equiv: " << why << "\n";
    return kExitInputError;
  }
  EquivResult r = checkRewrite(*sides[0].plan, *sides[1].plan, boundedOptions(args));
  r.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (args.format == "text") {
    out << "-- original " << sides[0].name << " (" << sides[0].file << "), rewritten "
        << sides[1].name << " (" << sides[1].file << ")\n";
    resultText(r, out);
  } else {
    Json j{{"format", "rfguard-equiv"},
           {"version", 1},
           {"original", Json{{"file", sides[0].file}, {"query", sides[0].name}}},
           {"rewritten", Json{{"file", sides[1].file}, {"query", sides[1].name}}}};
    j.update(resultJson(r));
    out << j.dump(2) << "\n";
  }
  return exitCode(r);
}

}  // namespace rfguard
