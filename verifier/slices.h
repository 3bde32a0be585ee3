#pragma once
// Internal to verifier/: per-filter slices, the compositional reduction of the
// bounded search (docs/design.md section 6, docs/check.md).
//
// The slice of filter f is the subtree of its producer join in which only the
// paths from the producer to f's consumers stay; every other child of a node
// on those paths becomes a free table with the child's output columns (a
// Project over a scan of table "sub<id>", id the child's node id). A free
// table can hold any bag, so "the slice returns the same rows with f as
// without, for all inputs" implies it for the inputs the plan really feeds in.
// Consumers lift above the nodes they commute with (a filter, an inner join with
// its condition kept as a Filter, a semi or anti join whose other side's targets
// the output side's imply), leaving one free table below; the columns the kept
// conditions equate are one column of it (docs/check.md, "Per-filter slices").
//
// Why per-filter checks compose: remove the filters one at a time, each one
// that no remaining filter's content depends on (h depends on f when one of
// f's consumers is in h's build side). Such an order exists among the filters
// a run applies: a filter is applied only once its content is complete, so
// of filters that wait on each other in a cycle one is not applied (it is
// non-blocking, or its wait timed out). A filter consumed sideways, beside
// its producer (CopySideways), has the join above whose other side it filters
// as its slice's root: all it changes is below that join. The remaining filters then have the same
// contents with f as without, and act on f's slice either inside free tables
// (a different free bag) or at a scan on f's paths; the latter is a smaller
// table only when no other scan on the paths reads the same table, which
// filterSlices() requires.
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

struct Slice {
  int filter = 0;
  PlanPtr plan;
};

/// One slice per runtime filter of the plan, in filter-id order. Returns an
/// empty list with `why` set when the plan does not decompose (an endpoint in
/// a subquery, a producer with outer references, or another filter consuming
/// on a path at a node that is not a scan of a table of its own).
/// `dropJoins`: each slice without the free joins dropFreeJoins finds.
std::vector<Slice> filterSlices(const PlanNode& root, std::string& why, bool dropJoins = true);

/// True for the scan of a free table (a table "sub<id>" the slice made).
bool isFreeTableScan(const PlanNode& n);

/// True when Project `project` outputs `column` as it is.
bool passesUnchanged(const PlanNode& project, const std::string& column);

/// Drops each inner or cross join of a path node with a free table that the
/// slice's verdict does not depend on: every ancestor keeps or drops the path's
/// rows one by one, none reads the free table's columns, and the columns the
/// join's condition reads on the path reach the slice's output unchanged
/// (slice_joins.cpp has the argument). Returns the number of joins dropped.
int dropFreeJoins(PlanPtr& slice);

/// Replaces each group of conjuncts over one scan's columns, which the slice reads
/// nowhere else, by a boolean column of that scan (slice_predicates.cpp). Returns
/// the number of columns made.
int abstractPredicates(PlanNode& slice);

}  // namespace rfguard
