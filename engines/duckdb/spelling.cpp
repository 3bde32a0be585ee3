// DuckDB's spelling of the SQL the verifier writes (ir/sql_spelling.h): the
// constructs where DuckDB's SQL is not SQLite's. Dates are day numbers in the
// oracle's tables; DuckDB's date functions take a DATE.
#include "engines/duckdb/adapter.h"

namespace rfguard::engine {

namespace {

constexpr const char* kEpoch = "DATE '1970-01-01'";

/// A day number as a DuckDB DATE.
std::string date(const std::string& days) {
  return "(" + std::string(kEpoch) + " + CAST(" + days + " AS INTEGER))";
}

class DuckDbSpelling final : public SqlSpelling {
 public:
  std::string name() const override { return "DuckDB"; }
  bool likeIsCaseSensitive() const override { return true; }

  std::optional<std::string> spell(
      const Expr& e, const std::function<std::string(const Expr&)>& print) const override {
    // CAST(x AS BOOLEAN) casts as the evaluator does (evaluation/values.cpp).
    if (e.kind == ExprKind::Cast)
      return e.type.kind == TypeKind::Boolean
                 ? std::optional<std::string>("CAST(" + print(*e.args[0]) + " AS BOOLEAN)")
                 : std::nullopt;
    if (e.kind != ExprKind::Call) return std::nullopt;
    const std::string& n = e.name;
    const size_t count = e.args.size();
    // A date moved by an interval literal: DuckDB's month arithmetic clamps to
    // the month's end as the evaluator does.
    if ((n == "+" || n == "-") && e.type.kind == TypeKind::Date && count == 2)
      for (size_t i = 0; i < 2; ++i)
        if (e.args[i]->type.kind == TypeKind::Interval && e.args[i]->kind == ExprKind::Literal) {
          const std::string d = print(*e.args[1 - i]);
          const IntervalShift s = parseIntervalShift(e.args[i]->value, n == "+" ? 1 : -1);
          if (s.byDays) return "(" + d + " + " + std::to_string(s.days) + ")";
          return "(CAST(" + date(d) + " + INTERVAL '" + std::to_string(s.months) +
                 " months' AS DATE) - " + kEpoch + ")";
        }
    auto args = [&](size_t from) {
      std::string s;
      for (size_t i = from; i < count; ++i) s += (i > from ? ", " : "") + print(*e.args[i]);
      return s;
    };
    if (n == "similar_to" && count >= 2)
      return "(" + print(*e.args[0]) + " SIMILAR TO " + print(*e.args[1]) +
             (count > 2 ? " ESCAPE " + print(*e.args[2]) : "") + ")";
    if (n == "regexp_matches") return "regexp_matches(" + args(0) + ")";
    if (n == "date_trunc" && count == 2 && e.args[0]->kind == ExprKind::Literal &&
        e.args[1]->type.kind == TypeKind::Date) {
      const std::string& part = e.args[0]->value;
      if (part == "year" || part == "quarter" || part == "month" || part == "week")
        return "(CAST(date_trunc('" + part + "', " + date(print(*e.args[1])) + ") AS DATE) - " +
               kEpoch + ")";
    }
    if (n == "extract" && count == 2) {
      const std::string& field = e.args[0]->value;
      if (field == "year" || field == "month" || field == "day")
        return "CAST(extract(" + field + " FROM " + date(print(*e.args[1])) + ") AS BIGINT)";
    }
    return std::nullopt;
  }
};

}  // namespace

const SqlSpelling& duckDbSpelling() {
  static const DuckDbSpelling spelling;
  return spelling;
}

}  // namespace rfguard::engine
