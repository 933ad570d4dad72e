//===- VariableTest.cpp - Distributed variables (spec §1.2, §4, §7.2) -----===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;

MirroredStrategy twoReplicas() {
  auto s = MirroredStrategy::create({"GPU:0", "GPU:1"});
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

std::vector<float> componentValues(const Variable &v) {
  std::vector<float> out;
  for (const HostTensor &c : v.components())
    out.push_back(c.dtype() == DType::F32 ? c.data<float>()[0]
                                          : static_cast<float>(ints(c)[0]));
  return out;
}

/// Runs `body` on every replica of `strategy`; returns run()'s status.
absl::Status runOnReplicas(const Strategy &strategy,
                           std::function<void(Tensor replicaId)> body) {
  Function fn([body](const std::vector<Tensor> &) {
    Tensor id = astype(getReplicaContext()->replicaIdInSyncGroup(), DType::F32);
    body(id);
    return std::vector<Tensor>{};
  });
  return strategy.run(fn).status();
}

absl::StatusOr<Variable> make(const Strategy &strategy, float init,
                              VariableOptions options = {}) {
  TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
  return Variable::create(f32(init), options);
}

//===--- §4.1 creation, §1.2 validation -----------------------------------===//

TEST(VariableTest, CreatedInScopeIsMirrored) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, make(strategy, 1.0f));
  EXPECT_EQ(v.typeName(), "MirroredVariable");
  EXPECT_TRUE(v.isDistributed());
  EXPECT_EQ(v.synchronization(), VariableSynchronization::OnWrite);
  EXPECT_THAT(v.componentNames(), ElementsAre("Variable", "Variable/replica_1"));
  EXPECT_EQ(v.toString(),
            "MirroredVariable:{\n"
            "  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,\n"
            "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, "
            "numpy=1.0>\n}");
  TORUS_ASSERT_OK_AND_ASSIGN(Variable plain, Variable::create(f32(1.0f)));
  EXPECT_EQ(plain.typeName(), "Variable");
  EXPECT_EQ(plain.toString(),
            "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>");
  EXPECT_FALSE(plain.strategy().has_value());
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable vec, make(strategy, 0.0f, {.name = "w"}));
  (void)vec;
}

TEST(VariableTest, SynchronizationAndAggregationAreValidated) {
  MirroredStrategy strategy = twoReplicas();
  EXPECT_STATUS(make(strategy, 1.0f,
                     {.name = "v", .synchronization = VariableSynchronization::None}),
                absl::StatusCode::kInvalidArgument,
                "`NONE` variable synchronization mode is not supported with "
                "tf.distribute strategy. Please change the `synchronization` "
                "for variable: v");
  EXPECT_STATUS(make(strategy, 1.0f,
                     {.name = "v",
                      .synchronization = static_cast<VariableSynchronization>(9)}),
                absl::StatusCode::kInvalidArgument,
                "Invalid variable synchronization mode: 9 for variable: v");
  EXPECT_STATUS(make(strategy, 1.0f,
                     {.name = "v",
                      .aggregation = static_cast<VariableAggregation>(7)}),
                absl::StatusCode::kInvalidArgument,
                "Invalid variable aggregation mode: 7 for variable: v");
  EXPECT_STATUS(make(strategy, 1.0f,
                     {.name = "v",
                      .trainable = true,
                      .synchronization = VariableSynchronization::OnRead}),
                absl::StatusCode::kInvalidArgument,
                "Synchronization value can be set to "
                "VariableSynchronization.ON_READ only for non-trainable "
                "variables. You have specified trainable=True and "
                "synchronization=VariableSynchronization.ON_READ.");
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable onRead,
      make(strategy, 1.0f, {.synchronization = VariableSynchronization::OnRead}));
  EXPECT_EQ(onRead.typeName(), "SyncOnReadVariable");
  EXPECT_FALSE(onRead.trainable());
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy tpu, TPUStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(Variable t, make(tpu, 1.0f));
  EXPECT_EQ(t.typeName(), "TPUMirroredVariable");
  EXPECT_EQ(t.components().size(), 8u);
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable tr,
      make(tpu, 1.0f, {.synchronization = VariableSynchronization::OnRead}));
  EXPECT_EQ(tr.typeName(), "TPUSyncOnReadVariable");
}

