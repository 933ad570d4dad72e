//===- WorkerGroupTest.cpp - Gloo worker groups in forked processes -------===//

#include "runtime/multiworker/WorkerGroup.h"
#include "runtime/multiworker/ForkedWorkers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <numeric>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::makeTempDirectory;
using testing::runForkedWorkers;

WorkerGroupOptions optionsFor(const std::string &dir, int rank, int size) {
  WorkerGroupOptions o;
  o.rank = rank;
  o.size = size;
  o.rendezvousDirectory = dir;
  o.connectTimeout = absl::Seconds(30);
  o.timeout = absl::Seconds(20);
  return o;
}

std::string statusText(const absl::Status &s) {
  return s.ok() ? std::string() : std::string(s.ToString());
}

TEST(WorkerGroupTest, RejectsBadOptions) {
  WorkerGroupOptions o;
  o.rendezvousDirectory = "/tmp";
  o.size = 0;
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "a worker group needs at least one worker, got size 0");
  o.size = 2;
  o.rank = 2;
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "worker rank 2 is outside 0..1 (the group has 2 workers)");
  o.rank = 0;
  o.names = {"chief 0"};
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "1 worker names given for a group of 2 workers");
  o.names.clear();
  o.rendezvousDirectory.clear();
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "a worker group needs a rendezvous every worker can reach: a "
            "directory or a Redis address (redis://host:port)");
  o.rendezvousDirectory = "/tmp";
  o.rendezvousAddress = "redis://127.0.0.1:1";
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "a worker group meets in one place: got both the rendezvous "
            "directory '/tmp' and the address 'redis://127.0.0.1:1'");
  o.rendezvousDirectory.clear();
  o.rendezvousAddress = "http://127.0.0.1:1";
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "rendezvous address 'http://127.0.0.1:1' must look like "
            "redis://host:port");
  o.rendezvousAddress = "redis://127.0.0.1:99999";
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "rendezvous address 'redis://127.0.0.1:99999': port '99999' is "
            "not a number in 1..65535");
  o.rendezvousAddress.clear();
  o.rendezvousDirectory = "/tmp";
  o.prefix = "a/b";
  EXPECT_EQ(WorkerGroup::connect(o).status().message(),
            "the rendezvous prefix 'a/b' must be a non-empty file name");
}

TEST(WorkerGroupTest, OneWorkerNeedsNoPeers) {
  std::string dir = makeTempDirectory("torus-wg");
  auto group = WorkerGroup::connect(optionsFor(dir, 0, 1));
  ASSERT_TRUE(group.ok()) << group.status();
  float x[3] = {1, 2, 3};
  EXPECT_TRUE((*group)->allReduce(x, DType::F32, 3, ReduceKind::Sum).ok());
  EXPECT_EQ(x[2], 3.f);
}

TEST(WorkerGroupTest, AllReduceBroadcastAndBarrierAcrossThreeProcesses) {
  std::string dir = makeTempDirectory("torus-wg");
  auto outcomes = runForkedWorkers(3, [&](int rank) -> std::string {
    auto group = WorkerGroup::connect(optionsFor(dir, rank, 3));
    if (!group.ok())
      return statusText(group.status());
    // f32 sum over 3 workers, large enough for several ring segments.
    std::vector<float> x(1 << 20);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<float>(rank + 1) * static_cast<float>(i % 7);
    if (auto s = (*group)->allReduce(x.data(), DType::F32, x.size(),
                                     ReduceKind::Sum);
        !s.ok())
      return statusText(s);
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] != 6.f * static_cast<float>(i % 7))
        return fmt::format("f32 sum: element {} is {}", i, x[i]);
    // i64 max, an odd count.
    std::vector<int64_t> y(7);
    for (size_t i = 0; i < y.size(); ++i)
      y[i] = rank * 10 + static_cast<int64_t>(i);
    if (auto s = (*group)->allReduce(y.data(), DType::I64, 7, ReduceKind::Max);
        !s.ok())
      return statusText(s);
    for (size_t i = 0; i < y.size(); ++i)
      if (y[i] != 20 + static_cast<int64_t>(i))
        return fmt::format("i64 max: element {} is {}", i, y[i]);
    int32_t z[4] = {rank, rank, rank, rank};
    if (auto s = (*group)->broadcast(z, sizeof(z), 2, absl::Seconds(20));
        !s.ok())
      return statusText(s);
    if (z[0] != 2 || z[3] != 2)
      return "broadcast did not deliver the root's value";
    if (auto s = (*group)->barrier(absl::Seconds(20)); !s.ok())
      return statusText(s);
    return "";
  });
  for (int r = 0; r < 3; ++r)
    EXPECT_EQ(outcomes[r].result, "") << "worker " << r;
}

