//===- StrategyTest.cpp - The shared Strategy API (spec §2) ---------------===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/SimpleClusterResolver.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;

MirroredStrategy twoReplicas() {
  auto s = MirroredStrategy::create({"GPU:0", "GPU:1"});
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

PerReplica docstringBatch() {
  // Global batch 8 over 2 replicas: [0,1,2,3] and [4,5,6,7].
  return PerReplica({f32({4}, {0, 1, 2, 3}), f32({4}, {4, 5, 6, 7})});
}

//===--- §2.1 scope -------------------------------------------------------===//

TEST(StrategyTest, ScopeMakesTheStrategyCurrent) {
  MirroredStrategy strategy = twoReplicas();
  EXPECT_FALSE(hasStrategy());
  EXPECT_EQ(getStrategy().className(), "_DefaultDistributionStrategy");
  EXPECT_EQ(getStrategy().numReplicasInSync(), 1);
  EXPECT_FALSE(inCrossReplicaContext());
  ASSERT_TRUE(getReplicaContext().has_value()); // the default context
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    EXPECT_TRUE(hasStrategy());
    EXPECT_TRUE(getStrategy() == strategy);
    EXPECT_TRUE(inCrossReplicaContext());
    EXPECT_FALSE(getReplicaContext().has_value());
    // Re-entering the same strategy's scope is allowed.
    TORUS_ASSERT_OK_AND_ASSIGN(Scope again, strategy.scope());
    EXPECT_TRUE(getStrategy() == strategy);
  }
  EXPECT_FALSE(hasStrategy());
}

TEST(StrategyTest, MixingStrategiesIsAnError) {
  MirroredStrategy a = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy b, OneDeviceStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, a.scope());
  EXPECT_STATUS(b.scope(), absl::StatusCode::kFailedPrecondition,
                "Mixing different tf.distribute.Strategy objects: " + a.repr() +
                    " is not " + b.repr());
  EXPECT_THAT(a.repr(), StartsWith("<torus.distribute.MirroredStrategy object at 0x"));
  Function fn([](const std::vector<Tensor> &in) { return in; });
  EXPECT_EQ(b.run(fn, {f32(1.0f)}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(StrategyTest, ExperimentalSetStrategy) {
  // tf.distribute.experimental_set_strategy(s1); f();
  // experimental_set_strategy(s2); g(); experimental_set_strategy(None); h()
  // is `with s1.scope(): f()`, `with s2.scope(): g()`, `h()`.
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy other, OneDeviceStrategy::create());
  ASSERT_TRUE(experimentalSetStrategy(strategy).ok());
  EXPECT_TRUE(hasStrategy());
  EXPECT_TRUE(getStrategy() == strategy);
  EXPECT_TRUE(inCrossReplicaContext());
  {
    // Variables go through the strategy's creator, as in its scope.
    TORUS_ASSERT_OK_AND_ASSIGN(Variable v, Variable::create(f32(1.0f)));
    EXPECT_EQ(v.typeName(), "MirroredVariable");
    EXPECT_EQ(v.components().size(), 2u);
  }
  // Another strategy's scope mixes strategies; its own scope nests.
  EXPECT_EQ(other.scope().status().code(), absl::StatusCode::kFailedPrecondition);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    EXPECT_STATUS(experimentalSetStrategy(std::nullopt),
                  absl::StatusCode::kFailedPrecondition,
                  "Must not be called inside a `tf.distribute.Strategy` scope.");
    EXPECT_STATUS(experimentalSetStrategy(strategy),
                  absl::StatusCode::kFailedPrecondition,
                  "Must not be called inside a `tf.distribute.Strategy` scope.");
  }
  EXPECT_TRUE(getStrategy() == strategy); // the failed calls changed nothing
  // Replica context is inside the strategy's scope too.
  absl::Status inside;
  Function fn([&](const std::vector<Tensor> &in) {
    inside = experimentalSetStrategy(std::nullopt);
    return in;
  });
  ASSERT_TRUE(strategy.run(fn, {f32(1.0f)}).ok());
  EXPECT_STATUS(inside, absl::StatusCode::kFailedPrecondition,
                "Must not be called inside a `tf.distribute.Strategy` scope.");
  // Setting another strategy replaces the first.
  ASSERT_TRUE(experimentalSetStrategy(other).ok());
  EXPECT_TRUE(getStrategy() == other);
  EXPECT_EQ(strategy.scope().status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(experimentalSetStrategy(std::nullopt).ok());
  EXPECT_FALSE(hasStrategy());
  EXPECT_FALSE(inCrossReplicaContext());
  // Inside a scope that was entered normally it fails too, and the scope
  // stays.
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    EXPECT_STATUS(experimentalSetStrategy(other),
                  absl::StatusCode::kFailedPrecondition,
                  "Must not be called inside a `tf.distribute.Strategy` scope.");
    EXPECT_TRUE(getStrategy() == strategy);
  }
  EXPECT_FALSE(hasStrategy());
}

