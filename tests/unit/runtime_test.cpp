// Sharded publication of runtime filters: the worked example of docs/design.md section 7
// with every number, the strategies' losses, the model check, publication seen
// from threads, and merging summaries (building filters: filters_test.cpp).
#include <doctest/doctest.h>

#include <thread>

#include "execution/filters.h"
#include "execution/model_check.h"
#include "execution/prefilter.h"
#include "execution/replay.h"

using namespace rfguard::rt;

namespace {

const HashConfig kDemo{16, 2, Mapping::DemoLinear, 0};

Bitmap digest(std::vector<int64_t> keys, const HashConfig& c = kDemo) {
  Bitmap b(c.m);
  for (int64_t k : keys) bloomInsert(b, c, intKey(k));
  return b;
}

/// The worked example: q / epoch 2 / snapshot 7 / join J, shards B0 and B1.
Scenario worked() {
  Scenario s;
  s.hash = kDemo;
  s.exec = {"q", 2, 7, "J"};
  s.shards["B0"] = {0, 1, 4, 5, 6, 6, 6, 6};
  s.shards["B1"] = {7, 7, 7, 7};
  s.probe = {0, 2, 6, 6, 7, 7, 10, 16, std::nullopt};
  return s;
}

std::vector<std::optional<int64_t>> ints(std::initializer_list<int64_t> v) {
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("worked example: bit sets, retained keys, 17 pairs") {
  CHECK(digest({0, 1, 4, 5, 6, 6, 6, 6}).setBits() == std::vector<uint64_t>{0, 1, 4, 5, 6, 10, 15});
  CHECK(digest({7, 7, 7, 7}).setBits() == std::vector<uint64_t>{4, 7});
  Scenario s = worked();
  s.messages = {{"B0"}, {"B1"}};
  ReplayResult r = replay(s);
  CHECK(r.state == PubState::Ready);
  REQUIRE(r.bits);
  CHECK(*r.bits == std::vector<uint64_t>{0, 1, 4, 5, 6, 7, 10, 15});
  CHECK(r.retained == ints({0, 6, 6, 7, 7, 16}));  // 16 is a false positive with 0's bits
  CHECK(r.pairs == 17);                            // 1 + 8 + 8
  CHECK(r.retainedBytes == 2 * 8);                 // two digests of one 64-bit word
  // Publishing B0 alone drops both 7s.
  ReplayResult p = replay(s, Strategy::PartialOr);
  CHECK(*p.bits == std::vector<uint64_t>{0, 1, 4, 5, 6, 10, 15});
  CHECK(p.retained == ints({0, 6, 6, 16}));
  CHECK(p.pairs == 9);
  // AND of the shards keeps only bit 4: no key has both its bits there.
  ReplayResult a = replay(s, Strategy::And);
  CHECK(*a.bits == std::vector<uint64_t>{4});
  CHECK(a.pairs == 0);
}

TEST_CASE("worked example: duplicate, stale epoch and wrong m stay COLLECTING until the right B1") {
  Scenario s = worked();
  ScenarioMessage stale{"B1"}, wide{"B1"};
  stale.epoch = 1;
  wide.m = 32;
  s.messages = {{"B0"}, {"B0"}, stale, wide, {"B1"}};
  ReplayResult r = replay(s);
  CHECK(r.outcomes == std::vector<std::string>{"accepted", "duplicate_acked",
                                               "ignored: other_epoch", "ignored: other_config",
                                               "accepted"});
  REQUIRE(r.transitions.size() == 1);
  CHECK(r.transitions[0].after == 5);  // READY only with the right B1
  CHECK(r.transitions[0].state == PubState::Ready);
  CHECK(r.ignored == std::map<std::string, int>{{"other_config", 1}, {"other_epoch", 1}});
  CHECK(r.pairs == 17);
  // Counting a stale digest (B1 of epoch 1 held key 9: bits {9, 14}) completes
  // the filter without the current B1: both 7s are lost.
  ScenarioMessage staleOther = stale;
  staleOther.bits = std::vector<uint64_t>{9, 14};
  s.messages = {{"B0"}, staleOther};
  ReplayResult st = replay(s, Strategy::StaleEpochCounts);
  REQUIRE(st.transitions.size() == 1);
  CHECK(st.transitions[0].after == 2);
  CHECK(st.retained == ints({0, 6, 6, 16}));
  CHECK(st.pairs == 9);
  CHECK(replay(s).state == PubState::Collecting);  // the correct protocol still waits
}

TEST_CASE("worked example: timeout gives TOP, late B1 changes nothing, 17 pairs") {
  Scenario s = worked();
  s.messages = {{"B0"}, {"B1"}};
  s.timeoutAfter = 1;
  ReplayResult r = replay(s);
  CHECK(r.state == PubState::Top);
  CHECK(!r.bits);
  CHECK(r.retained == ints({0, 2, 6, 6, 7, 7, 10, 16}));  // all 8 non-NULL rows
  CHECK(r.pairs == 17);
  CHECK(replay(s, Strategy::TopAsZero).pairs == 0);
  CHECK(replay(s, Strategy::MissingAsEmpty).pairs == 9);
}

TEST_CASE("empty shard set: the zero bitmap at once, 0 pairs; a conflict fails") {
  Scenario s = worked();
  s.shards.clear();
  ReplayResult e = replay(s);
  CHECK(e.state == PubState::Ready);
  CHECK(e.bits->empty());
  CHECK(e.retained.empty());
  CHECK(e.pairs == 0);
  Scenario c = worked();
  ScenarioMessage other{"B0"};
  other.bits = std::vector<uint64_t>{2};
  c.messages = {{"B0"}, other, {"B1"}};
  ReplayResult f = replay(c);
  CHECK(f.state == PubState::Failed);
  CHECK(f.outcomes[1] == "conflict");
  CHECK(f.outcomes[2] == "after_failure");
}

TEST_CASE("model check: every order for one to three shards keeps the invariants") {
  uint64_t orders = 0;
  for (int n = 1; n <= 3; ++n)
    for (bool conflict : {false, true})
      for (bool timeout : {false, true}) {
        ModelCheckResult r = modelCheck(n, conflict, timeout);
        CAPTURE(n);
        CAPTURE(conflict);
        CAPTURE(timeout);
        CHECK(r.failures.empty());
        if (!r.failures.empty()) MESSAGE(r.failures[0]);
        // (n + 3 + conflict + timeout)! / 2! distinct orders (B0 and its duplicate are equal).
        uint64_t items = static_cast<uint64_t>(n) + 3 + conflict + timeout, f = 1;
        for (uint64_t i = 2; i <= items; ++i) f *= i;
        CHECK(r.orders == f / 2);
        orders += r.orders;
      }
  CHECK(orders == 29352);
}

TEST_CASE("publication is atomic: readers on other threads see COLLECTING or the full OR") {
  HashConfig c{4096, 2, Mapping::DemoLinear, 0};
  std::set<std::string> shards;
  std::vector<Bitmap> parts;
  Bitmap full(c.m);
  for (int s = 0; s < 16; ++s) {
    shards.insert("S" + std::to_string(s));
    Bitmap b(c.m);
    for (int64_t k = 0; k < 50; ++k) bloomInsert(b, c, intKey(s * 1000 + k));
    parts.push_back(b);
    full.orWith(b);
  }
  for (int run = 0; run < 20; ++run) {
    ShardCollector col({"q", 1, 1, "J"}, c, shards);
    std::atomic<bool> done{false};
    std::atomic<int> bad{0}, readySeen{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 2; ++t)
      readers.emplace_back([&] {
        while (!done) {
          auto p = col.published();
          if (p->state == PubState::Ready) {
            ++readySeen;
            if (!(p->bits == full)) ++bad;
          } else if (p->state != PubState::Collecting) {
            ++bad;
          }
        }
      });
    for (int s = 0; s < 16; ++s)
      col.offer({{"q", 1, 1, "J"}, "S" + std::to_string(s), c, parts[s]});
    done = true;
    for (auto& t : readers) t.join();
    CHECK(bad == 0);
    CHECK(col.published()->state == PubState::Ready);
    CHECK(col.retainedBytes() == 16 * c.m / 8);
  }
}

TEST_CASE("IN and MinMax summaries merge by union and widening; the NULL flag ORs") {
  Summary a, b;
  for (int64_t k : {3, 1}) a.add(Kind::In, intKey(k));
  b.add(Kind::In, intKey(5));
  b.add(Kind::In, intKey(std::nullopt));
  a.orWith(Kind::In, b);
  CHECK(a.describe(Kind::In) == "{1, 3, 5} + NULL");
  CHECK(a.mayContain(Kind::In, intKey(3)));
  CHECK(!a.mayContain(Kind::In, intKey(2)));
  CHECK(a.bytes(Kind::In) == 3 * 9 + 1);

  Summary lo, hi, none;
  lo.add(Kind::MinMax, intKey(4));
  lo.add(Kind::MinMax, intKey(2));
  hi.add(Kind::MinMax, intKey(9));
  CHECK(lo.describe(Kind::MinMax) == "[2, 4]");
  Summary wide = lo;
  wide.orWith(Kind::MinMax, hi);
  wide.orWith(Kind::MinMax, none);  // an empty shard adds no range
  CHECK(wide.describe(Kind::MinMax) == "[2, 9]");
  CHECK(wide.mayContain(Kind::MinMax, intKey(7)));  // a range: no exact membership
  CHECK(!wide.mayContain(Kind::MinMax, intKey(10)));
  Summary cut = lo;
  cut.andWith(Kind::MinMax, hi);  // disjoint: the wrong strategy `and` keeps nothing
  CHECK(cut.describe(Kind::MinMax) == "empty");
  CHECK(!none.mayContain(Kind::MinMax, intKey(0)));
}

TEST_CASE(
    "filter contents under <=>: the NULL flag keeps NULL probe keys; null-unaware loses them") {
  for (Kind kind : {Kind::In, Kind::MinMax, Kind::Bloom}) {
    CAPTURE(kindName(kind));
    Scenario s;
    s.kind = kind;
    s.nullSafe = true;
    s.hash = kDemo;
    s.exec = {"q", 1, 1, "J"};
    s.shards["B0"] = {1, 3, std::nullopt};
    s.shards["B1"] = ints({5, 5});
    s.probe = {1, 2, 5, std::nullopt, std::nullopt};
    s.messages = {{"B0"}, {"B1"}};
    ReplayResult r = replay(s);
    CHECK(r.state == PubState::Ready);
    CHECK(r.nullAccepted);
    CHECK(r.pairs == 5);  // 1-1, 5 with two 5s, two NULLs with one NULL
    ReplayResult bad = replay(s, Strategy::NullUnaware);
    CHECK(!bad.nullAccepted);
    CHECK(bad.pairs == 3);
    s.nullSafe = false;  // under `=` the NULLs match nothing: 3 pairs either way
    CHECK(replay(s).pairs == 3);
    CHECK(replay(s, Strategy::NullUnaware).pairs == 3);
  }
}

TEST_CASE("a digest of another kind is another config; same IN keys in any order are a duplicate") {
  ShardCollector c({"q", 1, 1, "J"}, HashConfig{}, {"B0"}, Policy{}, Kind::In);
  Digest d{{"q", 1, 1, "J"}, "B0", HashConfig{}, Bitmap(), Kind::MinMax, {}};
  d.values.add(Kind::MinMax, intKey(1));
  CHECK(c.offer(d) == Outcome::Ignored);
  CHECK(c.lastIgnored() == Ignored::OtherConfig);
  Digest in{{"q", 1, 1, "J"}, "B0", HashConfig{}, Bitmap(), Kind::In, {}};
  in.values.add(Kind::In, intKey(2));
  in.values.add(Kind::In, intKey(1));
  CHECK(c.offer(in) == Outcome::Accepted);
  Digest again = in;
  again.values = {};
  again.values.add(Kind::In, intKey(1));
  again.values.add(Kind::In, intKey(2));
  CHECK(c.offer(again) == Outcome::DuplicateAcked);
  again.values.add(Kind::In, intKey(3));
  CHECK(c.offer(again) == Outcome::Conflict);
  CHECK(c.published()->state == PubState::Failed);
}
