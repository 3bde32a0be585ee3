#include "testgen/shrink.h"

#include <algorithm>
#include <cassert>

namespace rfguard {

KeptRows KeptRows::all(long long total) {
  KeptRows k;
  k.total = total;
  if (total > 0) k.ranges.push_back({0, total});
  return k;
}

long long KeptRows::count() const {
  long long n = 0;
  for (const auto& [lo, hi] : ranges) n += hi - lo;
  return n;
}

KeptRows KeptRows::without(long long from, long long to) const {
  KeptRows out;
  out.total = total;
  long long pos = 0;  // position among the kept rows of each range's first row
  for (const auto& [lo, hi] : ranges) {
    const long long n = hi - lo;
    // The part of [lo, hi) whose positions fall outside [from, to).
    const long long cutLo = std::clamp(from - pos, 0LL, n), cutHi = std::clamp(to - pos, 0LL, n);
    if (cutLo >= cutHi) {
      out.ranges.push_back({lo, hi});
    } else {
      if (cutLo > 0) out.ranges.push_back({lo, lo + cutLo});
      if (cutHi < n) out.ranges.push_back({lo + cutHi, hi});
    }
    pos += n;
  }
  assert(out.count() == count() - std::max(0LL, std::min(to, count()) - std::max(from, 0LL)));
  return out;
}

std::string KeptRows::condition(const std::string& column) const {
  if (ranges.empty()) return "false";
  if (ranges.size() == 1 && ranges[0].first == 0 && ranges[0].second >= total) return "true";
  std::string out;
  for (const auto& [lo, hi] : ranges) {
    if (!out.empty()) out += " OR ";
    out += hi - lo == 1 ? column + " = " + std::to_string(lo)
                        : "(" + column + " >= " + std::to_string(lo) + " AND " + column + " < " +
                              std::to_string(hi) + ")";
  }
  return out;
}

std::string keepRowsSql(int table, const KeptRows& kept) {
  const std::string t = "t" + std::to_string(table);
  return "CREATE OR REPLACE TABLE " + t + " AS SELECT k, v FROM " + t + "_all WHERE " +
         kept.condition("i") + " ORDER BY i";
}

std::string deleteOtherRowsSql(int table, const KeptRows& kept) {
  return "DELETE FROM t" + std::to_string(table) + " WHERE NOT (" + kept.condition("rowid") + ")";
}

DiffQuery shrinkDiffQuery(DiffQuery q, const std::function<bool(const DiffQuery&)>& reproduces,
                          int& budget) {
  for (bool progress = true; progress && budget > 0;) {
    progress = false;
    for (const auto& candidate : diffQuerySimplifications(q)) {
      if (budget <= 0) break;
      --budget;
      if (reproduces(candidate)) {
        q = candidate;
        progress = true;
        break;
      }
    }
  }
  return q;
}

KeptRows shrinkRows(KeptRows kept, const std::function<bool(const KeptRows&)>& reproduces,
                    int& budget, long long smallestChunk) {
  smallestChunk = std::max(1LL, smallestChunk);
  for (long long chunk = (kept.count() + 1) / 2; chunk >= smallestChunk && budget > 0;) {
    bool removed = false;
    for (long long start = 0; start < kept.count() && budget > 0;) {
      KeptRows candidate = kept.without(start, std::min(start + chunk, kept.count()));
      --budget;
      if (reproduces(candidate)) {
        kept = std::move(candidate);
        removed = true;
      } else {
        start += chunk;
      }
    }
    if (!removed) chunk /= 2;
    chunk = std::min(chunk, (kept.count() + 1) / 2);
  }
  return kept;
}

}  // namespace rfguard
