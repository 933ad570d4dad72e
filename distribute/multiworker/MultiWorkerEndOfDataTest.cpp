//===- MultiWorkerEndOfDataTest.cpp - Uneven shards end together ----------===//
//
// Spec §3.8 across real worker processes: when one worker's shard runs out,
// every worker agrees on it (the number of replicas with data is summed
// over the workers each step). A worker without data feeds dummy batches
// (batch dimension 0) while any other still has some; when none has, every
// worker's next() is OutOfRange at the same step. Checked on the elements
// each worker sees (text files of unequal length under FILE sharding, with
// and without drop_remainder) and on training: three workers with shards of
// 22, 14 and 9 examples take the same number of steps and end with the
// weights of one process trained on the same global batches.
//
//===----------------------------------------------------------------------===//

#include "distribute/multiworker/ForkedStrategies.h"
#include "distribute/TestUtil.h"
#include "distribute/nn/MlpTraining.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace torus::distribute {
namespace {

using testing::expectPerWorker;
using testing::iterate;
using testing::workers;

/// One text file per worker with `lines[w]` consecutive numbers.
std::vector<std::string> numberFiles(const std::vector<int> &lines) {
  std::string dir = rt::testing::makeTempDirectory("torus-mweod-files");
  std::vector<std::string> files;
  int next = 0;
  for (size_t f = 0; f < lines.size(); ++f) {
    files.push_back(dir + "/file" + std::to_string(f) + ".txt");
    std::ofstream out(files.back());
    for (int i = 0; i < lines[f]; ++i)
      out << next++ << "\n";
  }
  return files;
}

Dataset numbers(const std::vector<std::string> &files) {
  auto parse = [](const Element &e) -> absl::StatusOr<Element> {
    auto bytes = e[0].data<uint8_t>();
    return Element{HostTensor::scalar<int64_t>(
        std::stoll(std::string(bytes.begin(), bytes.end())))};
  };
  return Dataset::textLine(files).map(parse, ElementSpec{{DType::I64, {}}});
}

TEST(MultiWorkerEndOfDataTest, ShortFileFeedsDummyBatchesUntilAllRunOut) {
  // FILE sharding: worker 0 reads 6 numbers, worker 1 two. A global batch
  // of 4 is [2, 2] per worker (§3.3). Worker 1 runs out after one step and
  // feeds empty batches while worker 0 has data; both end after 3 steps.
  // With drop_remainder, worker 1's only batch (2 < 4) is dropped: it has
  // no data at all and still takes worker 0's 2 steps. getNextAsOptional
  // agrees the same way.
  std::vector<std::string> files = numberFiles({6, 2});
  expectPerWorker(
      workers(2), 1, "endofdata",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        Dataset ds = numbers(files).withOptions({AutoShardPolicy::File});
        return iterate(s.experimentalDistributeDataset(ds.batch(4))) + " | " +
               iterate(s.experimentalDistributeDataset(
                   ds.batch(4, /*dropRemainder=*/true))) +
               " | " +
               iterate(s.experimentalDistributeDataset(ds.batch(4)),
                       /*asOptional=*/true);
      },
      {"([0,1])([2,3])([4,5]) | ([0,1])([2,3]) | ([0,1])([2,3])([4,5])",
       "([6,7])([])([]) | ([])([]) | ([6,7])([])([])"});
}

TEST(MultiWorkerEndOfDataTest, FourWorkersTwoReplicasEachEndTogether) {
  // distribute_datasets_from_function: worker w's pipeline has 2w + 1
  // per-replica batches of one element; its two replicas take them in
  // turn. Every worker takes worker 3's 4 steps.
  expectPerWorker(
      workers(4), 2, "endofdata",
      [&](MultiWorkerMirroredStrategy &s, int) -> std::string {
        return iterate(s.distributeDatasetsFromFunction(
            [](const InputContext &ctx) -> absl::StatusOr<Dataset> {
              const int64_t w = ctx.inputPipelineId();
              return Dataset::range(100 * w, 100 * w + 2 * w + 1).batch(1);
            }));
      },
      {"([0] [])([] [])([] [])([] [])",
       "([100] [101])([102] [])([] [])([] [])",
       "([200] [201])([202] [203])([204] [])([] [])",
       "([300] [301])([302] [303])([304] [305])([306] [])"});
}

