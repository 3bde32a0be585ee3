#pragma once
// A check before parsing JSON: nesting that the recursive readers, and the
// recursive destructor of a parsed document, could not take.
#include <cstddef>
#include <optional>
#include <string>

#include "ir/diagnostics.h"

namespace rfguard {

/// Where `text` first nests objects and arrays (outside strings) deeper than
/// `limit`: the line and column of the opening bracket; nullopt when it never does.
std::optional<SourceLoc> jsonNestingBeyond(const std::string& text, size_t limit);

}  // namespace rfguard
