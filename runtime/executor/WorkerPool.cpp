//===- WorkerPool.cpp - One persistent thread per emulated core -----------===//

#include "runtime/executor/WorkerPool.h"

#include <cassert>
#include <string>

#include <pthread.h>

namespace torus::rt {

WorkerPool::WorkerPool(int64_t numWorkers) {
  workers_.reserve(numWorkers);
  for (int64_t i = 0; i < numWorkers; ++i)
    workers_.push_back(std::make_unique<Worker>());
  for (int64_t i = 0; i < numWorkers; ++i) {
    workers_[i]->thread = std::thread([this, i] { workerLoop(i); });
    // Linux limits names to 15 characters.
    std::string name = "torus-core-" + std::to_string(i);
    pthread_setname_np(workers_[i]->thread.native_handle(),
                       name.substr(0, 15).c_str());
  }
}

WorkerPool::~WorkerPool() {
  for (auto &w : workers_) {
    std::lock_guard<std::mutex> lock(w->mutex);
    w->stop = true;
    w->cv.notify_one();
  }
  for (auto &w : workers_)
    if (w->thread.joinable())
      w->thread.join();
}

std::thread::id WorkerPool::threadId(int64_t i) const {
  return workers_.at(i)->thread.get_id();
}

void WorkerPool::workerLoop(int64_t index) {
  Worker &w = *workers_[index];
  std::unique_lock<std::mutex> lock(w.mutex);
  for (;;) {
    w.cv.wait(lock, [&] { return w.task != nullptr || w.stop; });
    if (!w.task)
      return; // stopping
    const std::function<void(int64_t)> *task = w.task;
    lock.unlock();
    (*task)(index);
    lock.lock();
    w.task = nullptr;
    // Report completion after clearing the task, so the worker is idle for
    // the next run() as soon as that run can start.
    std::lock_guard<std::mutex> doneLock(doneMutex_);
    if (--pending_ == 0)
      doneCv_.notify_one();
  }
}

void WorkerPool::run(std::span<const int64_t> workers,
                     const std::function<void(int64_t)> &task) {
  if (workers.empty())
    return;
  {
    std::lock_guard<std::mutex> lock(doneMutex_);
    assert(pending_ == 0 && "WorkerPool::run is not reentrant");
    pending_ = static_cast<int64_t>(workers.size());
  }
  for (int64_t i : workers) {
    assert(i >= 0 && i < size() && "worker index out of range");
    Worker &w = *workers_[i];
    std::lock_guard<std::mutex> lock(w.mutex);
    assert(w.task == nullptr && "worker listed twice");
    w.task = &task;
    w.cv.notify_one();
  }
  std::unique_lock<std::mutex> lock(doneMutex_);
  doneCv_.wait(lock, [&] { return pending_ == 0; });
}

} // namespace torus::rt
