// The runtime-filter rule table, built from rules/rf_rules.def. A derivation
// that breaks at a step reports the finding of that step's rule;
// "target-not-derivable" when no rule of its own explains the break (the
// filter simply does not reach the target).
#include "rules/rf_rules.h"

#include <cassert>

namespace rfguard {

namespace {

// One row per line of rf_rules.def, in enum order. The verifier judges every
// placement, an engine's included, by the sound rules, so an engine's own
// rules never break a derivation and map to no finding of their own.
const std::vector<RfRuleInfo> kRules = {
#define RF_RULE(enumerator, name, finding, doc) {RfRule::enumerator, name, finding, doc},
#include "rules/rf_rules.def"
#undef RF_RULE
};

}  // namespace

const RfRuleInfo& rfRuleInfo(RfRule r) {
  const auto& info = kRules[static_cast<size_t>(r)];
  assert(info.rule == r && "table rows are in enum order");
  return info;
}

const char* ruleName(RfRule r) {
  return rfRuleInfo(r).name;
}

const std::vector<RfRuleInfo>& allRfRules() {
  return kRules;
}

std::optional<RfRule> parseRfRule(std::string_view name) {
  for (const auto& r : kRules)
    if (name == r.name) return r.rule;
  return std::nullopt;
}

}  // namespace rfguard
