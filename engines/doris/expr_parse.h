#pragma once
// Internal to engines/doris/: expressions as Doris's plan text prints them
// (`(orders.o_orderdate < '1995-01-01')`, `cast(l_discount as DECIMALV3(16, 2))`,
// `OR[AND[...],...]`, `p_size IN (14, 19)`, `( not (a = b))`), read into
// rfguard's plan JSON expressions (docs/plan-json.md).
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace rfguard::doris_import {

/// A column a name resolves to: its id in the imported plan and its type
/// ("int", "date", "decimal(15,2)", or "unknown").
struct ResolvedColumn {
  std::string id;
  std::string type;
};
/// Resolves a printed name (`l2.l_orderkey`, `p_name`); nullopt with `why`
/// set when it names no column in scope, or several.
using Resolver =
    std::function<std::optional<ResolvedColumn>(const std::string& name, std::string& why)>;

/// What a resolver is asked for an aggregate's result: this mark, then the
/// call as aggregateCallText() writes it (`sum(l_quantity)`).
inline const std::string kAggregateMark = "\x01";
/// What a resolver is asked for a window function's result: this mark, then
/// the call and its OVER clause as aggregateCallText() writes them
/// (`avg(l_quantity) OVER(PARTITION BY p_partkey)`).
inline const std::string kWindowMark = "\x02";
/// An aggregate call as printed, its runs of blanks (outside quotes) one space.
std::string aggregateCallText(const std::string& call);

/// The deepest expression read (parentheses, operator chains): deeper text is
/// refused with an error, not a stack overflow.
inline constexpr int kMaxExprDepth = 500;

/// Reads `text` into a plan JSON expression; nullopt with `why` (what could not
/// be read, and where in `text`) when it cannot.
std::optional<nlohmann::json> parseDorisExpr(const std::string& text, const Resolver& resolve,
                                             std::string& why);

/// rfguard's type name for Doris's (`DECIMALV3(16, 2)` -> "decimal(16,2)",
/// `DATEV2` -> "date"); empty when unknown.
std::string typeFromDoris(const std::string& dorisType);

}  // namespace rfguard::doris_import
