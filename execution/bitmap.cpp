#include "execution/bitmap.h"

#include <cassert>

namespace rfguard::rt {

void Bitmap::orWith(const Bitmap& o) {
  assert(o.m_ == m_);
  for (size_t i = 0; i < words_.size(); ++i) words_[i] |= o.words_[i];
}

void Bitmap::andWith(const Bitmap& o) {
  assert(o.m_ == m_);
  for (size_t i = 0; i < words_.size(); ++i) words_[i] &= o.words_[i];
}

std::vector<uint64_t> Bitmap::setBits() const {
  std::vector<uint64_t> out;
  for (size_t w = 0; w < words_.size(); ++w)
    for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
      out.push_back(w * 64 + static_cast<uint64_t>(__builtin_ctzll(bits)));
  return out;
}

}  // namespace rfguard::rt
