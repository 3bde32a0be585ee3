#pragma once
// Verifier findings as data: every code is documented in docs/findings.md and
// listed in findingCodes(), which SARIF's rules[] and the docs test read.
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"

namespace rfguard {

/// How bad a finding is. Errors are unsafe or broken placements; warnings are waste.
enum class Severity { Error, Warning };

/// "error" or "warning".
const char* severityName(Severity s);

/// One finding code: stable, kebab-case, documented.
struct FindingCode {
  const char* id;  ///< e.g. "unsafe-null-generating-side"
  Severity severity;
  const char* summary;  ///< one line
  const char* details;  ///< why it matters
  const char* fix;      ///< what to do instead
};

/// Every code the verifier can report, in documentation order.
const std::vector<FindingCode>& findingCodes();
/// Whether `id` names a code (user input: suppressions, configuration).
bool isFindingCode(std::string_view id);
/// The code named `id`; asserts that it exists.
const FindingCode& findingCode(std::string_view id);

/// One problem with one runtime filter of one plan.
struct Finding {
  std::string code;
  Severity severity = Severity::Error;
  std::string message;
  int filter = 0;          ///< the filter id, 0 when none applies
  std::vector<int> nodes;  ///< plan node ids: the producer first, then the consumer or the culprit
  SourceLoc loc;           ///< SQL position of the node it concerns, when the plan came from SQL
  /// Which judge spoke: "rules" (the derivation rules alone), "refuted" (the
  /// bounded check found a database on which the result changes), "not-proven"
  /// (neither the rules nor the search decided: a warning).
  std::string judge = "rules";
};

/// A finding of code `code` (severity from the code table).
Finding makeFinding(std::string_view code, std::string message, int filter, std::vector<int> nodes,
                    SourceLoc loc);

}  // namespace rfguard
