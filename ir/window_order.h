#pragma once
// Which window functions depend on the order SQL leaves open among peers (rows
// their ORDER BY ties): one home for the fact the evaluator (its tie cuts) and
// the solver's encoding (its tie-break priorities) both act on.
#include "ir/plan.h"

namespace rfguard {

/// True when the values of `wc` depend on the order of its peers: row_number,
/// and an aggregate over a ROWS frame other than the whole partition. rank,
/// dense_rank and RANGE frames give peers one value.
bool dependsOnPeerOrder(const WindowCall& wc);

}  // namespace rfguard
