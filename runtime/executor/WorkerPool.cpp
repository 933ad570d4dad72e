//===- WorkerPool.cpp - One persistent thread per emulated core -----------===//

#include "runtime/executor/WorkerPool.h"
#include "runtime/SpinWait.h"

#include <cassert>
#include <string>

#include <pthread.h>

namespace torus::rt {

namespace {

/// Polls before blocking: a run that follows within a few microseconds (a
/// training loop) finds its workers awake.
constexpr int kSpinPolls = 50;

} // namespace

WorkerPool::WorkerPool(int64_t numWorkers)
    : assigned_(std::make_unique<std::atomic<uint32_t>[]>(numWorkers)) {
  threads_.reserve(numWorkers);
  for (int64_t i = 0; i < numWorkers; ++i) {
    threads_.emplace_back([this, i] { workerLoop(i); });
    // Linux limits names to 15 characters.
    std::string name = "torus-core-" + std::to_string(i);
    pthread_setname_np(threads_.back().native_handle(),
                       name.substr(0, 15).c_str());
  }
}

WorkerPool::~WorkerPool() {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (auto &t : threads_)
    if (t.joinable())
      t.join();
}

std::thread::id WorkerPool::threadId(int64_t i) const {
  return threads_.at(i).get_id();
}

void WorkerPool::workerLoop(int64_t index) {
  uint32_t seen = 0;
  for (;;) {
    seen = waitWhileEqual(generation_, seen, PollTimes(kSpinPolls));
    if (stopping_.load(std::memory_order_acquire))
      return;
    if (assigned_[index].load(std::memory_order_acquire) != seen)
      continue; // not part of this run
    (*task_.load(std::memory_order_acquire))(index);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      pending_.notify_all();
  }
}

void WorkerPool::run(std::span<const int64_t> workers,
                     const std::function<void(int64_t)> &task) {
  if (workers.empty())
    return;
  assert(pending_.load() == 0 && "WorkerPool::run is not reentrant");
  const uint32_t next = generation_.load(std::memory_order_relaxed) + 1;
  task_.store(&task, std::memory_order_relaxed);
  pending_.store(static_cast<int32_t>(workers.size()),
                 std::memory_order_relaxed);
  for (int64_t i : workers) {
    assert(i >= 0 && i < size() && "worker index out of range");
    assert(assigned_[i].load() != next && "worker listed twice");
    assigned_[i].store(next, std::memory_order_relaxed);
  }
  // Publishes the task, the count and the assignments.
  generation_.store(next, std::memory_order_release);
  generation_.notify_all();
  // The workers' tasks are often short: poll before blocking.
  for (int32_t left; (left = pending_.load(std::memory_order_acquire)) != 0;)
    waitWhileEqual(pending_, left, PollTimes(kSpinPolls));
}

} // namespace torus::rt
