#pragma once
// Shell completion scripts for bash, zsh and fish, generated from the command
// tree (`rfguard completion SHELL`, and installed by `cmake --install`).
#include <string>
#include <vector>

#include "tools/cli/command_tree.h"

namespace rfguard {

/// The shells a script is written for.
const std::vector<std::string>& completionShells();
/// The completion script for `shell` (one of completionShells()).
std::string completionScript(const CommandSpec& root, const std::string& shell);

}  // namespace rfguard
