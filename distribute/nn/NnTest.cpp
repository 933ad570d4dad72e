//===- NnTest.cpp - Layers, losses and optimizers under strategies --------===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Layers.h"
#include "torus/distribute/nn/Losses.h"
#include "torus/distribute/nn/Optimizers.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace torus::distribute {
namespace {

using namespace testing;
using ::testing::FloatNear;
using ::testing::Pointwise;

MirroredStrategy twoReplicas() {
  auto s = MirroredStrategy::create({"GPU:0", "GPU:1"});
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

TEST(NnTest, DenseComputesActivationOfAffine) {
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy strategy, OneDeviceStrategy::create());
  std::shared_ptr<nn::Sequential> model;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    nn::DenseOptions o;
    o.activation = "relu";
    o.inputShape = Shape{2};
    o.kernelInitializer = nn::initializers::constant(0.5);
    o.biasInitializer = nn::initializers::constant(-1.0);
    TORUS_ASSERT_OK_AND_ASSIGN(model, nn::Sequential::create({nn::Dense::make(3, o)}));
  }
  ASSERT_TRUE(model->built());
  EXPECT_EQ(model->weights().size(), 2u);
  EXPECT_THAT(model->trackedVariables()[0].first, "layer-0/kernel");
  EXPECT_THAT(model->weights()[0].name(), ::testing::EndsWith("/kernel"));
  Function fn([&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{(*model)(in[0])};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32({2, 2}, {1, 1, 4, 2})}));
  // [1,1]: 0.5+0.5-1 = 0 ; [4,2]: 2+1-1 = 2.
  EXPECT_EQ(floats(out[0][0]), (std::vector<float>{0, 0, 0, 2, 2, 2}));
}

TEST(NnTest, LayersBuildLazilyInsideTheStep) {
  MirroredStrategy strategy = twoReplicas();
  std::shared_ptr<nn::Sequential> model;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(model, nn::Sequential::create(
                                          {nn::Dense::make(4, {.activation = "tanh"}),
                                           nn::Dense::make(1)}));
  }
  EXPECT_FALSE(model->built());
  Function fn([&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{(*model)(in[0])};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32({1, 3}, {1, 2, 3})}));
  EXPECT_TRUE(model->built());
  EXPECT_EQ(model->weights().size(), 4u);
  EXPECT_EQ(model->weights()[0].typeName(), "MirroredVariable");
  EXPECT_EQ(out[0][0].shape(), (Shape{1, 1}));
  EXPECT_EQ(floats(out[0][0]), floats(out[0][1]));
}

TEST(NnTest, LossValues) {
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy strategy, OneDeviceStrategy::create());
  Function fn([](const std::vector<Tensor> &in) {
    Tensor logits = in[0], labels = in[1];
    Tensor probs = softmax(logits);
    return std::vector<Tensor>{
        nn::losses::sparseCategoricalCrossentropy(labels, logits, true),
        nn::losses::sparseCategoricalCrossentropy(labels, probs, false),
        nn::losses::categoricalCrossentropy(oneHot(reshape(labels, {2}), 3), logits, true),
        nn::losses::meanSquaredError(logits, zerosLike(logits))};
  });
  HostTensor logits = f32({2, 3}, {1, 2, 3, 0, 0, 0});
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto out, strategy.run(fn, {logits, HostTensor::fromVector<int64_t>({2, 1}, {2, 0})}));
  double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  std::vector<float> expected = {static_cast<float>(lse - 3.0),
                                 static_cast<float>(std::log(3.0))};
  EXPECT_THAT(floats(out[0][0]), Pointwise(FloatNear(1e-5), expected));
  EXPECT_THAT(floats(out[1][0]), Pointwise(FloatNear(1e-5), expected));
  EXPECT_THAT(floats(out[2][0]), Pointwise(FloatNear(1e-5), expected));
  EXPECT_THAT(floats(out[3][0]), Pointwise(FloatNear(1e-6), std::vector<float>{14.0f / 3, 0}));
}

