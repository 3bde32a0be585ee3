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

inline std::vector<Query> bound(const std::string& sql) {
  Catalog c;
  std::vector<Query> qs;
  Diagnostics d;
  REQUIRE_MESSAGE(loadSql(kSchema + sql, "q.sql", c, qs, d), d.render());
  return qs;
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
