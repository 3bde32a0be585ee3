#pragma once
// `.rfguard.toml`: a project's lint settings (docs/lint.md), read with toml++.
// Found by walking up from the working directory, or named by --config; flags
// given on the command line win over it.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "verifier/findings.h"

namespace rfguard {

struct LintConfig {
  std::string path;  ///< the file read, "" when none
  std::optional<std::string> profile, failOn, from, schema, docsUrl;
  std::optional<bool> composite, quiet;
  std::vector<std::string> paths;    ///< inputs when none are given
  std::vector<std::string> exclude;  ///< added to --exclude
  std::set<std::string> disabled;
  std::map<std::string, Severity> levels;
};

/// The nearest `.rfguard.toml` from the working directory up to the root, or "".
std::string findLintConfig();

/// Reads `path`; false with a located error ("file:line:col: error: ...").
/// Unknown keys, wrong types, unknown profiles, levels and finding codes are errors.
bool readLintConfig(const std::string& path, LintConfig& out, std::string& error);

}  // namespace rfguard
