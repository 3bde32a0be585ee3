#pragma once
// The median of a tool's timings (its figures are medians, never means).
#include <algorithm>
#include <vector>

namespace rfguard {

/// The median of `v` (the mean of the middle two for an even count); 0 when empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace rfguard
