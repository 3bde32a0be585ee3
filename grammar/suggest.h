#pragma once
// "Did you mean" for names the binder cannot resolve: the closest candidate
// by edit distance (case-insensitive), when it is close enough to be a typo.
#include <string>
#include <vector>

namespace rfguard {

/// `; did you mean "name"?` for the candidate nearest to `name` within an edit
/// distance of max(1, length / 3) and below its length (no one-letter guesses),
/// ties broken by the candidates' order; "" when none is that close.
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace rfguard