TEST(MultiWorkerEndOfDataTest, InputErrorOnOneWorkerIsNamedByTheOther) {
  // Worker 1's map fails at its third element: it reports its own error and
  // exits; worker 0, waiting in that step's agreement, names worker 1
  // instead of hanging (or of ending as if the data had run out).
  std::string dir = rt::testing::makeTempDirectory("torus-mweod-error");
  ClusterSpec cluster = workers(2);
  auto outcomes = rt::testing::runForkedWorkers(
      2,
      [&](int position) -> std::string {
        auto s = testing::strategyForTask(cluster, position, 1, dir, "endofdata");
        if (!s.ok())
          return std::string(s.status().ToString());
        auto dist = s->distributeDatasetsFromFunction(
            [](const InputContext &ctx) -> absl::StatusOr<Dataset> {
              const bool failing = ctx.inputPipelineId() == 1;
              return Dataset::range(10)
                  .map(
                      [failing](const Element &e) -> absl::StatusOr<Element> {
                        if (failing && e[0].data<int64_t>()[0] == 2)
                          return absl::DataLossError("record 2 is corrupt");
                        return e;
                      },
                      ElementSpec{{DType::I64, {}}})
                  .batch(1);
            });
        if (!dist.ok())
          return std::string(dist.status().ToString());
        auto it = dist->makeIterator();
        if (!it.ok())
          return std::string(it.status().ToString());
        for (int step = 1; step <= 10; ++step) {
          auto next = it->next();
          if (!next.ok())
            return "step " + std::to_string(step) + ": " +
                   std::string(next.status().ToString());
        }
        return "no error";
      },
      std::chrono::seconds(90));
  EXPECT_THAT(outcomes[1].result,
              testing::StartsWith("step 3: DATA_LOSS: record 2 is corrupt"));
  EXPECT_THAT(outcomes[0].result, testing::StartsWith("step 3: UNAVAILABLE"));
  EXPECT_THAT(outcomes[0].result, testing::HasSubstr("worker 1 is down"));
}

//===----------------------------------------------------------------------===//
// Training on uneven shards
//===----------------------------------------------------------------------===//

constexpr int kWorkers = 3;
constexpr int64_t kPerReplicaBatch = 4;
constexpr int64_t kGlobalBatch = kWorkers * kPerReplicaBatch;
/// Worker w's shard is examples [kShardStart[w], kShardStart[w + 1]): 22, 14
/// and 9 examples, so 6, 4 and 3 batches (the last ones partial).
constexpr int64_t kShardStart[kWorkers + 1] = {0, 22, 36, 45};
constexpr int64_t kSteps = 6;

testing::MlpConfig mlpConfig() {
  testing::MlpConfig c;
  c.examples = kShardStart[kWorkers];
  c.globalBatch = kGlobalBatch;
  return c;
}

/// A small MLP, SGD with momentum, and the step of MlpTrainer (the loss of
/// each example scaled by the global batch).
struct Training {
  std::shared_ptr<nn::Sequential> model;
  std::shared_ptr<nn::Optimizer> optimizer;
  std::unique_ptr<Function> step;

