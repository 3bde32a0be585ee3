#pragma once
// What `rfguard lint` reports of what the verifier found (docs/lint.md): codes
// switched off or re-levelled by configuration, inline suppressions in SQL
// comments and plan JSON, a baseline of accepted findings, and the exit code
// by --fail-on.
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "tools/cli/lint.h"

namespace rfguard {

/// `-- rfguard-disable-next-line code[, code...]` (the next line's findings) or
/// `-- rfguard-disable-file code[, code...]` (the whole file) in SQL text.
struct Directive {
  std::string file;
  int line = 0;  ///< where the comment is
  bool wholeFile = false;
  std::vector<std::string> codes;
  std::vector<bool> used;  ///< per code: it suppressed a finding
};

/// The directives of a SQL text, in order.
std::vector<Directive> parseDirectives(const std::string& file, const std::string& text);

/// Which findings are reported, and how.
struct LintPolicy {
  std::set<std::string> disabled;          ///< codes never reported
  std::map<std::string, Severity> levels;  ///< codes reported at another severity
  std::set<std::string> baseline;          ///< fingerprints of accepted findings
  bool quiet = false;                      ///< errors only
  std::string failOn = "warning";          ///< error, warning or never
};

/// Applies the policy to every file's results: disabled codes dropped, levels
/// set, SQL and plan JSON suppressions honoured (a suppression that suppresses
/// nothing becomes an unused-suppression finding at its line), baseline
/// findings set aside, warnings dropped when quiet. `sources` gives SQL text
/// by file name for files read from stdin; others are read from disk.
/// `querySuppress` is keyed by "input path\nquery name".
void applyLintPolicy(std::vector<LintFile>& files, const LintPolicy& policy,
                     const std::map<std::string, std::string>& sources,
                     const std::map<std::string, QuerySuppress>& querySuppress);

/// The exit code for the reported findings under --fail-on.
int lintExitCode(const std::vector<LintFile>& files, const LintPolicy& policy, bool inputError);

/// A finding's stable fingerprint: its code, file, query and message with ids
/// blanked (the same as SARIF's partialFingerprints).
std::string findingFingerprint(const LintResult& r);

/// A baseline document of the reported findings.
std::string baselineJson(const std::vector<LintFile>& files);
/// Reads a baseline written by baselineJson; false with `error`.
bool readBaseline(const std::string& path, std::set<std::string>& fingerprints, std::string& error);

}  // namespace rfguard
