//===- TPUStrategyTest.cpp - TPUStrategy and TPUStrategyV1 (spec §8) ------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"
#include "runtime/mesh/MeshWarnings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;

std::shared_ptr<TPUClusterResolver> slice(const std::string &type) {
  TPUClusterResolverOptions o;
  o.acceleratorType = type;
  auto r = TPUClusterResolver::create("", o);
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

TEST(TPUStrategyTest, OneReplicaPerCoreOfTheSlice) {
  TORUS_ASSERT_OK_AND_ASSIGN(auto resolver, TPUClusterResolver::create(""));
  TORUS_ASSERT_OK_AND_ASSIGN(Topology topology, initializeTpuSystem(resolver.get()));
  EXPECT_EQ(topology.meshShape(), (std::array<int32_t, 4>{2, 2, 1, 2}));
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy, TPUStrategy::create(resolver));
  EXPECT_EQ(strategy.className(), "TPUStrategyV2");
  EXPECT_EQ(strategy.numReplicasInSync(), 8);
  EXPECT_EQ(strategy.numHosts(), 1);
  EXPECT_EQ(strategy.numReplicasPerHost(), 8);
  EXPECT_EQ(strategy.numCoresPerReplica(), 1);
  EXPECT_EQ(strategy.clusterResolver(), resolver);
  auto devices = strategy.extended().workerDevices();
  ASSERT_EQ(devices.size(), 8u);
  EXPECT_EQ(devices[7], "/job:localhost/replica:0/task:0/device:TPU:7");
  EXPECT_EQ(strategy.extended().parameterDevices(), devices);
  EXPECT_FALSE(strategy.extended().experimentalBetweenGraph());
  EXPECT_TRUE(strategy.extended().shouldCheckpoint());
  EXPECT_EQ(strategy.extended().stepsPerRun(), 1);
}

TEST(TPUStrategyTest, DeviceAssignmentSetsTheReplicas) {
  // Seed: computation_shape [1,1,1,2], 4 replicas (2 logical devices each).
  TORUS_ASSERT_OK_AND_ASSIGN(auto resolver, TPUClusterResolver::create(""));
  TORUS_ASSERT_OK_AND_ASSIGN(Topology topology, initializeTpuSystem(resolver.get()));
  TORUS_ASSERT_OK_AND_ASSIGN(
      DeviceAssignment assignment,
      DeviceAssignment::build(topology, std::vector<int64_t>{1, 1, 1, 2},
                              std::nullopt, 4));
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             TPUStrategy::create(resolver, assignment));
  EXPECT_EQ(strategy.numReplicasInSync(), 4);
  EXPECT_EQ(strategy.numCoresPerReplica(), 2);
  EXPECT_EQ(strategy.numReplicasPerHost(), 4);
  // Replicas sit on the chips in ring order (0,0),(1,0),(1,1),(0,1): logical
  // core 0 of each is core 0 of its chip.
  EXPECT_THAT(strategy.extended().workerDevices(),
              ElementsAre("/job:localhost/replica:0/task:0/device:TPU:0",
                          "/job:localhost/replica:0/task:0/device:TPU:2",
                          "/job:localhost/replica:0/task:0/device:TPU:6",
                          "/job:localhost/replica:0/task:0/device:TPU:4"));
  // Steps run on those cores; replica ids follow the assignment.
  Function fn([](const std::vector<Tensor> &) {
    return std::vector<Tensor>{getReplicaContext()->replicaIdInSyncGroup()};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(fn));
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ(ints(out[0][r]), std::vector<int64_t>{r});
}

TEST(TPUStrategyTest, ReduceMeanMultipliesByTheReciprocal) {
  // tpu_strategy_test.py::test_reduce: inputs 2.0 and 3.0, squared, MEAN.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             TPUStrategy::create(slice("1x1x1x2")));
  Function square([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * in[0]};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto out,
                             strategy.run(square, {PerReplica({f32(2.0f), f32(3.0f)})}));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor mean,
                             strategy.reduce(ReduceOp::Mean, out[0], std::nullopt));
  EXPECT_EQ(floats(mean), std::vector<float>{6.5});
  // In replica context MEAN is cross_replica_sum(value * (1 / R)).
  Function allMean([](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{getReplicaContext()->allReduce(ReduceOp::Mean, in[0])};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto m, strategy.run(allMean, {PerReplica({f32(2.0f), f32(3.0f)})}));
  EXPECT_EQ(floats(m[0][1]), std::vector<float>{2.5});
}

