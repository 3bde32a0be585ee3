#include "tests/corpus_checks.h"

#include "rules/rf_planner.h"
#include "verifier/mutate.h"
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

std::string soundCheck(const PlanNode& plan, const std::string& name, MutantTally& tally) {
  std::string out;
  for (bool composite : {false, true}) {
    PlanPtr copy = clonePlan(plan);
    RfReport rf;
    RfOptions options;
    options.composite = composite;
    planRuntimeFilters(*copy, rf, options);
    std::string where = name + (composite ? " (composite)" : "");
    auto fs = verifyRuntimeFilters(*copy);
    if (!fs.empty()) out += "SOUND PLACEMENT FLAGGED in " + where + ":\n" + findingLines(fs);
    for (const auto& m : mutatePlacement(*copy)) {
      bool caught = false;
      for (const auto& f : verifyRuntimeFilters(*m.plan))
        for (const auto& code : m.expect) caught = caught || f.code == code;
      tally.add(m.kind, caught);
      if (!caught) out += "MUTANT NOT CAUGHT in " + where + ": " + m.kind + ": " + m.what + "\n";
    }
  }
  return out;
}

}  // namespace rfguard