//===--- §2.2 run ---------------------------------------------------------===//

TEST(StrategyTest, RunGivesEachReplicaItsComponent) {
  MirroredStrategy strategy = twoReplicas();
  Function fn("replica_fn", [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * 2.0, in[0] + in[1]};
  });
  // A plain tensor goes to every replica; a PerReplica is split.
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto out, strategy.run(fn, {PerReplica({f32(1.0f), f32(2.0f)}), f32(10.0f)}));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{2});
  EXPECT_EQ(floats(out[0][1]), std::vector<float>{4});
  EXPECT_EQ(floats(out[1][0]), std::vector<float>{11});
  EXPECT_EQ(floats(out[1][1]), std::vector<float>{12});
  // Seed example 1: constant input, each replica doubles it.
  TORUS_ASSERT_OK_AND_ASSIGN(auto doubled, strategy.run(fn, {f32(3.0f), f32(0.0f)}));
  EXPECT_EQ(doubled[0].toString(),
            "PerReplica:{\n  0: f32[]{6},\n  1: f32[]{6}\n}");
}

TEST(StrategyTest, RunCompilesOncePerInputSignature) {
  MirroredStrategy strategy = twoReplicas();
  Function fn([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] + 1.0};
  });
  ASSERT_TRUE(strategy.run(fn, {f32(1.0f)}).ok());
  ASSERT_TRUE(strategy.run(fn, {f32(2.0f)}).ok());
  EXPECT_EQ(fn.numCompiles(), 1);
  ASSERT_TRUE(strategy.run(fn, {f32({2}, {1, 2})}).ok());
  EXPECT_EQ(fn.numCompiles(), 2);
}

TEST(StrategyTest, RunChecksItsArguments) {
  MirroredStrategy strategy = twoReplicas();
  Function fn([](const std::vector<Tensor> &in) { return in; });
  EXPECT_STATUS(strategy.run(fn, {PerReplica({f32(1.0f)})}),
                absl::StatusCode::kInvalidArgument,
                "argument 0 is a distributed value with 1 components, but the "
                "strategy has 2 replicas");
  // A tracing error names the operation and the line.
  Function bad([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{matmul(in[0], in[0])};
  });
  auto r = strategy.run(bad, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(StrategyTest, PlainCallablesRunEagerlyExceptOnTPU) {
  MirroredStrategy strategy = twoReplicas();
  ReplicaFn fn = [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * 3.0};
  };
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32(1.0f)}));
  EXPECT_EQ(floats(out[0][1]), std::vector<float>{3});
  TORUS_ASSERT_OK_AND_ASSIGN(auto tpu, TPUStrategy::create());
  EXPECT_STATUS(tpu.run(fn, {f32(1.0f)}), absl::StatusCode::kUnimplemented,
                "TPUStrategy.run(fn, ...) does not support pure eager "
                "execution. please make sure the function passed into "
                "`strategy.run` is a `tf.function` or `strategy.run` is "
                "called inside a `tf.function` if eager behavior is enabled.");
}

TEST(StrategyTest, ReplicaIdsAndTheDocstringSum) {
  // reduce docstring: each replica returns its id; SUM over 2 replicas = 1.
  MirroredStrategy strategy = twoReplicas();
  Function stepFn([](const std::vector<Tensor> &) {
    return std::vector<Tensor>{getReplicaContext()->replicaIdInSyncGroup()};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto perReplica, strategy.run(stepFn));
  EXPECT_EQ(ints(perReplica[0][0]), std::vector<int64_t>{0});
  EXPECT_EQ(ints(perReplica[0][1]), std::vector<int64_t>{1});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor total,
                             strategy.reduce("SUM", perReplica[0], std::nullopt));
  EXPECT_EQ(total.dtype(), DType::I32);
  EXPECT_EQ(ints(total), std::vector<int64_t>{1});
  // With one replica (the default MirroredStrategy) the sum is 0.
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy one, MirroredStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(auto single, one.run(stepFn));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor zero,
                             one.reduce("SUM", single[0], std::nullopt));
  EXPECT_EQ(ints(zero), std::vector<int64_t>{0});
}

