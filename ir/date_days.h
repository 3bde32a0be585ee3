#pragma once
// `date + n`, `n + date` and `date - n` count days in DuckDB, PostgreSQL and
// TPC-DS's SQL (d_date + 30). rfguard's IR has one form of it, the date and an
// interval of n days, which the evaluator, the solver and the SQL printers read;
// the SQL binder and the plan JSON reader both bind to it here.
#include <algorithm>
#include <cctype>
#include <string>

#include "ir/expr.h"

namespace rfguard {

/// The interval of n days for an integer constant n (at most nine digits), or
/// null when `n` is not one.
inline ExprPtr daysInterval(const Expr& n) {
  const std::string& v = n.value;
  const std::string digits = v.substr(!v.empty() && v[0] == '-' ? 1 : 0);
  const bool constant = n.kind == ExprKind::Literal && !n.isNull && n.type.isInteger() &&
                        !digits.empty() && digits.size() <= 9 &&
                        std::all_of(digits.begin(), digits.end(), [](char c) {
                          return std::isdigit(static_cast<unsigned char>(c));
                        });
  if (!constant) return nullptr;
  return makeLiteral(v + " day", Type::of(TypeKind::Interval), n.loc);
}

/// Which operand of `l op r` counts days: 1 for `date +/- n`, 0 for `n + date`,
/// -1 when neither (no date, or not + and -).
inline int dayOperand(const std::string& op, const Type& l, const Type& r) {
  if ((op == "+" || op == "-") && l.kind == TypeKind::Date && r.isInteger()) return 1;
  if (op == "+" && r.kind == TypeKind::Date && l.isInteger()) return 0;
  return -1;
}

}  // namespace rfguard
