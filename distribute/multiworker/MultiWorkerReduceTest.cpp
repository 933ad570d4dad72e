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

#include "distribute/multiworker/ForkedStrategies.h"
#include "distribute/TestUtil.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace torus::distribute {
namespace {

using testing::expectPerWorker;

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
        kTwoWorkers, replicas, "reduce",
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
  expectPerWorker(threeWorkers, 1, "reduce", describe,
                  {"/job:worker/replica:0/task:0 /job:worker/task:0",
                   "/job:worker/replica:0/task:0 /job:worker/task:1",
                   "/job:worker/replica:0/task:0 /job:worker/task:2"});
  // With a chief, the chief leads.
  const ClusterSpec chiefAndWorker{{"chief", {"127.0.0.1:1"}},
                                   {"worker", {"127.0.0.1:2"}}};
  expectPerWorker(chiefAndWorker, 1, "reduce", describe,
                  {"/job:chief/replica:0/task:0 /job:chief/task:0",
                   "/job:chief/replica:0/task:0 /job:worker/task:0"});
}

} // namespace
} // namespace torus::distribute