  static absl::StatusOr<Training> create(Strategy &strategy) {
    const testing::MlpConfig c = mlpConfig();
    Training t;
    t.optimizer = std::make_shared<nn::SGD>(0.1, 0.9);
    nn::setRandomSeed(c.seed);
    TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
    nn::DenseOptions first;
    first.activation = "relu";
    first.inputShape = Shape{c.features};
    TORUS_ASSIGN_OR_RETURN(
        t.model, nn::Sequential::create(
                     {nn::Dense::make(c.hidden, first),
                      nn::Dense::make(c.classes)}));
    auto model = t.model;
    auto optimizer = t.optimizer;
    t.step = std::make_unique<Function>(
        "train_step", [model, optimizer](const std::vector<Tensor> &in) {
          GradientTape tape;
          Tensor logits = (*model)(in[0], /*training=*/true);
          Tensor loss = nn::computeAverageLoss(
              nn::losses::sparseCategoricalCrossentropy(in[1], logits,
                                                        /*fromLogits=*/true),
              kGlobalBatch);
          std::vector<Variable> vars = model->trainableVariables();
          (void)optimizer->applyGradients(tape.gradient(loss, vars), vars);
          return std::vector<Tensor>{loss};
        });
    return t;
  }

  /// One step on `inputs`; the loss summed over the replicas.
  absl::StatusOr<float> run(Strategy &strategy, const Values &inputs) {
    TORUS_ASSIGN_OR_RETURN(auto out, strategy.run(*step, inputs));
    TORUS_ASSIGN_OR_RETURN(HostTensor loss, strategy.reduce(ReduceOp::Sum,
                                                            out[0],
                                                            std::nullopt));
    return loss.data<float>()[0];
  }

  /// The trainable weights, flattened (every replica's must be equal).
  absl::StatusOr<std::vector<float>> weights() const {
    std::vector<float> all;
    for (const Variable &v : model->trainableVariables()) {
      std::vector<HostTensor> components = v.components();
      for (const HostTensor &c : components)
        if (c.toVector<float>() != components[0].toVector<float>())
          return absl::InternalError("the replicas of " + v.name() +
                                     " differ");
      for (float x : components[0].toVector<float>())
        all.push_back(x);
    }
    return all;
  }
};

/// Examples [begin, end) of the data set, as one batch.
Values examples(int64_t begin, int64_t end) {
  const testing::MlpConfig c = mlpConfig();
  auto [x, y] = testing::mlpData(c);
  std::vector<float> xs(x.data<float>().begin() + begin * c.features,
                        x.data<float>().begin() + end * c.features);
  std::vector<int64_t> ys(y.data<int64_t>().begin() + begin,
                          y.data<int64_t>().begin() + end);
  return {Value(HostTensor::fromVector<float>({end - begin, c.features}, xs)),
          Value(HostTensor::fromVector<int64_t>({end - begin}, ys))};
}

/// A worker trains on its shard until the distributed iterator ends;
/// writes "steps losses... | weights..." to `file`.
std::string trainWorker(MultiWorkerMirroredStrategy &strategy,
                        const std::string &file) {
  auto t = Training::create(strategy);
  if (!t.ok())
    return std::string(t.status().ToString());
  auto dist = strategy.distributeDatasetsFromFunction(
      [](const InputContext &ctx) -> absl::StatusOr<Dataset> {
        const int64_t id = ctx.inputPipelineId();
        TORUS_ASSIGN_OR_RETURN(
            Dataset all, Dataset::fromTensorSlices(
                             [] {
                               auto [x, y] = testing::mlpData(mlpConfig());
                               return std::vector<HostTensor>{x, y};
                             }()));
        return all.skip(kShardStart[id])
            .take(kShardStart[id + 1] - kShardStart[id])
            .batch(kPerReplicaBatch);
      });
  if (!dist.ok())
    return std::string(dist.status().ToString());
  auto it = dist->makeIterator();
  if (!it.ok())
    return std::string(it.status().ToString());
  int steps = 0;
  std::vector<float> losses;
  for (;;) {
    auto next = it->next();
    if (!next.ok()) {
      if (next.status().code() != absl::StatusCode::kOutOfRange)
        return "step " + std::to_string(steps + 1) + ": " +
               std::string(next.status().ToString());
      break;
    }
    auto loss = t->run(strategy, *next);
    if (!loss.ok())
      return "step " + std::to_string(steps + 1) + ": " +
             std::string(loss.status().ToString());
    losses.push_back(*loss);
    if (++steps > 20)
      return "the iterator did not end";
  }
  auto weights = t->weights();
  if (!weights.ok())
    return std::string(weights.status().ToString());
  std::ofstream f(file);
  f.precision(9);
  f << steps;
  for (float l : losses)
    f << " " << l;
  f << " |";
  for (float x : *weights)
    f << " " << x;
  f << "\n";
  return f.good() ? "" : "cannot write " + file;
}