TEST(TPUStrategyTest, VariablesAreMirroredPerCore) {
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy, TPUStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
  TORUS_ASSERT_OK_AND_ASSIGN(
      Variable v, Variable::create(f32(0.0f), {.name = "v",
                                               .aggregation = VariableAggregation::Mean}));
  EXPECT_EQ(v.componentNames()[3], "v/replica_3");
  Function fn([&](const std::vector<Tensor> &) {
    v.assign(astype(getReplicaContext()->replicaIdInSyncGroup(), DType::F32));
    return std::vector<Tensor>{};
  });
  ASSERT_TRUE(strategy.run(fn).ok());
  for (const HostTensor &c : v.components())
    EXPECT_EQ(floats(c), std::vector<float>{3.5}); // mean of 0..7
}

TEST(TPUStrategyTest, UpdateConfigProtoAndV1Names) {
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategyV1 v1, TPUStrategyV1::create());
  EXPECT_EQ(v1.className(), "TPUStrategyV1");
  EXPECT_EQ(v1.stepsPerRun(), 1);
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategyV1 four, TPUStrategyV1::create(nullptr, 4));
  EXPECT_EQ(four.stepsPerRun(), 4);
  EXPECT_EQ(four.extended().stepsPerRun(), 4);
  // A grpc endpoint gives a cluster spec that update_config_proto copies.
  TORUS_ASSERT_OK_AND_ASSIGN(auto remote,
                             TPUClusterResolver::create("grpc://10.1.2.3:8470"));
  TORUS_ASSERT_OK_AND_ASSIGN(ClusterSpec spec, remote->clusterSpec());
  EXPECT_EQ(spec.at("worker"), std::vector<std::string>{"10.1.2.3:8470"});
}

TEST(TPUStrategyTest, DeprecatedExperimentalAliasWarnsAndReorders) {
  std::vector<std::string> warnings;
  rt::MeshWarningHandler previous = rt::setMeshWarningHandler(
      [&](std::string_view m) { warnings.emplace_back(m); });
  TORUS_ASSERT_OK_AND_ASSIGN(auto resolver, TPUClusterResolver::create(""));
  TORUS_ASSERT_OK_AND_ASSIGN(Topology topology, initializeTpuSystem(resolver.get()));
  warnings.clear();
  auto plain = experimental::TPUStrategy::create(resolver);
  auto assigned = experimental::TPUStrategy::create(
      resolver, *DeviceAssignment::build(topology, std::vector<int64_t>{1, 1, 1, 2},
                                         std::nullopt, 4));
  rt::setMeshWarningHandler(previous);
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_TRUE(assigned.ok()) << assigned.status();
  EXPECT_THAT(warnings,
              ElementsAre("`tf.distribute.experimental.TPUStrategy` is deprecated, "
                          "please use the non-experimental symbol "
                          "`tf.distribute.TPUStrategy` instead.",
                          "`tf.distribute.experimental.TPUStrategy` is deprecated, "
                          "please use the non-experimental symbol "
                          "`tf.distribute.TPUStrategy` instead."));
  EXPECT_EQ(plain->className(), "TPUStrategy");
  EXPECT_EQ(plain->numReplicasInSync(), 8);
  EXPECT_EQ(assigned->numReplicasInSync(), 4);
  EXPECT_EQ(assigned->numCoresPerReplica(), 2);
  // A TPUStrategy everywhere one is expected.
  const TPUStrategy &base = *assigned;
  EXPECT_EQ(base.numHosts(), 1);
  // With a device assignment the data are reordered by device, as
  // TPUStrategy (V2) does: replicas on TPU:0, 2, 6, 4 take elements in the
  // order 0, 1, 3, 2.
  TORUS_ASSERT_OK_AND_ASSIGN(
      DistributedDataset dist,
      assigned->experimentalDistributeDataset(
          Dataset::range(4).batch(4).withOptions({AutoShardPolicy::Off})));
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedIterator it, dist.makeIterator());
  TORUS_ASSERT_OK_AND_ASSIGN(Values next, it.next());
  EXPECT_THAT(testing::perReplicaInts({next})[0],
              ElementsAre(ElementsAre(0), ElementsAre(1), ElementsAre(3),
                          ElementsAre(2)));
}

