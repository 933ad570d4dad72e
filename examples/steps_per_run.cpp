//===- steps_per_run.cpp - TPUStrategyV1 with steps_per_run ----------------===//
//
// tf.compat.v1.distribute.experimental.TPUStrategy(resolver,
// steps_per_run=5): experimental_run_steps_on_iterator runs 5 training
// steps per call on the devices (the compiled step loops on every core,
// variables stay on device between steps, each step takes the next batch).
// A linear model y = x.w + b is fit by SGD over 8 replicas; the last step's
// loss comes back reduced. With steps_per_run=1 the same call runs one step
// whatever `iterations` is, as in TensorFlow.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Layers.h"
#include "torus/distribute/nn/Losses.h"
#include "torus/distribute/nn/Optimizers.h"

#include <cstdio>
#include <random>

using namespace torus::distribute;
using torus::DType;
using torus::HostTensor;
using torus::Shape;
using torus::Tensor;

namespace {

Dataset regressionData() {
  std::mt19937 gen(3);
  std::normal_distribution<float> normal(0.f, 1.f);
  const int64_t n = 256, features = 4;
  std::vector<float> x(n * features), y(n);
  const float w[features] = {1.f, -2.f, 0.5f, 3.f};
  for (int64_t i = 0; i < n; ++i) {
    float dot = 0.25f;
    for (int64_t j = 0; j < features; ++j) {
      x[i * features + j] = normal(gen);
      dot += w[j] * x[i * features + j];
    }
    y[i] = dot;
  }
  return *Dataset::fromTensorSlices({HostTensor::fromVector<float>({n, features}, x),
                                     HostTensor::fromVector<float>({n, 1}, y)});
}

absl::StatusOr<std::vector<float>> train(int64_t stepsPerRun, int64_t calls,
                                         int64_t iterations) {
  TORUS_ASSIGN_OR_RETURN(TPUStrategyV1 strategy,
                         TPUStrategyV1::create(nullptr, stepsPerRun));
  std::shared_ptr<nn::Sequential> model;
  nn::SGD optimizer(0.1);
  {
    TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
    nn::setRandomSeed(0);
    TORUS_ASSIGN_OR_RETURN(
        model, nn::Sequential::create({nn::Dense::make(1, {.inputShape = Shape{4}})}));
  }
  TORUS_ASSIGN_OR_RETURN(DistributedDataset dist,
                         strategy.experimentalDistributeDataset(
                             regressionData().repeat().batch(32, true)));
  TORUS_ASSIGN_OR_RETURN(DistributedIterator iterator, dist.makeIterator());
  auto stepFn = [&](StepContext &ctx, const std::vector<Tensor> &inputs) {
    GradientTape tape;
    Tensor perExample =
        nn::losses::meanSquaredError(inputs[1], (*model)(inputs[0], true));
    Tensor loss = nn::computeAverageLoss(perExample, 32);
    std::vector<Variable> vars = model->trainableVariables();
    (void)optimizer.applyGradients(tape.gradient(loss, vars), vars);
    ctx.setLastStepOutput("loss", loss, ReduceOp::Sum);
    return std::vector<Tensor>{};
  };
  std::vector<float> losses;
  for (int64_t c = 0; c < calls; ++c) {
    TORUS_ASSIGN_OR_RETURN(
        MultiStepContext ctx,
        strategy.experimentalRunStepsOnIterator(stepFn, iterator, iterations));
    TORUS_ASSIGN_OR_RETURN(HostTensor steps,
                           optimizer.iterations().value());
    float loss = ctx.reducedOutputs.at("loss").data<float>()[0];
    std::printf("  call %lld: %lld step(s) on device, %lld in all, last loss %.6f\n",
                static_cast<long long>(c + 1),
                static_cast<long long>(ctx.stepsRun),
                static_cast<long long>(steps.data<int64_t>()[0]), loss);
    losses.push_back(loss);
  }
  return losses;
}

} // namespace

int main() {
  std::printf("TPUStrategyV1(steps_per_run=5), 4 calls:\n");
  auto five = train(5, 4, 5);
  std::printf("TPUStrategyV1(steps_per_run=1), iterations=5 runs one step:\n");
  auto one = train(1, 2, 5);
  if (!five.ok() || !one.ok()) {
    std::fprintf(stderr, "error: %s\nFAILED\n",
                 (!five.ok() ? five.status() : one.status()).ToString().c_str());
    return 1;
  }
  bool learned = five->back() < five->front() / 10;
  std::printf("check: the loss fell tenfold over 20 steps: %s\n",
              learned ? "yes" : "NO");
  if (!learned) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
