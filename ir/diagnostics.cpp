#include "ir/diagnostics.h"

namespace rfguard {

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
  items_.push_back(Diagnostic{file, loc, "", std::move(message)});
}

void Diagnostics::errorAt(const std::string& file, std::string pointer, std::string message) {
  if (pointer.empty()) pointer = "/";
  items_.push_back(Diagnostic{file, {}, std::move(pointer), std::move(message)});
}

std::string Diagnostics::render() const {
  std::string out;
  for (const auto& d : items_) out += d.render() + "\n";
  return out;
}

}  // namespace rfguard
