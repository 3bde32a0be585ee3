#pragma once
// Internal to verifier/ (and its cross-check tool): bounded equivalence over every value
// (docs/equiv.md, "Every value"). Each table becomes `bound` symbolic rows (a presence flag, and
// per column an integer value and a NULL flag), each plan a list of symbolic rows whose presence
// and values are formulas over them, in SQL's three-valued logic and bag semantics; Z3 is asked for
// values under which the two bags differ. Unsatisfiable: no database of at most `bound` rows per
// table that satisfies the schema's keys tells the plans apart, whatever its values. Plans outside
// the encoded fragment (docs/equiv.md lists it per construct) are not decided here.
#include <set>
#include <string>

#include "evaluation/evaluator.h"
#include "ir/plan.h"
#include "verifier/bounded.h"

namespace rfguard {

/// What the solver says about two plans at one bound.
struct SymbolicVerdict {
  enum class Kind {
    Unsupported,  ///< a plan is outside the encoded fragment (`why` names the construct)
    Equal,        ///< no values make them differ: equivalent up to the bound, over every value
    Differs,      ///< `db` is the solver's model on which they differ
    Unknown,      ///< the solver gave up (`why`: its reason or the time limit)
  };
  Kind kind = Kind::Unsupported;
  std::string why;
  rt::Database db;
  /// Functions outside the fragment read as any function of their arguments
  /// ("like, substring"): a proof holds for SQL's reading too, but a model may
  /// need another reading, and is then no counterexample.
  std::string uninterpreted;
  /// The encoding broke ties by priorities (a LIMIT's cut, row_number's peers,
  /// a ROWS frame): the original's follow the rewritten plan's order node by
  /// node, so a model may differ only under that order, and is then no
  /// counterexample when the original allows the rewritten answer otherwise.
  bool ties = false;
  double ms = 0;  ///< the encoding's and the solver's time
};

/// The first construct of `plan` the encoding does not cover ("window function
/// row_number at #4"), or "" when every node and expression is covered.
std::string symbolicGap(const PlanNode& plan);

/// Compares the bags of rows `a` and `b` return over every database of at most
/// `bound` rows per table that satisfies the scans' keys (PRIMARY KEY, UNIQUE)
/// and NOT NULL columns, within `seconds` of solver time. A model is returned
/// with its values as small as the solver finds in a second try (absolute
/// values up to 16 when one such model exists).
SymbolicVerdict symbolicCompare(const PlanNode& a, const PlanNode& b, int bound, double seconds);

/// Compares `plan` without its runtime filters and with `filters` (every one
/// when empty) applied, over every database of at most `bound` rows per table
/// the schema allows: Equal when no content that holds every build key (exact,
/// false-positive, MinMax, Bloom: any superset) changes the result; a range
/// filter holds the build side's greatest or least key, as the runtime builds
/// it. TopN filters, local filters built per worker, producers inside
/// subqueries and an id produced twice are outside the fragment (Unsupported).
SymbolicVerdict symbolicFilters(const PlanNode& plan, const std::set<int>& filters, int bound,
                                double seconds);

/// Records the solver's word in a verdict: `everyValue` for Equal, `valuesOpen`
/// with the reason for Unsupported and Unknown; true for Differs, whose model
/// the caller confirms.
bool recordSolverWord(const SymbolicVerdict& s, BoundedVerdict& v);

/// The encoding's word on one database for symbolicFilters: Differs when
/// some content that holds every build key changes the result on `db`.
SymbolicVerdict symbolicFiltersOn(const PlanNode& plan, const std::set<int>& filters,
                                  const rt::Database& db, double seconds);

/// The encoding's word on one database: Differs when the plans' bags (with
/// the ORDER BY keys, as symbolicCompare compares them) differ on `db`, Equal
/// when they do not. The cross-check asks it of the evaluator's counterexamples.
SymbolicVerdict symbolicOn(const PlanNode& a, const PlanNode& b, const rt::Database& db,
                           double seconds);

}  // namespace rfguard
