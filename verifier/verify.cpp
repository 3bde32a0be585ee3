#include "verifier/verify.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "verifier/plan_facts.h"

namespace rfguard {

namespace {
constexpr size_t kShareDerivationsFrom = 4;  // consumers of one filter (bench_lint: 2..8 alike)
}  // namespace

std::vector<Finding> verifyRuntimeFilters(const PlanNode& root) {
  PlanFacts facts(root);
  std::vector<Finding> out;
  std::vector<bool> ok;
  checkClosure(facts, out, ok);
  std::unordered_map<int, std::unique_ptr<Derivations>> derived;  // by filter id
  for (size_t i = 0; i < facts.consumers.size(); ++i) {
    if (!ok[i]) continue;
    const Consumer& c = facts.consumers[i];
    // A walk shared by a few consumers costs more than their own path searches.
    if (facts.consumersOf(c.target->id).size() < kShareDerivationsFrom) {
      checkSafety(facts, c, out);
      continue;
    }
    auto& d = derived[c.target->id];
    if (!d) d = std::make_unique<Derivations>(facts, facts.producersOf(c.target->id)[0]);
    checkSafety(facts, c, out, d.get());
  }
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
