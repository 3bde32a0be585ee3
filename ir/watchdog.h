#pragma once
// A deadline on a blocking call that can be interrupted from another thread
// (Z3's solver, a DuckDB statement): after `seconds` a watchdog thread runs
// `interrupt` once, unless the watchdog was stopped or destroyed first.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace rfguard {

class Watchdog {
 public:
  /// Armed at once: `seconds` <= 0 interrupts straight away.
  Watchdog(double seconds, std::function<void()> interrupt) {
    thread_ = std::thread([this, seconds, interrupt = std::move(interrupt)] {
      std::unique_lock<std::mutex> lock(m_);
      if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) {
        fired_ = true;
        interrupt();
      }
    });
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  /// Joined before what it interrupts goes away.
  ~Watchdog() { stop(); }

  /// True once the deadline passed and `interrupt` ran.
  bool fired() const { return fired_; }

  /// Ends the wait without interrupting (idempotent).
  void stop() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;  ///< last: started once the members it reads exist
};

}  // namespace rfguard