//===--- §2.3 reduce ------------------------------------------------------===//

TEST(StrategyTest, ReduceAcrossReplicasAndAlongAnAxis) {
  MirroredStrategy strategy = twoReplicas();
  PerReplica x = docstringBatch();
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor sum,
                             strategy.reduce(ReduceOp::Sum, x, std::nullopt));
  EXPECT_EQ(floats(sum), (std::vector<float>{4, 6, 8, 10}));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor total, strategy.reduce(ReduceOp::Sum, x, 0));
  EXPECT_EQ(floats(total), std::vector<float>{28});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor mean, strategy.reduce(ReduceOp::Mean, x, 0));
  EXPECT_EQ(floats(mean), std::vector<float>{3.5});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor elementwise,
                             strategy.reduce(ReduceOp::Mean, x, std::nullopt));
  EXPECT_EQ(floats(elementwise), (std::vector<float>{2, 3, 4, 5}));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor negative, strategy.reduce(ReduceOp::Sum, x, -1));
  EXPECT_EQ(floats(negative), std::vector<float>{28});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor tuple,
                             strategy.reduce(ReduceOp::Mean, x, std::vector<int64_t>{0}));
  EXPECT_EQ(floats(tuple), std::vector<float>{3.5});
}

TEST(StrategyTest, MeanWithAnAxisDividesByTheTrueCountOfAPartialBatch) {
  MirroredStrategy strategy = twoReplicas();
  // The last batch of 6 split [0,1,2,3] / [4,5].
  PerReplica partial({f32({4}, {0, 1, 2, 3}), f32({2}, {4, 5})});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor mean,
                             strategy.reduce(ReduceOp::Mean, partial, 0));
  EXPECT_EQ(floats(mean), std::vector<float>{2.5});
  EXPECT_EQ(strategy.reduce(ReduceOp::Sum, partial, std::nullopt).status().code(),
            absl::StatusCode::kInvalidArgument);
  // An empty dummy batch contributes to neither sum.
  PerReplica dummy({f32({2}, {1, 2}), HostTensor(DType::F32, {0})});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor m, strategy.reduce(ReduceOp::Mean, dummy, 0));
  EXPECT_EQ(floats(m), std::vector<float>{1.5});
}

TEST(StrategyTest, ReduceOfAPlainTensor) {
  MirroredStrategy strategy = twoReplicas();
  EXPECT_STATUS(strategy.reduce(ReduceOp::Sum, f32(1.0f), std::nullopt),
                absl::StatusCode::kInvalidArgument,
                "A non-DistributedValues value tf.Tensor(1.0, shape=(), "
                "dtype=float32) cannot be reduced with the given reduce op "
                "ReduceOp.SUM.");
  EXPECT_STATUS(strategy.extended().reduceTo(ReduceOp::Sum, f32({2}, {1, 2})),
                absl::StatusCode::kInvalidArgument,
                "A non-DistributedValues value tf.Tensor([1. 2.], shape=(2,), "
                "dtype=float32) cannot be reduced with the given reduce op "
                "ReduceOp.SUM.");
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor mean,
                             strategy.reduce(ReduceOp::Mean, f32(5.0f), std::nullopt));
  EXPECT_EQ(floats(mean), std::vector<float>{5});
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy one, OneDeviceStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor copied,
                             one.reduce(ReduceOp::Sum, f32(5.0f), std::nullopt));
  EXPECT_EQ(floats(copied), std::vector<float>{5});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor d,
                             defaultStrategy().reduce(ReduceOp::Sum, f32(2.0f), std::nullopt));
  EXPECT_EQ(floats(d), std::vector<float>{2});
}

TEST(StrategyTest, ReduceOpStringsAndAxisChecks) {
  MirroredStrategy strategy = twoReplicas();
  PerReplica x = docstringBatch();
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor s, strategy.reduce("sum", x, 0));
  EXPECT_EQ(floats(s), std::vector<float>{28});
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor m, strategy.reduce("Mean", x, 0));
  EXPECT_EQ(floats(m), std::vector<float>{3.5});
  EXPECT_STATUS(strategy.reduce("MAX", x, 0), absl::StatusCode::kInvalidArgument,
                "'MAX' is not a valid ReduceOp");
  EXPECT_STATUS(strategy.reduce(ReduceOp::Mean, x, 1),
                absl::StatusCode::kInvalidArgument,
                "`axis` = 1 out of range for `value` with rank 1");
  EXPECT_STATUS(strategy.reduce(ReduceOp::Mean, x, -2),
                absl::StatusCode::kInvalidArgument,
                "`axis` = -2 out of range for `value` with rank 1");
}

