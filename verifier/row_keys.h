#pragma once
// Internal to verifier/: the column sets of a plan node's result that no two
// of its rows agree on, NULLs equal to NULLs (as DISTINCT compares rows): what
// the integrity constraints and the operators above the scans guarantee on
// every database that satisfies the constraints.
#include <set>
#include <string>
#include <vector>

#include "ir/plan.h"

namespace rfguard {

using RowKey = std::set<std::string>;  ///< output column ids

/// Keys of `n`'s output, over its output ids:
///  - a scan: its PRIMARY KEY, and each UNIQUE key whose columns are NOT NULL
///    (UNIQUE lets many rows hold NULL, which DISTINCT takes as equal), when
///    the scan outputs every column of it;
///  - a filter: its input's, and a UNIQUE key over nullable columns each of
///    which a conjunct rejects NULL in (`k IS NOT NULL`, `k > 0`);
///  - a sort, a LIMIT, a semi or anti join: their input's (a subset of its rows);
///  - a projection: its input's keys projected as plain columns, renamed;
///  - an aggregate with one grouping set: its group keys (the empty set when
///    there are none: at most one row);
///  - an inner join: a key of each side together; and a side's keys when the
///    condition equates a key of the other side with its columns (each of its
///    rows meets at most one row), as for the preserved side of a LEFT or
///    RIGHT join;
///  - anything else: none known.
std::vector<RowKey> rowKeys(const PlanNode& n);

/// True when `n`'s output has a key (rowKeys) within `columns`.
bool hasRowKeyWithin(const PlanNode& n, const std::set<std::string>& columns);

}  // namespace rfguard
