#include "ir/diagnostics.h"

#include <algorithm>

namespace rfguard {

std::string oneLine(std::string s) {
  if (std::none_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
    return s;
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += ' ';
    } else if (u < 0x20) {
      const char* hex = "0123456789abcdef";
      out += std::string("\\x") + hex[u >> 4] + hex[u & 15];
    } else {
      out += c;
    }
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
