// The Doris adapter: an importer of the shape plans Doris's test suites print.
#include "engines/doris/adapter.h"

#include <algorithm>

#include "engines/doris/shape_import.h"
#include "engines/doris/shape_lines.h"

namespace rfguard::engine {

namespace {

class DorisAdapter final : public Adapter {
 public:
  std::string name() const override { return "doris"; }
  std::string displayName() const override { return "Doris"; }
  std::string profileName() const override { return "doris"; }
  std::string documentKind() const override {
    return "Doris's explain shape plan, as its regression suites' .out files print it";
  }
  bool recognizes(const std::string& text) const override {
    return doris_import::looksLikeShapePlan(text);
  }
  bool importPlans(const std::string& text, const std::string& name, const Catalog& schema,
                   nlohmann::json& doc, std::vector<ImportedQuery>& queries, Diagnostics& diags,
                   const EqualityHints&) const override {
    if (!recognizes(text)) {
      // The first line that is not a comment: where the text stops being a plan.
      int line = 1;
      size_t at = 0;
      while (at < text.size()) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string l = text.substr(at, end - at);
        if (l.find_first_not_of(" \t\r") != std::string::npos && l.rfind("--", 0) != 0) break;
        at = end + 1, ++line;
      }
      diags.error(name, {line, 1},
                  "not Doris's shape plan text: expected an operator such as PhysicalResultSink "
                  "(after `-- ` comment lines)");
      return false;
    }
    std::vector<doris_import::ShapeQuery> shapes;
    if (!doris_import::readShapeDocument(text, name, shapes, diags)) return false;
    return doris_import::importShapePlans(shapes, name, schema, doc, queries, diags);
  }
};

}  // namespace

const Adapter& dorisAdapter() {
  static const DorisAdapter adapter;
  return adapter;
}

}  // namespace rfguard::engine
