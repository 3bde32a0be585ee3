#include "ir/diagnostics.h"

#include <algorithm>

namespace rfguard {

size_t utf8Length(const std::string& s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xC2 && c <= 0xDF   ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4
                                      : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  unsigned char d = at(i + 1);
  if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) ||
      (c == 0xF4 && d > 0x8F))
    return 0;
  return n;
}

namespace {

/// A control character a terminal may act on: C0, DEL, or C1 (U+0080 to
/// U+009F, which some terminals read as ESC sequences), of UTF-8 length `n`.
bool isControl(const std::string& s, size_t i, size_t n) {
  const unsigned char u = static_cast<unsigned char>(s[i]);
  return u < 0x20 || u == 0x7F ||
         (n == 2 && u == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0);
}

}  // namespace

std::string oneLine(std::string s) {
  bool clean = true;
  for (size_t i = 0; i < s.size() && clean;) {
    size_t n = utf8Length(s, i);
    clean = n > 0 && !isControl(s, i, n);
    i += n ? n : 1;
  }
  if (clean) return s;
  const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    size_t n = utf8Length(s, i);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += ' ';
    } else if (n == 0 || isControl(s, i, n)) {  // a control, or a byte of no UTF-8 character
      for (size_t k = 0; k < std::max<size_t>(n, 1); ++k) {
        const unsigned char b = static_cast<unsigned char>(s[i + k]);
        out += std::string("\\x") + hex[b >> 4] + hex[b & 15];
      }
      i += std::max<size_t>(n, 1);
      continue;
    } else {
      out.append(s, i, n);
      i += n;
      continue;
    }
    ++i;
  }
  return out;
}

std::string Diagnostic::render() const {
  std::string out = file.empty() ? std::string("<input>") : file;
  if (!pointer.empty() || loc.line == 0) {
    out += ": error";
    if (!pointer.empty()) out += " at " + pointer;
  } else {
    out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": error";
  }
  return out + ": " + message;
}

void Diagnostics::error(const std::string& file, SourceLoc loc, std::string message) {
  items_.push_back(Diagnostic{file, loc, "", oneLine(std::move(message))});
}

void Diagnostics::errorAt(const std::string& file, std::string pointer, std::string message) {
  if (pointer.empty()) pointer = "/";
  items_.push_back(Diagnostic{file, {}, oneLine(std::move(pointer)), oneLine(std::move(message))});
}

std::string Diagnostics::render() const {
  std::string out;
  for (const auto& d : items_) out += d.render() + "\n";
  return out;
}

}  // namespace rfguard
