#pragma once
// The random generators' one source of choices (the verifier's random
// queries, an engine's differential queries): the same seed draws the same
// queries everywhere.
#include <cstdint>
#include <random>

namespace rfguard {

/// A draw from 0 .. n - 1.
inline int randomBelow(std::mt19937_64& rng, int n) {
  return static_cast<int>(rng() % static_cast<uint64_t>(n));
}

}  // namespace rfguard