TEST(TPUStrategyTest, UpdateConfigProtoTakesTheResolversClusterSpec) {
  // tpu_strategy_test.py::test_update_config_proto (spec §8.8): a copy with
  // isolate_session_state, and cluster_def replaced by the resolver's
  // non-empty cluster spec.
  TORUS_ASSERT_OK_AND_ASSIGN(auto remote,
                             TPUClusterResolver::create("grpc://10.1.2.3:8470"));
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy, TPUStrategy::create(remote));
  ConfigProto in;
  in.clusterDef = {{"ps", {"10.9.9.9:2222"}}};
  TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto out, strategy.updateConfigProto(in));
  EXPECT_TRUE(out.isolateSessionState);
  EXPECT_EQ(out.clusterDef,
            (ClusterSpec{{"worker", {"10.1.2.3:8470"}}}));
  // The argument is not changed.
  EXPECT_FALSE(in.isolateSessionState);
  EXPECT_EQ(in.clusterDef.count("ps"), 1u);
  // A local TPU has an empty spec: cluster_def is kept.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy local, TPUStrategy::create());
  TORUS_ASSERT_OK_AND_ASSIGN(ConfigProto kept, local.updateConfigProto(in));
  EXPECT_EQ(kept.clusterDef, in.clusterDef);
  EXPECT_TRUE(kept.isolateSessionState);
}

TEST(TPUStrategyTest, RunStepsOnIteratorLoopsOnDevice) {
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategyV1 strategy,
                             TPUStrategyV1::create(slice("1x1x1x2"), 3));
  Variable counter, total;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(counter, Variable::create(f32(0.0f), {.name = "steps"}));
    TORUS_ASSERT_OK_AND_ASSIGN(
        total, Variable::create(f32(0.0f), {.name = "total",
                                            .aggregation = VariableAggregation::Sum}));
  }
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedDataset ds,
                             strategy.experimentalDistributeDataset(
                                 Dataset::range(24).map(
                                     [](const Element &e) -> absl::StatusOr<Element> {
                                       return Element{f32(static_cast<float>(
                                           e[0].data<int64_t>()[0]))};
                                     }).batch(4, true)));
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedIterator it, ds.makeIterator());
  auto stepFn = [&](StepContext &ctx, const std::vector<Tensor> &inputs) {
    counter.assignAdd(1.0);
    total.assignAdd(sum(inputs[0]));
    ctx.setLastStepOutput("batch_sum", sum(inputs[0]));
    ctx.setLastStepOutput("global_sum", sum(inputs[0]), ReduceOp::Sum);
    return std::vector<Tensor>{};
  };
  TORUS_ASSERT_OK_AND_ASSIGN(MultiStepContext ctx,
                             strategy.experimentalRunStepsOnIterator(stepFn, it, 3));
  EXPECT_EQ(ctx.stepsRun, 3);
  EXPECT_EQ(floats(counter.components()[0]), std::vector<float>{3});
  // Steps saw [0..3], [4..7], [8..11]: sum 66 in all.
  EXPECT_EQ(floats(total.components()[1]), std::vector<float>{66});
  // The last step: replica 0 [8, 9], replica 1 [10, 11].
  EXPECT_EQ(floats(ctx.perReplicaOutputs.at("batch_sum")[0]), std::vector<float>{17});
  EXPECT_EQ(floats(ctx.perReplicaOutputs.at("batch_sum")[1]), std::vector<float>{21});
  EXPECT_EQ(floats(ctx.reducedOutputs.at("global_sum")), std::vector<float>{38});

  // steps_per_run == 1: one step whatever `iterations` says (spec §8.6).
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategyV1 single,
                             TPUStrategyV1::create(slice("1x1x1x2")));
  Variable c1;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, single.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(c1, Variable::create(f32(0.0f)));
  }
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedDataset ds1,
                             single.experimentalDistributeDataset(
                                 Dataset::range(24).batch(4, true)));
  TORUS_ASSERT_OK_AND_ASSIGN(DistributedIterator it1, ds1.makeIterator());
  TORUS_ASSERT_OK_AND_ASSIGN(
      MultiStepContext one,
      single.experimentalRunStepsOnIterator(
          [&](StepContext &, const std::vector<Tensor> &) {
            c1.assignAdd(1.0);
            return std::vector<Tensor>{};
          },
          it1, 5));
  EXPECT_EQ(one.stepsRun, 1);
  EXPECT_EQ(floats(c1.components()[0]), std::vector<float>{1});
}

} // namespace
} // namespace torus::distribute
