// SQL -> bounded check with a tiny budget, as `rfguard check` runs it: the sound
// placement (exit 0, 2 or 4 when the budget runs out first, never a
// counterexample) and StarRocks' placement
// (counterexamples allowed: their SQL scripts and the JSON output are built).
#include <cstdint>
#include <sstream>

#include "fuzz/fuzz_util.h"
#include "tools/cli/check.h"

using rfguard::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 2048) return 0;  // keeps one execution well under a second
  std::string path = rfguard::fuzz::writeInput(data, size, ".sql");
  for (const char* profile : {"sound", "starrocks"}) {
    rfguard::CheckArgs args;
    args.files = {path};
    args.bound = 1;
    args.profile = profile;
    args.seconds = 0.5;
    args.databases = 300;
    args.format = size % 2 ? "json" : "text";
    std::ostringstream out, err;
    int rc = rfguard::runCheck(args, out, err);
    rfguard::fuzz::requireLocatedErrors(err.str(), path);
    require((rc >= 0 && rc <= 2) || rc == rfguard::kExitInconclusive,
            "check exit code outside 0, 1, 2, 4", err.str());
    if (std::string(profile) == "sound")
      require(rc != 1, "a counterexample to the sound placement", out.str());
    if (rc == 2) break;
  }
  return 0;
}
