#include "grammar/suggest.h"

#include <algorithm>
#include <cctype>

#include "ir/ascii.h"

namespace rfguard {

namespace {

std::string lower(std::string s) {
  asciiLowerInPlace(s);
  return s;
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  // Identifiers are short; a name far longer than any candidate is no typo of one.
  if (name.empty() || name.size() > 128) return "";
  const std::string want = lower(name);
  const size_t limit = std::max<size_t>(1, want.size() / 3);
  const std::string* best = nullptr;
  size_t bestDistance = limit + 1;
  for (const auto& c : candidates) {
    if (c.size() > want.size() + limit || c.size() + limit < want.size()) continue;
    const size_t d = distance(want, lower(c));
    // Replacing every character is no typo ("x" for "k").
    if (d < bestDistance && d < want.size()) bestDistance = d, best = &c;
  }
  return best ? "; did you mean \"" + *best + "\"?" : "";
}

}  // namespace rfguard
