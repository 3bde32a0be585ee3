// The finding code table. Codes are stable: never rename one, only add.
#include "verifier/findings.h"

#include <cassert>

namespace rfguard {

namespace {

constexpr Severity E = Severity::Error;
constexpr Severity W = Severity::Warning;

// clang-format off
const std::vector<FindingCode> kCodes = {
  // closure: is the placement well formed?
  {"duplicate-filter-id", E, "Two producers use the same filter id",
   "Consumers name their producer by id; with two producers of one id a scan cannot know whose domain it applies.",
   "Give every producer its own id."},
  {"unknown-filter", E, "A consumer names a filter id that no producer has",
   "The consumer would wait for a filter nobody builds, or apply a filter from nowhere.",
   "Remove the consumer or point it at the right producer."},
  {"producer-without-consumer", W, "A producer has no consumer",
   "Building the filter costs time and memory and filters nothing.",
   "Remove the producer, or place a consumer in its probe subtree."},
  {"consumer-not-at-scan", E, "A consumer sits at a node that is not a scan",
   "Filters are applied where rows are read; elsewhere the safety argument of each operator above the scan is not made.",
   "Move the consumer to the scan that produces the target's columns."},
  {"target-not-computable", E, "The consumer's target is not computable from its scan's columns",
   "A scan can only evaluate expressions over its own columns.",
   "Target an expression over the scan's own columns, or move the consumer to the scan that has them."},
  {"scan-rejects-filters", E, "The scanned table does not accept runtime filters",
   "The table is declared with runtime_filter = false.",
   "Remove the consumer."},
  {"unsuitable-target", E, "The target cannot be evaluated at the scan",
   "A non-deterministic target, or a function evaluated per row over a string column.",
   "Consume the filter higher up or not at all."},
  {"kind-unsuitable", E, "The filter kind does not suit the target's type",
   "MinMax needs an ordered type and never applies to DOUBLE/REAL; a <=> filter never applies to DOUBLE/REAL (NaN, -0.0); a bitset needs an integer key; a filter needs at least one kind.",
   "Use a Bloom or IN filter, or drop the filter."},
  {"null-flag-mismatch", E, "null_allowed does not match the comparison",
   "A filter from `<=>` must accept NULL when the build side has NULL, one from `=` never; a TopN threshold passes NULLs exactly when they sort first; an INTERSECT or EXCEPT matches a NULL with a NULL, so its filter must accept NULL where both inputs' columns may be NULL. A lost flag changes results.",
   "Set null_allowed from the comparison (or the sort key's NULLS FIRST/LAST)."},
  {"producer-under-or", E, "The producer's comparison is part of an OR",
   "A row failing one branch of a disjunction may still match through another: the branch proves nothing.",
   "Generate only from top-level AND conjuncts."},
  {"producer-not-conjunct", E, "The producer's comparison is not a conjunct of its join condition",
   "The filter's probe and build expressions must be the two sides of a conjunct the join evaluates.",
   "Build the filter from a conjunct of the join's condition."},
  {"producer-join-type", E, "The producer's join type may not generate a filter for its probe side",
   "LEFT and FULL joins output unmatched probe rows NULL-extended; LEFT ANTI and NOT IN output exactly the unmatched probe rows; a cross join has no condition.",
   "Remove the producer; only INNER, LEFT SEMI, RIGHT OUTER, RIGHT SEMI and RIGHT ANTI joins filter their probe side."},
  {"producer-ineligible", E, "The conjunct cannot produce a filter",
   "The two sides do not compare, a <=> key is floating point, or a range comparison on floating-point keys has a build side of more than one row (over ordered keys a range filter is a min/max bound of the build side, sound over any number of rows).",
   "Remove the producer."},
  {"set-op-producer-ineligible", E, "A set operation's filter is not one its inputs allow",
   "An INTERSECT keeps a row of an input only where every other input has it, and an EXCEPT keeps a row of its first input only where no other input has it, comparing rows position by position. So another input's rows whose value at one position the first input lacks change nothing, and a filter of the first input's values at that position may drop them (Doris's RuntimeFilterV2; for INTERSECT, any input's values into any other). A UNION keeps every row of each input, an EXCEPT's first input holds its result, and columns at different positions are never compared.",
   "Build the filter from a column of an INTERSECT's or EXCEPT's first input and consume it in another input, at the column of the same position."},
  {"topn-producer-mismatch", E, "A TopN filter does not match its LIMIT's ORDER BY",
   "A TopN threshold is the first sort key of ORDER BY ... LIMIT n, compared in the sort direction.",
   "Derive the filter from the first sort key and its direction."},
  {"local-filter-partial-build", E, "A local filter's workers may not hold every build row their probe rows match",
   "A local filter is built from one worker's build rows. Unless the build side is broadcast or both sides are colocated by the join key, a probe row scanned on one worker is joined with build rows of another, which that worker's filter lacks. An error when the plan says the join is a shuffle; a warning when the plan does not say how the join is distributed.",
   "Make the filter global, or broadcast or colocate the join (and say so: \"distribution\" on the join in plan JSON)."},
  {"consumer-in-build-side", E, "A consumer sits in its producer's build subtree",
   "The build waits for the filter and the filter waits for the build: a deadlock.",
   "Consume the filter only in the probe subtree."},
  {"consumer-outside-probe-side", E, "A consumer sits outside its producer's probe subtree",
   "A filter summarises the join's build keys; rows elsewhere in the plan are not compared with them, unless an equality of a join above carries those keys to them (CopySideways).",
   "Consume the filter in the producer's probe subtree, or beside it only under a join above whose equality on the producer's key drops the other side's unmatched rows."},
  {"filter-wait-cycle", W, "Filters wait on each other in a cycle",
   "A filter's build waits on a filter whose build waits on the first. Engines wait for a filter only up to a time limit (Doris's runtime_filter_wait_time_ms, 1 s by default) and then scan without it: no wrong result, but each scan of the cycle waits the full limit and runs unfiltered; an engine told to wait without limit (Doris's runtime_filter_wait_infinitely) never completes. A non-blocking filter (plan JSON non_blocking, as Doris makes one of a decoupled filter and its condition's own) is waited on by nobody and breaks the cycle. A scheduling finding, so a warning.",
   "Remove one consumer of the cycle."},
  // safety: is there a derivation that every step justifies?
  {"unsafe-null-generating-side", E, "The filter entered a NULL-generating side unsafely",
   "Removing a row there turns a match into a NULL-extended row; unless the expression is NULL on that row and the filter rejects NULL, the new row can reach the output.",
   "Stop the filter at the outer join, or use a NULL-propagating expression and a filter that is not null-allowing."},
  {"unsafe-equality-copy", E, "The filter was copied across a join equality unsafely",
   "Copying from the NULL-generating side of an outer join to its preserved side is safe only for a NULL-propagating key and a filter that rejects NULL.",
   "Copy only from the preserved side, or only for `=` filters over NULL-propagating keys."},
  {"into-null-aware-anti-build", E, "The filter crossed into the filtering side of a NOT IN join",
   "Removing a NULL row from the NOT IN subquery, or letting it empty under a `<=>` producer, lets probe rows through that it rejected.",
   "Copy into a NOT IN list only an `=` filter that accepts NULL keys (accept_null)."},
  {"crossed-limit", E, "The filter crossed a LIMIT or OFFSET",
   "Filtering below a limit changes which rows the limit picks, so rows the filter would never reject can appear.",
   "Consume the filter above the limit."},
  {"crossed-unordered-limit", W, "The filter crossed a LIMIT without ORDER BY",
   "The query allows any rows up to the limit; the filtered run returns one of those answers, but not necessarily the one the unfiltered run returns. Sound only under that nondeterminism.",
   "Accept it (the result is one the query allows), or consume the filter above the limit when runs must agree."},
  {"crossed-aggregate", E, "The filter crossed an aggregate on a non-key expression",
   "Only group keys present in every grouping set identify whole groups; anything else changes the aggregates.",
   "Pass only filters over group keys."},
  {"crossed-window", E, "The filter crossed a window on a non-partition expression",
   "Removing rows of other partitions changes ranks and running aggregates.",
   "Pass only filters over the PARTITION BY keys of every window."},
  {"into-except-right", E, "The filter entered the right input of EXCEPT with a key that equal rows may not share",
   "A right row the filter removes may let through a left row EXCEPT holds equal to it but whose key differs (-0.0 and 0.0 as text).",
   "Key the filter on a column, or push only into EXCEPT's left input."},
  {"into-subquery", E, "The filter entered a subquery plan away from a correlation on its key",
   "A subquery's rows decide its value (EXISTS, IN, count(*)) for each row of the node that holds it; removing them changes that value unless a correlation conjunct on the filter's key already rejects them.",
   "Consume the filter outside the subquery, or below a correlation conjunct that compares the filter's key."},
  {"crossed-nondeterministic-projection", E, "The filter crossed a non-deterministic projection",
   "The value below is not the value the join compares.",
   "Consume the filter above the projection."},
  {"target-not-derivable", E, "The target is not derivable from the producer's probe expression",
   "No chain of lineage steps and join-equality copies leads from the probe expression to this target at this scan, so the filter removes rows the join would keep.",
   "Target the probe expression as it reaches the scan."},
  {"topn-target-changed", E, "Retired: a TopN threshold reaches its scan as a changed expression",
   "No longer reported. A threshold that arrives as the sort key's definition compares the very values the sort compares, so the placement is safe; any other target is target-not-derivable.",
   "Nothing to fix; delete suppressions that name this code."},
  // housekeeping: lint's own suppressions
  {"unused-suppression", W, "A suppression suppresses nothing",
   "An rfguard-disable comment or a plan's suppress entry that matches no finding hides nothing today and would hide a new finding of that code tomorrow; one that names no code, or is malformed (a comment starting with rfguard- that is none of the three forms), is a typo.",
   "Delete the suppression, or correct the code it names."},
};
// clang-format on

}  // namespace

const char* severityName(Severity s) {
  return s == Severity::Error ? "error" : "warning";
}

const std::vector<FindingCode>& findingCodes() {
  return kCodes;
}

bool isFindingCode(std::string_view id) {
  for (const auto& c : kCodes)
    if (id == c.id) return true;
  return false;
}

const FindingCode& findingCode(std::string_view id) {
  for (const auto& c : kCodes)
    if (id == c.id) return c;
  assert(false && "unknown finding code");
  return kCodes.front();
}

Finding makeFinding(std::string_view code, std::string message, int filter, std::vector<int> nodes,
                    SourceLoc loc) {
  const FindingCode& c = findingCode(code);
  return Finding{c.id, c.severity, std::move(message), filter, std::move(nodes), loc};
}

}  // namespace rfguard
