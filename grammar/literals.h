#pragma once
// Literal parsing and validation for the binder.
#include <string>

#include "RfSqlParser.h"
#include "ir/expr.h"

namespace rfguard {

/// An integer literal: int, bigint, or decimal(p,0) when it overflows bigint.
ExprPtr integerLiteral(const std::string& text, SourceLoc loc);
/// A decimal literal ("0.06" gives decimal(3,2)).
ExprPtr decimalLiteral(const std::string& text, SourceLoc loc);
/// Removes surrounding quotes and undoubles inner ones.
std::string unquote(const std::string& text, char quote);
/// YYYY-MM-DD with a real month and day.
bool validDate(const std::string& v);
/// YYYY-MM-DD[ HH:MM:SS[.fff]].
bool validTimestamp(const std::string& v);
/// year, month, day, hour, minute, second (also the field names of extract).
bool validIntervalUnit(const std::string& unit);
/// The type name as parseType() reads it: "decimal(15,2)", "double".
std::string typeText(rfsql::RfSqlParser::TypeNameContext* ctx);

}  // namespace rfguard
