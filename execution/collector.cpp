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
                               Policy policy, Kind kind)
    : exec_(std::move(exec)),
      config_(config),
      expected_(std::move(expected)),
      policy_(policy),
      kind_(kind) {
  pub_ = std::make_shared<const Publication>(Publication{PubState::Collecting, {}, kind_, {}});
  // No shard to wait for: the empty build's filter (zero bitmap, no keys) at once.
  if (expected_.empty()) {
    Digest none = combined();
    publish(PubState::Ready, &none);
  }
}

void ShardCollector::publish(PubState s, const Digest* content) {
  state_ = s;
  auto p = std::make_shared<const Publication>(Publication{s, {}, kind_, {}});
  if (content) {
    p = std::make_shared<const Publication>(Publication{s, content->bits, kind_, content->values});
  }
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
  if (d.kind != kind_ ||
      (kind_ == Kind::Bloom && (d.config != config_ || d.bits.size() != config_.m)))
    return ignore(Ignored::OtherConfig);
  if (!expected_.count(d.shard)) return ignore(Ignored::UnknownShard);
  auto it = accepted_.find(d.shard);
  if (it != accepted_.end()) {
    if (!it->second.sameContent(d)) {
      // Same identity, other content: never publish, never pick one.
      publish(PubState::Failed);
      return Outcome::Conflict;
    }
    return acked_.insert(d.shard).second ? Outcome::DuplicateAcked : Outcome::DuplicateAgain;
  }
  accepted_.emplace(d.shard, d);
  // A late digest after TOP is kept (a later conflict still fails) but changes nothing.
  if (state_ == PubState::Collecting &&
      (accepted_.size() == expected_.size() || policy_.publishOnFirst)) {
    Digest all = combined();
    publish(PubState::Ready, &all);
  }
  return Outcome::Accepted;
}

Digest ShardCollector::combined() const {
  Digest all;
  all.bits = Bitmap(kind_ == Kind::Bloom ? config_.m : 0);
  bool first = true;
  for (const auto& [shard, d] : accepted_) {
    if (policy_.andInsteadOfOr && !first) {
      all.bits.andWith(d.bits);
      all.values.andWith(kind_, d.values);
    } else {
      all.bits.orWith(d.bits);
      all.values.orWith(kind_, d.values);
    }
    first = false;
  }
  return all;
}

void ShardCollector::timeout() {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_ != PubState::Collecting) return;
  Digest content;
  content.bits = Bitmap(kind_ == Kind::Bloom ? config_.m : 0);
  if (policy_.missingAsEmpty) content = combined();
  if (policy_.topAsZero || policy_.missingAsEmpty)
    publish(PubState::Ready, &content);
  else
    publish(PubState::Top);
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
  for (const auto& [shard, d] : accepted_) n += d.bits.bytes() + d.values.bytes(kind_);
  return n;
}

}  // namespace rfguard::rt
