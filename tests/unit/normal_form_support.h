#pragma once
// Helpers shared by the normal-form unit tests (verifier/normal_form.h).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grammar/sql.h"
#include "pipeline/equiv.h"
#include "verifier/normal_form.h"

namespace rfguard::testing {

inline const std::string kSchema =
    "CREATE TABLE a (k int, v int); CREATE TABLE b (k int, w int); CREATE TABLE c (k int, x "
    "int);\n";

/// The queries of `sql` bound over the tables of `schema`.
inline std::vector<Query> boundOver(const std::string& schema, const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(schema + sql, "q.sql", c, qs, d), d.render());
  return qs;
}

inline std::vector<Query> bound(const std::string& sql) {
  return boundOver(kSchema, sql);
}

/// The proof of the first two queries of `sql` over `schema`, empty when
/// there is none.
inline std::string proofOver(const std::string& schema, const std::string& sql) {
  auto qs = boundOver(schema, sql);
  REQUIRE(qs.size() == 2);
  return provedEqual(*qs[0].plan, *qs[1].plan).value_or("");
}

/// Each pair of `pairs` over `schema` has no proof, and the bounded search
/// finds a counterexample (that the constraints allow).
inline void refutedOver(const std::string& schema, const std::vector<const char*>& pairs) {
  for (const char* text : pairs) {
    const std::string sql = text;
    CAPTURE(sql);
    CHECK(proofOver(schema, sql).empty());
    auto qs = boundOver(schema, sql);
    BoundedOptions o;
    o.bound = 2;
    const EquivResult r = checkRewrite(*qs[0].plan, *qs[1].plan, o);
    CHECK(r.verdict == "different");
    CHECK(r.bounded.counterexample);
  }
}

/// Whether the first two queries of `sql` are proved equal; `why` gets the proof.
inline bool proved(const std::string& sql, std::string* why = nullptr) {
  auto qs = bound(sql);
  REQUIRE(qs.size() == 2);
  auto p = provedEqual(*qs[0].plan, *qs[1].plan);
  if (p && why) *why = *p;
  return p.has_value();
}

/// Normalises the query and checks every step proved (or identical); true when
/// `rule` took a step, whose proof names `identity`.
inline bool provedStepByStep(const std::string& query, const std::string& rule,
                             const std::string& identity) {
  CAPTURE(query);
  auto qs = bound(query);
  auto steps = normalisationTrace(*qs[0].plan, {});
  bool fired = false;
  for (const auto& v : checkTrace(steps, BoundedOptions{})) {
    CAPTURE(steps[v.step].rule);
    CHECK(v.result.verdict == "equivalent");
    CHECK((v.identical || !v.result.proof.empty()));
    if (steps[v.step].rule != rule) continue;
    fired = true;
    CHECK(v.result.proof.find(identity) != std::string::npos);
  }
  return fired;
}

}  // namespace rfguard::testing
