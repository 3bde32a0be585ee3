#pragma once
// The values a column of an integer-valued type holds: one home for the bounds
// the search's domains and the solver's encoding both keep to.
#include <cstdint>
#include <utility>

#include "ir/types.h"

namespace rfguard {

/// [lowest, highest] for BOOLEAN (0, 1), TINYINT, SMALLINT, INT, DATE (day
/// numbers, as INT holds them); BIGINT and every other type: the int64 range.
std::pair<int64_t, int64_t> integerRange(const Type& t);

}  // namespace rfguard
