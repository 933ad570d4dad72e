//===- MisuseTest.cpp - Mistakes in the embedding API are Statuses --------===//
//
// Each test is a mistake a user made writing a program against the public
// headers from scratch, which used to crash, train nothing or compute the
// wrong thing without a word. Each must now be a Status naming the problem.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Layers.h"
#include "torus/distribute/nn/Losses.h"
#include "torus/distribute/nn/Optimizers.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;
using ::testing::HasSubstr;

MirroredStrategy twoReplicas() {
  auto s = MirroredStrategy::create({"GPU:0", "GPU:1"});
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

HostTensor f64(Shape shape, std::vector<double> v) {
  return HostTensor::fromVector<double>(std::move(shape), v);
}

// A step function taking two tensors run with one argument: TypeError in
// TensorFlow; it used to index past the end of the arguments and crash.
TEST(MisuseTest, RunWithTooFewArgumentsForATypedFunction) {
  MirroredStrategy strategy = twoReplicas();
  Function step("train_step", [](Tensor x, Tensor y) { return x + y; });
  EXPECT_EQ(step.arity(), 2);
  EXPECT_STATUS(strategy.run(step, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                "train_step() takes 2 positional arguments but 1 was given");
  EXPECT_STATUS(strategy.run(step, {f32(1.0f), f32(2.0f), f32(3.0f)}),
                absl::StatusCode::kInvalidArgument,
                "train_step() takes 2 positional arguments but 3 were given");
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(step, {f32(1.0f), f32(2.0f)}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(floats(out[0][1]), std::vector<float>{3.0f});
}

// The same through the eager form (a plain callable, traced every call).
TEST(MisuseTest, EagerRunChecksArityToo) {
  MirroredStrategy strategy = twoReplicas();
  EXPECT_STATUS(strategy.run([](Tensor x, Tensor y) { return x * y; }, {f32(2.0f)}),
                absl::StatusCode::kInvalidArgument,
                "replica_fn() takes 2 positional arguments but 1 was given");
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto out, strategy.run([](Tensor x, Tensor y) { return x * y; },
                             {f32(2.0f), f32(4.0f)}));
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{8.0f});
}

// The vector form cannot know how many arguments it reads; reading past the
// end with at() is reported instead of being undefined behaviour.
TEST(MisuseTest, VectorFormReadingPastTheArgumentsWithAt) {
  MirroredStrategy strategy = twoReplicas();
  Function step("train_step", [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in.at(0) + in.at(1)};
  });
  EXPECT_EQ(step.arity(), -1);
  auto out = strategy.run(step, {f32(1.0f)});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("train_step() read an argument it was not given (1 "
                        "given): "));
}

// Typed functions may return any structure of tensors (trace()'s rule): it
// is flattened depth first into run()'s results.
TEST(MisuseTest, TypedFunctionReturnsAStructure) {
  MirroredStrategy strategy = twoReplicas();
  Function step("step", [](Tensor x) {
    return std::make_tuple(x * 2, std::vector<Tensor>{x + 1, x - 1});
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(step, {f32(5.0f)}));
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{10.0f});
  EXPECT_EQ(floats(out[1][1]), std::vector<float>{6.0f});
  EXPECT_EQ(floats(out[2][0]), std::vector<float>{4.0f});
}

// f64 features into an f32 Dense layer (reported as "No gradients provided"
// with run() returning OK): the features are promoted, as JAX promotes and
// Keras casts, and the step trains the f32 weights by the right amount.
TEST(MisuseTest, F64FeaturesIntoAnF32DenseLayerTrain) {
  MirroredStrategy strategy = twoReplicas();
  std::shared_ptr<nn::Sequential> model;
  nn::SGD sgd(0.1);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(
        model, nn::Sequential::create({nn::Dense::make(1, {.inputShape = Shape{2}})}));
  }
  std::vector<float> w = floats(model->trainableVariables()[0].components()[0]);
  Function step("train_step", [&](Tensor x, Tensor y) {
    GradientTape tape;
    Tensor loss = nn::losses::meanSquaredError(y, (*model)(x, true));
    std::vector<Variable> vars = model->trainableVariables();
    (void)sgd.applyGradients(tape.gradient(loss, vars), vars);
    return loss;
  });
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto out, strategy.run(step, {f64({1, 2}, {1.0, 2.0}), f32({1, 1}, {0.5f})}));
  // pred = w0 + 2 w1 (bias 0); d loss / d w = 2 (pred - 0.5) x per replica,
  // summed over the two replicas.
  double pred = w[0] + 2.0 * w[1];
  double g = 2.0 * (pred - 0.5);
  std::vector<float> after = floats(model->trainableVariables()[0].components()[1]);
  EXPECT_NEAR(after[0], w[0] - 0.1 * 2 * g * 1.0, 1e-5);
  EXPECT_NEAR(after[1], w[1] - 0.1 * 2 * g * 2.0, 1e-5);
}

