#include "execution/model_check.h"

#include <algorithm>
#include <map>

#include "execution/collector.h"

namespace rfguard::rt {

namespace {

// Item ids; equal ids are identical messages (a duplicate), so next_permutation
// enumerates each distinct order once.
constexpr int kStale = 100, kConfig = 101, kConflict = 102, kTimeout = 103;

}  // namespace

ModelCheckResult modelCheck(int shards, bool withConflict, bool withTimeout) {
  const HashConfig config{16, 2, Mapping::DemoLinear, 0};
  const ExecutionId exec{"q", 2, 7, "J"};
  std::set<std::string> expected;
  std::vector<Bitmap> content;
  for (int s = 0; s < shards; ++s) {
    expected.insert("B" + std::to_string(s));
    Bitmap b(config.m);
    bloomInsert(b, config, intKey(3 * s + 1));
    content.push_back(b);
  }
  Bitmap other(config.m);
  bloomInsert(other, config, intKey(12));  // differs from every shard's content
  std::vector<int> items;
  for (int s = 0; s < shards; ++s) items.push_back(s);
  items.push_back(0);  // a duplicate of B0
  items.push_back(kStale);
  items.push_back(kConfig);
  if (withConflict) items.push_back(kConflict);
  if (withTimeout) items.push_back(kTimeout);
  std::sort(items.begin(), items.end());

  ModelCheckResult r;
  auto fail = [&](const std::vector<int>& order, size_t step, const std::string& what) {
    if (r.failures.size() >= 5) return;
    std::string o;
    for (int x : order) o += std::to_string(x) + " ";
    r.failures.push_back("order [" + o + "] step " + std::to_string(step) + ": " + what);
  };
  do {
    ++r.orders;
    ShardCollector c(exec, config, expected);
    std::map<std::string, Bitmap> first;  // the first valid digest per shard
    bool conflicted = false, topped = false, failed = false;
    for (size_t i = 0; i < items.size(); ++i) {
      const int it = items[i];
      PubState before = c.published()->state;
      bool ignoredMsg = false;
      if (it == kTimeout) {
        c.timeout();
      } else {
        Digest d{exec, "B0", config, content[0], Kind::Bloom, {}};
        if (it < kStale) {
          d.shard = "B" + std::to_string(it);
          d.bits = content[static_cast<size_t>(it)];
        } else if (it == kStale) {
          d.exec.epoch = 1;
          ignoredMsg = true;
        } else if (it == kConfig) {
          d.config.m = 32;
          d.bits = Bitmap(32);
          ignoredMsg = true;
        } else if (it == kConflict) {
          d.bits = other;
        }
        ++r.steps;
        c.offer(d);
        if (!ignoredMsg) {
          auto f = first.find(d.shard);
          if (f == first.end())
            first.emplace(d.shard, d.bits);
          else if (!(f->second == d.bits))
            conflicted = true;
        }
      }
      PubState now = c.published()->state;
      if (ignoredMsg && now != before) fail(items, i, "an ignored digest changed the state");
      if (now == PubState::Ready) {
        if (first.size() != expected.size()) fail(items, i, "READY before every shard arrived");
        Bitmap all(config.m);
        for (const auto& [s, b] : first) all.orWith(b);
        if (!(c.published()->bits == all)) fail(items, i, "READY without the full OR");
      }
      if (topped && now != PubState::Top && now != PubState::Failed)
        fail(items, i, "TOP did not stay");
      if (failed && now != PubState::Failed) fail(items, i, "FAILED did not stay");
      if (conflicted && now != PubState::Failed) fail(items, i, "a conflict did not fail");
      if (!conflicted && now == PubState::Failed) fail(items, i, "FAILED without a conflict");
      topped = topped || now == PubState::Top;
      failed = failed || now == PubState::Failed;
    }
  } while (std::next_permutation(items.begin(), items.end()));
  return r;
}

}  // namespace rfguard::rt
