// SQL text -> bind -> normalise -> place (every profile) -> verify -> render,
// through the public API an optimizer calls. Invariants beyond "no crash": the
// API never throws; errors are one located line each; the sound placement
// verifies clean; the JSON rendering reads back and verifies clean again. The
// direct lexer gives the same tokens as the ANTLR one wherever it takes the text.
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "grammar/sql.h"
#include "include/rfguard/rfguard.h"

using namespace rfguard::api;
using rfguard::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (auto diff = rfguard::lexerDifference(text))
    require(diff->empty(), "the direct lexer differs from RfSqlLexer", *diff);
  std::vector<std::string> errors;
  auto plans = Plans::fromSql(text, "fuzz.sql", &errors);
  for (const auto& e : errors) {
    require(e.rfind("fuzz.sql:", 0) == 0, "an error without its file", e);
    require(e.find('\n') == std::string::npos, "an error over two lines", e);
  }
  if (!plans) {
    require(!errors.empty(), "a failed load without an error");
    return 0;
  }
  plans->normalize();
  for (Profile p : {Profile::Doris, Profile::StarRocks, Profile::Trino}) {
    Plans copy = plans->clone();
    copy.planRuntimeFilters(p);
    copy.verify();
    copy.render(Format::Text);
  }
  plans->planRuntimeFilters(Profile::Sound, size % 2 == 1);
  auto findings = plans->verify();
  require(findings.empty(), "the sound placement is flagged",
          findings.empty() ? "" : findings[0].code + ": " + findings[0].message);
  plans->render(Format::Text);
  plans->render(Format::Dot);
  std::string json = plans->render(Format::Json);
  std::vector<std::string> back;
  auto again = Plans::fromJson(json, "fuzz.json", &back);
  bool tooDeep = !back.empty() && back[0].find("levels deep") != std::string::npos;
  require(again.has_value() || tooDeep, "the plan JSON does not read back",
          back.empty() ? "" : back[0]);
  if (again) {
    auto f2 = again->verify();
    require(f2.empty(), "the sound placement read back from JSON is flagged",
            f2.empty() ? "" : f2[0].code + ": " + f2[0].message);
  }
  return 0;
}
