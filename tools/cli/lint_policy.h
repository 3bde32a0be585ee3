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

/// A suppression comment in SQL text, `--` or `/* */`:
/// `rfguard-disable-next-line code[, code...]` (the next line's findings),
/// `rfguard-disable-line code[, ...]` (its own line's) or
/// `rfguard-disable-file code[, ...]` (the whole file's).
struct Directive {
  enum class Scope { NextLine, SameLine, WholeFile };
  std::string file;
  int line = 0;      ///< where the comment starts
  int lastLine = 0;  ///< where it ends (a block comment may span lines)
  Scope scope = Scope::NextLine;
  std::vector<std::string> codes;
  std::vector<bool> used;  ///< per code: it suppressed a finding
  std::string malformed;   ///< why it is no suppression ("" when it is one)
  /// Whether it covers a finding on `findingLine`.
  bool covers(int findingLine) const;
};

/// The directives of a SQL text, in order: every comment that starts with
/// `rfguard-`, malformed ones included (reported as unused suppressions).
std::vector<Directive> parseDirectives(const std::string& file, const std::string& text);

/// Which findings are reported, and how.
struct LintPolicy {
  std::set<std::string> disabled;          ///< codes never reported
  std::map<std::string, Severity> levels;  ///< codes reported at another severity
  /// Fingerprints of accepted findings, each with how many it absorbs.
  std::map<std::string, size_t> baseline;
  /// The baseline holds version 1 fingerprints (legacyFingerprint).
  bool legacyBaseline = false;
  bool quiet = false;              ///< errors only
  std::string failOn = "warning";  ///< error, warning or never
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

/// A path relative to the working directory, with forward slashes.
std::string relativePath(const std::string& path);
/// The same, percent-encoded as a URI reference (SARIF).
std::string relativeUri(const std::string& path);

/// What a finding is about in `plan`, for its fingerprint: the producer (its
/// filter's probe and build expressions), the consumer (a scan's table and the
/// filter's target) and the operators on the path between them. Filter and
/// node numbers are left out: they shift when the plan changes elsewhere.
std::string findingAnchor(const PlanNode& plan, const Finding& f);
/// A finding of query `q` as lint reports it, with its anchor and query key.
LintResult lintResult(const Query& q, Finding f, FindingSite site);
/// A query's identity: its name, or for one named by its position ("query3")
/// its text without comments, blanks collapsed, lower case outside quotes.
std::string queryKey(const Query& q);

/// Gives every reported finding its fingerprint: a hash of its code, file,
/// query key, anchor and message with ids blanked, plus its occurrence number
/// among the file's findings of the same identity (the second is "#2"), so
/// that fingerprints are distinct and a baseline counts.
void assignFingerprints(std::vector<LintFile>& files);
/// A finding's fingerprint (the assigned one, or its first occurrence's).
std::string findingFingerprint(const LintResult& r);
/// The fingerprint of baselines of version 1: code, file, query name and the
/// message with ids blanked.
std::string legacyFingerprint(const LintResult& r);

/// A baseline document of the reported findings.
std::string baselineJson(const std::vector<LintFile>& files);
/// Reads a baseline written by baselineJson (or version 1): each entry absorbs
/// one finding. False with `error`.
bool readBaseline(const std::string& path, LintPolicy& policy, std::string& error);

}  // namespace rfguard