struct Result {
  int steps = 0;
  std::vector<float> losses, weights;
};

Result readResult(const std::string &file) {
  Result r;
  std::ifstream in(file);
  in >> r.steps;
  for (int s = 0; s < r.steps; ++s) {
    float l;
    in >> l;
    r.losses.push_back(l);
  }
  std::string bar;
  in >> bar;
  EXPECT_EQ(bar, "|") << file;
  float x;
  while (in >> x)
    r.weights.push_back(x);
  return r;
}

TEST(MultiWorkerEndOfDataTest, UnevenShardsTrainLikeOneProcess) {
  std::string dir = rt::testing::makeTempDirectory("torus-mweod-train");
  ClusterSpec cluster = workers(kWorkers);
  auto outcomes = rt::testing::runForkedWorkers(
      kWorkers,
      [&](int w) {
        auto s = testing::strategyForTask(cluster, w, 1, dir, "endofdata");
        if (!s.ok())
          return std::string(s.status().ToString());
        return trainWorker(*s, dir + "/result" + std::to_string(w));
      },
      std::chrono::seconds(150));
  for (int w = 0; w < kWorkers; ++w)
    ASSERT_EQ(outcomes[w].result, "") << "worker " << w;

  // The reference: one process, one replica, global batch k made of every
  // worker's k-th batch (none from a worker whose shard has ended).
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy one,
                             OneDeviceStrategy::create());
  Strategy strategy = one;
  TORUS_ASSERT_OK_AND_ASSIGN(Training reference, Training::create(strategy));
  std::vector<float> referenceLosses;
  for (int64_t k = 0; k < kSteps; ++k) {
    std::vector<float> xs;
    std::vector<int64_t> ys;
    for (int w = 0; w < kWorkers; ++w) {
      const int64_t begin =
          std::min(kShardStart[w] + k * kPerReplicaBatch, kShardStart[w + 1]);
      const int64_t end =
          std::min(begin + kPerReplicaBatch, kShardStart[w + 1]);
      Values part = examples(begin, end);
      for (float v : part[0].tensor().toVector<float>())
        xs.push_back(v);
      for (int64_t v : part[1].tensor().toVector<int64_t>())
        ys.push_back(v);
    }
    const int64_t n = static_cast<int64_t>(ys.size());
    Values batch = {Value(HostTensor::fromVector<float>(
                 {n, mlpConfig().features}, xs)),
             Value(HostTensor::fromVector<int64_t>({n}, ys))};
    TORUS_ASSERT_OK_AND_ASSIGN(float loss, reference.run(strategy, batch));
    referenceLosses.push_back(loss);
  }
  TORUS_ASSERT_OK_AND_ASSIGN(std::vector<float> want, reference.weights());

  for (int w = 0; w < kWorkers; ++w) {
    SCOPED_TRACE("worker " + std::to_string(w));
    Result got = readResult(dir + "/result" + std::to_string(w));
    EXPECT_EQ(got.steps, kSteps);
    ASSERT_EQ(got.losses.size(), referenceLosses.size());
    for (size_t s = 0; s < referenceLosses.size(); ++s)
      EXPECT_NEAR(got.losses[s], referenceLosses[s],
                  1e-5 * std::abs(referenceLosses[s]) + 1e-6)
          << "step " << s + 1;
    ASSERT_EQ(got.weights.size(), want.size());
    double diff = 0, scale = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      diff = std::max(diff, std::abs(double(got.weights[i]) - want[i]));
      scale = std::max(scale, std::abs(double(want[i])));
    }
    EXPECT_LE(diff / scale, 1e-5) << "largest weight difference " << diff;
  }
}

} // namespace
} // namespace torus::distribute
