#pragma once
// Helpers shared by the tests that run DuckDB.
#include <doctest/doctest.h>

#include <string>

#include "pipeline/session.h"

namespace rfguard {

/// The findings with `code` that lint reports on DuckDB's JSON profile `profile`.
inline int lintFindings(const std::string& profile, const std::string& code) {
  Session s;
  Diagnostics d;
  REQUIRE(s.loadFormat(profile, "p.json", InputFormat::Engine, d));
  int n = 0;
  for (const auto& f : s.verify(s.queries()[0])) n += f.code == code;
  return n;
}

}  // namespace rfguard
