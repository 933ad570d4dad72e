//===- EnumsTest.cpp - Enums, options and contexts (spec §1) --------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;

TEST(EnumsTest, ReduceOpAcceptsStringsInAnyCase) {
  EXPECT_EQ(*parseReduceOp("sum"), ReduceOp::Sum);
  EXPECT_EQ(*parseReduceOp("Mean"), ReduceOp::Mean);
  EXPECT_EQ(*parseReduceOp("SUM"), ReduceOp::Sum);
  EXPECT_STATUS(parseReduceOp("MAX"), absl::StatusCode::kInvalidArgument,
                "'MAX' is not a valid ReduceOp");
  EXPECT_STATUS(parseReduceOp("max"), absl::StatusCode::kInvalidArgument,
                "'MAX' is not a valid ReduceOp");
  EXPECT_EQ(reduceOpName(ReduceOp::Sum), "ReduceOp.SUM");
  EXPECT_EQ(reduceOpValue(ReduceOp::Mean), "MEAN");
}

TEST(EnumsTest, ReduceOpFromVariableAggregation) {
  EXPECT_EQ(*reduceOpFromAggregation(VariableAggregation::Sum), ReduceOp::Sum);
  EXPECT_EQ(*reduceOpFromAggregation(VariableAggregation::Mean), ReduceOp::Mean);
  EXPECT_STATUS(reduceOpFromAggregation(VariableAggregation::None),
                absl::StatusCode::kInvalidArgument,
                "Could not convert from `tf.VariableAggregation` "
                "VariableAggregation.NONE to`tf.distribute.ReduceOp` type");
  EXPECT_STATUS(reduceOpFromAggregation(VariableAggregation::OnlyFirstReplica),
                absl::StatusCode::kInvalidArgument,
                "Could not convert from `tf.VariableAggregation` "
                "VariableAggregation.ONLY_FIRST_REPLICA to`tf.distribute."
                "ReduceOp` type");
}

TEST(EnumsTest, InputContext) {
  InputContext defaults;
  EXPECT_EQ(defaults.numInputPipelines(), 1);
  EXPECT_EQ(defaults.inputPipelineId(), 0);
  EXPECT_EQ(defaults.numReplicasInSync(), 1);
  InputContext ctx(2, 1, 4);
  EXPECT_EQ(*ctx.getPerReplicaBatchSize(8), 2);
  EXPECT_STATUS(ctx.getPerReplicaBatchSize(7), absl::StatusCode::kInvalidArgument,
                "The `global_batch_size` 7 is not divisible by "
                "`num_replicas_in_sync` 4 ");
  EXPECT_EQ(ctx.toString(),
            "tf.distribute.InputContext(input pipeline id 1, total: 2)");
}

TEST(EnumsTest, ValueContext) {
  ValueContext defaults;
  EXPECT_EQ(defaults.replicaIdInSyncGroup(), 0);
  EXPECT_EQ(defaults.numReplicasInSync(), 1);
  EXPECT_EQ(ValueContext(3, 8).toString(),
            "tf.distribute.ValueContext(replica id 3,  total replicas in "
            "sync: 8)");
}

TEST(EnumsTest, InputAndRunOptionDefaults) {
  InputOptions input;
  EXPECT_FALSE(input.experimentalFetchToDevice.has_value());
  EXPECT_EQ(input.experimentalReplicationMode, InputReplicationMode::PerWorker);
  EXPECT_FALSE(input.experimentalPlaceDatasetOnDevice);
  EXPECT_EQ(input.experimentalPerReplicaBufferSize, 1);
  RunOptions run;
  EXPECT_TRUE(run.experimentalEnableDynamicBatchSize);
  EXPECT_FALSE(run.experimentalBucketizingDynamicShape);
  EXPECT_EQ(static_cast<int>(AutoShardPolicy::Off), -1);
  EXPECT_EQ(static_cast<int>(AutoShardPolicy::Hint), 3);
  EXPECT_EQ(autoShardPolicyName(AutoShardPolicy::Data), "AutoShardPolicy.DATA");
  EXPECT_EQ(inputReplicationModeName(InputReplicationMode::PerReplica),
            "InputReplicationMode.PER_REPLICA");
}

TEST(EnumsTest, CommunicationOptions) {
  EXPECT_STATUS(CommunicationOptions::create(-1),
                absl::StatusCode::kInvalidArgument,
                "Argument `bytes_per_pack` must be >=0, Received -1.");
  CommunicationOptions defaults;
  EXPECT_EQ(defaults.toString(),
            "Options(bytes_per_pack=0,timeout_seconds=None, "
            "implementation=CommunicationImplementation.AUTO)");
  TORUS_ASSERT_OK_AND_ASSIGN(
      CommunicationOptions a,
      CommunicationOptions::create(1024, 10.0, CommunicationImplementation::Ring));
  TORUS_ASSERT_OK_AND_ASSIGN(
      CommunicationOptions b,
      CommunicationOptions::create(0, std::nullopt, CommunicationImplementation::Nccl));
  CommunicationOptions merged = a.merge(b);
  EXPECT_EQ(merged.bytesPerPack(), 1024);
  EXPECT_EQ(merged.timeoutSeconds(), 10.0);
  EXPECT_EQ(merged.implementation(), CommunicationImplementation::Nccl);
  EXPECT_EQ(*parseCommunicationImplementation("ring"),
            CommunicationImplementation::Ring);
  EXPECT_STATUS(parseCommunicationImplementation("x"),
                absl::StatusCode::kInvalidArgument,
                "'X' is not a valid CommunicationImplementation");
}

} // namespace
} // namespace torus::distribute
