#pragma once
// Assertions of the corpus beyond its recorded outputs (docs/corpus.md).
#include <string>
#include <vector>

#include "pipeline/session.h"

namespace rfguard {

/// `expect=Rule,...` and `expect-not=Rule,...` of one case: checked against the
/// rule registries, then against the rules that fired in `session` (a
/// normalisation rule that changed a plan, a runtime-filter rule that decided a
/// step, taken or refused). "" when every one holds, else one alarm line each.
std::string expectations(const std::vector<std::string>& expect,
                         const std::vector<std::string>& expectNot, const Session& session);

/// Lines no expectation may hold: the implicit checks or an expect= failed.
/// A case printing one fails, also when it is its recorded output and under --rewrite.
std::vector<std::string> alarms(const std::string& actual);

}  // namespace rfguard
