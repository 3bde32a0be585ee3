#pragma once
// SQL dialects: where PostgreSQL, DuckDB, Calcite and SQLite give one query
// different results, which one rfguard reads the SQL as (`--dialect`). Each
// difference is one field below and one row of docs/dialects.md; the binder
// writes the chosen meaning into the plan (a cast, a NULLS FIRST, a checked
// divisor), so the evaluator, the proofs, the solver and the oracles' SQL
// all see the same plan whatever the dialect.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rfguard {

/// The semantics SQL is read with. Default is rfguard's own from before
/// dialects existed (PostgreSQL's but for division by zero, SQLite's).
enum class Dialect { Default, Postgres, DuckDb, Calcite, Sqlite };

/// What an integer AVG returns.
enum class IntegerAverage {
  Double,     ///< a DOUBLE (DuckDB, SQLite; PostgreSQL's NUMERIC, in double precision here)
  Truncated,  ///< the argument's type: CAST(SUM(x) / COUNT(x) AS INT), truncated (Calcite)
};

/// Where NULLs sort when ORDER BY does not say.
enum class NullOrder {
  Largest,   ///< last ascending, first descending (PostgreSQL, Calcite)
  Smallest,  ///< first ascending, last descending (SQLite)
  Last,      ///< last either way (DuckDB)
};

/// What x / 0 or x % 0 gives.
enum class DivisionByZero {
  Null,   ///< NULL (SQLite; DuckDB's %)
  Fails,  ///< no result: an error (PostgreSQL, Calcite), or DuckDB's ±inf and NaN of /,
          ///< values rfguard does not model
};

/// One dialect's answers, one per difference.
struct DialectRules {
  const char* name;
  bool integerDivisionTruncates;  ///< 7 / 2 is 3 (false: 3.5, DuckDB)
  DivisionByZero divisionByZero;  ///< x / 0
  DivisionByZero moduloByZero;    ///< x % 0
  IntegerAverage integerAverage;  ///< AVG of an integer column
  bool groupByPosition;           ///< GROUP BY 2 is the 2nd select item (false: the constant 2)
  NullOrder nullOrder;            ///< ORDER BY without NULLS FIRST / LAST
  bool likeIgnoresAsciiCase;      ///< 'A' LIKE 'a' is TRUE (SQLite)
  bool concatSkipsNull;           ///< concat('a', NULL) is 'a' (false: refused, Calcite's depends
                                  ///< on its function library)
};

/// The rules of `d`.
const DialectRules& dialectRules(Dialect d);
/// "default", "postgres", "duckdb", "calcite", "sqlite".
const char* dialectName(Dialect d);
/// The dialect of a name above (case-insensitive; "postgresql" too), or nullopt.
std::optional<Dialect> dialectNamed(std::string_view name);
/// Every dialect's name, in the order above.
std::vector<std::string> dialectNames();

}  // namespace rfguard
