//===- ParallelFor.cpp - Host threads for one core's large kernels --------===//

#include "runtime/ParallelFor.h"
#include "runtime/FloatMode.h"
#include "runtime/SpinWait.h"

#include "runtime/executor/CoreContext.h"
#include "runtime/executor/RunState.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

std::atomic<int64_t> outsideRunThreads{1};
std::atomic<int64_t> threadLimit{0}; // 0: none

/// How long an idle helper keeps polling for the next loop before it
/// blocks. A step's parallel kernels come tens of microseconds apart, and
/// waking a blocked thread costs about as much (more on a VM, whose idle
/// vCPU must be woken too); an idle host core is what it spends.
constexpr std::chrono::microseconds kHelperSpin{200};
/// The caller's waits are for helpers that are running: short.
constexpr std::chrono::microseconds kCallerSpin{50};

/// Persistent helpers; the caller of a loop works too and never waits for
/// a helper to wake. A loop is open while `state_` holds an odd number:
/// the caller publishes the loop, opens it, runs blocks itself until none
/// are left, waits for the blocks helpers took, closes the loop and waits
/// for helpers still inside it (which only find nothing left to take). A
/// helper that wakes after the loop closed sees so and goes back to wait;
/// one that wakes while it is open takes blocks with the caller.
class Pool {
public:
  using Fn = void (*)(void *, int64_t);

  /// Runs the loop on up to `threads` threads (the caller included); false
  /// when another loop holds the pool (the caller then runs it alone).
  bool run(Fn fn, void *ctx, int64_t n, int64_t threads) {
    std::unique_lock<std::mutex> call(callMutex_, std::try_to_lock);
    if (!call.owns_lock())
      return false;
    int64_t helpers = std::min<int64_t>(threads - 1, n - 1);
    // Only the holder of callMutex_ starts helpers; they read nothing of
    // workers_.
    while (static_cast<int64_t>(workers_.size()) < helpers)
      workers_.emplace_back([this, index = workers_.size()] {
        work(static_cast<int64_t>(index));
      });
    fn_ = fn;
    ctx_ = ctx;
    n_ = n;
    mode_ = floatMode(); // helpers compute as the caller does
    helpers_ = helpers;
    next_.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    const uint32_t open = state_.load(std::memory_order_relaxed) + 1;
    state_.store(open, std::memory_order_seq_cst); // publishes the loop
    state_.notify_all();
    drain();
    for (int64_t done;
         (done = finished_.load(std::memory_order_acquire)) != n;)
      waitWhileEqual(finished_, done, PollFor(kCallerSpin));
    state_.store(open + 1, std::memory_order_seq_cst); // closed
    for (int32_t inside;
         (inside = active_.load(std::memory_order_seq_cst)) != 0;)
      waitWhileEqual(active_, inside, PollFor(kCallerSpin));
    return true;
  }

private:
  /// Takes and runs blocks of the open loop until none are left.
  void drain() {
    for (int64_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < n_;) {
      fn_(ctx_, i);
      if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_)
        finished_.notify_one();
    }
  }

  void work(int64_t index) {
    uint32_t seen = 0;
    while (true) {
      seen = waitWhileEqual(state_, seen, PollFor(kHelperSpin));
      if (!(seen & 1))
        continue; // woke after the loop closed
      // Announces itself before looking: either the caller, closing the
      // loop, sees active_ and waits, or this thread sees the loop closed
      // (both accesses are sequentially consistent). While it is inside an
      // open loop, the loop's fields stay as published.
      active_.fetch_add(1, std::memory_order_seq_cst);
      if (state_.load(std::memory_order_seq_cst) == seen && index < helpers_) {
        ScopedFloatMode mode(mode_);
        drain();
      }
      if (active_.fetch_sub(1, std::memory_order_seq_cst) == 1)
        active_.notify_one();
    }
  }

  std::mutex callMutex_;
  std::vector<std::thread> workers_;
  /// Odd: a loop is open; bumped to open and to close one.
  std::atomic<uint32_t> state_{0};
  /// Helpers between announcing themselves and leaving a loop.
  std::atomic<int32_t> active_{0};
  // The open loop, written by its caller before opening it.
  Fn fn_ = nullptr;
  void *ctx_ = nullptr;
  int64_t n_ = 0;
  uint32_t mode_ = 0;
  int64_t helpers_ = 0;
  /// The next block to take, and how many have finished.
  std::atomic<int64_t> next_{0}, finished_{0};
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
