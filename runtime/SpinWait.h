//===- SpinWait.h - Poll a word briefly, then block on it -------*- C++ -*-===//
//
// The runtime's threads hand work over through atomic words: a generation
// counter the emulated cores wait on (WorkerPool), the state of a kernel's
// parallel loop its helpers wait on (ParallelFor), counters the callers wait
// on until the work is done. Waking a blocked thread costs microseconds
// (more on a VM, whose idle vCPU must be woken too), so a waiter first polls
// the word for a while, yielding the CPU between polls so that hundreds of
// waiters can share two host cores, and only then blocks (a futex, through
// std::atomic::wait).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_SPINWAIT_H
#define TORUS_RUNTIME_SPINWAIT_H

#include <atomic>
#include <chrono>
#include <thread>

namespace torus::rt {

/// Waits until `word` differs from `old` and returns its value: polls it
/// once, then again after each yield while `keepPolling()` is true, then
/// blocks.
template <typename T, typename KeepPolling>
T waitWhileEqual(const std::atomic<T> &word, T old, KeepPolling keepPolling) {
  T now;
  do {
    if ((now = word.load(std::memory_order_acquire)) != old)
      return now;
    std::this_thread::yield();
  } while (keepPolling());
  while ((now = word.load(std::memory_order_acquire)) == old)
    word.wait(old, std::memory_order_acquire);
  return now;
}

/// Polls `n` times in all (n >= 1).
class PollTimes {
public:
  explicit PollTimes(int n) : left_(n) {}
  bool operator()() { return --left_ > 0; }

private:
  int left_;
};

/// Polls for `spin` from its construction.
class PollFor {
public:
  explicit PollFor(std::chrono::microseconds spin)
      : deadline_(std::chrono::steady_clock::now() + spin) {}
  bool operator()() const { return std::chrono::steady_clock::now() < deadline_; }

private:
  std::chrono::steady_clock::time_point deadline_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_SPINWAIT_H
