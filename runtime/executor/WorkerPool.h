//===- WorkerPool.h - One persistent thread per emulated core ---*- C++ -*-===//
//
// Emulated cores are OS threads created once and reused by every run, so a
// training loop does not pay thread creation per step and thread-local state
// (the CoreContext, first-touch memory) stays with its core.
//
// Starting a run costs one futex wake for all workers: run() publishes the
// task and which workers take part, then bumps a generation counter the idle
// workers block on; the last worker to finish wakes the caller. Idle workers
// poll the counter briefly (yielding) before blocking, so back-to-back runs
// rarely need the kernel; they never spin for long, so hundreds of them
// share two host cores. Workers not listed in a run wake, see they are not
// assigned, and go back to sleep.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H
#define TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <thread>
#include <vector>

namespace torus::rt {

class WorkerPool {
public:
  /// Starts `numWorkers` threads (named `torus-core-<i>`).
  explicit WorkerPool(int64_t numWorkers);
  /// Stops and joins every thread; no run() may be in progress.
  ~WorkerPool();
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  int64_t size() const { return static_cast<int64_t>(threads_.size()); }

  /// Runs `task(i)` on worker i for every i in `workers` (distinct, in
  /// range), all concurrently, and returns once every one has returned.
  /// `task` must not throw. One run() at a time: callers serialize.
  void run(std::span<const int64_t> workers,
           const std::function<void(int64_t)> &task);

  /// The thread of worker `i` (for tests and diagnostics).
  std::thread::id threadId(int64_t i) const;

private:
  void workerLoop(int64_t index);

  std::vector<std::thread> threads_;
  /// assigned_[i]: the generation in which worker i has work.
  std::unique_ptr<std::atomic<uint32_t>[]> assigned_;
  std::atomic<const std::function<void(int64_t)> *> task_{nullptr};
  /// Bumped to start a run (and to stop); workers block on it.
  std::atomic<uint32_t> generation_{0};
  /// Workers of the current run still working; the caller blocks on it.
  std::atomic<int32_t> pending_{0};
  std::atomic<bool> stopping_{false};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H
