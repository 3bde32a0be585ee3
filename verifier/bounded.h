#pragma once
// Bounded verification (docs/design.md section 6): search small databases for one on
// which the query returns a different bag of rows with its runtime filters
// than without, for some admissible filter content. Iterative deepening on
// the number of rows per table, so the first counterexample is minimal.
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "evaluation/evaluator.h"
#include "ir/plan.h"

namespace rfguard {

class SqlOracle;

/// The most copies of one row the search makes to pass a LIMIT / OFFSET window.
inline constexpr long long kMaxRepeat = 1000;

struct BoundedOptions {
  int bound = 2;                    ///< most rows per table
  double seconds = 10;              ///< time budget per search
  uint64_t maxDatabases = 2000000;  ///< database budget per search
  int fresh = 2;                    ///< fresh values per type beyond the plan's constants
  bool oracle = false;              ///< also run every database through an oracle and compare
  uint64_t oracleDatabases = 0;  ///< the oracle sees only the first this many of a search; 0: all
  /// The oracle (verifier/sqlite_oracle.h); empty: SQLite.
  std::function<std::unique_ptr<SqlOracle>(std::string& error)> oracleFactory;
  /// Auto: the whole plan, then per-filter slices (verifier/slices.h) if it stops short of
  /// the bound; Whole: the whole plan only; Slices: the slices only.
  enum class Method { Auto, Whole, Slices } method = Method::Auto;
  uint64_t sliceMaxDatabases = 0;  ///< database budget per slice search; 0: maxDatabases
  /// Equivalence checks (pipeline/equiv.h) first try a proof by normal form
  /// (verifier/normal_form.h), which holds on every database, and search only
  /// without one; false: always search.
  bool proofs = true;
  /// Equivalence and filter checks that find no counterexample then ask the
  /// solver (verifier/symbolic.h) about every value up to the bound; false: the
  /// search only.
  bool everyValue = true;
  /// The solver's budget in seconds (as Z3 resource units, verifier/symbolic.h);
  /// 0: `seconds`.
  double solverSeconds = 0;
  /// Called every 256 databases of a search: the bound, databases so far, seconds.
  std::function<void(int bound, uint64_t databases, double seconds)> progress;
};

/// Parses "auto", "whole" or "slices".
std::optional<BoundedOptions::Method> parseMethod(std::string_view name);

/// A database on which the filtered query differs, with both result bags.
struct Counterexample {
  rt::Database db;
  std::vector<rt::Row> original, rewritten;
  rt::Content content = rt::Content::Exact;
  std::set<int> filters;          ///< the filters applied
  std::vector<rt::Value> extras;  ///< the false-positive candidates the content drew from
  bool ordered = false;           ///< the results are compared in the order an ORDER BY fixes
  long long repeated = 0;         ///< one row of `db` is repeated this many times (a LIMIT window)
  /// The rewritten rows are an answer its ties allow (peers of an ORDER BY in
  /// another order), not the one the script's tie-break gives.
  bool tieAnswer = false;
};

/// The verdict for a set of filters (all of a plan's, or one alone).
struct BoundedVerdict {
  std::set<int> filters;
  bool safe = true;
  int bound = 0;           ///< safe for every database of up to this many rows per table
  bool complete = true;    ///< false when the budget ran out inside bound + 1
  uint64_t databases = 0;  ///< databases evaluated
  /// Of those, the databases whose largest table has n rows, at [n - 1]: what each
  /// bound cost (the text verdicts print it; a budget-limited run shows where it
  /// stopped).
  std::vector<uint64_t> databasesPerBound;
  std::optional<Counterexample> counterexample;
  std::string error;  ///< the plan could not be evaluated
  std::string limit;  ///< why the search stopped before the bound (space or budget)
  /// When the counterexample came from the search around a rewrite's changed
  /// subtrees (searchAround), how: "a database on which limit #8 and ... differ, ...".
  std::string around;
  /// LIMIT / OFFSET constants a bound-sized input cannot pass: how the search went
  /// past them (each database again with one row repeated that many times), or
  /// that it could not (a constant over kMaxRepeat); empty when there are none.
  std::string constants;
  /// A database on which a plan's answer was not among the original's listed
  /// answers, but ties allowed more answers than were listed (rt::evaluateAll's
  /// cap): not a counterexample, and no verdict of "equivalent" or "safe" from
  /// the search alone. Empty when there was none.
  std::string undecided;
  bool constantsReached = true;                  ///< false: a constant was beyond the repeat search
  uint64_t oracleRuns = 0;                       ///< queries the oracle ran
  std::string oracleName;                        ///< "SQLite", "DuckDB" when one was consulted
  std::string oracleSkipped;                     ///< why a query had no SQL form
  std::vector<std::string> oracleDisagreements;  ///< evaluator defects, with the database
  // The per-filter slices (verifier/slices.h), checked when the whole plan stops short.
  int sliceBound = -1;           ///< every slice is safe up to this bound; -1 when not checked
  int slices = 0;                ///< slices checked
  uint64_t sliceDatabases = 0;   ///< databases the slices evaluated
  std::string sliceLimit;        ///< why the slices stop short of the bound, or do not apply
  bool sliceEveryValue = false;  ///< the solver covered every value of every slice at sliceBound
  std::string sliceValuesOpen;   ///< why not: the first slice's construct or solver's reason
  // Values (docs/equiv.md, "Every value"). The search draws values from a finite
  // domain; the solver (verifier/symbolic.h) then covers every value, where the
  // plans are in its fragment.
  std::string domain;       ///< the search's values: "{NULL, 0, 1, 5, 2000001, 'a'}"
  bool everyValue = false;  ///< the solver found no values that tell the plans apart
  std::string valuesOpen;   ///< why not every value is covered: a construct, or the solver's reason
  double solverMs = 0;      ///< the solver's time
};

/// Raises glibc's trim and mmap thresholds. A search allocates and frees whole
/// databases in a loop; with the defaults the heap top goes back to the kernel
/// every time (hundreds of thousands of brk and munmap calls, 4x the run time).
/// Programs that search call this once at startup.
void tuneHeapForSearch();

/// The search space of one plan: tables, varying columns and their domains.
struct SearchSpace;

/// Checks the plan's runtime filters together; when unsafe, also each filter alone.
/// The first verdict is for all filters; the others (if any) for single filters.
/// When the whole plan stops short of the bound, the first verdict also carries
/// the per-filter slice check (sliceBound).
std::vector<BoundedVerdict> checkFilters(const PlanNode& root, const BoundedOptions& options);

/// Checks two plans for the same bag of rows (a normalisation rewrite): `rewritten`
/// is evaluated without filters against `original`.
BoundedVerdict checkEquivalent(const PlanNode& original, const PlanNode& rewritten,
                               const BoundedOptions& options);

/// The database budget of the short search an equivalence check makes before
/// the solver, for plans the solver encodes (pipeline/equiv.h).
inline constexpr uint64_t kQuickDatabases = 20000;

/// The first construct of either plan the solver does not encode
/// (verifier/symbolic.h), or "" when it encodes both.
std::string everyValueGap(const PlanNode& original, const PlanNode& rewritten);

/// Completes an equivalence check that found no counterexample over every value
/// up to `options.bound` rows per table (verifier/symbolic.h): sets `everyValue`
/// when the solver shows no values tell the plans apart; or a counterexample,
/// the solver's model confirmed by the evaluator (a model it does not confirm is
/// an evaluator or encoding defect, reported in `valuesOpen`) with rows removed
/// while it still separates them; or `valuesOpen` with why neither.
void checkEveryValue(const PlanNode& original, const PlanNode& rewritten,
                     const BoundedOptions& options, BoundedVerdict& v);

/// Completes a filter check (checkFilters) that found no counterexample over
/// every value up to `options.bound` rows per table: sets `everyValue` when no
/// filter content that holds every build key changes the result
/// (symbolicFilters); or a counterexample, the solver's model confirmed by the
/// evaluator under the exact, MinMax or a false-positive content (one of the
/// database's values, or of `extras`), with rows removed while it still shows
/// the difference; or `valuesOpen` with why neither.
void checkFiltersEveryValue(const PlanNode& root, const std::set<int>& filters,
                            const std::vector<rt::Value>& extras, const BoundedOptions& options,
                            BoundedVerdict& v);

/// Evaluates the plan on one database without its filters and with `filters`
/// under every content (and, with `options.oracle`, checks each against the
/// oracle): a counterexample when a content's answer is none the original allows.
BoundedVerdict checkFiltersOnDatabase(const PlanNode& root, const std::set<int>& filters,
                                      const std::vector<rt::Value>& extras, const rt::Database& db,
                                      const BoundedOptions& options);

/// Evaluates both plans on one database (and, with `options.oracle`, checks
/// each against the oracle): a counterexample when the rewritten plan's answer
/// is none the original allows.
BoundedVerdict checkOneDatabase(const PlanNode& original, const PlanNode& rewritten,
                                const rt::Database& db, const BoundedOptions& options);

/// Adds the oracle's account of one search (runs, name, why skipped,
/// disagreements) to another's: a check made of several searches.
void addOracleAccount(const BoundedVerdict& from, BoundedVerdict& to);

/// For two plans that differ only in some subtrees (pairs of the original's and
/// the rewritten plan's, as pipeline/equiv.h's changedSubtrees finds them), and
/// whose whole search stopped short: first databases on which a pair of
/// subtrees differs (over their tables only, with the whole plans' domains),
/// then, for each, the rest of the database around it, bound by bound. Finds
/// counterexamples whose every table is small but which the whole space at
/// that bound is too large to reach; an empty counterexample proves nothing.
/// The budget is `options`' own.
BoundedVerdict searchAround(const PlanNode& original, const PlanNode& rewritten,
                            const std::vector<std::pair<const PlanNode*, const PlanNode*>>& changed,
                            const BoundedOptions& options);

}  // namespace rfguard
