#pragma once
// The shard collector of docs/design.md section 7: the receiver of one filter of one
// execution. It takes final digests from build shards, ignores (and counts)
// those of another query, epoch, snapshot, join or hash config and of unknown
// shards, acknowledges an identical duplicate once, fails on a conflicting
// one, and publishes READY with the OR of all shards only when every expected
// shard has arrived; TOP on timeout, permanently.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "execution/bitmap.h"
#include "execution/bloom.h"
#include "execution/filters.h"
#include "execution/summary.h"

namespace rfguard::rt {

/// Which execution a digest belongs to.
struct ExecutionId {
  std::string query;
  int64_t epoch = 0;
  int64_t snapshot = 0;
  std::string join;
  bool operator==(const ExecutionId& o) const {
    return query == o.query && epoch == o.epoch && snapshot == o.snapshot && join == o.join;
  }
};

/// A build shard's final digest: a Bloom bitmap, or the exact content of an
/// IN or MinMax filter; under `<=>` also whether the shard saw a NULL key.
struct Digest {
  ExecutionId exec;
  std::string shard;
  HashConfig config;
  Bitmap bits;              ///< Bloom
  Kind kind = Kind::Bloom;  ///< Bloom, In or MinMax
  Summary values;           ///< In / MinMax content; the NULL flag of every kind
  /// Same content (the duplicate check).
  bool sameContent(const Digest& o) const { return bits == o.bits && values == o.values; }
};

/// What the collector publishes. Readers see one of these, whole.
enum class PubState { Collecting, Ready, Top, Failed };
const char* pubStateName(PubState s);

struct Publication {
  PubState state = PubState::Collecting;
  Bitmap bits;              ///< READY (Bloom): the OR of every expected shard
  Kind kind = Kind::Bloom;  ///< the filter's kind
  Summary values;           ///< READY (In / MinMax): the union; the NULL flag of every kind
};

/// Why a digest was not taken.
enum class Ignored { OtherQuery, OtherEpoch, OtherSnapshot, OtherJoin, OtherConfig, UnknownShard };
const char* ignoredName(Ignored r);

/// What happened to one digest.
enum class Outcome { Accepted, DuplicateAcked, DuplicateAgain, Ignored, Conflict, AfterFailure };
const char* outcomeName(Outcome o);

/// The publication policy. The default is the correct protocol; every other
/// setting is a known-wrong variant, kept to show what each loses (rfguard replay).
struct Policy {
  bool andInsteadOfOr = false;    ///< "and": combine shards with AND
  bool publishOnFirst = false;    ///< "partial-or": publish the OR so far at the first digest
  bool staleEpochCounts = false;  ///< "stale-epoch-counts": an older epoch's digest counts
  bool topAsZero = false;         ///< "top-as-zero": on timeout publish the zero bitmap
  bool missingAsEmpty = false;    ///< "missing-as-empty": on timeout publish the OR so far
};

class ShardCollector {
 public:
  ShardCollector(ExecutionId exec, HashConfig config, std::set<std::string> expected,
                 Policy policy = {}, Kind kind = Kind::Bloom);

  /// Takes one digest. Thread-safe.
  Outcome offer(const Digest& d);
  /// The timeout fired: TOP unless already READY or FAILED. Thread-safe.
  void timeout();
  /// The current publication; atomic for readers on any thread.
  std::shared_ptr<const Publication> published() const;
  /// Digests ignored, by reason.
  std::map<Ignored, int> ignored() const;
  /// Bytes kept for the duplicate check: every accepted digest's bitmap (a x ceil(m/64) x 8)
  /// or summary (Summary::bytes).
  uint64_t retainedBytes() const;
  /// The reason of the last ignored digest (for Outcome::Ignored).
  Ignored lastIgnored() const;

 private:
  void publish(PubState s, const Digest* content = nullptr);
  Digest combined() const;

  const ExecutionId exec_;
  const HashConfig config_;
  const std::set<std::string> expected_;
  const Policy policy_;
  const Kind kind_;
  mutable std::mutex mu_;
  std::map<std::string, Digest> accepted_;
  std::set<std::string> acked_;  ///< shards whose duplicate was acknowledged once
  std::map<Ignored, int> ignored_;
  Ignored last_ = Ignored::OtherQuery;
  PubState state_ = PubState::Collecting;
  std::shared_ptr<const Publication> pub_;  ///< read and written with std::atomic_load/store
};

}  // namespace rfguard::rt