TEST(StrategyTest, ReduceRequiresCrossReplicaContext) {
  MirroredStrategy strategy = twoReplicas();
  absl::Status inside;
  Function fn([&](const std::vector<Tensor> &in) {
    inside = strategy.reduce(ReduceOp::Sum, f32(1.0f), std::nullopt).status();
    return in;
  });
  ASSERT_TRUE(strategy.run(fn, {f32(1.0f)}).ok());
  EXPECT_EQ(inside.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(inside.message(),
            "Method requires being in cross-replica context, use "
            "get_replica_context().merge_call()");
}

//===--- §2.4 local results, §2.8 values from a function ------------------===//

TEST(StrategyTest, LocalResults) {
  MirroredStrategy strategy = twoReplicas();
  EXPECT_EQ(strategy.experimentalLocalResults(docstringBatch()).size(), 2u);
  auto single = strategy.experimentalLocalResults(f32(1.0f));
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(floats(single[0]), std::vector<float>{1});
}

TEST(StrategyTest, ValuesFromFunctionSeedExamples) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy, MirroredStrategy::create());
  // 1. A constant per replica.
  TORUS_ASSERT_OK_AND_ASSIGN(
      PerReplica constant,
      strategy.experimentalDistributeValuesFromFunction(
          [](const ValueContext &) -> absl::StatusOr<HostTensor> {
            return f32(1.0f);
          }));
  auto local = strategy.experimentalLocalResults(constant);
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(floats(local[0]), std::vector<float>{1});
  // 2. Values from an array by replica id.
  std::vector<float> array = {3, 2, 1};
  TORUS_ASSERT_OK_AND_ASSIGN(
      PerReplica fromArray,
      strategy.experimentalDistributeValuesFromFunction(
          [&](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return f32(array[ctx.replicaIdInSyncGroup()]);
          }));
  EXPECT_EQ(floats(fromArray[0]), std::vector<float>{3});
  // 3. num_replicas_in_sync.
  TORUS_ASSERT_OK_AND_ASSIGN(
      PerReplica count,
      strategy.experimentalDistributeValuesFromFunction(
          [](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
            return HostTensor::scalar<int32_t>(ctx.numReplicasInSync());
          }));
  EXPECT_EQ(ints(count[0]), std::vector<int64_t>{1});
  // Two replicas: always a PerReplica, contexts in replica order.
  MirroredStrategy two = twoReplicas();
  std::vector<std::string> seen;
  TORUS_ASSERT_OK_AND_ASSIGN(
      PerReplica ids, two.experimentalDistributeValuesFromFunction(
                          [&](const ValueContext &ctx) -> absl::StatusOr<HostTensor> {
                            seen.push_back(ctx.toString());
                            return HostTensor::scalar<int32_t>(
                                ctx.replicaIdInSyncGroup());
                          }));
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_EQ(seen[1],
            "tf.distribute.ValueContext(replica id 1,  total replicas in sync: 2)");
}

//===--- §2.9 ReplicaContext ----------------------------------------------===//

TEST(StrategyTest, AllReduceInReplicaContext) {
  MirroredStrategy strategy = twoReplicas();
  Function fn([](const std::vector<Tensor> &in) {
    ReplicaContext ctx = *getReplicaContext();
    std::vector<Tensor> list = ctx.allReduce(ReduceOp::Sum, {in[0], in[0] * 2.0});
    return std::vector<Tensor>{ctx.allReduce(ReduceOp::Sum, in[0]), list[0],
                               list[1],
                               ctx.allReduce(ReduceOp::Mean, astype(ctx.replicaIdInSyncGroup(), DType::F32)),
                               ctx.allReduce("sum", in[0]),
                               ctx.allGather(reshape(astype(ctx.replicaIdInSyncGroup(), DType::F32), {1}), 0)};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32(1.0f)}));
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(floats(out[0][r]), std::vector<float>{2});
    EXPECT_EQ(floats(out[1][r]), std::vector<float>{2});
    EXPECT_EQ(floats(out[2][r]), std::vector<float>{4});
    EXPECT_EQ(floats(out[3][r]), std::vector<float>{0.5});
    EXPECT_EQ(floats(out[4][r]), std::vector<float>{2});
    EXPECT_EQ(floats(out[5][r]), (std::vector<float>{0, 1}));
  }
  Function bad([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{getReplicaContext()->allReduce("MAX", in[0])};
  });
  EXPECT_STATUS(strategy.run(bad, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                "'MAX' is not a valid ReduceOp");
}

