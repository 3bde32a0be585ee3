// Assertions of the corpus beyond its recorded outputs: expect= / expect-not=
// against the rules that fired, and the alarm lines no recording may hold.
#include "tests/corpus_expect.h"

#include <set>
#include <sstream>

#include "rules/normalize.h"

namespace rfguard {

namespace {

/// The rules that fired in a session: normalisation rules that changed a plan,
/// and runtime-filter rules that decided something, a step taken or refused.
std::set<std::string> firedRules(const Session& session) {
  std::set<std::string> fired;
  for (const auto& run : session.queries()) {
    for (const auto& [name, n] : run.normalization.fired) fired.insert(name);
    const RfReport& r = run.placement;
    for (const auto& g : r.generation) fired.insert(ruleName(g.decision.rule));
    for (const auto& e : r.rejected) fired.insert(ruleName(e.decision.rule));
    for (const auto& e : r.skipped) fired.insert(ruleName(e.decision.rule));
    for (const auto& s : r.steps) fired.insert(ruleName(s.rule));
    for (const auto& d : r.consumers)
      for (const auto& s : r.derivation(d)) fired.insert(ruleName(s.rule));
  }
  return fired;
}

}  // namespace

/// `expect=Rule,...` and `expect-not=Rule,...`: checked against the rule
/// registries, then against the rules that fired. "" when every one holds.
std::string expectations(const std::vector<std::string>& expect,
                         const std::vector<std::string>& expectNot, const Session& session) {
  std::string out;
  auto known = [](const std::string& r) { return isRuleName(r) || parseRfRule(r).has_value(); };
  const auto fired = firedRules(session);
  for (const auto& r : expect) {
    if (!known(r))
      out += "UNKNOWN RULE " + r + " in expect= (see rfguard plan --list-rules)\n";
    else if (!fired.count(r))
      out += "EXPECTED RULE " + r + " DID NOT FIRE\n";
  }
  for (const auto& r : expectNot) {
    if (!known(r))
      out += "UNKNOWN RULE " + r + " in expect-not= (see rfguard plan --list-rules)\n";
    else if (fired.count(r))
      out += "RULE " + r + " FIRED, EXPECTED NOT\n";
  }
  return out;
}

/// Lines no expectation may hold: the implicit checks or an expect= failed.
/// A case printing one fails, also when it is its recorded output and under --rewrite.
std::vector<std::string> alarms(const std::string& actual) {
  static const char* kAlarms[] = {
      "SOUND PLACEMENT ",     "MUTANT NOT CAUGHT",     "NORMALISATION NOT EQUIVALENT",
      "INVARIANT BROKEN",     "EXPECTED RULE ",        "UNKNOWN RULE ",
      "EVALUATOR DEFECT",     "REORDERING NOT PROVED", "UNSOUND VARIANT NOT REFUTED",
      "SOUND REWRITE REFUTED"};
  std::vector<std::string> out;
  std::stringstream lines(actual);
  for (std::string l; std::getline(lines, l);) {
    bool alarm = l.rfind("RULE ", 0) == 0 && l.find(" FIRED, EXPECTED NOT") != std::string::npos;
    for (const char* a : kAlarms) alarm = alarm || l.find(a) != std::string::npos;
    if (alarm) out.push_back(l);
  }
  return out;
}

}  // namespace rfguard
