// SQLite's spellings of date arithmetic and of bag set operations.
#include "verifier/sql_forms.h"

#include "ir/functions.h"
#include "ir/sql_spelling.h"

namespace rfguard {

std::string sqliteDateShift(const std::string& date, const std::string& interval, int sign) {
  const IntervalShift s = parseIntervalShift(interval, sign);
  if (s.byDays) return "(" + date + " + " + std::to_string(s.days) + ")";
  const long long months = s.months;
  // min(first of the target month + (day - 1) days, last of the target month).
  const std::string iso = "date(" + date + " + 2440587.5)";
  const std::string first = "date(" + iso + ", 'start of month', '" + (months < 0 ? "" : "+") +
                            std::to_string(months) + " months')";
  const std::string last = "date(" + first + ", '+1 month', '-1 day')";
  const std::string want =
      "date(" + first + ", '+' || (CAST(strftime('%d', " + iso + ") AS INTEGER) - 1) || ' days')";
  return "CAST(julianday(min(" + want + ", " + last + ")) - 2440587.5 AS INTEGER)";
}

std::string sqliteBagSetOperation(bool intersect, const std::vector<std::string>& cols,
                                  const std::vector<std::string>& parts,
                                  const std::function<std::string()>& fresh) {
  // The k-th copy of a row is numbered k (ROW_NUMBER over a partition by every
  // column); the set operation on (row, k) keeps min(m, n) copies, or max(0, m - n).
  std::string list;
  for (const auto& c : cols) list += (list.empty() ? "" : ", ") + c;
  auto numbered = [&](const std::string& s) {
    return "SELECT " + list + ", ROW_NUMBER() OVER (PARTITION BY " + list +
           ") AS \"rfguard_copy\" FROM (" + s + ") AS " + fresh();
  };
  const char* op = intersect ? " INTERSECT " : " EXCEPT ";
  std::string acc;
  for (const auto& part : parts)
    acc = acc.empty() ? part
                      : "SELECT " + list + " FROM (" + numbered(acc) + op + numbered(part) +
                            ") AS " + fresh();
  return "SELECT * FROM (" + acc + ") AS " + fresh();
}

std::string aggregateCall(const std::string& func, const std::string& arg, bool distinct,
                          const std::string& over) {
  // any_value and single_value are evaluated only where every row's value is
  // one (or there is at most one row): min and max return it then.
  if (func == "any_value") return aggregateCall("min", arg, distinct, over);
  if (func == "single_value") return aggregateCall("max", arg, distinct, over);
  const FunctionInfo* fn = lookupFunction(func);
  if (!fn || fn->ret != ReturnRule::Deviation)
    return func + "(" + (distinct ? "DISTINCT " : "") + arg + ")" + over;
  const bool sample = func == "var_samp" || func == "stddev_samp";
  const std::string x = "CAST(" + arg + " AS DOUBLE)";
  const std::string s = "SUM(" + x + ")" + over;
  const std::string n = "COUNT(" + arg + ")" + over;
  const std::string var = "(SUM(" + x + " * " + x + ")" + over + " - " + s + " * " + s + " / " + n +
                          ") / (" + n + (sample ? " - 1" : "") + ")";
  const std::string guarded =
      "CASE WHEN " + n + (sample ? " > 1" : " > 0") + " THEN " + var + " END";
  return func.rfind("stddev", 0) == 0 ? "SQRT(" + guarded + ")" : guarded;
}

}  // namespace rfguard