TEST(StrategyTest, GradientOfAnAllReduceIsTheAllReduceOfTheUpstreamGradients) {
  // Spec §2.9: on replica r, loss_r = all_reduce(SUM, x * c_r) * c_r with
  // c_r = r + 1. The gradient flowing into the all-reduce on replica r is
  // c_r; its gradient is the SUM all-reduce of those, c_0 + c_1 = 3, times
  // the local c_r: d loss_r / d x = 3 * c_r (3 and 6).
  MirroredStrategy strategy = twoReplicas();
  Function fn([](const std::vector<Tensor> &in) {
    ReplicaContext ctx = *getReplicaContext();
    Tensor c = astype(ctx.replicaIdInSyncGroup(), DType::F32) + 1.0;
    Tensor x = in[0];
    GradientTape tape;
    tape.watch(x);
    Tensor loss = ctx.allReduce(ReduceOp::Sum, x * c) * c;
    return std::vector<Tensor>{loss, tape.gradient(loss, {x})[0]};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32(2.0f)}));
  // all_reduce(2 * 1 + 2 * 2) = 6, times c_r.
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{6});
  EXPECT_EQ(floats(out[0][1]), std::vector<float>{12});
  EXPECT_EQ(floats(out[1][0]), std::vector<float>{3});
  EXPECT_EQ(floats(out[1][1]), std::vector<float>{6});
}

TEST(StrategyTest, MergeCallRunsInCrossReplicaContext) {
  MirroredStrategy strategy = twoReplicas();
  bool crossReplicaInside = false;
  Function fn([&](const std::vector<Tensor> &in) {
    ReplicaContext ctx = *getReplicaContext();
    Tensor x = in[0] + astype(ctx.replicaIdInSyncGroup(), DType::F32);
    return ctx.mergeCall(
        [&](CrossReplicaContext &cross, const std::vector<MergedValue> &args) {
          crossReplicaInside = inCrossReplicaContext() &&
                               !getReplicaContext().has_value();
          return std::vector<Tensor>{cross.reduce(ReduceOp::Sum, args[0]),
                                     cross.reduce(ReduceOp::Mean, args[0]),
                                     args[0].local};
        },
        {x});
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn, {f32(1.0f)}));
  EXPECT_TRUE(crossReplicaInside);
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(floats(out[0][r]), std::vector<float>{3}); // 1 + 2
    EXPECT_EQ(floats(out[1][r]), std::vector<float>{1.5});
    EXPECT_EQ(floats(out[2][r]), std::vector<float>{1.0f + r});
  }
}

TEST(StrategyTest, MergeCallRequiresItsReplicaContext) {
  MirroredStrategy strategy = twoReplicas();
  std::optional<ReplicaContext> stale;
  Function first([&](const std::vector<Tensor> &in) {
    stale = getReplicaContext();
    return in;
  });
  ASSERT_TRUE(strategy.run(first, {f32(1.0f)}).ok());
  Function second([&](const std::vector<Tensor> &in) {
    stale->mergeCall(
        [](CrossReplicaContext &, const std::vector<MergedValue> &) {
          return std::vector<Tensor>{};
        });
    return in;
  });
  EXPECT_STATUS(strategy.run(second, {f32(1.0f)}),
                absl::StatusCode::kFailedPrecondition,
                "Mismatching ReplicaContext.");
  Function nested([&](const std::vector<Tensor> &in) {
    ReplicaContext ctx = *getReplicaContext();
    ctx.mergeCall([&](CrossReplicaContext &, const std::vector<MergedValue> &) {
      ctx.mergeCall([](CrossReplicaContext &, const std::vector<MergedValue> &) {
        return std::vector<Tensor>{};
      });
      return std::vector<Tensor>{};
    });
    return in;
  });
  EXPECT_STATUS(strategy.run(nested, {f32(1.0f)}),
                absl::StatusCode::kFailedPrecondition,
                "Need to be inside `call_for_each_replica()`");
}

TEST(StrategyTest, ReplicaContextUpdateGoesThroughMergeCall) {
  // strategy_common_test.py::ReplicaCtxUpdateTest: 5.0, +2.0, +1.0 -> 8.0.
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, Variable::create(f32(5.0f)));
  Function fn([&](const std::vector<Tensor> &) {
    ReplicaContext ctx = *getReplicaContext();
    auto addArg = [](const Tensor &value, const std::vector<Tensor> &args) {
      return value + args[0];
    };
    ctx.update(v, addArg, {scalar(2.0)});
    ctx.update(v, addArg, {scalar(1.0)});
    return std::vector<Tensor>{};
  });
  ASSERT_TRUE(strategy.run(fn).ok());
  for (const HostTensor &c : v.components())
    EXPECT_EQ(floats(c), std::vector<float>{8});
}

