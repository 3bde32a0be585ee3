#pragma once
// DuckDB prints the expressions of a physical plan as text (EXPLAIN and the JSON
// profile's "extra_info"): `k = k`, `#0 IS NOT DISTINCT FROM #1`,
// `CAST(v AS VARCHAR) < w`, `sum(#1)`, `optional: k IN BF(c_custkey)`. This
// parses that text into a small tree; plan_import.cpp resolves its names.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard::duckdb_import {

struct TextExpr;
/// A sort key as DuckDB prints it: `expr ASC|DESC [NULLS FIRST|LAST]`.
struct TextSortKey {
  std::shared_ptr<TextExpr> expr;
  bool ascending = true;
  bool nullsFirst = false;  ///< DuckDB's default is NULLS LAST
};

/// One parsed expression.
struct TextExpr {
  enum class Kind {
    Name,     ///< a column name, possibly qualified (memory.main.t.k); `text`
    Ref,      ///< #n: the child's n-th column; `index`
    Integer,  ///< `text` holds the digits (and sign)
    Decimal,  ///< `text` holds the number as written
    String,   ///< `text` holds the unquoted value
    Null,
    Boolean,   ///< `text` is "true" or "false"
    Call,      ///< `name(args)`; operators too, under rfguard's names (and, =, <=>, like, in ...)
    Cast,      ///< CAST(args[0] AS type), also args[0]::type
    Subquery,  ///< the MARK join column DuckDB prints as SUBQUERY
    Bloom,     ///< BF(col): the Bloom filter of a dynamic filter; args[0] the build column
  };
  Kind kind = Kind::Null;
  std::string text;
  int index = 0;
  std::vector<std::shared_ptr<TextExpr>> args;
  std::string type;       ///< Cast: the target type as DuckDB spells it
  bool distinct = false;  ///< Call: an aggregate over DISTINCT arguments
  bool star = false;      ///< Call: count(*) style
  /// Call OVER (...): a window function.
  bool window = false;
  std::vector<std::shared_ptr<TextExpr>> partitionBy;
  std::vector<TextSortKey> orderBy;
  std::optional<WindowFrame> frame;  ///< ROWS / RANGE BETWEEN ..., when DuckDB printed one
  int height = 1;                    ///< levels of this tree, a leaf being 1
};
using TextExprPtr = std::shared_ptr<TextExpr>;

/// Expressions taller than this are refused: the import, the plan reader and
/// the verifier recurse over them (DuckDB itself stops at 1,000 levels).
inline constexpr int kMaxTextDepth = 500;

/// Parses one expression; on failure returns null and sets `error` (with the
/// character offset in `text`), also for one taller than kMaxTextDepth.
TextExprPtr parseExpr(const std::string& text, std::string& error);
/// Parses a sort key (`expr DESC NULLS FIRST`).
bool parseSortKey(const std::string& text, TextSortKey& out, std::string& error);
/// Splits `a AND b AND c` at its top-level ANDs (outside parentheses, quotes
/// and BETWEEN ... AND); one piece when there is none.
std::vector<std::string> splitConjuncts(const std::string& text);

}  // namespace rfguard::duckdb_import
