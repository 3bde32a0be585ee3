// Runtime-filter figures (Google Benchmark), each with its baseline in the same run:
//   OrMerge     OR of 64 shard digests of 8 Mbit into one bitmap, in GB/s of digest
//               read; baseline Memcpy: copying the same 64 x 1 MiB.
//   Lookup      prefilter lookups per second for 1M probe keys against a split-block
//               Bloom filter sized for 1M build keys at 1% (bits in 64-bit words);
//               baseline LookupBytePerBit: the same mappings over a byte-per-bit
//               array (the seed's model), 8x the memory.
//   Counters report the bytes each representation holds per shard.
//
//   build/bench_runtime --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>

#include "execution/bloom.h"

using namespace rfguard::rt;

namespace {

constexpr uint64_t kShardBits = 8ull << 20;  // 8 Mbit
constexpr int kShards = 64;

std::vector<Bitmap>& shards() {
  static std::vector<Bitmap> s = [] {
    std::vector<Bitmap> out;
    std::mt19937_64 rng(1);
    for (int i = 0; i < kShards; ++i) {
      Bitmap b(kShardBits);
      for (auto& w : b.words()) w = rng() & rng();  // about a quarter of the bits set
      out.push_back(std::move(b));
    }
    return out;
  }();
  return s;
}

void BM_OrMerge(benchmark::State& state) {
  auto& in = shards();
  Bitmap all(kShardBits);
  for (auto _ : state) {
    std::fill(all.words().begin(), all.words().end(), 0);
    for (const auto& b : in) all.orWith(b);
    benchmark::DoNotOptimize(all.words().data());
  }
  state.SetBytesProcessed(state.iterations() * kShards * static_cast<int64_t>(kShardBits / 8));
  state.counters["bytes_per_shard"] = static_cast<double>(in[0].bytes());
}

void BM_Memcpy(benchmark::State& state) {
  auto& in = shards();
  std::vector<uint64_t> out(kShardBits / 64);
  for (auto _ : state) {
    for (const auto& b : in)
      std::memcpy(out.data(), b.words().data(), b.words().size() * sizeof(uint64_t));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kShards * static_cast<int64_t>(kShardBits / 8));
}

struct LookupSetup {
  HashConfig config = splitBlockFor(1000000, 0.01);
  Bitmap bits{config.m};
  std::vector<uint8_t> bytes;  // the same positions, one byte per bit
  std::vector<Key> probe;
  LookupSetup() {
    bytes.assign(config.m, 0);
    for (int64_t i = 0; i < 1000000; ++i) {
      Key k = intKey(i * 2);
      bloomInsert(bits, config, k);
      for (uint64_t p : positions(config, k)) bytes[p] = 1;
    }
    std::mt19937_64 rng(2);
    for (int i = 0; i < 1000000; ++i)
      probe.push_back(intKey(static_cast<int64_t>(rng() % 4000000)));
  }
};

LookupSetup& lookup() {
  static LookupSetup s;
  return s;
}

void BM_Lookup(benchmark::State& state) {
  auto& s = lookup();
  size_t kept = 0;
  for (auto _ : state) {
    kept = 0;
    for (const auto& k : s.probe) kept += bloomMayContain(s.bits, s.config, k);
    benchmark::DoNotOptimize(kept);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.probe.size()));
  state.counters["kept"] = static_cast<double>(kept);
  state.counters["filter_bytes"] = static_cast<double>(s.bits.bytes());
}

void BM_LookupBytePerBit(benchmark::State& state) {
  auto& s = lookup();
  size_t kept = 0;
  for (auto _ : state) {
    kept = 0;
    for (const auto& k : s.probe) {
      uint64_t pos[8];
      int n = positionsInto(s.config, k, pos);
      bool all = true;
      for (int i = 0; i < n && all; ++i) all = s.bytes[pos[i]] != 0;
      kept += all;
    }
    benchmark::DoNotOptimize(kept);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.probe.size()));
  state.counters["kept"] = static_cast<double>(kept);
  state.counters["filter_bytes"] = static_cast<double>(s.bytes.size());
}

BENCHMARK(BM_OrMerge)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Lookup)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LookupBytePerBit)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