//===--- §2.5–§2.7 properties ---------------------------------------------===//

TEST(StrategyTest, PropertiesOfEachStrategy) {
  MirroredStrategy mirrored = twoReplicas();
  EXPECT_EQ(mirrored.numReplicasInSync(), 2);
  EXPECT_EQ(mirrored.clusterResolver(), nullptr);
  EXPECT_THAT(mirrored.extended().workerDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:GPU:0",
                          "/job:localhost/replica:0/task:0/device:GPU:1"));
  EXPECT_FALSE(mirrored.extended().experimentalBetweenGraph());
  EXPECT_TRUE(mirrored.extended().experimentalEnableGetNextAsOptional());
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy central,
                             CentralStorageStrategy::create({"GPU:0", "GPU:1", "GPU:2"}));
  EXPECT_EQ(central.numReplicasInSync(), 3);
  EXPECT_EQ(central.clusterResolver(), nullptr);
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy tpu, TPUStrategy::create());
  EXPECT_EQ(tpu.numReplicasInSync(), 8);
  EXPECT_NE(tpu.clusterResolver(), nullptr);
  EXPECT_EQ(defaultStrategy().numReplicasInSync(), 1);
  TORUS_ASSERT_OK_AND_ASSIGN(MultiWorkerMirroredStrategy mwms,
                             MultiWorkerMirroredStrategy::create(nullptr, {}, 2));
  EXPECT_EQ(mwms.numReplicasInSync(), 2);
  EXPECT_NE(mwms.clusterResolver(), nullptr);
  EXPECT_TRUE(mwms.extended().experimentalBetweenGraph());
  EXPECT_EQ(mwms.className(), "CollectiveAllReduceStrategy");
}

TEST(StrategyTest, ReduceSpecificsOfMultiWorkerAndCentralStorage) {
  // MWMS: a Mirrored value with MEAN is returned as is (spec §5.4).
  TORUS_ASSERT_OK_AND_ASSIGN(MultiWorkerMirroredStrategy mwms,
                             MultiWorkerMirroredStrategy::create(nullptr, {}, 2));
  TORUS_ASSERT_OK_AND_ASSIGN(
      HostTensor mirrored,
      mwms.reduce(ReduceOp::Mean, PerReplica::mirrored({f32(3.0f), f32(3.0f)}),
                  std::nullopt));
  EXPECT_EQ(floats(mirrored), std::vector<float>{3});
  TORUS_ASSERT_OK_AND_ASSIGN(
      HostTensor mean, mwms.reduce(ReduceOp::Mean,
                                   PerReplica({f32(1.0f), f32(4.0f)}), std::nullopt));
  EXPECT_EQ(floats(mean), std::vector<float>{2.5});
  // CentralStorage devices (spec §7.1).
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy one, CentralStorageStrategy::create());
  EXPECT_THAT(one.extended().workerDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0"));
  EXPECT_THAT(one.extended().parameterDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0"));
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy gpu,
                             CentralStorageStrategy::create({"GPU:0"}));
  EXPECT_THAT(gpu.extended().parameterDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:GPU:0"));
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy two,
                             CentralStorageStrategy::create({"GPU:0", "GPU:1"}));
  EXPECT_THAT(two.extended().parameterDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0"));
  EXPECT_TRUE(two.extended().experimentalBetweenGraph());
  EXPECT_FALSE(two.extended().experimentalEnableGetNextAsOptional());
  // SUM of a plain value on CentralStorage's compute devices.
  EXPECT_EQ(two.reduce(ReduceOp::Sum, f32(1.0f), std::nullopt).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(StrategyTest, DevicesMustBeDistinct) {
  EXPECT_STATUS(MirroredStrategy::create({"GPU:0", "/device:GPU:0"}),
                absl::StatusCode::kInvalidArgument,
                "No duplicates allowed in `devices` argument: ['GPU:0', "
                "'/device:GPU:0']");
}

TEST(StrategyTest, UpdateConfigProto) {
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy central,
                             CentralStorageStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto c, central.updateConfigProto({}));
  EXPECT_TRUE(c.isolateSessionState);
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy tpu, TPUStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto t, tpu.updateConfigProto({}));
  EXPECT_TRUE(t.isolateSessionState);
  EXPECT_TRUE(t.clusterDef.empty()); // a local TPU has no cluster spec
  ConfigProto in;
  in.scopedAllocatorEnableOps = {"Other"};
  TORUS_ASSERT_OK_AND_ASSIGN(MultiWorkerMirroredStrategy mwms,
                             MultiWorkerMirroredStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto m, mwms.updateConfigProto(in));
  EXPECT_TRUE(m.scopedAllocatorOptimization);
  EXPECT_THAT(m.scopedAllocatorEnableOps, ElementsAre("CollectiveReduce"));
  EXPECT_THAT(in.scopedAllocatorEnableOps, ElementsAre("Other")); // a copy
  // No cluster spec: no leader, the filters untouched.
  EXPECT_EQ(m.collectiveGroupLeader, "");
  EXPECT_TRUE(m.deviceFilters.empty());
  // A cluster spec of one task (one worker, no connection): the leader and
  // this task's filter, replacing the ones given (spec §5.5; several workers:
  // MultiWorkerReduceTest).
  in.deviceFilters = {"/job:ps"};
  for (const auto &[job, leader] :
       std::vector<std::pair<std::string, std::string>>{
           {"worker", "/job:worker/replica:0/task:0"},
           {"chief", "/job:chief/replica:0/task:0"}}) {
    SimpleClusterResolverOptions o;
    o.taskType = job;
    o.taskId = 0;
    TORUS_ASSERT_OK_AND_ASSIGN(
        MultiWorkerMirroredStrategy one,
        MultiWorkerMirroredStrategy::create(
            std::make_shared<SimpleClusterResolver>(
                ClusterSpec{{job, {"127.0.0.1:1"}}}, o)));
    TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto c, one.updateConfigProto(in));
    EXPECT_EQ(c.collectiveGroupLeader, leader);
    EXPECT_THAT(c.deviceFilters, ElementsAre("/job:" + job + "/task:0"));
  }
}

