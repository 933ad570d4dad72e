//===- MultiWorkerDatasetTest.cpp - Input sharding across worker processes -===//
//
// Spec §3.6–§3.7 with real worker processes: each forked process creates a
// MultiWorkerMirroredStrategy for its task (SimpleClusterResolver) and
// distributes the datasets of TensorFlow's multi-worker input tests; the
// elements each worker's replicas receive must be TensorFlow's.
//
//===----------------------------------------------------------------------===//

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

using Steps = std::vector<std::vector<std::vector<int64_t>>>;

std::string show(const Steps &steps) {
  std::ostringstream out;
  for (const auto &step : steps) {
    out << "(";
    for (size_t r = 0; r < step.size(); ++r) {
      out << (r ? " " : "") << "[";
      for (size_t i = 0; i < step[r].size(); ++i)
        out << (i ? "," : "") << step[r][i];
      out << "]";
    }
    out << ")";
  }
  return out.str();
}

/// Every step's per-replica elements of component 0, or the error.
std::string iterate(absl::StatusOr<DistributedDataset> dist) {
  if (!dist.ok())
    return std::string(dist.status().ToString());
  auto it = dist->makeIterator();
  if (!it.ok())
    return std::string(it.status().ToString());
  Steps steps;
  for (int s = 0; s < 20; ++s) {
    auto next = it->next();
    if (!next.ok()) {
      if (next.status().code() != absl::StatusCode::kOutOfRange)
        return std::string(next.status().ToString());
      break;
    }
    steps.push_back(testing::perReplicaInts({*next})[0]);
  }
  return show(steps);
}

/// A strategy for task `position` of `cluster` (chief first) with `r`
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
  mw.jobId = "dataset";
  return MultiWorkerMirroredStrategy::create(
      std::make_shared<SimpleClusterResolver>(cluster, o), {}, r, mw);
}

/// Runs `fn` in one process per task of `cluster`, each with the strategy
/// for its task (`replicas` local replicas), and expects task i's result to
/// be `expected[i]`.
void expectPerWorker(
    const ClusterSpec &cluster, int replicas,
    const std::function<std::string(MultiWorkerMirroredStrategy &)> &fn,
    const std::vector<std::string> &expected) {
  int n = 0;
  for (const auto &[job, tasks] : cluster)
    n += static_cast<int>(tasks.size());
  std::string dir = rt::testing::makeTempDirectory("torus-mwds");
  auto outcomes = rt::testing::runForkedWorkers(n, [&](int position) {
    auto s = strategyFor(cluster, position, replicas, dir);
    std::string got =
        s.ok() ? fn(*s) : std::string(s.status().ToString());
    return got == expected[position]
               ? std::string()
               : "got " + got + "\nwant " + expected[position];
  });
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(outcomes[i].result, "") << "task " << i;
}

const ClusterSpec kTwoWorkers{{"worker", {"127.0.0.1:1", "127.0.0.1:2"}}};
const ClusterSpec kChiefAndWorker{{"chief", {"127.0.0.1:1"}},
                                  {"worker", {"127.0.0.1:2"}}};

TEST(MultiWorkerDatasetTest, UnevenBatchesFourReplicasOnTwoWorkers) {
  // input_lib_test.py::testUnevenDatasetBatchesMultiWorkerFourReplicas.
  expectPerWorker(
      kTwoWorkers, 2,
      [&](MultiWorkerMirroredStrategy &s) -> std::string {
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
      kChiefAndWorker, 1,
      [&](MultiWorkerMirroredStrategy &s) -> std::string {
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
      kTwoWorkers, 2,
      [&](MultiWorkerMirroredStrategy &s) -> std::string {
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
      kTwoWorkers, 1,
      [&](MultiWorkerMirroredStrategy &s) -> std::string {
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
      three, 1,
      [&](MultiWorkerMirroredStrategy &s) -> std::string {
        return iterate(s.experimentalDistributeDataset(
            Dataset::range(8).batch(4).withOptions({AutoShardPolicy::Data})));
      },
      {"([0,1])([4,5])", "([2,3])([6,7])", "([])([])"});
}

} // namespace
} // namespace torus::distribute
