#pragma once
// Shared by the fuzz targets: a failed invariant aborts with its reason, which
// libFuzzer reports as a crash with the input that broke it.
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace rfguard::fuzz {

/// Aborts when `ok` is false: an invariant the fuzzed input broke.
inline void require(bool ok, const char* what, const std::string& detail = "") {
  if (ok) return;
  std::fprintf(stderr, "rfguard fuzz invariant broken: %s\n%s\n", what, detail.c_str());
  std::abort();
}

/// Every line of a command's error output names the input file first, or is
/// an indented source line or caret under the located line before it (an
/// exception that escapes a command is a crash the fuzzer reports by itself).
inline void requireLocatedErrors(const std::string& err, const std::string& file) {
  size_t at = 0;
  bool located = false;
  while (at < err.size()) {
    size_t end = err.find('\n', at);
    if (end == std::string::npos) end = err.size();
    bool context = located && err.compare(at, 2, "  ") == 0;
    require(context || err.compare(at, file.size(), file) == 0, "an error line without its file",
            err.substr(at, end - at));
    located = true;
    at = end + 1;
  }
}

/// The input written to a file of this process (the CLI commands read files).
inline std::string writeInput(const uint8_t* data, size_t size, const char* ext) {
  std::string path = "/tmp/rfguard-fuzz-" + std::to_string(getpid()) + ext;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace rfguard::fuzz
