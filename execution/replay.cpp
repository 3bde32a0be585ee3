#include "execution/replay.h"

#include "execution/prefilter.h"

namespace rfguard::rt {

namespace {

const std::vector<Strategy> kStrategies = {
    Strategy::Correct,   Strategy::PartialOr,      Strategy::And,        Strategy::StaleEpochCounts,
    Strategy::TopAsZero, Strategy::MissingAsEmpty, Strategy::NullUnaware};
constexpr const char* kNames[] = {
    "correct",     "partial-or",       "and",         "stale-epoch-counts",
    "top-as-zero", "missing-as-empty", "null-unaware"};

Policy policyFor(Strategy s) {
  Policy p;
  p.publishOnFirst = s == Strategy::PartialOr;
  p.andInsteadOfOr = s == Strategy::And;
  p.staleEpochCounts = s == Strategy::StaleEpochCounts;
  p.topAsZero = s == Strategy::TopAsZero;
  p.missingAsEmpty = s == Strategy::MissingAsEmpty;
  return p;
}

}  // namespace

const char* strategyName(Strategy s) {
  return kNames[static_cast<int>(s)];
}

std::optional<Strategy> parseStrategy(std::string_view name) {
  for (Strategy s : kStrategies)
    if (name == strategyName(s)) return s;
  return std::nullopt;
}

const std::vector<Strategy>& allStrategies() {
  return kStrategies;
}

Digest digestFor(const Scenario& s, const ScenarioMessage& msg, bool nullUnaware) {
  Digest d;
  d.exec = s.exec;
  if (msg.query) d.exec.query = *msg.query;
  if (msg.epoch) d.exec.epoch = *msg.epoch;
  if (msg.snapshot) d.exec.snapshot = *msg.snapshot;
  if (msg.join) d.exec.join = *msg.join;
  d.shard = msg.shard;
  d.config = s.hash;
  if (msg.m) d.config.m = *msg.m;
  if (msg.mapping) d.config.mapping = *msg.mapping;
  d.kind = s.kind;
  d.bits = Bitmap(s.kind == Kind::Bloom ? d.config.m : 0);
  if (msg.bits) {
    for (uint64_t b : *msg.bits) d.bits.set(b);
    return d;
  }
  const std::vector<std::optional<int64_t>>* keys = msg.keys ? &*msg.keys : nullptr;
  auto it = s.shards.find(msg.shard);
  if (!keys && it != s.shards.end()) keys = &it->second;
  if (!keys) return d;
  for (const auto& k : *keys) {
    // NULL never matches under `=`; under `<=>` it sets the digest's NULL flag,
    // unless the shard is null-unaware (builds as for `=`).
    if (!k && !(s.nullSafe && !nullUnaware)) continue;
    if (k && s.kind == Kind::Bloom) bloomInsert(d.bits, d.config, intKey(*k));
    d.values.add(s.kind, intKey(k));
  }
  return d;
}

ReplayResult replay(const Scenario& s, Strategy strategy) {
  std::set<std::string> expected;
  for (const auto& [name, keys] : s.shards) expected.insert(name);
  const bool nullUnaware = strategy == Strategy::NullUnaware;
  ShardCollector c(s.exec, s.hash, expected, policyFor(strategy), s.kind);
  ReplayResult r;
  PubState last = c.published()->state;
  if (last != PubState::Collecting) r.transitions.push_back({0, "start", last});
  auto note = [&](size_t after, const std::string& event) {
    PubState now = c.published()->state;
    if (now != last) r.transitions.push_back({after, event, now});
    last = now;
  };
  for (size_t i = 0; i <= s.messages.size(); ++i) {
    if (s.timeoutAfter && *s.timeoutAfter == i) {
      c.timeout();
      note(i, "timeout");
    }
    if (i == s.messages.size()) break;
    Outcome o = c.offer(digestFor(s, s.messages[i], nullUnaware));
    r.outcomes.push_back(o == Outcome::Ignored
                             ? std::string("ignored: ") + ignoredName(c.lastIgnored())
                             : outcomeName(o));
    note(i + 1, "message " + s.messages[i].shard);
  }
  auto pub = c.published();
  r.state = pub->state;
  if (pub->state == PubState::Ready) {
    if (s.kind == Kind::Bloom)
      r.bits = pub->bits.setBits();
    else
      r.values = pub->values;
    r.nullAccepted = s.nullSafe && !nullUnaware && pub->values.null;
  }
  for (const auto& [why, n] : c.ignored()) r.ignored[ignoredName(why)] = n;
  r.retainedBytes = c.retainedBytes();
  if (pub->state == PubState::Failed) return r;  // the query fails: nothing is joined
  std::vector<Key> probe, build;
  for (const auto& k : s.probe) probe.push_back(intKey(k));
  for (const auto& [name, keys] : s.shards)
    for (const auto& k : keys) build.push_back(intKey(k));
  std::vector<Key> kept;
  for (size_t i : prefilter(*pub, s.hash, probe, s.nullSafe && !nullUnaware)) {
    r.retained.push_back(s.probe[i]);
    kept.push_back(probe[i]);
  }
  r.pairs = exactJoinPairs(build, kept, s.nullSafe);
  return r;
}

}  // namespace rfguard::rt