TEST(WorkerGroupTest, ReduceScatterAcrossFourProcesses) {
  // A ring of 4: three steps, each worker ends with its own chunk reduced
  // over all four (checked against the sums and minima computed here);
  // each step moves 2.4 MB, in 3 messages.
  std::string dir = makeTempDirectory("torus-wgrs");
  auto outcomes = runForkedWorkers(4, [&](int rank) -> std::string {
    auto group = WorkerGroup::connect(optionsFor(dir, rank, 4));
    if (!group.ok())
      return statusText(group.status());
    const int64_t chunk = 600011; // odd, and 3 segments of 1 MiB a step
    std::vector<float> x(4 * chunk);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<float>(rank + 1) * static_cast<float>(i % 13);
    std::vector<float> got(chunk);
    if (auto s = (*group)->reduceScatter(x.data(), got.data(), DType::F32,
                                         chunk, ReduceKind::Sum,
                                         absl::Seconds(20));
        !s.ok())
      return statusText(s);
    for (int64_t i = 0; i < chunk; ++i)
      if (got[i] != 10.f * static_cast<float>((rank * chunk + i) % 13))
        return fmt::format("f32 sum: element {} is {}", i, got[i]);
    std::vector<int32_t> y(4 * 3);
    for (size_t i = 0; i < y.size(); ++i)
      y[i] = (rank == static_cast<int>(i % 4) ? -100 : 0) +
             static_cast<int32_t>(i) * (rank + 1);
    // In place: the result is this worker's chunk of the operand.
    if (auto s = (*group)->reduceScatter(y.data(), y.data() + rank * 3,
                                         DType::I32, 3, ReduceKind::Min,
                                         absl::Seconds(20));
        !s.ok())
      return statusText(s);
    for (int i = rank * 3; i < rank * 3 + 3; ++i) {
      int32_t want = INT32_MAX;
      for (int r = 0; r < 4; ++r)
        want = std::min(want, (r == i % 4 ? -100 : 0) + i * (r + 1));
      if (y[i] != want)
        return fmt::format("i32 min: element {} is {}, want {}", i, y[i],
                           want);
    }
    auto bad = (*group)->reduceScatter(y.data(), y.data(), DType::I32, -1,
                                       ReduceKind::Sum, absl::Seconds(20));
    if (bad.code() != absl::StatusCode::kInvalidArgument ||
        std::string(bad.message()).find("negative count -1") ==
            std::string::npos)
      return "a negative count: " + statusText(bad);
    return "";
  });
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(outcomes[r].result, "") << "worker " << r;
}

TEST(WorkerGroupTest, MissingWorkerTimesOutNamingIt) {
  std::string dir = makeTempDirectory("torus-wg");
  WorkerGroupOptions o = optionsFor(dir, 0, 3);
  o.names = {"chief 0", "worker 0", "worker 1"};
  o.connectTimeout = absl::Milliseconds(500);
  const absl::Time start = absl::Now();
  auto group = WorkerGroup::connect(o);
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(group.status().message(),
              HasSubstr("chief 0: worker 0 and worker 1 did not join the job "
                        "within 500ms"));
}