//===--- §4.2 ON_WRITE updates --------------------------------------------===//

TEST(VariableTest, CrossReplicaUpdatesApplyToEveryComponent) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, make(strategy, 1.0f));
  ASSERT_TRUE(v.assignAdd(f32(6.0f)).ok());
  EXPECT_THAT(componentValues(v), ElementsAre(7, 7));
  ASSERT_TRUE(v.assignSub(f32(2.0f)).ok());
  EXPECT_THAT(componentValues(v), ElementsAre(5, 5));
  ASSERT_TRUE(v.assign(f32(3.0f)).ok());
  EXPECT_THAT(componentValues(v), ElementsAre(3, 3));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor value, v.value());
  EXPECT_EQ(floats(value), std::vector<float>{3});
  EXPECT_STATUS(v.assign(f32({2}, {1, 2})), absl::StatusCode::kInvalidArgument,
                "Cannot assign value to variable ' Variable:0': Shape "
                "mismatch.The variable shape (), and the assigned value shape "
                "(2,) are incompatible.");
}

TEST(VariableTest, ReplicaContextAggregation) {
  MirroredStrategy strategy = twoReplicas();
  // MEAN of the replica ids (0 and 1).
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable mean, make(strategy, 1.0f, {.aggregation = VariableAggregation::Mean}));
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { mean.assign(id); }).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(0.5, 0.5));
  ASSERT_TRUE(mean.assign(f32(1.0f)).ok());
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { mean.assignAdd(id); }).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(1.5, 1.5));
  ASSERT_TRUE(mean.assign(f32(5.0f)).ok());
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { mean.assignSub(id); }).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(4.5, 4.5));
  // ONLY_FIRST_REPLICA: replica 0's value everywhere.
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable first,
      make(strategy, 15.0f, {.aggregation = VariableAggregation::OnlyFirstReplica}));
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { first.assign(id); }).ok());
  EXPECT_THAT(componentValues(first), ElementsAre(0, 0));
  // SUM of a per-replica value [2, 2].
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable sum, make(strategy, 0.0f, {.aggregation = VariableAggregation::Sum}));
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) {
                sum.assign(id * 0.0 + 2.0);
              }).ok());
  EXPECT_THAT(componentValues(sum), ElementsAre(4, 4));
  // NONE: each replica updates only its own component.
  TORUS_ASSERT_OK_AND_ASSIGN(Variable none, make(strategy, 0.0f));
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { none.assign(id); }).ok());
  EXPECT_THAT(componentValues(none), ElementsAre(0, 1));
}

TEST(VariableTest, LiteralsAreNonDistributedValues) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable sum, make(strategy, 1.0f, {.aggregation = VariableAggregation::Sum}));
  EXPECT_STATUS(runOnReplicas(strategy, [&](Tensor) { sum.assign(5.0); }),
                absl::StatusCode::kInvalidArgument,
                "A non-DistributedValues value 5.0 cannot be reduced with the "
                "given reduce op ReduceOp.SUM.");
  EXPECT_THAT(componentValues(sum), ElementsAre(1, 1)); // unchanged
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable mean, make(strategy, 1.0f, {.aggregation = VariableAggregation::Mean}));
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor) { mean.assign(5.0); }).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(5, 5));
  ASSERT_TRUE(mean.assign(f32(1.0f)).ok());
  ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor) { mean.assignAdd(5.0); }).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(6, 6));
  // One replica: SUM of a literal is fine.
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy one, MirroredStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable s1, make(one, 1.0f, {.aggregation = VariableAggregation::Sum}));
  ASSERT_TRUE(runOnReplicas(one, [&](Tensor) { s1.assign(5.0); }).ok());
  EXPECT_THAT(componentValues(s1), ElementsAre(5));
}

TEST(VariableTest, MeanOfNonFloatVariablesIsAnError) {
  MirroredStrategy strategy = twoReplicas();
  Variable counter;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(
        counter, Variable::create(HostTensor::scalar<int32_t>(0),
                                  {.aggregation = VariableAggregation::Mean}));
  }
  EXPECT_STATUS(runOnReplicas(strategy,
                              [&](Tensor id) {
                                counter.assign(astype(id, DType::I32));
                              }),
                absl::StatusCode::kInvalidArgument,
                "Cannot update non-float variables with "
                "tf.VariableAggregation.MEAN aggregation in replica context. "
                "Either change the variable dtype to float or update it in "
                "cross-replica context.");
}