// applyGradients in a plain trace (Jit, torus::trace) whose Status is
// ignored: the trace fails, rather than compiling a step that trains nothing.
TEST(MisuseTest, ApplyGradientsOutsideAStrategyStepFailsTheTrace) {
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, Variable::create(f32(1.0f), {.name = "w"}));
  nn::SGD sgd(0.1);
  auto traced = trace("f", {{DType::F32, {}}}, [&](Tensor x) {
    (void)sgd.applyGradients({x}, {v});
    return x;
  });
  ASSERT_FALSE(traced.ok());
  EXPECT_THAT(std::string(traced.status().message()),
              HasSubstr("`apply_gradients() cannot be called in cross-replica "
                        "context. Use `tf.distribute.Strategy.run` to enter "
                        "replica context."));
}

// The failure applyGradients returns inside the step is also run()'s, even
// when the step function ignores it.
TEST(MisuseTest, IgnoredApplyGradientsFailureFailsTheRun) {
  MirroredStrategy strategy = twoReplicas();
  Variable v;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(v, Variable::create(f32(1.0f), {.name = "w"}));
  }
  nn::SGD sgd(0.1);
  Function step("step", [&](Tensor x) {
    (void)sgd.applyGradients({Tensor()}, {v});
    return x;
  });
  EXPECT_STATUS(strategy.run(step, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                "No gradients provided for any variable: (['w:0'],).");
}

// A variable created outside any scope is one plain variable; every replica
// updating it used to add up the replicas' updates.
TEST(MisuseTest, UpdatingAVariableCreatedOutsideTheScopeInReplicaContext) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, Variable::create(f32(1.0f), {.name = "v"}));
  Function step("step", [&](Tensor x) {
    v.assignAdd(x);
    return x;
  });
  auto out = strategy.run(step, {f32(1.0f)});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument) << out.status();
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("variable 'v' was created outside the scope of "
                        "MirroredStrategy"));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor value, v.value());
  EXPECT_EQ(floats(value), std::vector<float>{1.0f});
  // Reading it is fine: every replica sees the same value.
  Function reads("reads", [&](Tensor x) { return x + v.read(); });
  TORUS_ASSERT_OK_AND_ASSIGN(auto sum, strategy.run(reads, {f32(1.0f)}));
  EXPECT_EQ(floats(sum[0][1]), std::vector<float>{2.0f});
  // The optimizer refuses it as TensorFlow's colocate_vars_with does.
  nn::SGD sgd(0.1);
  Function train("train", [&](Tensor x) {
    GradientTape tape;
    Tensor loss = x * v.read();
    (void)sgd.applyGradients(tape.gradient(loss, std::vector<Variable>{v}),
                             std::vector<Variable>{v});
    return loss;
  });
  auto trained = strategy.run(train, {f32(1.0f)});
  EXPECT_EQ(trained.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(trained.status().message()),
              HasSubstr("was created outside the scope of MirroredStrategy"));
  // One replica: nothing to add up, so it is allowed (the default strategy).
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy one, OneDeviceStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(auto once, one.run(step, {f32(2.0f)}));
  TORUS_ASSERT_OK_AND_ASSIGN(value, v.value());
  EXPECT_EQ(floats(value), std::vector<float>{3.0f});
}

