#pragma once
// The runtime-filter rules as data: every rule a Decision can name, with the
// verifier finding a refused step of it reports and one line for the docs,
// all from one line per rule in rules/rf_rules.def. Renaming a rule changes
// that line only; the finding stays attached.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rfguard {

/// Every rule the runtime-filter hooks, the planner and the engine profiles
/// decide by, one per line of rules/rf_rules.def, in that order.
enum class RfRule : uint8_t {
#define RF_RULE(enumerator, name, finding, doc) enumerator,
#include "rules/rf_rules.def"
#undef RF_RULE
};

/// One rule: its name in explanations and corpus files, the finding a refused
/// step of it reports, and what it decides.
struct RfRuleInfo {
  RfRule rule;
  const char* name;     ///< e.g. "PassThroughJoinNullGeneratingSide"
  const char* finding;  ///< finding code of a derivation that breaks at this rule
  const char* doc;      ///< one line: what the rule allows and what it refuses
};

/// The table entry of a rule.
const RfRuleInfo& rfRuleInfo(RfRule r);
/// The rule's name.
const char* ruleName(RfRule r);
/// Every rule, in enum order.
const std::vector<RfRuleInfo>& allRfRules();
/// The rule of that name.
std::optional<RfRule> parseRfRule(std::string_view name);

}  // namespace rfguard
