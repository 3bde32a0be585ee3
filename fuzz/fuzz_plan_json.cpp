// Plan JSON -> read -> verify -> lint (text, JSON, SARIF), and the sound
// placement re-planned on the plan as read, which must verify clean.
#include <cstdint>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_util.h"
#include "include/rfguard/rfguard.h"
#include "tools/cli/lint.h"

using namespace rfguard::api;
using rfguard::fuzz::require;

namespace {

/// Two or more lines, each blank or one complete JSON document.
bool jsonLines(const std::string& text) {
  std::istringstream in(text);
  int documents = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!nlohmann::json::accept(line)) return false;
    ++documents;
  }
  return documents > 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> errors;
  auto plans = Plans::fromJson(text, "fuzz.json", &errors);
  for (const auto& e : errors) {
    require(e.rfind("fuzz.json: error at /", 0) == 0, "an error without its JSON pointer", e);
    require(e.find('\n') == std::string::npos, "an error over two lines", e);
  }
  if (plans) {
    plans->verify();
    plans->render(Format::Text);
    plans->render(Format::Dot);
    plans->render(Format::Json);
    Plans copy = plans->clone();
    copy.planRuntimeFilters(Profile::Sound);
    auto findings = copy.verify();
    require(findings.empty(), "the sound placement is flagged",
            findings.empty() ? "" : findings[0].code + ": " + findings[0].message);
  }
  // The lint command over the same bytes, in every output format.
  std::string path = rfguard::fuzz::writeInput(data, size, ".json");
  for (const char* format : {"text", "json", "sarif"}) {
    rfguard::LintArgs args;
    args.files = {path};
    args.format = format;
    std::ostringstream out, err;
    int rc = rfguard::runLint(args, out, err);
    require(rc >= 0 && rc <= 2, "lint exit code outside 0..2", err.str());
    // An empty file, or JSON that is no plan document (no "format":
    // "rfguard-plan"), is no input: lint passes it with a note.
    bool blank = text.find_first_not_of(" \t\r\n") == std::string::npos;
    bool skipped = err.str().find(": not linted\n") != std::string::npos;
    // JSON Lines (docs/plan-json.md): lint reads each line as an input of its
    // own, where the API takes one document.
    bool lines = jsonLines(text);
    require(rc == 2 || plans.has_value() || blank || skipped || lines,
            "lint accepted what the API refused", err.str());
    rfguard::fuzz::requireLocatedErrors(err.str(), path);
  }
  return 0;
}