// Variable::read() is the replica function's read; in a plain trace it is
// an error of that trace naming the variable.
TEST(MisuseTest, VariableReadOutsideAReplicaFunction) {
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, Variable::create(f32(1.0f), {.name = "v"}));
  auto traced = trace("f", {{DType::F32, {}}}, [&](Tensor x) { return x + v.read(); });
  ASSERT_FALSE(traced.ok());
  EXPECT_EQ(traced.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(traced.status().message()),
              HasSubstr("Variable::read() of 'v' outside a replica function"));
  // In host code there is no trace to fail: the tensor is invalid, and the
  // trace that uses it says what such a tensor may come from.
  Tensor t = v.read();
  EXPECT_FALSE(t.valid());
  auto used = trace("g", {{DType::F32, {}}}, [&](Tensor x) { return x + t; });
  ASSERT_FALSE(used.ok());
  EXPECT_THAT(std::string(used.status().message()),
              HasSubstr("or from Variable::read() outside a replica function"));
}

// optLevel is 0 to 3, as LLVM's; 7 used to be taken as 3.
TEST(MisuseTest, CompileOptionsAreChecked) {
  auto fn = trace("f", {{DType::F32, {}}}, [](Tensor x) { return x * 2; });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_STATUS(compile(*fn, {.optLevel = 7}), absl::StatusCode::kInvalidArgument,
                "CompileOptions::optLevel is 7; it must be 0 to 3");
  EXPECT_STATUS(compile(*fn, {.numReplicas = 0}), absl::StatusCode::kInvalidArgument,
                "CompileOptions::numReplicas is 0; it must be at least 1");
  EXPECT_STATUS(compile(*fn, {.numPartitions = -2}), absl::StatusCode::kInvalidArgument,
                "CompileOptions::numPartitions is -2; it must be at least 0 "
                "(0: as traced)");
}

// Jit takes trace()'s typed form too and checks the count of inputs.
TEST(MisuseTest, JitTakesTypedFunctionsAndChecksArity) {
  TORUS_ASSERT_OK_AND_ASSIGN(EmulatedMesh mesh, EmulatedMesh::create(1));
  Jit jit("mul", [](Tensor x, Tensor y) { return x * y; });
  auto bad = jit.run(mesh, {{HostTensor::scalar(2.0f)}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("trace 'mul': the function takes 2 tensors but 1 input "
                        "specs were given"));
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto out, jit.run(mesh, {{HostTensor::scalar(2.0f), HostTensor::scalar(5.0f)}}));
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{10.0f});
  EXPECT_STATUS(Jit("f", [](Tensor x) { return x; }, {.optLevel = 4})
                    .executableFor({{DType::F32, {}}}),
                absl::StatusCode::kInvalidArgument,
                "CompileOptions::optLevel is 4; it must be 0 to 3");
}

} // namespace
} // namespace torus::distribute

// Both namespaces at once, as a TensorFlow user writes them: GradientTape and
// ReduceOp must not be ambiguous (a compile error this file would show).
namespace with_both_namespaces {
using namespace torus;
using namespace torus::distribute;

TEST(MisuseTest, BothNamespacesTogether) {
  auto strategy = MirroredStrategy::create({"GPU:0", "GPU:1"});
  ASSERT_TRUE(strategy.ok());
  Function step("step", [](Tensor x) {
    GradientTape tape;
    Tensor y = x * x;
    return tape.gradient(y, {x})[0];
  });
  auto out = strategy->run(step, {HostTensor::scalar(3.0f)});
  ASSERT_TRUE(out.ok()) << out.status();
  auto total = strategy->reduce(ReduceOp::Sum, (*out)[0], std::nullopt);
  ASSERT_TRUE(total.ok()) << total.status();
  EXPECT_EQ(total->toVector<float>(), std::vector<float>{12.0f});
  // The core reducers are not tf.distribute.ReduceOps.
  auto max = strategy->reduce(ReduceOp::Max, (*out)[0], std::nullopt);
  EXPECT_EQ(max.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(max.status().message()),
            "ReduceOp::Max is not a tf.distribute.ReduceOp (SUM or MEAN)");
}
} // namespace with_both_namespaces
