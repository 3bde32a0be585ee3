#pragma once
// Bloom filter mappings over Bitmap storage. Two versions:
//  - demo-linear: h1(x) = x mod m, h2(x) = (5x + 1) mod m, for the worked
//    example of docs/design.md section 7 (single integer keys, k = 1 or 2);
//  - split-block: 256-bit blocks of eight 32-bit words, one bit set per word,
//    xxHash64 of the key's canonical encoding (the layout Parquet, Impala and
//    Kudu use), sized from the expected key count and false-positive rate.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "execution/bitmap.h"
#include "execution/key.h"

namespace rfguard::rt {

enum class Mapping { DemoLinear, SplitBlock };

/// "demo-linear" or "split-block".
const char* mappingName(Mapping m);
std::optional<Mapping> parseMapping(std::string_view name);

/// The hash configuration every shard of one filter must share.
struct HashConfig {
  uint64_t m = 0;  ///< bits
  int k = 2;       ///< mappings per key (split-block: always 8)
  Mapping mapping = Mapping::DemoLinear;
  uint64_t seed = 0;  ///< split-block only
  bool operator==(const HashConfig& o) const {
    return m == o.m && k == o.k && mapping == o.mapping && seed == o.seed;
  }
  bool operator!=(const HashConfig& o) const { return !(*this == o); }
};

/// Why a config or key cannot be used, or "" when it can.
std::string checkConfig(const HashConfig& c);
/// Whether `key` can be mapped (demo-linear: one non-NULL integer column).
bool mappable(const HashConfig& c, KeyView key);
/// The bit positions of `key` (mappable) under `c`.
std::vector<uint64_t> positions(const HashConfig& c, KeyView key);
/// The same into `out` (room for 8), without allocating; returns how many.
int positionsInto(const HashConfig& c, KeyView key, uint64_t* out);
/// Sets the key's bits.
void bloomInsert(Bitmap& bits, const HashConfig& c, KeyView key);
/// True when all the key's bits are set (a false positive is possible).
bool bloomMayContain(const Bitmap& bits, const HashConfig& c, KeyView key);
/// A split-block configuration for `keys` expected keys at false-positive rate
/// `fpp`: m = -8 n / ln(1 - fpp^(1/8)) bits, rounded up to a power-of-two
/// number of 256-bit blocks.
HashConfig splitBlockFor(uint64_t keys, double fpp, uint64_t seed = 0);

}  // namespace rfguard::rt
