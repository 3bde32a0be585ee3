#include "verifier/normal_form.h"

#include "rules/normalize.h"
#include "verifier/normal_form_canon.h"
#include "verifier/normal_form_laws.h"

namespace rfguard {

namespace {

using namespace normal_form;

std::string formOf(const PlanNode& root, unsigned identities) {
  PlanPtr lawful = withLaws(root, identities);
  std::vector<std::string> output;
  for (const auto& c : lawful->output) output.push_back(c.id);
  return Json{{"output", output}, {"plan", Canon(identities).node(*lawful)}}.dump();
}

}  // namespace

std::string normalForm(const PlanNode& root) {
  return formOf(root, kAll);
}

std::optional<std::string> provedEqual(const PlanNode& a, const PlanNode& b) {
  if (formOf(a, kAll) != formOf(b, kAll)) return std::nullopt;
  if (!verifyPlan(a).empty() || !verifyPlan(b).empty()) return std::nullopt;
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
      {kKeys,
       "DISTINCT dropped, GROUP BY as a projection, over a key of its input (constraints, group "
       "keys, joins on keys)"},
      {kJoins,
       "joins dropped whose other input nothing reads: on a NOT NULL foreign key, or LEFT on a "
       "key"},
      {kProjections,
       "projections merged, filters moved below them, those that only drop columns left out"},
      {kNames, "tables read once named by the table, not by the query's alias"},
  };
  // Name the identities the forms need: each left out in turn, the most
  // specific first, and kept out where the forms stay equal without it (each
  // one named was needed then).
  unsigned best = kAll;
  for (auto it = std::rbegin(names); it != std::rend(names); ++it) {
    const unsigned without = best & ~it->first;
    if (formOf(a, without) == formOf(b, without)) best = without;
  }
  std::string why;
  for (const auto& [bit, text] : names)
    if (best & bit) why += (why.empty() ? "" : "; ") + std::string(text);
  return why.empty() ? "the same plan but for estimates and runtime filters" : why;
}

}  // namespace rfguard
