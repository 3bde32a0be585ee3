#pragma once
// Internal to verifier/: SQLite and DuckDB spellings of constructs the two
// do not share, for the oracles' translation of plans (plan_sql.cpp).
#include <functional>
#include <string>
#include <vector>

namespace rfguard {

/// Dates are day numbers in both engines' tables; DuckDB's date functions take a DATE.
inline constexpr const char* kDuckEpoch = "DATE '1970-01-01'";
/// A day number as a DuckDB DATE.
std::string duckDate(const std::string& days);
/// A day number moved by an interval literal in DuckDB, whose month arithmetic
/// clamps to the month's end as the evaluator does.
std::string duckDateShift(const std::string& date, const std::string& interval, int sign);

/// A date (a day number, SQL text `date`) moved by an interval literal ("3 month",
/// "-1 year", "2 weeks"), times `sign`. Months clamp to the target month's end, as
/// the evaluator does: SQLite's own '+1 month' would roll 31 January into March.
std::string sqliteDateShift(const std::string& date, const std::string& interval, int sign);

/// INTERSECT ALL (`intersect`) or EXCEPT ALL of `parts`, SELECTs whose columns are
/// `cols` (quoted), folded left. `fresh` names a derived table.
std::string sqliteBagSetOperation(bool intersect, const std::vector<std::string>& cols,
                                  const std::vector<std::string>& parts,
                                  const std::function<std::string()>& fresh);

/// An aggregate call in both engines: `func(arg)` with `over` (" OVER (...)" for
/// a window, or empty) after it; `arg` is "*" for count(*). Variance and
/// standard deviation, which SQLite lacks, are spelled with SUM and COUNT in the
/// order of operations the evaluator uses (evaluation/eval_agg.cpp).
std::string aggregateCall(const std::string& func, const std::string& arg, bool distinct,
                          const std::string& over);

}  // namespace rfguard
