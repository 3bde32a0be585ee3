// Replay scenario JSON -> every publication strategy, text and JSON output.
// Exit codes stay within 0..2; errors are located on one line.
#include <cstdint>
#include <sstream>

#include "execution/replay.h"
#include "fuzz/fuzz_util.h"
#include "tools/cli/replay.h"

using rfguard::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (auto s : rfguard::rt::allStrategies()) {
    rfguard::ReplayArgs args;
    args.file = "fuzz.json";
    args.strategy = rfguard::rt::strategyName(s);
    args.format = size % 2 ? "json" : "text";
    std::ostringstream out, err;
    int rc = rfguard::replayDocument(text, args, out, err);
    require(rc >= 0 && rc <= 2, "replay exit code outside 0..2", err.str());
    std::string e = err.str();
    if (rc == 2) {
      require(e.rfind("fuzz.json: error at /", 0) == 0, "an error without its JSON pointer", e);
      require(e.find('\n') == e.size() - 1, "an error over two lines", e);
      return 0;  // the same for every strategy
    }
  }
  return 0;
}
