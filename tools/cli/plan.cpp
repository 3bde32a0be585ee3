// The `plan` command.
#include "tools/cli/plan.h"

#include <algorithm>
#include <fstream>

#include "grammar/suggest.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "tools/cli/cli.h"

namespace rfguard {

namespace {

/// One line per filter with its consumers: "RF1 a.k, b.k; RF2 a.k".
/// "RF1 a.k, b.k; RF2 c.k": consumers grouped by filter.
std::string consumerList(const std::vector<RfDerivation>& consumers) {
  std::string out;
  for (size_t i = 0; i < consumers.size(); ++i) {
    const bool first = i == 0 || consumers[i - 1].filter != consumers[i].filter;
    if (first) out += (i ? "; RF" : "RF") + std::to_string(consumers[i].filter) + " ";
    out += (first ? "" : ", ") + consumers[i].target.str();
  }
  return out;
}

/// --compare: the consumers each profile places on the same normalised plan.
std::string compareProfiles(const Query& q) {
  std::string out = "-- " + q.name + "\n";
  const auto profiles = consumersByProfile(*q.plan, RfOptions{});
  // Columns: the names left-aligned, the counts right-aligned, then the lists.
  size_t nameWidth = 0, countWidth = 0;
  for (const auto& pc : profiles) {
    nameWidth = std::max(nameWidth, std::string(profileName(pc.profile)).size());
    countWidth = std::max(countWidth, std::to_string(pc.consumers.size()).size());
  }
  for (const auto& pc : profiles) {
    const std::string name = profileName(pc.profile);
    const std::string count = std::to_string(pc.consumers.size());
    out += "  " + name + std::string(nameWidth - name.size() + 2 + countWidth - count.size(), ' ') +
           count + (pc.consumers.empty() ? "" : "  " + consumerList(pc.consumers)) + "\n";
  }
  return out;
}

}  // namespace

int runPlan(const PlanArgs& args, std::ostream& out, std::ostream& err) {
  if (args.listRules) {
    for (const auto& r : normalisationRules()) out << r.name << "\t" << r.description << "\n";
    for (const auto& r : allRfRules()) out << r.name << "\t" << r.doc << "\n";
    return kExitOk;
  }
  if (args.files.empty()) {
    err << "rfguard plan: no input files (use - for stdin)\n";
    return kExitInputError;
  }
  // Flags that add to one format only are refused with the others, never ignored.
  auto refuse = [&](const std::string& what) {
    err << "rfguard plan: " << what << "\n";
    return kExitInputError;
  };
  if (args.explain && args.format != "text")
    return refuse("--explain adds the decisions to the text plan; it has no " + args.format +
                  " form (use --format text)");
  if (args.compare && (args.format == "dot" || args.format == "mermaid"))
    return refuse("--compare prints consumers per profile as text or json, not " + args.format);
  if (args.showRules && args.format != "text")
    return refuse("--show-rules adds the rules that fired to the text plan; it has no " +
                  args.format + " form (use --format text)");
  if (args.compare && args.explain) return refuse("--compare and --explain: choose one");
  if (args.compare && args.noRuntimeFilters)
    return refuse("--compare places every profile; --no-runtime-filters contradicts it");
  SessionOptions so;
  for (const auto& d : args.disabled) {
    if (!isRuleName(d)) {
      std::vector<std::string> names;
      for (const auto& r : normalisationRules()) names.push_back(r.name);
      err << "rfguard plan: unknown rule " << d << " in --disable" << didYouMean(d, names)
          << " (see --list-rules)\n";
      return kExitInputError;
    }
    so.normalize.disabled.insert(d);
  }
  so.normalize.verify = args.verify;
  so.filters = RfOptions(*parseProfile(args.profile));
  so.filters.cost = args.cost;
  so.filters.composite = args.composite;
  // --compare places every profile on copies of the normalised plan itself.
  so.placeFilters = !args.noRuntimeFilters && !args.compare;
  // A plan JSON that carries runtime filters is shown as given: it is someone
  // else's placement, for the verifier to judge, not to redo.
  so.given = GivenPlans::JsonWithFilters;
  so.keepBound = !args.trace.empty();
  if (!applyInputArgs(args.input, so, err)) return kExitInputError;
  if (!args.trace.empty() && !makeOutputDirectory(args.trace, err)) return kExitInputError;
  Session session(so);
  int code = kExitOk;
  for (const auto& f : args.files) {
    Diagnostics diags;
    if (!session.load(f, diags)) code = kExitInputError;
    err << renderErrors(diags);
  }
  if (session.run()) code = kExitInputError;
  std::vector<std::string> placing;
  if (args.profile != "sound") placing.push_back("--profile " + args.profile);
  if (args.explain) placing.push_back("--explain");
  if (args.cost) placing.push_back("--cost");
  if (args.composite) placing.push_back("--composite");
  if (!args.compare && !checkPlacementFlags(session, placing, "plan", err)) return kExitInputError;
  if (!args.trace.empty())
    for (size_t i = 0; i < session.inputs().size(); ++i)
      for (size_t qi : session.inputs()[i].queries) {
        const QueryRun& q = session.queries()[qi];
        if (!q.bound) continue;  // plan JSON: nothing was normalised
        const std::string path = args.trace + "/" + q.query.name + ".jsonl";
        std::ofstream file(path, std::ios::binary);
        file << traceJsonLines(session.inputs()[i].catalog, q.query,
                               normalisationTrace(*q.bound, so.normalize));
        if (!file) {
          err << path << ": error: cannot write the trace\n";
          code = kExitInputError;
        }
      }
  for (const auto& q : session.queries()) {
    for (const auto& p : q.normalization.problems)
      err << q.input << ": " << q.query.name << ": invariant broken by " << p << "\n";
    if (args.compare) {
      if (args.format == "text") out << compareProfiles(q.query);
      continue;
    }
    if (args.format != "text") continue;
    out << "-- " << q.query.name;
    if (q.query.loc.line)
      out << " (" << q.query.file << ":" << q.query.loc.line << ":" << q.query.loc.col << ")";
    out << "\n" << planToText(*q.query.plan);
    if (q.imported) {
      for (const auto& n : q.imported->losses)
        out << "-- not imported faithfully: " << n.message << "\n";
      for (const auto& n : q.imported->ambiguities)
        out << "-- ambiguous producer: " << n.message << "\n";
    }
    if (args.explain)
      out << explainRuntimeFilters(q.placement);
    else
      for (const auto& s : q.placement.skipped)
        out << "-- skipped by cost: join #" << s.node << " `" << s.what.str()
            << "`: " << s.decision.reason.text() << "\n";
    if (args.showRules) {
      out << "-- rules:";
      for (const auto& [name, n] : q.normalization.fired) out << " " << name << "(" << n << ")";
      out << "\n";
    }
    out << "\n";
  }
  if (args.compare && args.format == "json") {
    nlohmann::ordered_json doc{{"format", "rfguard-compare"}, {"version", 1}};
    nlohmann::ordered_json qs = nlohmann::ordered_json::array();
    for (const auto& q : session.queries()) {
      nlohmann::ordered_json profiles = nlohmann::ordered_json::array();
      for (const auto& pc : consumersByProfile(*q.query.plan, RfOptions{})) {
        nlohmann::ordered_json consumers = nlohmann::ordered_json::array();
        for (const auto& c : pc.consumers)
          consumers.push_back({{"filter", c.filter}, {"target", c.target.str()}});
        profiles.push_back({{"profile", profileName(pc.profile)}, {"consumers", consumers}});
      }
      qs.push_back({{"name", q.query.name}, {"input", q.input}, {"profiles", profiles}});
    }
    doc["queries"] = qs;
    out << doc.dump(2) << "\n";
  }
  if (args.compare) return code;
  if (args.format == "json") {
    // One input: one document. Several: JSON Lines, one compact document per
    // input and line, which lint, check and plan read back (docs/plan-json.md).
    const bool lines = session.inputs().size() > 1;
    for (const auto& in : session.inputs()) {
      if (!in.ok) continue;
      std::vector<Query> qs;
      for (size_t i : in.queries) qs.push_back(session.queries()[i].query);
      out << documentToJson(in.catalog, qs).dump(lines ? -1 : 2) << "\n";
    }
  } else if (args.format == "dot") {
    std::vector<Query> all;
    for (const auto& q : session.queries()) all.push_back(q.query);
    out << planToDot(all);
  } else if (args.format == "mermaid") {
    std::vector<Query> all;
    for (const auto& q : session.queries()) all.push_back(q.query);
    out << planToMermaid(all);
  }
  return code;
}

}  // namespace rfguard
