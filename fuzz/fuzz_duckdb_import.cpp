// DuckDB's JSON (profile or EXPLAIN) -> import -> verify -> lint in every
// output format. Every error names a position or a JSON pointer on one line;
// whatever imports reads back as plan JSON and verifies without a crash.
#include <cstdint>
#include <sstream>

#include "fuzz/fuzz_util.h"
#include "pipeline/session.h"
#include "tools/cli/lint.h"

using rfguard::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  rfguard::Session session;
  rfguard::Diagnostics diags;
  bool ok = session.loadEngine(text, "fuzz.json", *rfguard::engine::findAdapter("duckdb"), diags);
  for (const auto& line : {diags.render()}) {
    require(ok || !line.empty(), "an import failure without an error", text);
    std::istringstream in(line);
    for (std::string l; std::getline(in, l);)
      require(l.rfind("fuzz.json:", 0) == 0, "an error without its file", l);
  }
  session.run();
  for (const auto& q : session.queries()) {
    require(q.imported != nullptr, "an imported query without its import record", "");
    for (const auto& f : session.verify(q)) session.siteOf(q, f);
  }
  std::string path = rfguard::fuzz::writeInput(data, size, ".json");
  for (const char* format : {"text", "json", "sarif"}) {
    rfguard::LintArgs args;
    args.files = {path};
    args.format = format;
    args.input.from = "duckdb";
    std::ostringstream out, err;
    int rc = rfguard::runLint(args, out, err);
    require(rc >= 0 && rc <= 2, "lint exit code outside 0..2", err.str());
  }
  return 0;
}
