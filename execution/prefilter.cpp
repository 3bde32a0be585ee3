#include "execution/prefilter.h"

#include <unordered_map>

namespace rfguard::rt {

std::vector<size_t> prefilter(const Publication& pub, const HashConfig& config,
                              const std::vector<Key>& probe, bool nullSafe) {
  std::vector<size_t> kept;
  for (size_t i = 0; i < probe.size(); ++i) {
    const Key& k = probe[i];
    bool keep = true;  // fail open: no publication to apply, or a key the mapping cannot hash
    if (hasNull(k))
      keep = nullSafe && (pub.state != PubState::Ready || pub.values.null);
    else if (pub.state != PubState::Ready)
      keep = true;
    else if (pub.kind == Kind::Bloom)
      keep = !mappable(config, k) || bloomMayContain(pub.bits, config, k);
    else
      keep = pub.values.mayContain(pub.kind, k);
    if (keep) kept.push_back(i);
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
