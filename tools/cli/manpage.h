#pragma once
// Man pages generated from the command tree: rfguard(1) and one page per
// command (rfguard-lint(1), rfguard-duckdb-run(1), ...), as git ships them.
#include <string>
#include <vector>

#include "tools/cli/command_tree.h"

namespace rfguard {

struct ManPage {
  std::string file;  ///< "rfguard-lint.1"
  std::string text;  ///< roff (man macros)
};

/// Every page, root first. `docsBase` is where docs/X.md is installed (a
/// file:// URL or a web address), for SEE ALSO.
std::vector<ManPage> manPages(const CommandSpec& root, const std::string& version,
                              const std::string& docsBase);

}  // namespace rfguard
