//===- ParallelFor.cpp - Host threads for one core's large kernels --------===//

#include "runtime/ParallelFor.h"
#include "runtime/FloatMode.h"

#include "runtime/executor/CoreContext.h"
#include "runtime/executor/RunState.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

std::atomic<int64_t> outsideRunThreads{1};
std::atomic<int64_t> threadLimit{0}; // 0: none

/// Persistent workers; the caller of a loop works too.
class Pool {
public:
  using Fn = void (*)(void *, int64_t);

  /// Runs the loop on `threads` threads (the caller included); false when
  /// another loop holds the pool (the caller then runs it alone).
  bool run(Fn fn, void *ctx, int64_t n, int64_t threads) {
    std::unique_lock<std::mutex> call(callMutex_, std::try_to_lock);
    if (!call.owns_lock())
      return false;
    int64_t helpers = std::min<int64_t>(threads - 1, n - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int64_t>(workers_.size()) < helpers)
        workers_.emplace_back(
            [this, index = workers_.size()] { work(index); });
      fn_ = fn;
      ctx_ = ctx;
      n_ = n;
      mode_ = floatMode(); // helpers compute as the caller does
      next_.store(0);
      helpers_ = helpers;
      pending_ = helpers;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    return true;
  }

private:
  void drain() {
    for (int64_t i; (i = next_.fetch_add(1)) < n_;)
      fn_(ctx_, i);
  }

  void work(size_t index) {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (static_cast<int64_t>(index) >= helpers_)
        continue;
      lock.unlock();
      {
        ScopedFloatMode mode(mode_);
        drain();
      }
      lock.lock();
      if (--pending_ == 0)
        done_.notify_one();
    }
  }

  std::mutex callMutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  uint64_t generation_ = 0;
  Fn fn_ = nullptr;
  uint32_t mode_ = 0;
  void *ctx_ = nullptr;
  int64_t n_ = 0;
  std::atomic<int64_t> next_{0};
  int64_t helpers_ = 0, pending_ = 0;
};

Pool &pool() {
  // Never destroyed: workers wait on it until the process exits.
  static Pool *pool = [] {
    auto *p = new Pool;
    return p;
  }();
  return *pool;
}

} // namespace

int64_t hostThreads() {
  return std::max<int64_t>(1, std::thread::hardware_concurrency());
}

void setParallelForThreads(int64_t threads) {
  outsideRunThreads.store(std::max<int64_t>(1, threads));
}

void limitParallelForThreads(int64_t limit) {
  threadLimit.store(std::max<int64_t>(0, limit));
}

int64_t parallelForThreads() {
  int64_t threads = outsideRunThreads.load();
  if (CoreContext *context = CoreContext::current()) {
    const RunState &run = context->run();
    int64_t cores = std::max<int64_t>(1, run.spec().numReplicas) *
                    std::max<int64_t>(1, run.numPartitions());
    threads = std::max<int64_t>(1, hostThreads() / cores);
  }
  int64_t limit = threadLimit.load();
  return limit > 0 ? std::min(threads, limit) : threads;
}

} // namespace torus::rt

extern "C" void __torus_parallel_for(void (*fn)(void *, int64_t), void *ctx,
                                     int64_t n) {
  int64_t threads = torus::rt::parallelForThreads();
  if (threads > 1 && n > 1 && torus::rt::pool().run(fn, ctx, n, threads))
    return;
  for (int64_t i = 0; i < n; ++i)
    fn(ctx, i);
}
