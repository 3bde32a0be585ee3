#pragma once
// The harness of tools/bench_planning.cpp: a corpus split into schema, views
// and queries, the rounds in which the systems take turns, and medians.
#include <algorithm>
#include <chrono>
#include <functional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace rfguard::bench {

using Clock = std::chrono::steady_clock;

inline double micros(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// A corpus file split as the bundled TPC-H script is written: the schema before
/// the first "-- name: ", then one chunk per query; CREATE VIEW statements are
/// set aside (every system creates them once, with the schema).
struct Corpus {
  std::string schema;
  std::vector<std::string> views;
  std::vector<std::pair<std::string, std::string>> queries;  ///< name, SQL
};

inline Corpus split(const std::string& text) {
  Corpus c;
  const size_t first = text.find("-- name: ");
  c.schema = text.substr(0, first);
  for (size_t pos = first; pos != std::string::npos;) {
    const size_t next = text.find("-- name: ", pos + 1);
    std::string chunk =
        text.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    const std::string name = chunk.substr(9, chunk.find('\n') - 9);
    std::smatch m;
    static const std::regex view(R"((create|CREATE) (view|VIEW)[^;]*;)");
    while (std::regex_search(chunk, m, view)) {
      c.views.push_back(m.str());
      chunk = m.prefix().str() + m.suffix().str();
    }
    c.queries.push_back({name, chunk});
    pos = next;
  }
  return c;
}

/// One run of query `q` by one system, its time kept unless `warmUp`; false
/// when the query failed there.
using Sampler = std::function<bool(size_t q, bool warmUp)>;

/// The repetitions in up to ten rounds. In each round every sampler in turn
/// runs every query: once to warm up (not kept), then its share of the
/// repetitions back to back. Turns of a fraction of a second keep each system
/// warm while it is timed (taking turns query by query left rfguard's caches
/// cold after every PostgreSQL round trip and cost it half again) and still
/// give a slow stretch of a shared machine to both alike. A query that fails
/// in a system is not run there again.
inline bool runRounds(size_t queries, int reps, const std::vector<Sampler>& samplers) {
  bool ok = true;
  std::vector<std::vector<bool>> failed(samplers.size(), std::vector<bool>(queries, false));
  const int rounds = std::min(reps, 10);
  for (int r = 0; r < rounds; ++r) {
    const int share = reps / rounds + (r < reps % rounds ? 1 : 0);
    for (size_t s = 0; s < samplers.size(); ++s)
      for (size_t q = 0; q < queries; ++q)
        for (int i = 0; i <= share && !failed[s][q]; ++i)
          if (!samplers[s](q, i == 0)) failed[s][q] = true, ok = false;
  }
  return ok;
}

}  // namespace rfguard::bench
