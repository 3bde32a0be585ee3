#pragma once
// The `lint` command: plan (SQL) or take as given (plan JSON), then verify.
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "pipeline/session.h"
#include "tools/cli/cli.h"
#include "tools/cli/input_options.h"
#include "verifier/findings.h"

namespace rfguard {

/// Command-line arguments of `rfguard lint`.
struct LintArgs {
  std::vector<std::string> files;
  std::string format = "text";  ///< text, json, sarif or gitlab
  std::string profile;          ///< "" until resolved: the command line, .rfguard.toml, then sound
  bool composite = false;
  std::vector<std::string> exclude;  ///< glob patterns for files found in directories
  std::string failOn;                ///< error, warning or never: what exits 1 (default warning)
  bool quiet = false;                ///< report errors only
  bool showSuppressed = false;
  bool verbose = false;        ///< every import note, not one line per kind
  std::string output;          ///< write the report here instead of stdout
  std::string stdinFilename;   ///< the name `-` is reported under
  std::string color = "auto";  ///< auto (a TTY without NO_COLOR), always, never
  std::string baseline;        ///< report only findings not in this baseline
  std::string writeBaseline;   ///< record the findings as a baseline
  std::string config;   ///< .rfguard.toml (default: found upwards from the working directory)
  std::string docsUrl;  ///< base of SARIF's helpUri links (default kDocsUrl)
  bool noConfig = false;
  unsigned jobs = 0;  ///< threads over the files; 0: one per core
  InputArgs input;
};

/// The files to read: each argument as given, except that a directory is walked
/// (hidden folders skipped) for *.sql, *.json and *.jsonl files, in sorted
/// order, leaving out those whose path or name matches an `exclude` glob. A
/// directory that cannot be walked or holds no such file is an error on `err`
/// (`failed` set).
std::vector<std::string> expandInputs(const std::vector<std::string>& args,
                                      const std::vector<std::string>& exclude, std::ostream& err,
                                      bool& failed);

/// One finding with the query and place it belongs to.
struct LintResult {
  std::string query;
  Finding finding;
  FindingSite site;
  /// What it is about in the plan: the producer's filter, the consumer's
  /// target, the operators between them (findingAnchor); "" without nodes.
  std::string anchor;
  /// The query's identity: its name, or for a query named by its position in
  /// the file its normalised text (queryKey).
  std::string queryKey;
  /// Its identity across runs, set by assignFingerprints; "" before.
  std::string fingerprint;
};

/// Per input file: its queries and their findings.
struct LintFile {
  std::string path;
  std::vector<std::string> queries;
  std::vector<LintResult> results;     ///< reported
  std::vector<LintResult> suppressed;  ///< suppressed inline or in the plan (--show-suppressed)
  size_t baselined = 0;                ///< set aside by --baseline
  bool inputError = false;
  std::vector<Diagnostic> errors;  ///< its input errors, as printed on stderr
};

/// Codes a plan JSON query suppresses ("suppress"), and where that list is.
struct QuerySuppress {
  std::string pointer;  ///< /queries/<i>/suppress
  std::vector<std::string> codes;
};

/// One input linted on its own session: its report entry and what it writes
/// on stderr, kept until the inputs are reported in their order.
struct LintUnit {
  LintFile file;
  std::string messages;                        ///< its errors and notes for stderr
  std::map<std::string, std::string> sources;  ///< stdin's text, under its name
  std::map<std::string, QuerySuppress> querySuppress;
  ImportNoteLog notes;   ///< its engine plans' import notes
  bool skipped = false;  ///< no input at all (JSON that is no plan): not in the report
  std::vector<InputPlacement> placements;
};
/// Reads, plans and verifies one input file ("-": stdin).
LintUnit lintOne(const std::string& path, const SessionOptions& options, const LintArgs& args);
/// lintOne over every path on `jobs` threads (0: one per core), results in the
/// order of `paths`. SQL is lexed and parsed one text at a time (ANTLR's shared
/// caches); everything else runs in parallel.
std::vector<LintUnit> lintInParallel(const std::vector<std::string>& paths,
                                     const SessionOptions& options, const LintArgs& args,
                                     unsigned jobs);

/// Runs `rfguard lint`; returns the exit code.
int runLint(const LintArgs& args, std::ostream& out, std::ostream& err);

/// Output formats (lint_output.cpp). Text marks severities in colour when `color`.
void writeLintText(const std::vector<LintFile>& files, std::ostream& out, bool color = false,
                   bool showSuppressed = false);
void writeLintJson(const std::vector<LintFile>& files, std::ostream& out);
/// GitLab's Code Quality report (a JSON array of issues).
void writeLintGitlab(const std::vector<LintFile>& files, std::ostream& out);
/// SARIF 2.1.0. Every rule carries its whole help (docs/findings.md's
/// section); with a `docsUrl` it also links to docsUrl + "findings.md#<code>".
void writeLintSarif(const std::vector<LintFile>& files, std::ostream& out,
                    const std::string& docsUrl = "");
/// The base of SARIF's links: `given` (--docs-url, docs-url in .rfguard.toml),
/// else the build's RFGUARD_DOCS_URL when it is on the web (http, https);
/// "" when there is none: a file:// link would be dead on a code-scanning site.
std::string publishedDocsUrl(const std::string& given);

}  // namespace rfguard
