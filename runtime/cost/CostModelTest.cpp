//===- CostModelTest.cpp - Tests for the step cost model ------------------===//

#include "runtime/cost/CostModel.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

Topology preset(std::string_view name) {
  auto t = Topology::fromPreset(name);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

TEST(CostModelTest, ComputeIsARooflinePerCore) {
  const TpuGeneration &v4 = tpuGeneration(TpuVersion::V4);
  ProgramSpec spec;
  spec.name = "step";
  spec.numReplicas = 4;
  ProgramCounts counts;
  counts.bf16Flops = v4.peakBf16FlopsPerCore * 2e-3; // 2 ms at peak
  counts.f32Flops = v4.peakF32FlopsPerCore * 1e-3;   // 1 ms at f32 peak
  counts.hbmBytes = v4.hbmBandwidthPerCore * 1e-3;   // 1 ms of HBM
  auto cost = estimateStepCost(spec, counts, preset("v4-8"));
  ASSERT_TRUE(cost.ok()) << cost.status();
  EXPECT_NEAR(cost->flopSeconds, 3e-3, 1e-15);
  EXPECT_NEAR(cost->memorySeconds, 1e-3, 1e-15);
  EXPECT_NEAR(cost->computeSeconds, 3e-3, 1e-15);
  EXPECT_EQ(cost->totalSeconds, cost->computeSeconds);
  // Memory-bound when the bytes dominate.
  counts.hbmBytes = v4.hbmBandwidthPerCore * 5e-3;
  cost = estimateStepCost(spec, counts, preset("v4-8"));
  EXPECT_NEAR(cost->computeSeconds, 5e-3, 1e-15);
  EXPECT_THAT(formatStepCost(*cost), HasSubstr("memory-bound"));
}

TEST(CostModelTest, CollectivesAddUpWithTheirInvocations) {
  ProgramSpec spec;
  spec.name = "step";
  spec.numReplicas = 16; // v4-32: 2x2x4 chips
  CollectiveSpec sum;
  sum.operand = TensorSpec{DType::F32, {1 << 20}};
  sum.location = "step.mlir:3:5";
  CollectiveSpec gather;
  gather.kind = CollectiveKind::AllGather;
  gather.operand = TensorSpec{DType::BF16, {256, 8}};
  spec.collectives = {sum, gather};
  ProgramCounts counts;
  counts.bf16Flops = 1e12;
  counts.collectiveInvocations = {3, 1};
  const Topology topology = preset("v4-32");
  auto cost = estimateStepCost(spec, counts, topology);
  ASSERT_TRUE(cost.ok()) << cost.status();
  ASSERT_EQ(cost->collectives.size(), 2u);
  auto placement = placementOnTopology(topology, 16);
  ASSERT_TRUE(placement.ok());
  IciParameters ici =
      IciParameters::forGeneration(tpuGeneration(TpuVersion::V4));
  auto one = costCollective(collectiveOpFromSpec(sum), {}, *placement, ici);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(cost->collectives[0].invocations, 3);
  EXPECT_DOUBLE_EQ(cost->collectives[0].seconds(), 3 * one->seconds);
  EXPECT_EQ(cost->collectives[0].name, "all_reduce #0 at step.mlir:3:5");
  EXPECT_DOUBLE_EQ(cost->collectiveSeconds, cost->collectives[0].seconds() +
                                                cost->collectives[1].seconds());
  EXPECT_DOUBLE_EQ(cost->totalSeconds,
                   cost->computeSeconds + cost->collectiveSeconds);
  EXPECT_DOUBLE_EQ(cost->overlappedSeconds,
                   std::max(cost->computeSeconds, cost->collectiveSeconds));
  std::string text = formatStepCost(*cost, absl::Milliseconds(40));
  EXPECT_THAT(text, HasSubstr("simulated step on v4-32 (16 v4 devices)"));
  StepCost single = *cost;
  single.numDevices = 1;
  EXPECT_THAT(formatStepCost(single, std::nullopt),
              HasSubstr("(1 v4 device):"));
  EXPECT_THAT(text, HasSubstr("all_reduce"));
  EXPECT_THAT(text, HasSubstr("torus over 16"));
  EXPECT_THAT(text, HasSubstr("measured      40.000 ms  per step on this "
                              "host"));
  EXPECT_THAT(text, HasSubstr("x the simulated time)"));
}

TEST(CostModelTest, FromADeviceAssignmentWithPartitions) {
  auto topology = std::make_shared<Topology>(preset("v3-8"));
  auto assignment = DeviceAssignment::build(
      topology, std::vector<int64_t>{1, 1, 1, 2}, std::nullopt, 4);
  ASSERT_TRUE(assignment.ok());
  ProgramSpec spec;
  spec.name = "mp";
  spec.numReplicas = 4;
  CollectiveSpec pair; // the two partitions of each replica: one chip
  pair.operand = TensorSpec{DType::F32, {1024}};
  pair.replicaGroups = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  spec.collectives = {pair};
  auto cost = estimateStepCost(spec, ProgramCounts{}, *assignment);
  ASSERT_TRUE(cost.ok()) << cost.status();
  EXPECT_EQ(cost->numDevices, 8);
  // Both members of every group sit on one chip: the on-chip path.
  const TpuGeneration &v3 = tpuGeneration(TpuVersion::V3);
  EXPECT_NEAR(cost->collectives[0].cost.seconds,
              2 * (4096.0 / 2 / v3.hbmBandwidthPerCore +
                   kEstimatedOnChipLatency),
              1e-18);
  EXPECT_EQ(cost->collectives[0].cost.maxHops, 0);
}

TEST(CostModelTest, Errors) {
  ProgramSpec spec;
  spec.numReplicas = 9;
  EXPECT_THAT(std::string(estimateStepCost(spec, {}, preset("v3-8"))
                              .status()
                              .message()),
              HasSubstr("9 devices do not fit the 8 cores of v3-8"));
  auto bare = Topology::create({2, 1, 1, 1}, {{{0, 0, 0, 0}, {1, 0, 0, 0}}});
  ASSERT_TRUE(bare.ok()) << bare.status();
  spec.numReplicas = 2;
  auto cost = estimateStepCost(spec, {}, *bare);
  EXPECT_EQ(cost.status().code(), absl::StatusCode::kFailedPrecondition);
  CostModelOptions options;
  options.generation = &tpuGeneration(TpuVersion::V5e);
  EXPECT_TRUE(estimateStepCost(spec, {}, *bare, options).ok());
  ProgramCounts counts;
  counts.collectiveInvocations = {1};
  EXPECT_THAT(std::string(estimateStepCost(spec, counts, *bare, options)
                              .status()
                              .message()),
              HasSubstr("1 invocation counts for 0 collectives"));
  CollectiveSpec bad;
  bad.kind = CollectiveKind::ReduceScatter;
  bad.operand = TensorSpec{DType::F32, {3}};
  spec.collectives = {bad};
  EXPECT_THAT(std::string(estimateStepCost(spec, {}, *bare, options)
                              .status()
                              .message()),
              HasSubstr("reduce_scatter #0: reduce-scatter: dimension 0"));
}

TEST(CostModelTest, FormatSeconds) {
  EXPECT_EQ(formatSeconds(0), "0 s");
  EXPECT_EQ(formatSeconds(2.5e-8), "25.0 ns");
  EXPECT_EQ(formatSeconds(1.25e-5), "12.50 us");
  EXPECT_EQ(formatSeconds(0.0125), "12.500 ms");
  EXPECT_EQ(formatSeconds(3), "3.000 s");
}

TEST(CostModelTest, MfuIsModelFlopsOverStepTimesPeak) {
  const TpuGeneration &v4 = tpuGeneration(TpuVersion::V4);
  ProgramSpec spec;
  spec.name = "step";
  spec.numReplicas = 4;
  ProgramCounts counts;
  counts.bf16Flops = v4.peakBf16FlopsPerCore * 1e-3; // 1 ms at peak
  counts.hbmBytes = v4.hbmBandwidthPerCore * 4e-3;   // 4 ms of HBM
  auto cost = estimateStepCost(spec, counts, preset("v4-8"));
  ASSERT_TRUE(cost.ok()) << cost.status();
  EXPECT_DOUBLE_EQ(cost->mfu(), 0.25);
  EXPECT_DOUBLE_EQ(cost->overlappedMfu(), 0.25);
  EXPECT_THAT(formatStepCost(*cost),
              HasSubstr("25.0%  (model FLOPs 2.75e+11 per device"));
  EXPECT_EQ(formatPercent(0.462), "46.2%");
  EXPECT_EQ(formatPercent(4.2e-5), "0.0042%");
  EXPECT_EQ(formatPercent(4.7e-7), "0.000047%");
  EXPECT_EQ(formatPercent(0), "0.0%");
}

} // namespace
} // namespace torus::rt
