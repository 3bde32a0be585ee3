#pragma once
// The bounded check of a query's runtime filters and the word its verdict is
// reported by: one place for both front doors, `rfguard check` and the C++
// API's Plans::check, so that they can never word one search differently.
#include <string>
#include <vector>

#include "pipeline/session.h"
#include "verifier/bounded.h"

namespace rfguard {

/// One verdict of a query's check and how it is reported.
struct FilterCheck {
  BoundedVerdict bounded;
  /// "safe" (up to the bound asked for, over every value, whole or by slices),
  /// "unsafe" (a counterexample), "inconclusive" (no counterexample, but the
  /// search stopped below the bound, or drew values from a finite domain the
  /// solver did not widen) or "error" (the plan could not be evaluated).
  std::string verdict;
  /// True when no filter was placed and nothing was searched ("safe").
  bool nothingPlaced = false;
  /// For "unsafe": the counterexample as a script sqlite3 and DuckDB run as is.
  std::string counterexampleSql;
};

/// The word for `v` when the bound asked for was `requested`.
std::string checkVerdictWord(const BoundedVerdict& v, int requested);

/// Checks `run`'s filters (all together, then each alone when unsafe:
/// checkFilters) and words each verdict.
std::vector<FilterCheck> checkQuery(const QueryRun& run, const BoundedOptions& options);

}  // namespace rfguard
