#pragma once
// Checks the corpus runner applies to every plan it loads from SQL, beyond the
// case's own expectation: the sound placement verifies clean, and every unsafe
// edit of it is caught by the verifier.
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/dialect.h"
#include "ir/plan.h"
#include "verifier/findings.h"

namespace rfguard {

/// Mutants tried and caught over a run, by kind.
struct MutantTally {
  int tried = 0;
  int caught = 0;
  std::vector<std::pair<std::string, std::pair<int, int>>> byKind;  ///< kind -> (tried, caught)
  void add(const std::string& kind, bool wasCaught);
};

/// One line per finding: severity, code, nodes, position, message; "clean" when none.
std::string findingLines(const std::vector<Finding>& fs);

/// Bounded-check figures over a run.
struct BoundedTally {
  /// The bound every sound placement must reach: 2, or RFGUARD_CORPUS_BOUND (the
  /// sanitizer build runs the same checks at bound 1; `make test` asserts bound 2).
  int bound = 2;
  int plans = 0;                ///< plans with filters checked
  int complete = 0;             ///< of which every database up to the bound was checked
  int sliced = 0;               ///< of which every slice (not the whole plan) reached the bound
  uint64_t databases = 0;       ///< databases evaluated
  uint64_t sqlite = 0;          ///< queries SQLite ran and agreed on
  int rewrites = 0;             ///< normalisations checked (bound plan against normalised)
  int rewritesProved = 0;       ///< of which every step was proved by normal form (or identical)
  int rewritesComplete = 0;     ///< of the others, complete to the bound by the search
  int rewritesTooLarge = 0;     ///< of the others, too large for the search to start
  int reorderings = 0;          ///< ReorderJoins and ChooseBuildSides steps checked
  int reorderingsProved = 0;    ///< of which proved by normal form
  int reorderingsSearched = 0;  ///< of the others, equivalent to the bound by the search
};

/// Every join-order and build-side step of normalising `bound` (with `options`)
/// against the plan before it: proved by normal form, or searched to the bound.
/// "REORDERING NOT PROVED ..." for a step that is neither.
std::string reorderCheck(const PlanNode& bound, const struct NormalizeOptions& options,
                         const std::string& name, BoundedTally& tally);

/// The `equiv` directive: two SQL queries over `catalog`, the original then the
/// rewritten, read as `dialect` reads SQL; one line for the verdict (with the
/// counterexample), then SQLite's.
std::string equivCase(const std::string& text, const Catalog& catalog, Dialect dialect,
                      const struct BoundedOptions& bo);

/// One line per verdict of a bounded check: "RF1: unsafe at bound 1 (exact content): ...".
std::string verdictLines(const std::vector<struct BoundedVerdict>& vs);

/// What the implicit checks of one corpus case verified, summed over its queries.
/// The counts do not depend on the run's bound, so the line reads the same in
/// the sanitizer build (bound 1) as in `make test` (bound 2).
struct ImplicitChecks {
  int placements = 0;  ///< sound placements verified (per conjunct and composite, per query)
  int flagged = 0;     ///< of which the verifier flagged
  int mutants = 0;     ///< unsafe edits of them tried
  int caught = 0;      ///< of which the verifier caught
  int bounded = 0;     ///< placements with consumers given to the bounded search
  int unsafe = 0;      ///< of which it found a counterexample, an error or a SQLite disagreement
  /// "implicit: 2 sound placements clean, 14/14 mutants caught, 1 bounded without counterexample".
  std::string line() const;
};

/// Places the sound profile's filters (per conjunct, then composite) on copies of a
/// normalised plan; verifies each and every mutant of it. Returns "" when the
/// placements verify clean and every mutant is caught, else what went wrong; adds
/// what it checked to `checks`. With `bounded`, the per-conjunct placement is also
/// checked at bound 2 with the SQLite oracle.
std::string soundCheck(const PlanNode& plan, const std::string& name, MutantTally& tally,
                       BoundedTally* bounded, ImplicitChecks& checks);

/// The `check` directive: SQL (over `catalog`, planned with `profile`) or a plan JSON
/// document (as given), checked to `bound`; one line per verdict.
std::string checkCase(const std::string& text, const std::string& name, const Catalog& catalog,
                      const struct BoundedOptions& options, const std::string& profile);

/// Checks a normalisation: the bound plan against the normalised one, to bound 2 with
/// SQLite. "" when no counterexample and no disagreement, else what went wrong.
std::string rewriteCheck(const PlanNode& bound, const PlanNode& normalised, const std::string& name,
                         BoundedTally& tally);

}  // namespace rfguard
