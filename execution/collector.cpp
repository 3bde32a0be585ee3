#include "execution/collector.h"

namespace rfguard::rt {

const char* pubStateName(PubState s) {
  switch (s) {
    case PubState::Collecting:
      return "COLLECTING";
    case PubState::Ready:
      return "READY";
    case PubState::Top:
      return "TOP";
    case PubState::Failed:
      return "FAILED";
  }
  return "?";
}

const char* ignoredName(Ignored r) {
  switch (r) {
    case Ignored::OtherQuery:
      return "other_query";
    case Ignored::OtherEpoch:
      return "other_epoch";
    case Ignored::OtherSnapshot:
      return "other_snapshot";
    case Ignored::OtherJoin:
      return "other_join";
    case Ignored::OtherConfig:
      return "other_config";
    case Ignored::UnknownShard:
      return "unknown_shard";
  }
  return "?";
}

const char* outcomeName(Outcome o) {
  switch (o) {
    case Outcome::Accepted:
      return "accepted";
    case Outcome::DuplicateAcked:
      return "duplicate_acked";
    case Outcome::DuplicateAgain:
      return "duplicate_again";
    case Outcome::Ignored:
      return "ignored";
    case Outcome::Conflict:
      return "conflict";
    case Outcome::AfterFailure:
      return "after_failure";
  }
  return "?";
}

ShardCollector::ShardCollector(ExecutionId exec, HashConfig config, std::set<std::string> expected,
                               Policy policy)
    : exec_(std::move(exec)), config_(config), expected_(std::move(expected)), policy_(policy) {
  pub_ = std::make_shared<const Publication>();
  // No shard to wait for: the empty build's filter, the zero bitmap, at once.
  if (expected_.empty()) publish(PubState::Ready, Bitmap(config_.m));
}

void ShardCollector::publish(PubState s, Bitmap bits) {
  state_ = s;
  auto p = std::make_shared<const Publication>(Publication{s, std::move(bits)});
  std::atomic_store(&pub_, std::shared_ptr<const Publication>(p));
}

Outcome ShardCollector::offer(const Digest& d) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_ == PubState::Failed) return Outcome::AfterFailure;
  auto ignore = [&](Ignored why) {
    ++ignored_[why];
    last_ = why;
    return Outcome::Ignored;
  };
  if (d.exec.query != exec_.query) return ignore(Ignored::OtherQuery);
  if (d.exec.epoch != exec_.epoch && !(policy_.staleEpochCounts && d.exec.epoch < exec_.epoch))
    return ignore(Ignored::OtherEpoch);
  if (d.exec.snapshot != exec_.snapshot) return ignore(Ignored::OtherSnapshot);
  if (d.exec.join != exec_.join) return ignore(Ignored::OtherJoin);
  if (d.config != config_ || d.bits.size() != config_.m) return ignore(Ignored::OtherConfig);
  if (!expected_.count(d.shard)) return ignore(Ignored::UnknownShard);
  auto it = accepted_.find(d.shard);
  if (it != accepted_.end()) {
    if (!(it->second == d.bits)) {
      // Same identity, other content: never publish, never pick one.
      publish(PubState::Failed, Bitmap());
      return Outcome::Conflict;
    }
    return acked_.insert(d.shard).second ? Outcome::DuplicateAcked : Outcome::DuplicateAgain;
  }
  accepted_.emplace(d.shard, d.bits);
  // A late digest after TOP is kept (a later conflict still fails) but changes nothing.
  if (state_ == PubState::Collecting &&
      (accepted_.size() == expected_.size() || policy_.publishOnFirst))
    publish(PubState::Ready, combined());
  return Outcome::Accepted;
}

Bitmap ShardCollector::combined() const {
  Bitmap all(config_.m);
  bool first = true;
  for (const auto& [shard, bits] : accepted_) {
    if (policy_.andInsteadOfOr && !first)
      all.andWith(bits);
    else
      all.orWith(bits);
    first = false;
  }
  return all;
}

void ShardCollector::timeout() {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_ != PubState::Collecting) return;
  if (policy_.topAsZero)
    publish(PubState::Ready, Bitmap(config_.m));
  else if (policy_.missingAsEmpty)
    publish(PubState::Ready, combined());
  else
    publish(PubState::Top, Bitmap());
}

std::shared_ptr<const Publication> ShardCollector::published() const {
  return std::atomic_load(&pub_);
}

std::map<Ignored, int> ShardCollector::ignored() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ignored_;
}

Ignored ShardCollector::lastIgnored() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_;
}

uint64_t ShardCollector::retainedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t n = 0;
  for (const auto& [shard, bits] : accepted_) n += bits.bytes();
  return n;
}

}  // namespace rfguard::rt
