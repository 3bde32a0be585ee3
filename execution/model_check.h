#pragma once
// An exhaustive check of the shard collector: every order of a message
// multiset (each shard's digest, a duplicate, a stale epoch, a wrong config,
// optionally a conflicting digest and the timeout) for one to three shards.
#include <cstdint>
#include <string>
#include <vector>

namespace rfguard::rt {

struct ModelCheckResult {
  uint64_t orders = 0;                ///< distinct message orders run
  uint64_t steps = 0;                 ///< messages delivered over all orders
  std::vector<std::string> failures;  ///< invariant violations (at most a few, with the order)
};

/// Runs every distinct order for `shards` shards. Invariants after every step:
/// never READY before every shard has a digest; READY holds exactly the OR of
/// the first digest accepted per shard; TOP never becomes READY or COLLECTING;
/// once two digests of one shard differ the query is FAILED, and stays so;
/// ignored digests change nothing.
ModelCheckResult modelCheck(int shards, bool withConflict, bool withTimeout);

}  // namespace rfguard::rt
