//===- MlpTraining.h - A 3-layer MLP trained under any strategy -*- C++ -*-===//
//
// Shared by the equivalence and checkpoint tests: a deterministic synthetic
// classification set, a 3-layer MLP built in the strategy's scope, and the
// custom training loop of the TPUStrategy page (GradientTape, per-example
// loss scaled by the global batch, optimizer.apply_gradients).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_NN_MLPTRAINING_H
#define TORUS_DISTRIBUTE_NN_MLPTRAINING_H

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Layers.h"
#include "torus/distribute/nn/Losses.h"
#include "torus/distribute/nn/Optimizers.h"

#include <memory>
#include <random>

namespace torus::distribute::testing {

struct MlpConfig {
  int64_t features = 16;
  int64_t hidden = 32;
  int64_t classes = 4;
  int64_t examples = 512;
  int64_t globalBatch = 64;
  uint64_t seed = 1234;
};

/// x ~ N(0, 1); the label is the argmax of a fixed random projection.
inline std::pair<HostTensor, HostTensor> mlpData(const MlpConfig &c) {
  std::mt19937 gen(7);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::vector<float> projection(c.features * c.classes);
  for (float &p : projection)
    p = normal(gen);
  std::vector<float> x(c.examples * c.features);
  std::vector<int64_t> y(c.examples);
  for (int64_t i = 0; i < c.examples; ++i) {
    std::vector<float> score(c.classes, 0.f);
    for (int64_t j = 0; j < c.features; ++j) {
      float v = normal(gen);
      x[i * c.features + j] = v;
      for (int64_t k = 0; k < c.classes; ++k)
        score[k] += v * projection[j * c.classes + k];
    }
    y[i] = std::max_element(score.begin(), score.end()) - score.begin();
  }
  return {HostTensor::fromVector<float>({c.examples, c.features}, x),
          HostTensor::fromVector<int64_t>({c.examples}, y)};
}

/// A model, its optimizer and the compiled training step on one strategy.
class MlpTrainer {
public:
  static absl::StatusOr<std::unique_ptr<MlpTrainer>>
  create(Strategy strategy, const MlpConfig &config,
         std::shared_ptr<nn::Optimizer> optimizer) {
    auto t = std::unique_ptr<MlpTrainer>(new MlpTrainer(strategy, config));
    t->optimizer_ = std::move(optimizer);
    nn::setRandomSeed(config.seed);
    TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
    nn::DenseOptions first;
    first.activation = "relu";
    first.inputShape = Shape{config.features};
    TORUS_ASSIGN_OR_RETURN(
        t->model_,
        nn::Sequential::create({nn::Dense::make(config.hidden, first),
                                nn::Dense::make(config.hidden, {.activation = "relu"}),
                                nn::Dense::make(config.classes)}));
    return t;
  }

  /// A fresh pass over the data, skipping `skipSteps` global batches.
  absl::Status startData(int64_t skipSteps = 0) {
    auto [x, y] = mlpData(config_);
    TORUS_ASSIGN_OR_RETURN(Dataset ds, Dataset::fromTensorSlices({x, y}));
    ds = ds.repeat().batch(config_.globalBatch, /*dropRemainder=*/true)
             .skip(skipSteps);
    TORUS_ASSIGN_OR_RETURN(DistributedDataset dist,
                           strategy_.experimentalDistributeDataset(ds));
    TORUS_ASSIGN_OR_RETURN(DistributedIterator it, dist.makeIterator());
    iterator_ = std::make_unique<DistributedIterator>(std::move(it));
    return absl::OkStatus();
  }

  /// One training step; returns the mean loss over the global batch.
  absl::StatusOr<float> step() {
    TORUS_ASSIGN_OR_RETURN(Values inputs, iterator_->next());
    TORUS_ASSIGN_OR_RETURN(auto out, strategy_.run(trainStep_, inputs));
    TORUS_ASSIGN_OR_RETURN(HostTensor loss,
                           strategy_.reduce(ReduceOp::Sum, out[0], std::nullopt));
    return loss.data<float>()[0];
  }

  nn::Sequential &model() { return *model_; }
  nn::Optimizer &optimizer() { return *optimizer_; }
  const Function &trainStep() const { return trainStep_; }

private:
  MlpTrainer(Strategy strategy, const MlpConfig &config)
      : strategy_(strategy), config_(config),
        trainStep_("train_step", [this](const std::vector<Tensor> &in) {
          const Tensor &features = in[0], &labels = in[1];
          GradientTape tape;
          Tensor logits = (*model_)(features, /*training=*/true);
          Tensor perExample = nn::losses::sparseCategoricalCrossentropy(
              labels, logits, /*fromLogits=*/true);
          Tensor loss = nn::computeAverageLoss(perExample, config_.globalBatch);
          std::vector<Variable> vars = model_->trainableVariables();
          std::vector<Tensor> grads = tape.gradient(loss, vars);
          (void)optimizer_->applyGradients(grads, vars);
          return std::vector<Tensor>{loss};
        }) {}

  Strategy strategy_;
  MlpConfig config_;
  std::shared_ptr<nn::Sequential> model_;
  std::shared_ptr<nn::Optimizer> optimizer_;
  std::unique_ptr<DistributedIterator> iterator_;
  Function trainStep_;
};

} // namespace torus::distribute::testing

#endif // TORUS_DISTRIBUTE_NN_MLPTRAINING_H