//===--- §4.3 ON_READ ------------------------------------------------------===//

TEST(VariableTest, SyncOnReadSumStoresAShare) {
  // mirrored_strategy_test.py::testAssignReplicaLocalVarSumAggregation.
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable v, make(strategy, 1.0f,
                       {.synchronization = VariableSynchronization::OnRead,
                        .aggregation = VariableAggregation::Sum}));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor read, v.value());
  EXPECT_EQ(floats(read), std::vector<float>{2});
  ASSERT_TRUE(v.assign(f32(6.0f)).ok());
  EXPECT_THAT(componentValues(v), ElementsAre(3, 3));
  TORUS_ASSERT_OK_AND_ASSIGN(read, v.value());
  EXPECT_EQ(floats(read), std::vector<float>{6});
  EXPECT_STATUS(v.assignAdd(f32(1.0f)), absl::StatusCode::kInvalidArgument,
                "SyncOnReadVariable does not support `assign_add` in "
                "cross-replica context when aggregation is set to "
                "`tf.VariableAggregation.SUM`.");
  EXPECT_STATUS(v.assignSub(f32(1.0f)), absl::StatusCode::kInvalidArgument,
                "SyncOnReadVariable does not support `assign_sub` in "
                "cross-replica context when aggregation is set to "
                "`tf.VariableAggregation.SUM`.");
}

TEST(VariableTest, SyncOnReadReadsAggregateAcrossReplicas) {
  // vars_test.py::testReadValueInCrossReplicaContext: each replica assigns
  // its id; SUM reads R(R-1)/2, MEAN (R-1)/2, ONLY_FIRST 0.
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::withReplicas(4));
  struct Case {
    VariableAggregation agg;
    float expected;
  };
  for (Case c : {Case{VariableAggregation::Sum, 6},
                 Case{VariableAggregation::Mean, 1.5},
                 Case{VariableAggregation::OnlyFirstReplica, 0}}) {
    TORUS_ASSERT_OK_AND_ASSIGN(
        Variable v, make(strategy, 0.0f,
                         {.synchronization = VariableSynchronization::OnRead,
                          .aggregation = c.agg}));
    ASSERT_TRUE(runOnReplicas(strategy, [&](Tensor id) { v.assign(id); }).ok());
    EXPECT_THAT(componentValues(v), ElementsAre(0, 1, 2, 3));
    TORUS_ASSERT_OK_AND_ASSIGN(HostTensor read, v.value());
    EXPECT_EQ(floats(read), std::vector<float>{c.expected});
  }
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable none,
      make(strategy, 0.0f, {.synchronization = VariableSynchronization::OnRead}));
  EXPECT_STATUS(none.value(), absl::StatusCode::kInvalidArgument,
                "Could not convert from `tf.VariableAggregation` "
                "VariableAggregation.NONE to`tf.distribute.ReduceOp` type");
  // MEAN: cross-replica assign_add applies to every component.
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable mean, make(strategy, 1.0f,
                          {.synchronization = VariableSynchronization::OnRead,
                           .aggregation = VariableAggregation::Mean}));
  ASSERT_TRUE(mean.assignAdd(f32(1.0f)).ok());
  EXPECT_THAT(componentValues(mean), ElementsAre(2, 2, 2, 2));
}

//===--- §7.2 CentralStorage variables -----------------------------------===//

