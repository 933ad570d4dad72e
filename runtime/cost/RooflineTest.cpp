//===- RooflineTest.cpp - Tests for the roofline report -------------------===//
//
// Expected values are computed by hand from the chip figures of
// docs/tpu-topology.md.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/Roofline.h"

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

/// One bf16 128x256x512 matmul and one f32 add of its result, then an
/// all-reduce of the f32[128, 512] result over the 4 chips of a v4-8.
struct SmallStep {
  ProgramSpec spec;
  ProgramCounts counts;
  SmallStep() {
    spec.name = "step";
    spec.numReplicas = 4;
    CollectiveSpec sum;
    sum.operand = sum.result = TensorSpec{DType::F32, {128, 512}};
    sum.location = "step.mlir:5:8";
    spec.collectives = {sum};
    OpCounts dot{"torus.dot_general", "step.mlir:3:8", 2.0 * 128 * 256 * 512,
                 0, 2.0 * (128 * 256 + 256 * 512) + 4.0 * 128 * 512};
    OpCounts add{"torus.add", "step.mlir:4:8", 0, 128.0 * 512,
                 3 * 4.0 * 128 * 512};
    counts.ops = {dot, add};
    for (const OpCounts &op : counts.ops) {
      counts.bf16Flops += op.bf16Flops;
      counts.f32Flops += op.f32Flops;
      counts.hbmBytes += op.hbmBytes;
    }
  }
};

TEST(RooflineTest, PerOpAndStepFigures) {
  SmallStep s;
  auto r = computeRoofline(s.spec, s.counts, preset("v4-8"));
  ASSERT_TRUE(r.ok()) << r.status();
  const TpuGeneration &v4 = tpuGeneration(TpuVersion::V4);
  ASSERT_EQ(r->ops.size(), 3u);
  const RooflineRow &dot = r->ops[0];
  EXPECT_EQ(dot.flops, 33554432);
  EXPECT_EQ(dot.hbmBytes, 589824);
  EXPECT_DOUBLE_EQ(dot.flopSeconds, 33554432 / 275e12);
  EXPECT_DOUBLE_EQ(dot.memorySeconds, 589824 / 1200e9);
  // 122 ns of FLOPs, 492 ns of HBM: a matmul this small is memory-bound.
  EXPECT_EQ(dot.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(dot.seconds, dot.memorySeconds);
  const RooflineRow &add = r->ops[1];
  EXPECT_DOUBLE_EQ(add.flopSeconds, 65536 / v4.peakF32FlopsPerCore);
  EXPECT_EQ(add.bound, Bound::Memory);
  const RooflineRow &sum = r->ops[2];
  EXPECT_EQ(sum.name, "all_reduce #0");
  EXPECT_EQ(sum.location, "step.mlir:5:8");
  // 2(n-1)/n x 256 KiB with n = 4.
  EXPECT_DOUBLE_EQ(sum.iciBytes, 1.5 * 262144);
  EXPECT_DOUBLE_EQ(sum.iciSeconds, r->step.collectiveSeconds);
  EXPECT_DOUBLE_EQ(r->flops, 33554432 + 65536);
  EXPECT_DOUBLE_EQ(r->iciBytes, sum.iciBytes);
  EXPECT_DOUBLE_EQ(r->opSecondsSum, dot.seconds + add.seconds);
  // The all-reduce's microseconds dwarf the compute.
  EXPECT_EQ(r->bound, Bound::Ici);
  EXPECT_DOUBLE_EQ(r->step.mfu(), (33554432 + 65536) /
                                      (r->step.totalSeconds * 275e12));
  std::string text = formatRoofline(*r);
  EXPECT_THAT(text, HasSubstr("Roofline of one step on v4-8 (4 v4 devices)"));
  EXPECT_THAT(text, HasSubstr("torus.dot_general"));
  EXPECT_THAT(text, HasSubstr("33554432"));
  EXPECT_THAT(text, HasSubstr("all_reduce #0"));
  EXPECT_THAT(text, HasSubstr("MFU"));
}

TEST(RooflineTest, ComputeBoundMatmulReachesFullUtilisation) {
  ProgramSpec spec;
  spec.name = "matmul";
  spec.numReplicas = 1;
  ProgramCounts counts;
  counts.bf16Flops = 2.0 * 8192 * 8192 * 8192;
  counts.hbmBytes = 3 * 2.0 * 8192 * 8192;
  counts.ops = {{"torus.dot_general", "", counts.bf16Flops, 0,
                 counts.hbmBytes}};
  auto r = computeRoofline(spec, counts, preset("v5p-8"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->bound, Bound::Compute);
  EXPECT_DOUBLE_EQ(r->step.totalSeconds, counts.bf16Flops / 459e12);
  EXPECT_DOUBLE_EQ(r->step.mfu(), 1.0);
}

TEST(RooflineTest, WhatIfOneRowPerSlice) {
  SmallStep s;
  std::vector<WhatIfEntry> entries;
  for (std::string_view name : {"v4-8", "v5p-8"}) {
    auto r = computeRoofline(s.spec, s.counts, preset(name));
    ASSERT_TRUE(r.ok()) << r.status();
    entries.push_back({std::string(name), *r, ""});
  }
  entries.push_back({"v4-8x", std::nullopt, "unknown TPU preset"});
  std::string text = formatWhatIf(entries);
  EXPECT_THAT(text, HasSubstr("v4-8 "));
  EXPECT_THAT(text, HasSubstr("1.00x"));
  EXPECT_THAT(text, HasSubstr("4 v5p"));
  EXPECT_THAT(text, HasSubstr("v4-8x        cannot be priced: unknown TPU "
                              "preset"));
  // v5p's links are twice v4's: the step is faster.
  EXPECT_LT(entries[1].roofline->step.totalSeconds,
            entries[0].roofline->step.totalSeconds);
}

TEST(RooflineTest, ErrorsAreTheCostModels) {
  SmallStep s;
  s.spec.numReplicas = 8; // a v4-8 has 4 devices
  auto r = computeRoofline(s.spec, s.counts, preset("v4-8"));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("8 devices do not fit the 4 cores of v4-8"));
}

} // namespace
} // namespace torus::rt
