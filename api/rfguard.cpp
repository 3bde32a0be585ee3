// The public API (include/rfguard/rfguard.h) over the internal libraries.
#define RFGUARD_BUILDING_LIBRARY
#include "include/rfguard/rfguard.h"

#include "grammar/sql.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "rules/normalize.h"
#include "rules/rf_planner.h"
#include "verifier/verify.h"

namespace rfguard::api {

struct Plans::Impl {
  rfguard::Catalog catalog;
  std::vector<rfguard::Query> queries;
};

Plans::Plans(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

namespace {

void report(const rfguard::Diagnostics& diags, std::vector<std::string>* errors) {
  if (!errors) return;
  for (const auto& d : diags.items()) errors->push_back(d.render());
}

}  // namespace

std::optional<Plans> Plans::fromSql(const std::string& text, const std::string& file,
                                    std::vector<std::string>* errors) {
  auto impl = std::make_shared<Impl>();
  rfguard::Diagnostics diags;
  bool ok = loadSql(text, file, impl->catalog, impl->queries, diags);
  report(diags, errors);
  if (!ok) return std::nullopt;
  return Plans(impl);
}

std::optional<Plans> Plans::fromJson(const std::string& text, const std::string& file,
                                     std::vector<std::string>* errors) {
  auto impl = std::make_shared<Impl>();
  rfguard::Diagnostics diags;
  bool ok = readPlanDocument(text, file, impl->catalog, impl->queries, diags);
  report(diags, errors);
  if (!ok) return std::nullopt;
  return Plans(impl);
}

Plans Plans::clone() const {
  auto impl = std::make_shared<Impl>(*impl_);
  for (auto& q : impl->queries) q.plan = clonePlan(*q.plan);
  return Plans(impl);
}

size_t Plans::size() const {
  return impl_->queries.size();
}

std::string Plans::name(size_t i) const {
  return i < impl_->queries.size() ? impl_->queries[i].name : std::string();
}

void Plans::normalize() {
  for (auto& q : impl_->queries) {
    NormalizeReport r;
    rfguard::normalize(q.plan, {}, r);
  }
}

size_t Plans::planRuntimeFilters(Profile profile, bool composite) {
  static const rfguard::Profile kMap[] = {rfguard::Profile::Sound, rfguard::Profile::Doris,
                                          rfguard::Profile::StarRocks, rfguard::Profile::Trino};
  size_t placed = 0;
  for (auto& q : impl_->queries) {
    rfguard::RfReport r;
    rfguard::RfOptions o(kMap[static_cast<int>(profile)]);
    o.composite = composite;
    rfguard::planRuntimeFilters(*q.plan, r, o);
    placed += r.consumers.size();
  }
  return placed;
}

std::vector<VerifierFinding> Plans::verify() const {
  std::vector<VerifierFinding> out;
  for (const auto& q : impl_->queries)
    for (const auto& f : verifyRuntimeFilters(*q.plan))
      out.push_back({q.name, f.code, severityName(f.severity), f.message, f.filter, f.nodes,
                     f.loc.line, f.loc.col});
  return out;
}

std::string Plans::render(Format format) const {
  switch (format) {
    case Format::Json:
      return documentToJson(impl_->catalog, impl_->queries).dump(2) + "\n";
    case Format::Dot:
      return planToDot(impl_->queries);
    case Format::Text:
      break;
  }
  std::string out;
  for (const auto& q : impl_->queries) out += "-- " + q.name + "\n" + planToText(*q.plan) + "\n";
  return out;
}

const char* version() {
  return "0.1.0";
}

}  // namespace rfguard::api
