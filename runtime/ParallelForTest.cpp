//===- ParallelForTest.cpp - Host threads for one core's kernels ----------===//

#include "runtime/ParallelFor.h"

#include <gtest/gtest.h>

#include <atomic>
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

} // namespace
} // namespace torus::rt
