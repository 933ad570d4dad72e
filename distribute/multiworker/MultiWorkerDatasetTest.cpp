//===- MultiWorkerDatasetTest.cpp - Input sharding across worker processes -===//
//
// Spec §3.6–§3.7 with real worker processes: each forked process creates a
// MultiWorkerMirroredStrategy for its task (SimpleClusterResolver) and
// distributes the datasets of TensorFlow's multi-worker input tests; the
// elements each worker's replicas receive must be TensorFlow's.
//
//===----------------------------------------------------------------------===//

#include "distribute/multiworker/ForkedStrategies.h"
#include "distribute/TestUtil.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace torus::distribute {
namespace {

using testing::expectPerWorker;
using testing::iterate;

const ClusterSpec kTwoWorkers{{"worker", {"127.0.0.1:1", "127.0.0.1:2"}}};
const ClusterSpec kChiefAndWorker{{"chief", {"127.0.0.1:1"}},
                                  {"worker", {"127.0.0.1:2"}}};

TEST(MultiWorkerDatasetTest, UnevenBatchesFourReplicasOnTwoWorkers) {
  // input_lib_test.py::testUnevenDatasetBatchesMultiWorkerFourReplicas.
  expectPerWorker(
      kTwoWorkers, 2, "dataset",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        if (s.numReplicasInSync() != 4)
          return "numReplicasInSync " + std::to_string(s.numReplicasInSync());
        return iterate(s.experimentalDistributeDataset(
                   Dataset::range(15).batch(4))) +
               " | " +
               iterate(s.experimentalDistributeDataset(
                   Dataset::range(15).batch(4, /*dropRemainder=*/true)));
      },
      {"([0] [2])([4] [6])([8] [10])([12] [14]) | ([0] [2])([4] [6])([8] [10])",
       "([1] [3])([5] [7])([9] [11])([13] []) | ([1] [3])([5] [7])([9] [11])"});
}

TEST(MultiWorkerDatasetTest, DataShardingLastPartialBatchAndOff) {
  expectPerWorker(
      kChiefAndWorker, 1, "dataset",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        // strategy_common_test::testSimpleInputFromDatasetLastPartialBatch,
        // input_lib_test::testMWMSWithDataSharding (AUTO and DATA),
        // testMWMSPartialBatch (OFF: everyone reads everything).
        Dataset data = Dataset::range(8).batch(3).withOptions(
            {AutoShardPolicy::Data});
        Dataset off = Dataset::range(12).batch(8).withOptions(
            {AutoShardPolicy::Off});
        return iterate(s.experimentalDistributeDataset(
                   Dataset::range(14).batch(8))) +
               " | " +
               iterate(s.experimentalDistributeDataset(
                   Dataset::range(8).batch(3))) +
               " | " + iterate(s.experimentalDistributeDataset(data)) +
               " | " + iterate(s.experimentalDistributeDataset(off));
      },
      {"([0,1,2,3])([8,9,10]) | ([0,1])([3,4])([6]) | ([0,1])([3,4])([6]) | "
       "([0,1,2,3])([4,5,6,7])([8,9,10,11])",
       "([4,5,6,7])([11,12,13]) | ([2])([5])([7]) | ([2])([5])([7]) | "
       "([0,1,2,3])([4,5,6,7])([8,9,10,11])"});
}

TEST(MultiWorkerDatasetTest, FileShardingAndInputContexts) {
  expectPerWorker(
      kTwoWorkers, 2, "dataset",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        // FILE with more than one worker: in-memory sources cannot be.
        std::string file = iterate(s.experimentalDistributeDataset(
            Dataset::range(8).batch(4).withOptions({AutoShardPolicy::File})));
        // distribute_datasets_from_function: one pipeline per worker.
        std::string contexts;
        auto dist = s.distributeDatasetsFromFunction(
            [&](const InputContext &ctx) -> absl::StatusOr<Dataset> {
              contexts = std::to_string(ctx.numInputPipelines()) + "," +
                         std::to_string(ctx.inputPipelineId()) + "," +
                         std::to_string(ctx.numReplicasInSync());
              return Dataset::range(4).batch(1);
            });
        return file.substr(0, file.find(':')) + " | " + contexts + " | " +
               iterate(std::move(dist));
      },
      {"NOT_FOUND | 2,0,4 | ([0] [1])([2] [3])",
       "NOT_FOUND | 2,1,4 | ([0] [1])([2] [3])"});
}

TEST(MultiWorkerDatasetTest, TextLineFilesAreShardedByFile) {
  // The Distributed Input tutorial's FILE example: 2 files of 6 numbers, a
  // global batch of 4 on 2 workers. Each worker reads its own file and the
  // modern rebatch splits it [2, 2] (spec §3.7's note: the source, not the
  // tutorial's printout).
  std::string dir = rt::testing::makeTempDirectory("torus-mwfiles");
  std::vector<std::string> files;
  for (int f = 0; f < 2; ++f) {
    files.push_back(dir + "/file" + std::to_string(f) + ".txt");
    std::ofstream out(files.back());
    for (int i = 0; i < 6; ++i)
      out << 6 * f + i << "\n";
  }
  auto parse = [](const Element &e) -> absl::StatusOr<Element> {
    auto bytes = e[0].data<uint8_t>();
    return Element{HostTensor::scalar<int64_t>(
        std::stoll(std::string(bytes.begin(), bytes.end())))};
  };
  expectPerWorker(
      kTwoWorkers, 1, "dataset",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        return iterate(s.experimentalDistributeDataset(
            Dataset::textLine(files)
                .map(parse, ElementSpec{{DType::I64, {}}})
                .batch(4)));
      },
      {"([0,1])([2,3])([4,5])", "([6,7])([8,9])([10,11])"});
}

TEST(MultiWorkerDatasetTest, ThreeWorkersTheLastGetsEmptySlices) {
  // auto_shard_dataset_test::testUseLegacyRebatchWithDataSharding.
  const ClusterSpec three{
      {"worker", {"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"}}};
  expectPerWorker(
      three, 1, "dataset",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        return iterate(s.experimentalDistributeDataset(
            Dataset::range(8).batch(4).withOptions({AutoShardPolicy::Data})));
      },
      {"([0,1])([4,5])", "([2,3])([6,7])", "([])([])"});
}

} // namespace
} // namespace torus::distribute
