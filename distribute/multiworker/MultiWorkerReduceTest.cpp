//===- MultiWorkerReduceTest.cpp - MWMS reduce and config across processes -===//
//
// Spec §2.3, §5.4, §5.5 with real worker processes: each forked process
// creates a MultiWorkerMirroredStrategy for its task (SimpleClusterResolver).
// A plain (non-distributed) tensor reduced with SUM is summed over the
// workers, one contribution each (strategy_common_test.py::
// testReduceHostTensor: 1.0 on 2 workers is 2.0), MEAN divides by the number
// of workers; update_config_proto names the collective group leader and this
// worker's device filter (collective_all_reduce_strategy_test.py::
// testUpdateConfigProto).
//
//===----------------------------------------------------------------------===//

#include "distribute/TestUtil.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace torus::distribute {
namespace {

/// The strategy of task `position` of `cluster` (chief first), `r` local
/// replicas, joined through `dir`.
absl::StatusOr<MultiWorkerMirroredStrategy>
strategyFor(const ClusterSpec &cluster, int position, int r,
            const std::string &dir) {
  const bool hasChief = cluster.count("chief") > 0;
  SimpleClusterResolverOptions o;
  if (hasChief && position == 0) {
    o.taskType = "chief";
    o.taskId = 0;
  } else {
    o.taskType = "worker";
    o.taskId = hasChief ? position - 1 : position;
  }
  MultiWorkerOptions mw;
  mw.rendezvousDirectory = dir;
  mw.jobId = "reduce";
  return MultiWorkerMirroredStrategy::create(
      std::make_shared<SimpleClusterResolver>(cluster, o), {}, r, mw);
}

/// Runs `fn` in one process per task, each with the strategy of its task
/// (`replicas` local replicas); task i's result must be `expected[i]`.
void expectPerWorker(
    const ClusterSpec &cluster, int replicas,
    const std::function<std::string(MultiWorkerMirroredStrategy &, int)> &fn,
    const std::vector<std::string> &expected) {
  int n = 0;
  for (const auto &[job, tasks] : cluster)
    n += static_cast<int>(tasks.size());
  std::string dir = rt::testing::makeTempDirectory("torus-mwreduce");
  auto outcomes = rt::testing::runForkedWorkers(n, [&](int position) {
    auto s = strategyFor(cluster, position, replicas, dir);
    std::string got =
        s.ok() ? fn(*s, position) : std::string(s.status().ToString());
    return got == expected[position]
               ? std::string()
               : "got " + got + "\nwant " + expected[position];
  });
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(outcomes[i].result, "") << "task " << i;
}

std::string show(const absl::StatusOr<HostTensor> &t) {
  if (!t.ok())
    return std::string(t.status().ToString());
  std::ostringstream out;
  out << "[";
  std::vector<float> v = testing::floats(*t);
  for (size_t i = 0; i < v.size(); ++i)
    out << (i ? "," : "") << v[i];
  return out.str() + "]";
}

const ClusterSpec kTwoWorkers{{"worker", {"127.0.0.1:1", "127.0.0.1:2"}}};

TEST(MultiWorkerReduceTest, PlainTensorIsSummedOverTheWorkers) {
  for (int replicas : {1, 2}) {
    SCOPED_TRACE("replicas per worker " + std::to_string(replicas));
    expectPerWorker(
        kTwoWorkers, replicas,
        [](MultiWorkerMirroredStrategy &s, int position) {
          HostTensor one = HostTensor::scalar<float>(1.0f);
          // Each worker's own value: 1 on worker 0, 3 on worker 1.
          HostTensor own =
              HostTensor::scalar<float>(position == 0 ? 1.0f : 3.0f);
          auto batch = s.extended().batchReduceTo(
              "sum", {Value(one), Value(own)});
          std::string b = batch.ok() ? show((*batch)[0]) + show((*batch)[1])
                                     : std::string(batch.status().ToString());
          return show(s.reduce(ReduceOp::Sum, one, std::nullopt)) + " " +
                 show(s.reduce("MEAN", one, std::nullopt)) + " " +
                 show(s.reduce(ReduceOp::Sum, own, std::nullopt)) + " " +
                 show(s.reduce(ReduceOp::Mean, own, std::nullopt)) + " " +
                 show(s.extended().reduceTo(ReduceOp::Sum, own)) + " " + b;
        },
        {"[2] [1] [4] [2] [4] [2][4]", "[2] [1] [4] [2] [4] [2][4]"});
  }
}

TEST(MultiWorkerReduceTest, UpdateConfigProtoNamesLeaderAndDeviceFilter) {
  // testUpdateConfigProto: worker 1 of 3 workers, no chief.
  const ClusterSpec threeWorkers{
      {"worker", {"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"}}};
  auto describe = [](MultiWorkerMirroredStrategy &s, int) -> std::string {
    ConfigProto in;
    in.deviceFilters = {"/job:ps"};
    auto c = s.updateConfigProto(in);
    if (!c.ok())
      return std::string(c.status().ToString());
    std::string filters;
    for (const std::string &f : c->deviceFilters)
      filters += " " + f;
    return c->collectiveGroupLeader + filters;
  };
  expectPerWorker(threeWorkers, 1, describe,
                  {"/job:worker/replica:0/task:0 /job:worker/task:0",
                   "/job:worker/replica:0/task:0 /job:worker/task:1",
                   "/job:worker/replica:0/task:0 /job:worker/task:2"});
  // With a chief, the chief leads.
  const ClusterSpec chiefAndWorker{{"chief", {"127.0.0.1:1"}},
                                   {"worker", {"127.0.0.1:2"}}};
  expectPerWorker(chiefAndWorker, 1, describe,
                  {"/job:chief/replica:0/task:0 /job:chief/task:0",
                   "/job:chief/replica:0/task:0 /job:worker/task:0"});
}

} // namespace
} // namespace torus::distribute
