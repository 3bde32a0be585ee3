// The public API (include/rfguard/rfguard.h) over the pipeline (pipeline/session.h).
#define RFGUARD_BUILDING_LIBRARY
#include "include/rfguard/rfguard.h"

#include <chrono>

#include "engines/adapter.h"
#include "ir/plan_json.h"
#include "ir/printers.h"
#include "pipeline/check.h"
#include "pipeline/equiv.h"
#include "pipeline/session.h"
#include "verifier/bounded.h"
#include "verifier/counterexample.h"

namespace rfguard::api {

struct Plans::Impl {
  Session session;
};

Plans::Plans(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
Plans::Plans(const Plans& other)
    : impl_(std::make_shared<Impl>(Impl{other.impl_->session.clone()})) {}
Plans& Plans::operator=(const Plans& other) {
  if (this != &other) impl_ = std::make_shared<Impl>(Impl{other.impl_->session.clone()});
  return *this;
}
Plans::Plans(Plans&& other) noexcept = default;
Plans& Plans::operator=(Plans&& other) noexcept = default;
Plans::~Plans() = default;

namespace {

// The API's Profile mirrors rfguard::Profile value for value.
static_assert(static_cast<int>(Profile::Sound) == static_cast<int>(rfguard::Profile::Sound) &&
              static_cast<int>(Profile::Trino) == static_cast<int>(rfguard::Profile::Trino) &&
              static_cast<int>(Profile::DuckDb) == static_cast<int>(rfguard::Profile::DuckDb));
rfguard::Profile internal(Profile p) {
  return static_cast<rfguard::Profile>(p);
}
Profile external(rfguard::Profile p) {
  return static_cast<Profile>(p);
}

Error errorOf(const Diagnostic& d, const char* code) {
  return {d.file, d.loc.line, d.loc.col, d.pointer, code, d.message, d.render()};
}

std::vector<Error> errorsOf(const Diagnostics& diags, bool json) {
  std::vector<Error> out;
  for (const auto& d : diags.items())
    out.push_back(errorOf(d, json ? "plan-json-error" : "sql-error"));
  return out;
}

void report(const std::vector<Error>& errors, std::vector<std::string>* lines) {
  if (!lines) return;
  for (const auto& e : errors) lines->push_back(e.text);
}

}  // namespace

Loaded Plans::load(const std::string& text, const std::string& file, bool json) {
  auto impl = std::make_shared<Plans::Impl>();
  impl->session.options().given = GivenPlans::None;
  Diagnostics diags;
  bool ok = impl->session.loadAs(text, file, json, diags);  // the caller's word, not a guess
  Loaded out;
  out.errors = errorsOf(diags, json);
  if (ok) out.plans = Plans(impl);
  return out;
}

Loaded Plans::loadSql(const std::string& text, const std::string& file) {
  return load(text, file, false);
}

struct Schema::Impl {
  Catalog catalog;
};

Schema::Schema(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

std::optional<Schema> Schema::fromSql(const std::string& text, const std::string& file,
                                      std::vector<Error>* errors) {
  auto impl = std::make_shared<Impl>();
  Session session;
  Diagnostics diags;
  bool ok = session.loadAs(text, file, false, diags);
  std::vector<Error> found = errorsOf(diags, false);
  if (ok) impl->catalog = session.inputs().at(0).catalog;
  // A schema is declarations only: a query would be dropped unseen.
  for (const auto& q : session.queries()) {
    Diagnostic d{
        file, q.query.loc, "",
        "a schema holds CREATE TABLE and CREATE VIEW only; " + q.query.name + " is a query"};
    found.push_back(errorOf(d, "sql-error"));
    ok = false;
  }
  if (errors) errors->insert(errors->end(), found.begin(), found.end());
  if (!ok) return std::nullopt;
  return Schema(std::move(impl));
}

std::vector<std::string> Schema::tables() const {
  std::vector<std::string> names;
  for (const auto& [name, table] : impl_->catalog.tables()) names.push_back(name);
  return names;
}

Loaded Plans::loadSql(const std::string& text, const std::string& file, const Schema& schema) {
  return loadSql(text, file, schema, "default");
}

Loaded Plans::loadSql(const std::string& text, const std::string& file, const Schema& schema,
                      const std::string& dialect) {
  Loaded out;
  const auto d = dialectNamed(dialect);
  if (!d) {
    std::string names;
    for (const auto& n : dialectNames()) names += (names.empty() ? "" : ", ") + n;
    Error e;
    e.file = file;
    e.code = "unknown-dialect";
    e.message = "unknown dialect '" + dialect + "' (one of " + names + ")";
    e.text = file + ": error: " + e.message;
    out.errors.push_back(e);
    return out;
  }
  auto impl = std::make_shared<Plans::Impl>();
  impl->session.options().given = GivenPlans::None;
  impl->session.options().dialect = *d;
  Diagnostics diags;
  bool ok = impl->session.loadAs(text, file, false, diags, schema.impl_->catalog);
  out.errors = errorsOf(diags, false);
  if (ok) out.plans = Plans(impl);
  return out;
}

Loaded Plans::loadJson(const std::string& text, const std::string& file) {
  return load(text, file, true);
}

std::optional<Plans> Plans::fromSql(const std::string& text, const std::string& file,
                                    std::vector<std::string>* errors) {
  Loaded l = loadSql(text, file);
  report(l.errors, errors);
  return std::move(l.plans);
}

std::optional<Plans> Plans::fromJson(const std::string& text, const std::string& file,
                                     std::vector<std::string>* errors) {
  Loaded l = loadJson(text, file);
  report(l.errors, errors);
  return std::move(l.plans);
}

Plans Plans::clone() const {
  return Plans(*this);
}

size_t Plans::size() const {
  return impl_->session.queries().size();
}

std::string Plans::name(size_t i) const {
  return i < size() ? impl_->session.queries()[i].query.name : std::string();
}

void Plans::normalize() {
  normalize(NormalizeSettings{}, nullptr);
}

bool Plans::normalize(const NormalizeSettings& settings, std::vector<Error>* errors) {
  NormalizeOptions& opt = impl_->session.options().normalize;
  opt.disabled.clear();
  for (const auto& r : settings.disabledRules) {
    if (!isRuleName(r)) {
      if (errors)
        errors->push_back({"", 0, 0, "", "unknown-rule", "unknown normalisation rule " + r,
                           "error: unknown normalisation rule " + r});
      return false;
    }
    opt.disabled.insert(r);
  }
  impl_->session.normalize();
  return true;
}

size_t Plans::planRuntimeFilters(Profile profile, bool composite) {
  PlaceSettings s;
  s.profile = profile;
  s.composite = composite;
  return placeRuntimeFilters(s, nullptr);
}

size_t Plans::placeRuntimeFilters(const PlaceSettings& settings, std::vector<Error>* errors) {
  RfOptions& o = impl_->session.options().filters;
  o = RfOptions(internal(settings.profile));
  o.composite = settings.composite;
  o.cost = settings.cost;
  impl_->session.placeFilters();
  size_t placed = 0;
  for (const auto& q : impl_->session.queries()) {
    if (q.stage == Stage::Placed) {
      placed += q.placement.consumers.size();
    } else if (errors) {
      std::string msg = "query " + q.query.name +
                        " is not normalised: call normalize() before placing runtime filters";
      errors->push_back({q.input, q.query.loc.line, q.query.loc.col, "", "call-order", msg,
                         q.input + ": " + msg});
    }
  }
  return placed;
}

std::vector<Decision> Plans::explain(size_t i) const {
  std::vector<Decision> out;
  if (i >= size()) return out;
  const RfReport& r = impl_->session.queries()[i].placement;
  auto edge = [](const char* kind, const RfEdge& e) {
    return Decision{
        kind, e.filter, e.node, ruleName(e.decision.rule), e.what.str(), e.decision.reason.text()};
  };
  for (const auto& s : r.skipped) out.push_back(edge("skipped", s));
  for (const auto& g : r.generation) {
    out.push_back(edge(g.filter ? "generated" : "not-generated", g));
    if (!g.filter) continue;
    for (const auto& c : r.consumers) {
      if (c.filter != g.filter) continue;
      for (const auto& s : r.derivation(c))
        out.push_back({"step", g.filter, s.node, ruleName(s.rule), changeText(s), ""});
      out.push_back(
          {"consumer", g.filter, c.scan, ruleName(RfRule::ConsumeAtScan), c.target.str(), ""});
    }
    for (const auto& e : r.rejected)
      if (e.filter == g.filter) out.push_back(edge("rejected", e));
  }
  return out;
}

std::string Plans::explainText(size_t i) const {
  return i < size() ? explainRuntimeFilters(impl_->session.queries()[i].placement) : "";
}

std::vector<ProfilePlacement> Plans::compareProfiles(size_t i) const {
  std::vector<ProfilePlacement> out;
  if (i >= size()) return out;
  RfOptions o;
  o.composite = impl_->session.options().filters.composite;
  for (const auto& pc : consumersByProfile(*impl_->session.queries()[i].query.plan, o)) {
    ProfilePlacement pp{external(pc.profile), profileName(pc.profile), {}};
    for (const auto& c : pc.consumers)
      pp.targets.push_back("RF" + std::to_string(c.filter) + " " + c.target.str());
    out.push_back(std::move(pp));
  }
  return out;
}

std::vector<CheckVerdict> Plans::check(size_t i, const CheckSettings& settings) const {
  std::vector<CheckVerdict> out;
  if (i >= size()) return out;
  BoundedOptions bo;
  bo.bound = settings.bound;
  bo.seconds = settings.seconds;
  bo.maxDatabases = settings.maxDatabases;
  bo.oracle = settings.oracle;
  // The session's check, worded as `rfguard check` words it (pipeline/check.h).
  for (auto& fc : checkQuery(impl_->session.queries()[i], bo)) {
    const BoundedVerdict& v = fc.bounded;
    CheckVerdict c;
    c.filters.assign(v.filters.begin(), v.filters.end());
    c.verdict = fc.verdict;
    c.bound = v.bound;
    c.everyValue = v.everyValue;
    c.domain = v.domain;
    c.valuesOpen = v.valuesOpen;
    c.complete = v.complete;
    c.databases = v.databases;
    c.error = v.error;
    c.counterexampleSql = std::move(fc.counterexampleSql);
    c.constants = v.constants;
    c.constantsReached = v.constantsReached;
    out.push_back(std::move(c));
  }
  return out;
}

EquivVerdict Plans::equivalent(const Plans& original, size_t i, const Plans& rewritten, size_t j,
                               const CheckSettings& settings) {
  EquivVerdict out;
  out.requestedBound = settings.bound;
  if (i >= original.size() || j >= rewritten.size()) {
    out.verdict = "error";
    out.reason = "no query " + std::to_string(i >= original.size() ? i : j) + " in the " +
                 (i >= original.size() ? "original" : "rewritten") + " plans";
    return out;
  }
  const PlanNode& a = *original.impl_->session.queries()[i].query.plan;
  const PlanNode& b = *rewritten.impl_->session.queries()[j].query.plan;
  if (!comparable(a, b, out.reason)) {
    out.verdict = "error";
    return out;
  }
  BoundedOptions bo;
  bo.bound = settings.bound;
  bo.seconds = settings.seconds;
  bo.maxDatabases = settings.maxDatabases;
  bo.oracle = settings.oracle;
  bo.proofs = settings.proofs;
  EquivResult r = checkRewrite(a, b, bo);
  out.verdict = r.verdict;
  out.bound = reportedBound(r);
  out.databases = r.bounded.databases;
  out.reason = r.reason;
  out.limit = r.bounded.limit;
  out.ordered = r.bounded.counterexample && r.bounded.counterexample->ordered;
  out.counterexampleSql = r.sql;
  out.constants = r.bounded.constants;
  out.constantsReached = r.bounded.constantsReached;
  out.proof = r.proof;
  out.subtree = r.subtree;
  out.around = r.bounded.around;
  out.everyValue = r.bounded.everyValue;
  out.domain = r.bounded.domain;
  out.valuesOpen = r.bounded.valuesOpen;
  return out;
}

std::vector<VerifierFinding> Plans::verify() const {
  return verify(Judges::Rules);
}

std::vector<VerifierFinding> Plans::verify(Judges judges) const {
  std::vector<VerifierFinding> out;
  const Session& s = impl_->session;
  for (const auto& q : s.queries())
    for (const auto& f : s.verify(q, judges == Judges::RulesThenBoundedCheck)) {
      FindingSite site = s.siteOf(q, f);
      out.push_back({q.query.name, f.code, severityName(f.severity), f.message, f.filter, f.nodes,
                     f.loc.line, f.loc.col, site.pointer.empty() ? site.file : site.planFile,
                     site.pointer, f.judge});
    }
  return out;
}

std::string Plans::render(Format format) const {
  const Session& s = impl_->session;
  std::vector<Query> queries;
  for (const auto& q : s.queries()) queries.push_back(q.query);
  switch (format) {
    case Format::Json:
      return documentToJson(s.inputs().empty() ? Catalog{} : s.inputs()[0].catalog, queries)
                 .dump(2) +
             "\n";
    case Format::Dot:
      return planToDot(queries);
    case Format::Text:
      break;
  }
  std::string out;
  for (const auto& q : queries) out += "-- " + q.name + "\n" + planToText(*q.plan) + "\n";
  return out;
}

const char* version() {
  return "0.1.0";
}

}  // namespace rfguard::api
