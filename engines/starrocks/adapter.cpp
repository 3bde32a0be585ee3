// The StarRocks adapter: an importer of the plans StarRocks's tests print.
#include "engines/starrocks/adapter.h"

#include "engines/starrocks/import.h"
#include "engines/starrocks/plan_text.h"

namespace rfguard::engine {

namespace {

class StarRocksAdapter final : public Adapter {
 public:
  std::string name() const override { return "starrocks"; }
  std::string displayName() const override { return "StarRocks"; }
  std::string profileName() const override { return "starrocks"; }
  std::string documentKind() const override {
    return "StarRocks's plan text, as its planner tests print it ([fragment statistics] or "
           "[fragment] sections)";
  }
  bool recognizes(const std::string& text) const override {
    return starrocks_import::looksLikeStarRocksPlan(text);
  }
  bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                   nlohmann::json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                   const EqualityHints&) const override {
    if (!recognizes(text)) {
      diags.error(name, {1, 1},
                  "not StarRocks's plan text: expected a `PLAN FRAGMENT n` line (in a "
                  "[fragment statistics] or [fragment] section of a planner test)");
      return false;
    }
    std::vector<starrocks_import::PlanCase> cases;
    if (!starrocks_import::readPlanDocument(text, name, cases, diags)) return false;
    return starrocks_import::importPlanCases(cases, name, schema, doc, queries, diags);
  }
};

}  // namespace

const Adapter& starRocksAdapter() {
  static const StarRocksAdapter adapter;
  return adapter;
}

}  // namespace rfguard::engine
