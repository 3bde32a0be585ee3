#pragma once
// Replaying a publication scenario (docs/replay.md): build shards' digests
// arrive as scripted messages, the collector publishes, the probe keys are
// prefiltered and joined exactly. Strategies other than `correct` are the
// known-wrong protocols, to show what each loses.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "execution/collector.h"

namespace rfguard::rt {

/// One scripted message: a shard's digest, optionally with overridden identity,
/// config or explicit content.
struct ScenarioMessage {
  std::string shard;
  std::optional<std::string> query;
  std::optional<int64_t> epoch;
  std::optional<int64_t> snapshot;
  std::optional<std::string> join;
  std::optional<uint64_t> m;
  std::optional<Mapping> mapping;
  std::optional<std::vector<uint64_t>> bits;  ///< explicit set bits instead of the shard's keys
  /// explicit keys instead of the shard's (any kind: other content for a conflict)
  std::optional<std::vector<std::optional<int64_t>>> keys;
};

struct Scenario {
  Kind kind = Kind::Bloom;  ///< the filter the shards build: Bloom, In or MinMax
  bool nullSafe = false;    ///< the join's equality is `<=>`: NULL matches NULL
  HashConfig hash;          ///< Bloom only
  ExecutionId exec;
  std::map<std::string, std::vector<std::optional<int64_t>>> shards;  ///< the expected shards
  std::vector<std::optional<int64_t>> probe;
  std::vector<ScenarioMessage> messages;
  std::optional<size_t> timeoutAfter;  ///< the timeout fires after this many messages
};

enum class Strategy {
  Correct,
  PartialOr,
  And,
  StaleEpochCounts,
  TopAsZero,
  MissingAsEmpty,
  NullUnaware,  ///< content: builds and applies the filter as for `=` under `<=>`
};
const char* strategyName(Strategy s);
std::optional<Strategy> parseStrategy(std::string_view name);
const std::vector<Strategy>& allStrategies();

/// A change of the published state.
struct Transition {
  size_t after = 0;   ///< messages delivered so far
  std::string event;  ///< "message B1" or "timeout"
  PubState state;
};

struct ReplayResult {
  PubState state = PubState::Collecting;
  std::optional<std::vector<uint64_t>> bits;  ///< READY (Bloom): set bits; otherwise none
  std::optional<Summary> values;              ///< READY (In / MinMax): the content; otherwise none
  bool nullAccepted = false;  ///< READY: the published filter keeps a NULL probe key
  std::vector<std::optional<int64_t>> retained;
  uint64_t pairs = 0;
  std::map<std::string, int> ignored;  ///< by reason
  std::vector<std::string> outcomes;   ///< per message: accepted, ignored: other_epoch, ...
  std::vector<Transition> transitions;
  uint64_t retainedBytes = 0;  ///< digest bytes the collector keeps for the duplicate check
};

/// The digest a shard sends for `msg` (its keys under the message's config);
/// `nullUnaware` drops NULL keys even under `<=>` (the strategy null-unaware).
Digest digestFor(const Scenario& s, const ScenarioMessage& msg, bool nullUnaware = false);
/// Runs the scenario under a strategy.
ReplayResult replay(const Scenario& s, Strategy strategy = Strategy::Correct);

}  // namespace rfguard::rt
