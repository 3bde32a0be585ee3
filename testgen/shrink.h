#pragma once
// Shrinking a difference found by the differential driver (`rfguard <engine>
// diff`, testgen/differential.h) to a minimal
// reproducer: the simplest query (testgen/join_queries.h) and the fewest
// rows of each table that still show it. The search is greedy and bounded by
// a number of tests; whether a candidate still shows the difference is the
// caller's question (it runs DuckDB with and without the pushdown).
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "testgen/join_queries.h"

namespace rfguard {

/// The rows of a table kept so far: sorted, disjoint, half-open ranges of row
/// numbers (DuckDB's rowid as the table was generated) out of `total`.
struct KeptRows {
  long long total = 0;
  std::vector<std::pair<long long, long long>> ranges;

  static KeptRows all(long long total);
  long long count() const;
  /// Without the kept rows at positions [from, to) among the kept rows.
  KeptRows without(long long from, long long to) const;
  /// An SQL condition on `column` that holds for the kept row numbers.
  std::string condition(const std::string& column) const;
};

/// SQL that sets table t<table> to the `kept` rows of its generated contents,
/// kept numbered in t<table>_all (i: the generated rowid), in their order.
std::string keepRowsSql(int table, const KeptRows& kept);

/// SQL that cuts a freshly generated t<table> down to the `kept` rows: what a
/// reproducer script runs after generating the data.
std::string deleteOtherRowsSql(int table, const KeptRows& kept);

/// Takes the first one-step simplification of `q` that still reproduces, then
/// again from there, until none does or `budget` tests are spent.
DiffQuery shrinkDiffQuery(DiffQuery q, const std::function<bool(const DiffQuery&)>& reproduces,
                          int& budget);

/// Removes chunks of the kept rows (halves, then quarters, ...) while the
/// difference reproduces, until chunks of `smallestChunk` rows fail or
/// `budget` is spent.
KeptRows shrinkRows(KeptRows kept, const std::function<bool(const KeptRows&)>& reproduces,
                    int& budget, long long smallestChunk = 1);

}  // namespace rfguard