TEST(NnTest, KerasReductionUnderAStrategy) {
  MirroredStrategy strategy = twoReplicas();
  nn::MeanSquaredError autoLoss;
  Function bad([&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{autoLoss(in[0], zerosLike(in[0]))};
  });
  auto status = strategy.run(bad, {f32({2, 1}, {1, 2})}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              StartsWith("Please use `tf.keras.losses.Reduction.SUM` or "
                         "`tf.keras.losses.Reduction.NONE` for loss reduction "
                         "when losses are used with `tf.distribute.Strategy` "
                         "outside of the built-in training loops."));
  // Reduction NONE + compute_average_loss: sum / (per-replica batch * R).
  nn::MeanSquaredError none(nn::Reduction::None);
  Function good([&](const std::vector<Tensor> &in) {
    Tensor perExample = none(in[0], zerosLike(in[0]));
    return std::vector<Tensor>{nn::computeAverageLoss(perExample),
                               nn::computeAverageLoss(perExample, 8)};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(good, {f32({2, 1}, {1, 2})}));
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{5.0f / 4});
  EXPECT_EQ(floats(out[1][1]), std::vector<float>{5.0f / 8});
  // With no strategy, AUTO is SUM_OVER_BATCH_SIZE.
  Function plain([&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{autoLoss(in[0], zerosLike(in[0]))};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto d, defaultStrategy().run(plain, {f32({2, 1}, {1, 2})}));
  EXPECT_EQ(floats(d[0][0]), std::vector<float>{2.5});
}

TEST(NnTest, SgdAggregatesGradientsAcrossReplicas) {
  MirroredStrategy strategy = twoReplicas();
  Variable v;
  nn::SGD sgd(0.1, 0.9);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(v, Variable::create(f32(1.0f), {.name = "v"}));
  }
  Function step([&](const std::vector<Tensor> &in) {
    // Replica r's gradient: 0.5 + r; the SUM is 2.0.
    Tensor g = in[0] + astype(getReplicaContext()->replicaIdInSyncGroup(), DType::F32);
    (void)sgd.applyGradients({g}, {v});
    return std::vector<Tensor>{};
  });
  ASSERT_TRUE(strategy.run(step, {f32(0.5f)}).ok());
  // m = -0.1 * 2 = -0.2; v = 0.8.
  EXPECT_THAT(floats(v.components()[0]), Pointwise(FloatNear(1e-6), std::vector<float>{0.8f}));
  EXPECT_EQ(floats(v.components()[0]), floats(v.components()[1]));
  ASSERT_TRUE(strategy.run(step, {f32(0.5f)}).ok());
  // m = 0.9 * -0.2 - 0.2 = -0.38; v = 0.42.
  EXPECT_THAT(floats(v.components()[1]), Pointwise(FloatNear(1e-6), std::vector<float>{0.42f}));
  auto slots = sgd.slotsFor(v);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].second.typeName(), "MirroredVariable");
  EXPECT_EQ(ints(sgd.iterations().components()[0]), std::vector<int64_t>{2});
  EXPECT_EQ(step.numCompiles(), 1);
}

TEST(NnTest, AdamMatchesItsFormula) {
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy strategy, OneDeviceStrategy::create());
  Variable v;
  nn::Adam adam(0.01);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(v, Variable::create(f32(1.0f), {.name = "v"}));
  }
  Function step([&](const std::vector<Tensor> &in) {
    (void)adam.applyGradients({in[0]}, {v});
    return std::vector<Tensor>{};
  });
  double var = 1.0, m = 0, s = 0;
  for (int t = 1; t <= 3; ++t) {
    double g = 0.3 * t;
    ASSERT_TRUE(strategy.run(step, {f32(static_cast<float>(g))}).ok());
    double lr = 0.01 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t));
    m += (g - m) * 0.1;
    s += (g * g - s) * 0.001;
    var -= lr * m / (std::sqrt(s) + 1e-7);
  }
  EXPECT_NEAR(floats(v.components()[0])[0], var, 1e-6);
}

TEST(NnTest, ApplyGradientsErrors) {
  MirroredStrategy strategy = twoReplicas();
  Variable v;
  nn::SGD sgd(0.1);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(v, Variable::create(f32(1.0f), {.name = "dense/kernel"}));
    EXPECT_STATUS(sgd.applyGradients({Tensor()}, {v}),
                  absl::StatusCode::kFailedPrecondition,
                  "`apply_gradients() cannot be called in cross-replica "
                  "context. Use `tf.distribute.Strategy.run` to enter replica "
                  "context.");
  }
  Function none([&](const std::vector<Tensor> &in) {
    (void)sgd.applyGradients({Tensor()}, {v});
    return in;
  });
  EXPECT_STATUS(strategy.run(none, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                "No gradients provided for any variable: (['dense/kernel:0'],).");
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy central,
                             CentralStorageStrategy::create({"GPU:0", "GPU:1"}));
  Variable c;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, central.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(c, Variable::create(f32(1.0f)));
  }
  Function noAggregate([&](const std::vector<Tensor> &in) {
    (void)sgd.applyGradients({in[0]}, {c}, false);
    return std::vector<Tensor>{};
  });
  EXPECT_STATUS(central.run(noAggregate, {f32(1.0f)}),
                absl::StatusCode::kUnimplemented,
                "`experimental_aggregate_gradients=False is not supported for "
                "ParameterServerStrategy and CentralStorageStrategy");
}

TEST(NnTest, GradientTapeOverVariablesSumsANonScalarTarget) {
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy strategy, OneDeviceStrategy::create());
  Variable w;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(w, Variable::create(f32({2}, {1, 2})));
  }
  Function fn([&](const std::vector<Tensor> &in) {
    GradientTape tape;
    Tensor y = w.read() * in[0]; // non-scalar
    return tape.gradient(y, std::vector<Variable>{w});
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32({2}, {3, 4})}));
  EXPECT_EQ(floats(out[0][0]), (std::vector<float>{3, 4}));
}

} // namespace
} // namespace torus::distribute
