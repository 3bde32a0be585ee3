#pragma once
// Applying a published filter to probe keys, and the exact hash join that
// follows it: the filter only removes rows early, it never replaces the join.
#include <cstdint>
#include <vector>

#include "execution/bloom.h"
#include "execution/collector.h"
#include "execution/key.h"

namespace rfguard::rt {

/// The indexes of the probe keys a publication keeps, in input order. A key
/// with a NULL never matches under `=` and is dropped whatever the state; under
/// `<=>` (`nullSafe`) READY keeps it when a build key had a NULL (the flag).
/// TOP (and COLLECTING, FAILED: nothing to apply) keeps every other key; READY
/// keeps the keys whose bits are all set (Bloom), that are in the set (In) or
/// within the range (MinMax).
std::vector<size_t> prefilter(const Publication& pub, const HashConfig& config,
                              const std::vector<Key>& probe, bool nullSafe = false);

/// Pairs of the exact equi-join of two bags of keys (`=`: NULL matches nothing;
/// `nullSafe`: `<=>`, NULL matches NULL). Four build rows and two probe rows of
/// key 7 give 8 pairs.
uint64_t exactJoinPairs(const std::vector<Key>& build, const std::vector<Key>& probe,
                        bool nullSafe = false);

}  // namespace rfguard::rt
