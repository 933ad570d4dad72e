//===- WorkerPool.h - One persistent thread per emulated core ---*- C++ -*-===//
//
// Emulated cores are OS threads created once and reused by every run, so a
// training loop does not pay thread creation per step and thread-local state
// (the CoreContext, first-touch memory) stays with its core. Idle workers
// block on a condition variable; they never spin, so hundreds of them share
// two host cores.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H
#define TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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

  int64_t size() const { return static_cast<int64_t>(workers_.size()); }

  /// Runs `task(i)` on worker i for every i in `workers` (distinct, in
  /// range), all concurrently, and returns once every one has returned.
  /// `task` must not throw. One run() at a time: callers serialize.
  void run(std::span<const int64_t> workers,
           const std::function<void(int64_t)> &task);

  /// The thread of worker `i` (for tests and diagnostics).
  std::thread::id threadId(int64_t i) const;

private:
  struct Worker {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable cv;
    const std::function<void(int64_t)> *task = nullptr;
    bool stop = false;
  };
  void workerLoop(int64_t index);

  std::vector<std::unique_ptr<Worker>> workers_;
  std::mutex doneMutex_;
  std::condition_variable doneCv_;
  int64_t pending_ = 0;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_WORKERPOOL_H
