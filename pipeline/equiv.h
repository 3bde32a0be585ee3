#pragma once
// Rewrite verification (docs/equiv.md): is one plan equal to another on every
// database? Two inputs over one schema, or an optimizer's trace of the plan
// after every rule, each step checked against the one before it by the
// bounded search (verifier/bounded.h).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/catalog.h"
#include "ir/diagnostics.h"
#include "ir/plan.h"
#include "pipeline/session.h"
#include "verifier/bounded.h"

namespace rfguard {

/// One side of a comparison: the plan of one query, as given.
struct EquivSide {
  std::string file;      ///< the input it came from
  std::string name;      ///< the query's (or the trace step's rule) name
  PlanPtr plan;          ///< SQL as bound (never normalised); plan JSON and engine plans as given
  bool filters = false;  ///< it carries runtime filters (not part of the comparison)
  size_t importLosses = 0;         ///< an engine's plan: what its import could not carry over
  std::vector<std::string> notes;  ///< what the reader should know about this side
};

/// Loads the one query of `text` named `name` (any InputFormat) over `schema`:
/// a SQL file may declare its own tables instead, when `schema` has none. False
/// with located errors in `diags` when the input is bad or holds not exactly one
/// query. `declared` receives the catalog the side was bound over.
bool loadEquivSide(const std::string& text, const std::string& name, InputFormat format,
                   const Catalog& schema, EquivSide& out, Catalog& declared, Diagnostics& diags);
/// The same with SQL read as `dialect` reads it (ir/dialect.h).
bool loadEquivSide(const std::string& text, const std::string& name, InputFormat format,
                   const Catalog& schema, EquivSide& out, Catalog& declared, Diagnostics& diags,
                   Dialect dialect);

/// True when the two plans are over one schema: every table both read is
/// declared alike (columns, types, nullability). Otherwise false with the reason.
bool comparable(const PlanNode& original, const PlanNode& rewritten, std::string& why);

/// The outcome of one comparison.
struct EquivResult {
  /// "equivalent": no database up to the requested bound tells them apart;
  /// "different": a counterexample; "inconclusive": the search stopped below the
  /// requested bound (`bounded.limit` says why); "error": a plan cannot be evaluated.
  std::string verdict;
  /// Why, when no search was needed (output columns differ) or could be run.
  std::string reason;
  int requested = 0;       ///< the bound asked for
  BoundedVerdict bounded;  ///< the search's own account
  std::string sql;         ///< when different: the script sqlite3 runs as is
  double ms = 0;           ///< wall time of the search
  /// When equal on every database by the normal form (verifier/normal_form.h):
  /// the identities that made the plans' forms equal. No search ran then.
  std::string proof;
  /// When the plans differ only in some subtrees (changedSubtrees) and each pair
  /// was searched alone and found equivalent: those subtrees ("inner join #4,
  /// scan #9"). Equal subtrees make equal plans.
  std::string subtree;
};

/// The bound a result speaks for: the bound reached when equivalent or
/// inconclusive; when different, the counterexample's rows per table (the most
/// of any table but a LIMIT window's repeated row).
int reportedBound(const EquivResult& r);

/// Searches for a database on which `rewritten` returns another result than
/// `original` (bags; the order an ORDER BY fixes; any valid answer where a LIMIT
/// cuts ties). Runtime filters are not applied. Plans that return different
/// numbers of columns are "different" without a search; plans with the same
/// normal form are "equivalent" without one (unless `options.proofs` is off).
/// Plans that differ only in subtrees with the same output columns and no outer
/// references are first searched on those subtrees alone (`subtree`); when that
/// is not conclusive, the whole plans, then around the changed subtrees.
EquivResult checkRewrite(const PlanNode& original, const PlanNode& rewritten,
                         const BoundedOptions& options);

/// One step of an optimizer's trace: the plan after a rule.
struct TraceStep {
  std::string rule;   ///< the rule that produced it ("" for the first plan)
  std::string where;  ///< "trace.jsonl:3" or "trace.json /2": where the step is
  PlanPtr plan;
};

/// Reads a trace (docs/equiv.md): JSON Lines, or one JSON array, of
/// {"rule": NAME, "plan": PLAN DOCUMENT}. Every plan document holds one query;
/// a step without a catalog takes the first step's (or `schema`). False with
/// located errors when the trace is bad or empty. One plan alone is a trace
/// of no steps (no rule changed the plan).
bool readTrace(const std::string& text, const std::string& file, const Catalog& schema,
               std::vector<TraceStep>& steps, Diagnostics& diags);

/// rfguard's own normalisation of `bound` as a trace: the plan as bound, then the
/// plan after every rule that changed it (with `options`' rules switched off).
std::vector<TraceStep> normalisationTrace(const PlanNode& bound, NormalizeOptions options);
/// A trace as JSON Lines (docs/equiv.md): the first step carries the catalog.
std::string traceJsonLines(const Catalog& catalog, const Query& query,
                           const std::vector<TraceStep>& steps);

/// True when two plans are the same but for node ids and source positions:
/// such a step changes nothing a database could tell apart.
bool structurallyIdentical(const PlanNode& a, const PlanNode& b);

/// The verdict on one trace step.
struct TraceVerdict {
  size_t step = 0;         ///< index into the steps (>= 1)
  bool identical = false;  ///< structurally identical to the step before: not searched
  bool skipped = false;    ///< after the first unsound step: not checked
  /// result.subtree (kept for callers of the first release).
  std::string subtree;
  EquivResult result;
};

/// The smallest pairs of subtrees outside which `a` and `b` are structurally
/// identical (a rule's local changes): descending while a node is unchanged, into
/// each child that changed, and through a node changed only inside the plans of
/// its subquery expressions into each of those plans that changed; but not
/// below a node whose changed parts return other columns than before (such a
/// pair cannot be compared alone). {{&a, &b}} when the roots themselves differ.
std::vector<std::pair<const PlanNode*, const PlanNode*>> changedSubtrees(const PlanNode& a,
                                                                         const PlanNode& b);

/// Checks every step against the one before it (checkRewrite), up to the first
/// that is not equivalent (the steps after it are reported as skipped).
std::vector<TraceVerdict> checkTrace(const std::vector<TraceStep>& steps,
                                     const BoundedOptions& options);

}  // namespace rfguard
