#include "ir/json_depth.h"

namespace rfguard {

std::optional<SourceLoc> jsonNestingBeyond(const std::string& text, size_t limit) {
  size_t depth = 0;
  SourceLoc at{1, 0};
  bool quoted = false, escaped = false;
  for (char ch : text) {
    ++at.col;
    if (ch == '\n') at = {at.line + 1, 0};
    if (quoted) {
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        quoted = false;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == '{' || ch == '[') {
      if (++depth > limit) return at;
    } else if ((ch == '}' || ch == ']') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace rfguard
