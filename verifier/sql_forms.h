#pragma once
// Internal to verifier/: SQLite's spellings of constructs engines do not
// share, for the oracles' translation of plans (plan_sql.cpp). Other engines'
// spellings are their adapters' (ir/sql_spelling.h, engines/<name>/).
#include <functional>
#include <string>
#include <vector>

namespace rfguard {

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
