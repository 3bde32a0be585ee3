#include "verifier/verify.h"

#include <algorithm>

#include "verifier/plan_facts.h"

namespace rfguard {

std::vector<Finding> verifyRuntimeFilters(const PlanNode& root) {
  PlanFacts facts(root);
  std::vector<Finding> out;
  std::vector<bool> ok;
  checkClosure(facts, out, ok);
  for (size_t i = 0; i < facts.consumers.size(); ++i)
    if (ok[i]) checkSafety(facts, facts.consumers[i], out);
  auto rank = [](const std::string& code) {
    const auto& codes = findingCodes();
    for (size_t i = 0; i < codes.size(); ++i)
      if (code == codes[i].id) return i;
    return codes.size();
  };
  std::stable_sort(out.begin(), out.end(), [&](const Finding& a, const Finding& b) {
    if (a.filter != b.filter) return a.filter < b.filter;
    return rank(a.code) < rank(b.code);
  });
  return out;
}

}  // namespace rfguard