TEST(WorkerGroupTest, ReusedRendezvousIsRejected) {
  std::string dir = makeTempDirectory("torus-wg");
  ASSERT_TRUE(WorkerGroup::connect(optionsFor(dir, 0, 1)).ok());
  auto again = WorkerGroup::connect(optionsFor(dir, 0, 1));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(again.status().message(), HasSubstr("belongs to an earlier job"));
}

TEST(WorkerGroupTest, KilledWorkerIsNamedByEveryOtherWithinTheTimeout) {
  std::string dir = makeTempDirectory("torus-wg");
  const int n = 4;
  auto outcomes = runForkedWorkers(n, [&](int rank) -> std::string {
    WorkerGroupOptions o = optionsFor(dir, rank, n);
    o.names = {"chief 0", "worker 0", "worker 1", "worker 2"};
    o.timeout = absl::Seconds(10);
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return statusText(group.status());
    std::vector<float> x(1 << 16, 1.f);
    for (int step = 0;; ++step) {
      if (rank == 2 && step == 3)
        raise(SIGKILL); // dies mid-training
      absl::Status s =
          (*group)->allReduce(x.data(), DType::F32, x.size(), ReduceKind::Sum);
      if (!s.ok())
        return statusText(s);
      if (step > 1000)
        return "never failed";
    }
  });
  EXPECT_EQ(outcomes[2].result, "killed");
  for (int r : {0, 1, 3}) {
    EXPECT_THAT(outcomes[r].result, HasSubstr("worker 1 is down"))
        << "rank " << r;
    EXPECT_LT(outcomes[r].elapsed, std::chrono::seconds(40)) << "rank " << r;
  }
}

// A stopped worker is still reachable: its kernel answers the others'
// probes, so they time out saying a worker stopped responding, and name
// nobody as unreachable (a cut link is separate_hosts_test.py's and
// model_parallel_hosts_test.py's, which can take a link down).
TEST(WorkerGroupTest, StoppedWorkerTimesOutWithoutBeingCalledUnreachable) {
  std::string dir = makeTempDirectory("torus-wg");
  const int n = 3;
  const std::string pidFile = dir + "/stopped-pid";
  auto outcomes = runForkedWorkers(n, [&](int rank) -> std::string {
    WorkerGroupOptions o = optionsFor(dir, rank, n);
    o.names = {"chief 0", "worker 0", "worker 1"};
    o.timeout = absl::Seconds(2);
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return statusText(group.status());
    float x = 1;
    if (rank == 2) {
      FILE *f = std::fopen((pidFile + ".partial").c_str(), "w");
      std::fprintf(f, "%d\n", static_cast<int>(getpid()));
      std::fclose(f);
      std::rename((pidFile + ".partial").c_str(), pidFile.c_str());
      raise(SIGSTOP); // hangs: the others must time out, then kill it
      return "resumed";
    }
    absl::Status s = (*group)->allReduce(&x, DType::F32, 1, ReduceKind::Sum);
    const std::string reported = dir + "/reported-1";
    if (rank == 1)
      std::fclose(std::fopen(reported.c_str(), "w"));
    if (rank == 0) {
      // Once worker 0 has reported too, the stopped worker (this test's own
      // child) is killed.
      for (int i = 0; i < 3000 && !std::filesystem::exists(reported); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      int pid = 0;
      if (FILE *f = std::fopen(pidFile.c_str(), "r")) {
        if (std::fscanf(f, "%d", &pid) != 1)
          pid = 0;
        std::fclose(f);
      }
      if (pid > 0)
        kill(pid, SIGKILL);
    }
    return statusText(s);
  });
  EXPECT_EQ(outcomes[2].result, "killed");
  for (int r : {0, 1}) {
    EXPECT_THAT(outcomes[r].result,
                HasSubstr("timed out after 2s: another worker stopped "
                          "responding"))
        << "rank " << r;
    EXPECT_THAT(outcomes[r].result, Not(HasSubstr("unreachable")))
        << "rank " << r;
  }
}

} // namespace
} // namespace torus::rt