TEST(StrategyTest, MultiWorkerMirroredWithExplicitDevices) {
  // CollectiveAllReduceStrategy._from_local_devices.
  TORUS_ASSERT_OK_AND_ASSIGN(
      MultiWorkerMirroredStrategy s,
      MultiWorkerMirroredStrategy::createWithDevices({"GPU:0", "/device:GPU:1"}));
  EXPECT_EQ(s.numReplicasInSync(), 2);
  EXPECT_EQ(s.numWorkers(), 1);
  EXPECT_TRUE(s.isChief());
  EXPECT_THAT(s.extended().workerDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:GPU:0",
                          "/job:localhost/replica:0/task:0/device:GPU:1"));
  EXPECT_NE(s.clusterResolver(), nullptr); // TFConfigClusterResolver
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor sum,
                             s.reduce(ReduceOp::Sum, PerReplica({f32(1.0f), f32(2.0f)}),
                                      std::nullopt));
  EXPECT_EQ(floats(sum), std::vector<float>{3});
  TORUS_ASSERT_OK_AND_ASSIGN(
      MultiWorkerMirroredStrategy none,
      MultiWorkerMirroredStrategy::createWithDevices({}));
  EXPECT_EQ(none.numReplicasInSync(), 1);
  EXPECT_STATUS(MultiWorkerMirroredStrategy::createWithDevices(
                    {"GPU:0"}, std::make_shared<TFConfigClusterResolver>()),
                absl::StatusCode::kInvalidArgument,
                "cluster_resolver and devices cannot be set at the same time");
  EXPECT_STATUS(MultiWorkerMirroredStrategy::createWithDevices({"GPU:0", "GPU:0"}),
                absl::StatusCode::kInvalidArgument,
                "devices: 'GPU:0' names the device "
                "/job:localhost/replica:0/task:0/device:GPU:0 a second time");
  EXPECT_EQ(MultiWorkerMirroredStrategy::createWithDevices({"nonsense"}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(StrategyTest, ExtendedReduceToUpdateAndColocate) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor r,
                             strategy.extended().reduceTo(ReduceOp::Sum, docstringBatch()));
  EXPECT_EQ(floats(r), (std::vector<float>{4, 6, 8, 10}));
  TORUS_ASSERT_OK_AND_ASSIGN(auto batch, strategy.extended().batchReduceTo(
                                             ReduceOp::Mean, {docstringBatch(), f32(2.0f)}));
  EXPECT_EQ(floats(batch[1]), std::vector<float>{2});
  // Reduce ops by name, any case (ReduceOp(s.upper())).
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor named,
                             strategy.extended().reduceTo("mean", docstringBatch()));
  EXPECT_EQ(floats(named), (std::vector<float>{2, 3, 4, 5}));
  TORUS_ASSERT_OK_AND_ASSIGN(auto namedBatch, strategy.extended().batchReduceTo(
                                                  "Sum", {docstringBatch()}));
  EXPECT_EQ(floats(namedBatch[0]), (std::vector<float>{4, 6, 8, 10}));
  EXPECT_STATUS(strategy.extended().reduceTo("max", docstringBatch()),
                absl::StatusCode::kInvalidArgument, "'MAX' is not a valid ReduceOp");
  EXPECT_STATUS(strategy.extended().batchReduceTo("MIN", {docstringBatch()}),
                absl::StatusCode::kInvalidArgument, "'MIN' is not a valid ReduceOp");

  Variable mine;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(mine, Variable::create(f32(1.0f), {.name = "v"}));
  }
  TORUS_ASSERT_OK_AND_ASSIGN(Variable plain, Variable::create(f32(1.0f), {.name = "w"}));
  EXPECT_TRUE(strategy.extended().variableCreatedInScope(mine));
  EXPECT_FALSE(strategy.extended().variableCreatedInScope(plain));
  EXPECT_TRUE(strategy.extended().colocateVarsWith(mine).ok());
  EXPECT_STATUS(strategy.extended().colocateVarsWith(plain),
                absl::StatusCode::kInvalidArgument,
                "`colocate_vars_with` must only be passed a variable created "
                "in this tf.distribute.Strategy.scope(), not: <tf.Variable "
                "'w:0' shape=() dtype=float32, numpy=1.0>");
  // update(var, fn, args): each component with its replica's argument.
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto results,
      strategy.extended().update(
          mine,
          [](const HostTensor &c, const std::vector<HostTensor> &args)
              -> absl::StatusOr<HostTensor> {
            return f32(c.data<float>()[0] + args[0].data<float>()[0]);
          },
          {PerReplica({f32(10.0f), f32(20.0f)})}));
  EXPECT_EQ(floats(mine.components()[0]), std::vector<float>{11});
  EXPECT_EQ(floats(mine.components()[1]), std::vector<float>{21});
}

