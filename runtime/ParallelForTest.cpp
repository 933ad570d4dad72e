//===- ParallelForTest.cpp - Host threads for one core's kernels ----------===//

#include "runtime/ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

struct Recorder {
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::vector<std::atomic<int>> hits = std::vector<std::atomic<int>>(64);
};

void record(void *ctx, int64_t i) {
  auto *r = static_cast<Recorder *>(ctx);
  r->hits[i].fetch_add(1);
  std::lock_guard<std::mutex> lock(r->mutex);
  r->threads.insert(std::this_thread::get_id());
}

/// Restores the defaults whatever a test set.
class ParallelForTest : public ::testing::Test {
protected:
  void TearDown() override {
    limitParallelForThreads(0);
    setParallelForThreads(1);
  }
};

TEST_F(ParallelForTest, EveryIterationRunsOnce) {
  setParallelForThreads(2);
  Recorder r;
  __torus_parallel_for(record, &r, 64);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(r.hits[i].load(), 1) << "iteration " << i;
}

TEST_F(ParallelForTest, OutsideARunTheSetCountIsUsed) {
  EXPECT_EQ(parallelForThreads(), 1);
  setParallelForThreads(3);
  EXPECT_EQ(parallelForThreads(), 3);
}

TEST_F(ParallelForTest, TheLimitCapsTheCount) {
  setParallelForThreads(4);
  limitParallelForThreads(1);
  EXPECT_EQ(parallelForThreads(), 1);
  Recorder r;
  __torus_parallel_for(record, &r, 64);
  EXPECT_EQ(r.threads.size(), 1u);
  EXPECT_EQ(*r.threads.begin(), std::this_thread::get_id());
  limitParallelForThreads(2);
  EXPECT_EQ(parallelForThreads(), 2);
  limitParallelForThreads(0);
  EXPECT_EQ(parallelForThreads(), 4);
}

/// Block 0 waits (up to 10 s) for block 1 to start: only a loop whose
/// blocks run on two threads at once finishes it in time.
struct Rendezvous {
  std::atomic<bool> secondStarted{false};
  std::atomic<bool> timedOut{false};
};

void meet(void *ctx, int64_t i) {
  auto *r = static_cast<Rendezvous *>(ctx);
  if (i == 1) {
    r->secondStarted.store(true);
    return;
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!r->secondStarted.load())
    if (std::chrono::steady_clock::now() > deadline) {
      r->timedOut.store(true);
      return;
    }
}

TEST_F(ParallelForTest, AHelperTakesBlocksWhileTheCallerRunsOne) {
  setParallelForThreads(2);
  for (int round = 0; round < 20; ++round) {
    Rendezvous r;
    __torus_parallel_for(meet, &r, 2);
    ASSERT_FALSE(r.timedOut.load()) << "round " << round;
    ASSERT_TRUE(r.secondStarted.load());
  }
}

/// How often each block of one loop ran.
struct Loop {
  std::vector<std::atomic<int>> hits = std::vector<std::atomic<int>>(8);
};

/// Counts the block after about a microsecond of work, long enough for
/// helpers to take blocks beside the caller.
void countBlock(void *ctx, int64_t i) {
  auto *loop = static_cast<Loop *>(ctx);
  volatile int64_t sink = 0;
  for (int k = 0; k < 500; ++k)
    sink = sink + k;
  loop->hits[i].fetch_add(1);
}

TEST_F(ParallelForTest, BackToBackLoopsEachRunEveryBlockOnce) {
  // Helpers that wake late, or poll while the next loop is published, must
  // take no block of a closed loop and none of the next one twice.
  setParallelForThreads(5);
  for (int round = 0; round < 5000; ++round) {
    Loop loop;
    int64_t n = 1 + round % 8;
    __torus_parallel_for(countBlock, &loop, n);
    for (int64_t i = 0; i < 8; ++i)
      ASSERT_EQ(loop.hits[i].load(), i < n ? 1 : 0)
          << "round " << round << " block " << i;
  }
}

TEST_F(ParallelForTest, ConcurrentCallersEachRunTheirLoop) {
  // One caller holds the pool; the others run their loops on their own
  // threads. Every loop still runs every block once.
  setParallelForThreads(2);
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&failures] {
      for (int round = 0; round < 500; ++round) {
        Loop loop;
        __torus_parallel_for(countBlock, &loop, 8);
        for (int64_t i = 0; i < 8; ++i)
          if (loop.hits[i].load() != 1)
            failures.fetch_add(1);
      }
    });
  for (auto &t : callers)
    t.join();
  EXPECT_EQ(failures.load(), 0);
}

} // namespace
} // namespace torus::rt