TEST(VariableTest, CentralStorageKeepsOneCopy) {
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy one,
                             CentralStorageStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(Variable plain, make(one, 1.0f));
  EXPECT_EQ(plain.typeName(), "Variable"); // not wrapped on one device
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy two,
                             CentralStorageStrategy::create({"GPU:0", "GPU:1"}));
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, make(two, 1.0f, {.name = "v"}));
  EXPECT_EQ(v.typeName(), "AggregatingVariable");
  EXPECT_EQ(two.experimentalLocalResults(v).size(), 1u);
  EXPECT_STATUS(runOnReplicas(two, [&](Tensor id) { v.assign(id); }),
                absl::StatusCode::kInvalidArgument,
                "You must specify an aggregation method to update a "
                "AggregatingVariable in Replica Context. You can do so by "
                "passing an explicit value for argument `aggregation` to "
                "tf.Variable(..).e.g. `tf.Variable(..., "
                "aggregation=tf.VariableAggregation.SUM)``tf."
                "VariableAggregation` lists the possible aggregation "
                "methods.This is required because AggregatingVariable should "
                "always be kept in sync. When updating them or assigning to "
                "them in a replica context, we automatically try to aggregate "
                "the values before updating the variable. For this "
                "aggregation, we need to know the aggregation method. Another "
                "alternative is to not try to update such AggregatingVariable "
                "in replica context, but in cross replica context. You can "
                "enter cross replica context by calling "
                "`tf.distribute.get_replica_context().merge_call(merge_fn, "
                "..)`.Inside `merge_fn`, you can then update the "
                "AggregatingVariable using "
                "`tf.distribute.StrategyExtended.update()`.");
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable sum, make(two, 1.0f, {.aggregation = VariableAggregation::Sum}));
  ASSERT_TRUE(runOnReplicas(two, [&](Tensor id) { sum.assignAdd(id + 1.0); }).ok());
  EXPECT_THAT(componentValues(sum), ElementsAre(4)); // 1 + (1 + 2)
  ASSERT_TRUE(sum.assignAdd(f32(1.0f)).ok()); // cross-replica: once
  EXPECT_THAT(componentValues(sum), ElementsAre(5));
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto updated,
      two.extended().update(sum,
                            [](const HostTensor &c, const std::vector<HostTensor> &)
                                -> absl::StatusOr<HostTensor> {
                              return f32(c.data<float>()[0] * 2);
                            }));
  EXPECT_EQ(updated.size(), 1u); // applied once
  EXPECT_THAT(componentValues(sum), ElementsAre(10));
}

TEST(VariableTest, ReduceToThenAssignDocstring) {
  // distribute_lib.py reduce_to docstring: each of 2 replicas passes 1.0;
  // SUM then assign -> 2.0 (Mirrored, CentralStorage), 1.0 (OneDevice).
  TORUS_ASSERT_OK_AND_ASSIGN(CentralStorageStrategy central,
                             CentralStorageStrategy::create({"GPU:0", "GPU:1"}));
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy oneDevice, OneDeviceStrategy::create());
  std::vector<std::pair<Strategy, float>> cases = {
      {twoReplicas(), 2.0f}, {central, 2.0f}, {oneDevice, 1.0f}};
  for (auto &[strategy, expected] : cases) {
    TORUS_ASSERT_OK_AND_ASSIGN(Variable v, make(strategy, 0.0f));
    Function fn([&v](const std::vector<Tensor> &) {
      getReplicaContext()->mergeCall(
          [&v](CrossReplicaContext &ctx, const std::vector<MergedValue> &args) {
            return std::vector<Tensor>{v.assign(ctx.reduceTo(ReduceOp::Sum, args[0]))};
          },
          {scalar(1.0)});
      return std::vector<Tensor>{};
    });
    ASSERT_TRUE(strategy.run(fn).ok()) << strategy.className();
    TORUS_ASSERT_OK_AND_ASSIGN(HostTensor value, v.value());
    EXPECT_EQ(floats(value), std::vector<float>{expected}) << strategy.className();
  }
}

TEST(VariableTest, ReadsInsideTheStepSeeEarlierAssignments) {
  MirroredStrategy strategy = twoReplicas();
  TORUS_ASSERT_OK_AND_ASSIGN(Variable v, make(strategy, 1.0f));
  Function fn([&](const std::vector<Tensor> &) {
    v.assignAdd(1.0);
    Tensor after = v.read();
    v.assign(after * 10.0);
    return std::vector<Tensor>{after};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn));
  EXPECT_EQ(floats(out[0][0]), std::vector<float>{2});
  EXPECT_THAT(componentValues(v), ElementsAre(20, 20));
  // The compiled step is reused and sees the new value.
  TORUS_ASSERT_OK_AND_ASSIGN(out, strategy.run(fn));
  EXPECT_EQ(floats(out[0][1]), std::vector<float>{21});
  EXPECT_EQ(fn.numCompiles(), 1);
}

} // namespace
} // namespace torus::distribute
