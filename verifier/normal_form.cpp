#include "verifier/normal_form.h"

#include "rules/normalize.h"
#include "verifier/normal_form_canon.h"

namespace rfguard {

namespace {

using namespace normal_form;

std::string formOf(const PlanNode& root, unsigned identities) {
  std::vector<std::string> output;
  for (const auto& c : root.output) output.push_back(c.id);
  return Json{{"output", output}, {"plan", Canon(identities).node(root)}}.dump();
}

}  // namespace

std::string normalForm(const PlanNode& root) {
  return formOf(root, kAll);
}

std::optional<std::string> provedEqual(const PlanNode& a, const PlanNode& b) {
  if (formOf(a, kAll) != formOf(b, kAll)) return std::nullopt;
  if (!verifyPlan(a).empty() || !verifyPlan(b).empty()) return std::nullopt;
  // Name the fewest identities that make the forms equal.
  static const std::pair<unsigned, const char*> names[] = {
      {kBlocks, "inner joins reordered or their conjuncts moved"},
      {kMirror, "join inputs swapped with the mirrored join type"},
      {kScanColumns, "scans list other columns"},
      {kOperands, "operands of symmetric comparisons swapped"},
      {kSink, "conjuncts moved into an input of an outer, semi or anti join"},
      {kSimplify, "outer joins simplified where a conjunct rejects their padded rows"},
      {kSubqueries,
       "uncorrelated IN / NOT IN as semi / NULL-aware anti joins, [NOT] EXISTS as semi / anti "
       "joins"},
      {kFactor, "conjuncts common to every branch of an OR taken out of it"},
      {kAttach, "LEFT, semi or anti joins moved past inner joins on the side they keep"},
      {kKeys, "DISTINCT dropped over a key of its input (constraints, group keys, joins on keys)"},
  };
  unsigned best = kAll;
  for (int bits = 0; best == kAll && bits < __builtin_popcount(kAll); ++bits)
    for (unsigned mask = 0; mask < kAll && best == kAll; ++mask)
      if (__builtin_popcount(mask) == bits && formOf(a, mask) == formOf(b, mask)) best = mask;
  std::string why;
  for (const auto& [bit, text] : names)
    if (best & bit) why += (why.empty() ? "" : "; ") + std::string(text);
  return why.empty() ? "the same plan but for estimates and runtime filters" : why;
}

}  // namespace rfguard
