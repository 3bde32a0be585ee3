#include "execution/bloom.h"

#include <xxhash.h>

#include <cassert>
#include <cmath>
#include <cstring>

namespace rfguard::rt {

namespace {

// The salts of the split-block Bloom filter (Parquet format specification).
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

uint64_t mod(int64_t x, uint64_t m) {
  int64_t r = x % static_cast<int64_t>(m);
  return static_cast<uint64_t>(r < 0 ? r + static_cast<int64_t>(m) : r);
}

}  // namespace

const char* mappingName(Mapping m) {
  return m == Mapping::DemoLinear ? "demo-linear" : "split-block";
}

std::optional<Mapping> parseMapping(std::string_view name) {
  if (name == "demo-linear") return Mapping::DemoLinear;
  if (name == "split-block") return Mapping::SplitBlock;
  return std::nullopt;
}

std::string checkConfig(const HashConfig& c) {
  if (c.m == 0) return "m must be positive";
  if (c.mapping == Mapping::DemoLinear && (c.k < 1 || c.k > 2))
    return "demo-linear has two mappings: k must be 1 or 2";
  if (c.mapping == Mapping::SplitBlock && (c.m % 256 != 0 || c.k != 8))
    return "split-block needs m a multiple of 256 and k = 8";
  return "";
}

bool mappable(const HashConfig& c, KeyView key) {
  if (c.mapping == Mapping::SplitBlock) return true;
  return key.size() == 1 && std::holds_alternative<int64_t>(key[0]);
}

namespace {

/// The 64-bit hash of a key: xxHash64 of its canonical encoding (a single
/// integer key is encoded on the stack, without allocating).
uint64_t keyHash(KeyView key, uint64_t seed) {
  if (key.size() == 1)
    if (auto i = std::get_if<int64_t>(&key[0])) {
      char buf[1 + sizeof(int64_t)];
      buf[0] = static_cast<char>(key[0].index());
      std::memcpy(buf + 1, i, sizeof *i);
      return XXH64(buf, sizeof buf, seed);
    }
  std::string bytes = encode(key);
  return XXH64(bytes.data(), bytes.size(), seed);
}

/// Calls f(position) for each of the key's bits; stops early when f returns false.
template <typename F>
bool eachPosition(const HashConfig& c, KeyView key, F&& f) {
  if (c.mapping == Mapping::DemoLinear) {
    int64_t x = std::get<int64_t>(key[0]);
    if (!f(mod(x, c.m))) return false;
    return c.k < 2 || f(mod(static_cast<int64_t>(5 * static_cast<uint64_t>(x) + 1), c.m));
  }
  uint64_t h = keyHash(key, c.seed);
  uint64_t block = ((h >> 32) * (c.m / 256)) >> 32;
  auto low = static_cast<uint32_t>(h);
  for (int i = 0; i < 8; ++i)
    if (!f(block * 256 + static_cast<uint64_t>(i) * 32 + ((low * kSalt[i]) >> 27))) return false;
  return true;
}

}  // namespace

std::vector<uint64_t> positions(const HashConfig& c, KeyView key) {
  assert(mappable(c, key));
  std::vector<uint64_t> out;
  eachPosition(c, key, [&](uint64_t p) {
    out.push_back(p);
    return true;
  });
  return out;
}

int positionsInto(const HashConfig& c, KeyView key, uint64_t* out) {
  int n = 0;
  eachPosition(c, key, [&](uint64_t p) {
    out[n++] = p;
    return true;
  });
  return n;
}

void bloomInsert(Bitmap& bits, const HashConfig& c, KeyView key) {
  eachPosition(c, key, [&](uint64_t p) {
    bits.set(p);
    return true;
  });
}

bool bloomMayContain(const Bitmap& bits, const HashConfig& c, KeyView key) {
  return eachPosition(c, key, [&](uint64_t p) { return bits.test(p); });
}

HashConfig splitBlockFor(uint64_t keys, double fpp, uint64_t seed) {
  double bits = -8.0 * static_cast<double>(std::max<uint64_t>(keys, 1)) /
                std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  uint64_t blocks = 1;
  while (static_cast<double>(blocks * 256) < bits) blocks *= 2;
  return HashConfig{blocks * 256, 8, Mapping::SplitBlock, seed};
}

}  // namespace rfguard::rt
