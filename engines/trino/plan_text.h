#pragma once
// Internal to engines/trino/: the plan text Trino's cost-based plan tests print
// (testing/trino-tests/src/test/resources/sql/**/*.plan.txt). One operator per
// line, its inputs on the lines below it indented four spaces more; a join's
// probe side is its first input. The printer shows joins (type and
// distribution), exchanges (with their hash keys), aggregations (with their
// group keys), the dynamic filters a filter applies (`sym::EQUAL`), scans
// (the table), semi joins and values; it prints no projection, no other
// filter, no join condition and no filter id (docs/trino.md).
#include <memory>
#include <string>
#include <vector>

#include "ir/diagnostics.h"

namespace rfguard::trino_import {

enum class OpKind {
  RemoteExchange,
  LocalExchange,
  Join,       ///< `join (INNER, PARTITIONED):`
  CrossJoin,  ///< `cross join:`
  SemiJoin,   ///< `semijoin (PARTITIONED):`
  Aggregation,
  DynamicFilter,
  Scan,
  Values,
  Unknown,  ///< a line the printer's vocabulary above does not cover
};

/// One dynamic filter a filter applies: `orderkey_5::EQUAL`.
struct DfItem {
  std::string symbol;
  std::string op;  ///< Trino's operator name: EQUAL, LESS_THAN, ... (EQUAL when unprinted)
};

/// One operator line.
struct PlanOp {
  OpKind kind = OpKind::Unknown;
  std::string text;  ///< the line without its indentation
  int line = 0, col = 0;
  std::string joinType;      ///< INNER, LEFT, RIGHT, FULL (joins)
  std::string distribution;  ///< PARTITIONED, REPLICATED (joins, semi joins)
  std::string exchangeType;  ///< REPARTITION, GATHER, REPLICATE (exchanges)
  std::string step;          ///< final, partial, intermediate, single (aggregations)
  std::string table;         ///< scans
  long long rows = 0;        ///< values
  /// Exchange hash keys and aggregation group keys, as printed (sorted by Trino).
  std::vector<std::string> symbols;
  std::vector<DfItem> filters;  ///< dynamic filters
  std::vector<std::unique_ptr<PlanOp>> inputs;
  const PlanOp* parent = nullptr;
};

/// The deepest operator tree read; deeper is an error, not a stack overflow.
inline constexpr int kMaxPlanDepth = 1000;
/// The most rows a `values (N rows)` line may claim (its rows are imported,
/// and evaluated in every database a check tries).
inline constexpr long long kMaxValuesRows = 1000;

/// True when `text` reads as Trino's plan text: its first line that is not
/// blank is one of the printer's operators, unindented, and some line scans.
bool looksLikeTrinoPlan(const std::string& text);

/// True when the first line of `text` that is not blank is one of the
/// printer's operators, unindented (what --from trino needs to read on);
/// `line` is that line.
bool startsLikeTrinoPlan(const std::string& text, int& line);

/// Reads the operator tree of `text`. False, with errors at file:line:col,
/// when it does not fit the shape above.
bool readPlanText(const std::string& text, const std::string& file, std::unique_ptr<PlanOp>& root,
                  Diagnostics& diags);

/// A symbol's column name by Trino's symbol allocator: the symbol without a
/// `_N` suffix (`orderkey_5` -> `orderkey`); the symbol itself when it has none.
std::string baseName(const std::string& symbol);

}  // namespace rfguard::trino_import
