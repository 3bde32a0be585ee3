#pragma once
// How a SQL engine spells the constructs in which engines differ, for the SQL
// the verifier writes: oracle queries and counterexample scripts. The SQL the
// verifier writes is SQLite's (verifier/plan_sql.h); an engine's adapter
// (engines/<name>/) gives a spelling that overrides the constructs its engine
// spells otherwise. It lives in ir/ because the verifier writes it and the
// engines define it, and neither may include the other.
#include <functional>
#include <optional>
#include <string>

#include "ir/expr.h"

namespace rfguard {

class SqlSpelling {
 public:
  virtual ~SqlSpelling() = default;
  /// "DuckDB": how scripts name the engine.
  virtual std::string name() const = 0;
  /// The engine's text for `e` (a CAST or a function call), or nullopt to
  /// write SQLite's form. `print` writes a subexpression in this spelling.
  virtual std::optional<std::string> spell(
      const Expr& e, const std::function<std::string(const Expr&)>& print) const = 0;
  /// True when LIKE compares case-sensitively, as SQL means it (SQLite's
  /// ignores ASCII case unless told otherwise).
  virtual bool likeIsCaseSensitive() const = 0;
};

/// An interval literal ("3 month", "-1 year", "2 weeks") times `sign`: a
/// number of days (day, week), else of months (month, quarter, year).
struct IntervalShift {
  long long days = 0, months = 0;
  bool byDays = true;
};
IntervalShift parseIntervalShift(const std::string& interval, int sign);

}  // namespace rfguard
