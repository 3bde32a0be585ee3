// The Trino adapter: an importer of the plans Trino's cost-based plan tests print.
#include "engines/trino/adapter.h"

#include "engines/trino/import.h"
#include "engines/trino/plan_text.h"

namespace rfguard::engine {

namespace {

/// The query's name: the file's stem (`q05.plan.txt` -> `q05`).
std::string stem(const std::string& file) {
  std::string s =
      file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
  for (const char* ext : {".plan.txt", ".txt"})
    if (s.size() > std::string(ext).size() &&
        s.compare(s.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      return s.substr(0, s.size() - std::string(ext).size());
  return s.empty() ? "query" : s;
}

class TrinoAdapter final : public Adapter {
 public:
  std::string name() const override { return "trino"; }
  std::string displayName() const override { return "Trino"; }
  std::string profileName() const override { return "trino"; }
  std::string documentKind() const override {
    return "Trino's plan text, as its cost-based plan tests print it (*.plan.txt)";
  }
  bool recognizes(const std::string& text) const override {
    return trino_import::looksLikeTrinoPlan(text);
  }
  bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                   nlohmann::json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                   const EqualityHints&) const override {
    int line = 1;
    if (!trino_import::startsLikeTrinoPlan(text, line)) {
      diags.error(name, {line, 1},
                  "not Trino's plan text: expected an operator such as `remote exchange (...)` "
                  "on the first line, unindented, and a `scan` line below");
      return false;
    }
    return trino_import::importPlanText(text, name, stem(name), schema, doc, queries, diags);
  }
};

}  // namespace

const Adapter& trinoAdapter() {
  static const TrinoAdapter adapter;
  return adapter;
}

}  // namespace rfguard::engine
