#include "execution/prefilter.h"

#include <unordered_map>

namespace rfguard::rt {

std::vector<size_t> prefilter(const Publication& pub, const HashConfig& config,
                              const std::vector<Key>& probe) {
  std::vector<size_t> kept;
  for (size_t i = 0; i < probe.size(); ++i) {
    const Key& k = probe[i];
    if (hasNull(k)) continue;
    // Fail open: no publication to apply, or a key the mapping cannot hash.
    if (pub.state != PubState::Ready || !mappable(config, k) ||
        bloomMayContain(pub.bits, config, k))
      kept.push_back(i);
  }
  return kept;
}

uint64_t exactJoinPairs(const std::vector<Key>& build, const std::vector<Key>& probe,
                        bool nullSafe) {
  std::unordered_map<std::string, uint64_t> counts;
  for (const auto& k : build)
    if (nullSafe || !hasNull(k)) ++counts[encode(k)];
  uint64_t pairs = 0;
  for (const auto& k : probe) {
    if (!nullSafe && hasNull(k)) continue;
    auto it = counts.find(encode(k));
    if (it != counts.end()) pairs += it->second;
  }
  return pairs;
}

}  // namespace rfguard::rt