//===--- §2.10 TensorFlow 1 APIs ------------------------------------------===//

TEST(StrategyTest, StrategyV1Iterators) {
  // tpu_strategy_test.py::test_make_input_fn_iterator: range(10) on 2
  // replicas gives [0, 1], [2, 3], ...
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(
      DistributedIterator it,
      strategy.makeInputFnIterator(
          [](const InputContext &) -> absl::StatusOr<Dataset> {
            return Dataset::range(10);
          }));
  TORUS_ASSERT_OK_AND_ASSIGN(Values first, it.next());
  EXPECT_EQ(ints(first[0].perReplica()[0]), std::vector<int64_t>{0});
  EXPECT_EQ(ints(first[0].perReplica()[1]), std::vector<int64_t>{1});
  Function timesTwo([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * 2};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto second, strategy.experimentalRun(timesTwo, &it));
  EXPECT_EQ(ints(second[0][0]), std::vector<int64_t>{4});
  EXPECT_EQ(ints(second[0][1]), std::vector<int64_t>{6});
  EXPECT_STATUS(strategy.makeInputFnIterator(
                    [](const InputContext &) -> absl::StatusOr<Dataset> {
                      return Dataset::range(10);
                    },
                    InputReplicationMode::PerReplica),
                absl::StatusCode::kInvalidArgument,
                "Input replication mode not supported: "
                "<InputReplicationMode.PER_REPLICA: 'PER_REPLICA'>");
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedIterator ds,
                             strategy.makeDatasetIterator(Dataset::range(8).batch(4)));
  TORUS_ASSERT_OK_AND_ASSIGN(Values batch, ds.next());
  EXPECT_EQ(ints(batch[0].perReplica()[1]), (std::vector<int64_t>{2, 3}));
  // experimental_make_numpy_dataset: the rows, not batched.
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset rows,
                             strategy.experimentalMakeNumpyDataset({f32({3}, {1, 2, 3})}));
  EXPECT_EQ(rows.cardinality(), 3);
  EXPECT_EQ(rows.elementSpec()[0].toString(),
            "TensorSpec(shape=(), dtype=tf.float32, name=None)");
}

} // namespace
} // namespace torus::distribute
