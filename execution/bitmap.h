#pragma once
// A fixed-size bitmap stored as 64-bit words: the digest a build shard sends
// and the filter a coordinator publishes (docs/design.md section 7).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rfguard::rt {

/// m bits, all zero at first.
class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(uint64_t m) : m_(m), words_((m + 63) / 64, 0) {}

  uint64_t size() const { return m_; }
  void set(uint64_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  bool test(uint64_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  /// this |= other; both must have the same size. O(m / 64) word operations.
  void orWith(const Bitmap& other);
  /// this &= other (only the wrong strategies use it).
  void andWith(const Bitmap& other);
  /// The positions of the set bits, ascending.
  std::vector<uint64_t> setBits() const;
  /// Bytes of bit storage.
  uint64_t bytes() const { return words_.size() * sizeof(uint64_t); }
  const std::vector<uint64_t>& words() const { return words_; }
  std::vector<uint64_t>& words() { return words_; }
  bool operator==(const Bitmap& o) const { return m_ == o.m_ && words_ == o.words_; }

 private:
  uint64_t m_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace rfguard::rt
