//===- WorkerPoolTest.cpp - Tests for the persistent core threads ---------===//

#include "runtime/executor/WorkerPool.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>

namespace torus::rt {
namespace {

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

TEST(WorkerPoolTest, RunsEachIndexOnItsOwnPersistentThread) {
  const int64_t n = 64;
  WorkerPool pool(n);
  EXPECT_EQ(pool.size(), n);
  std::vector<std::thread::id> seen(n);
  std::vector<int> calls(n, 0);
  for (int round = 0; round < 10; ++round) {
    pool.run(iota(n), [&](int64_t i) {
      ++calls[i];
      if (round == 0)
        seen[i] = std::this_thread::get_id();
      else
        EXPECT_EQ(seen[i], std::this_thread::get_id()) << "worker " << i;
    });
  }
  std::set<std::thread::id> distinct(seen.begin(), seen.end());
  EXPECT_EQ(distinct.size(), static_cast<size_t>(n));
  EXPECT_EQ(distinct.count(std::this_thread::get_id()), 0u);
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(calls[i], 10);
    EXPECT_EQ(pool.threadId(i), seen[i]);
  }
}

TEST(WorkerPoolTest, RunsOnlyTheListedWorkers) {
  WorkerPool pool(8);
  std::vector<std::atomic<int>> calls(8);
  std::vector<int64_t> some = {6, 1, 3};
  pool.run(some, [&](int64_t i) { ++calls[i]; });
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(calls[i].load(), (i == 6 || i == 1 || i == 3) ? 1 : 0);
  pool.run({}, [&](int64_t) { FAIL() << "no worker listed"; });
}

TEST(WorkerPoolTest, TasksRunConcurrently) {
  // Every task waits until all have started: completes only if the workers
  // really run at the same time (there are more workers than host cores).
  const int64_t n = 32;
  WorkerPool pool(n);
  std::mutex mutex;
  std::condition_variable cv;
  int64_t started = 0;
  pool.run(iota(n), [&](int64_t) {
    std::unique_lock<std::mutex> lock(mutex);
    if (++started == n)
      cv.notify_all();
    cv.wait(lock, [&] { return started == n; });
  });
  EXPECT_EQ(started, n);
}

} // namespace
} // namespace torus::rt
