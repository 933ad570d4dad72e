//===- CostModelValidationTest.cpp - The cost model against real TPUs -----===//
//
// Each test reproduces one published figure, measured on a real TPU or
// worked out by its makers, with the same sizes on the same slice, through
// the model's API (estimateStepCost), and checks the ratio prediction /
// published. The band is 0.85-1.15 unless docs/cost-model.md ("Validation")
// explains why the model cannot come closer; then the test pins the
// explained band, so a change to the model that moves the figure shows up.
// The table in docs/cost-model.md lists the same cases.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/CostModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

namespace torus::rt {
namespace {

Topology preset(std::string_view name) {
  auto t = Topology::fromPreset(name);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

/// The core index (device d runs on core d) of the core at (x, y, z, c).
int64_t coreAt(const Topology &topology, int32_t x, int32_t y, int32_t z,
               int32_t c = 0) {
  int64_t index = 0;
  for (const auto &task : topology.deviceCoordinates())
    for (const Coordinates &coordinates : task) {
      if (coordinates == Coordinates{x, y, z, c})
        return index;
      ++index;
    }
  ADD_FAILURE() << "no core at (" << x << ", " << y << ", " << z << ", " << c
                << ")";
  return -1;
}

/// A program of one collective on every core of `topology`.
ProgramSpec oneCollective(const Topology &topology, CollectiveSpec collective) {
  ProgramSpec spec;
  spec.name = "figure";
  spec.numReplicas = 0;
  for (const auto &task : topology.deviceCoordinates())
    spec.numReplicas += static_cast<int64_t>(task.size());
  spec.collectives.push_back(std::move(collective));
  return spec;
}

double predictedSeconds(const ProgramSpec &spec, const ProgramCounts &counts,
                        const Topology &topology,
                        const CostModelOptions &options = {}) {
  auto cost = estimateStepCost(spec, counts, topology, options);
  EXPECT_TRUE(cost.ok()) << cost.status();
  return cost.ok() ? cost->totalSeconds : 0;
}

/// All-gathers along x (groups of the cores sharing y and z) on `topology`,
/// each core holding `operand` and gathering dimension 0.
CollectiveSpec allGatherAlongX(const Topology &topology, TensorSpec operand) {
  CollectiveSpec gather;
  gather.kind = CollectiveKind::AllGather;
  gather.operand = operand;
  const auto &shape = topology.meshShape();
  gather.result = operand;
  gather.result.shape[0] *= shape[0];
  for (int32_t z = 0; z < shape[2]; ++z)
    for (int32_t y = 0; y < shape[1]; ++y) {
      std::vector<int64_t> group;
      for (int32_t x = 0; x < shape[0]; ++x)
        group.push_back(coreAt(topology, x, y, z));
      gather.replicaGroups.push_back(group);
    }
  return gather;
}

void expectRatio(double predicted, double published, double low, double high) {
  const double ratio = predicted / published;
  // The table of docs/cost-model.md is made from these lines.
  std::printf("  predicted %.4g, published %.4g, ratio %.3f (band %.2f-%.2f)\n",
              predicted, published, ratio, low, high);
  EXPECT_GE(ratio, low) << "predicted " << predicted << ", published "
                        << published;
  EXPECT_LE(ratio, high) << "predicted " << predicted << ", published "
                         << published;
}

// [1] Measured. JAX scaling book, "How to Profile TPU Programs"
// (https://jax-ml.github.io/scaling-book/profiling/): the FFW up-projection
// of a 4-way data, 2-way model parallel Transformer on 8 TPU v2 cores, per
// core bf16[8,1024,8192] x bf16[8192,16384], "pretty much exactly how long
// it takes (96ms)".
TEST(CostModelValidationTest, V2MatmulMeasuredInAProfile) {
  const Topology topology = preset("v2-8");
  ProgramSpec spec;
  spec.name = "ffw";
  spec.numReplicas = 8;
  ProgramCounts counts;
  counts.bf16Flops = 2.0 * 8 * 1024 * 8192 * 16384;
  counts.hbmBytes = 2.0 * (8 * 1024 * 8192 + 8192 * 16384 + 8 * 1024 * 16384);
  auto cost = estimateStepCost(spec, counts, topology);
  ASSERT_TRUE(cost.ok()) << cost.status();
  EXPECT_GT(cost->flopSeconds, cost->memorySeconds); // compute-bound
  expectRatio(cost->totalSeconds, 96e-3, 0.85, 1.15);
}

// [2] Measured. Same profile: the reduce-scatter bf16[8,1024,8192] ->
// bf16[8,1024,4096] over the 2-way model axis, "one hop" of ICI,
// "1.13ms reported in the profile". Priced as one pair of cores on
// neighbouring chips (the page gives the time of the one-hop exchange; it
// does not say which cores form the pairs).
TEST(CostModelValidationTest, V2ReduceScatterMeasuredInAProfile) {
  const Topology topology = preset("v2-8");
  CollectiveSpec scatter;
  scatter.kind = CollectiveKind::ReduceScatter;
  scatter.operand = TensorSpec{DType::BF16, {8, 1024, 8192}};
  scatter.result = TensorSpec{DType::BF16, {8, 1024, 4096}};
  scatter.dimension = 2;
  ProgramSpec spec;
  spec.name = "reduce_scatter";
  spec.numReplicas = 2;
  spec.collectives = {scatter};
  CostModelOptions options;
  options.deviceToCore = {coreAt(topology, 0, 0, 0), coreAt(topology, 1, 0, 0)};
  expectRatio(predictedSeconds(spec, {}, topology, options), 1.13e-3, 0.85,
              1.15);
}

// [3] Measured. JAX scaling book, "Sharded Matrices and How to Multiply
// Them" (https://jax-ml.github.io/scaling-book/sharding/), Pop Quiz 2:
// AllGather_Y([E_Y, F]) on TPU v5e, mesh {X: 8, Y: 4} (32 chips, no
// wraparound), E = 2048, F = 8192, bf16: "an actual profile ... shows
// 680us". The model gives 512 us: the same schedule as the page's own
// estimate (3 hops of 8.4 MB per link, 560 us at its 4.5e10 B/s) at the
// documented link bandwidth, 50 GB/s; the profile gets ~75% of it ("we're
// likely not getting 100% of the theoretical bandwidth"). Explained band.
TEST(CostModelValidationTest, V5eAllGatherMeasuredBandwidthBound) {
  const Topology topology = preset("v5e-32"); // 4 x 8 chips: Y is x
  ProgramSpec spec = oneCollective(
      topology, allGatherAlongX(topology, TensorSpec{DType::BF16, {512, 8192}}));
  expectRatio(predictedSeconds(spec, {}, topology), 680e-6, 0.70, 0.80);
}

// [4] Measured. Same quiz, E = F = 256: latency-bound, "In practice, it's
// closer to 8us". The model charges every one of the 3 steps the 3 hops of
// the message closing the ring across the line, at the estimated 1 us per
// hop: 11 us. The per-hop latency is not published (docs/cost-model.md).
// Explained band.
TEST(CostModelValidationTest, V5eAllGatherMeasuredLatencyBound) {
  const Topology topology = preset("v5e-32");
  ProgramSpec spec = oneCollective(
      topology, allGatherAlongX(topology, TensorSpec{DType::BF16, {64, 256}}));
  expectRatio(predictedSeconds(spec, {}, topology), 8e-6, 1.25, 1.50);
}

// [5] Worked out by the makers. Scaling book, sharding, Question 2:
// AllGather_X([B_X, D_Y]) on a TPU v4p 4x4x4 slice (wraparound on every
// axis), B = 1024, D = 4096, bf16: "2BD / (9e10 * Y) = 23us". Each core
// holds bf16[256, 1024] and gathers along x.
TEST(CostModelValidationTest, V4AllGatherOneAxisOfACube) {
  const Topology topology = preset("v4-128");
  ProgramSpec spec = oneCollective(
      topology, allGatherAlongX(topology, TensorSpec{DType::BF16, {256, 1024}}));
  expectRatio(predictedSeconds(spec, {}, topology), 23e-6, 0.85, 1.15);
}

// [6] Worked out by the makers. Same question, AllGather_XY([B_X, D_Y]):
// "2BD / (2 * W_ICI) ... 46us", two axes' bandwidth at once. Each group of
// 16 cores sharing z gathers 8 MiB.
TEST(CostModelValidationTest, V4AllGatherTwoAxesOfACube) {
  const Topology topology = preset("v4-128");
  CollectiveSpec gather;
  gather.kind = CollectiveKind::AllGather;
  gather.operand = TensorSpec{DType::BF16, {256, 1024}};
  gather.result = TensorSpec{DType::BF16, {4096, 1024}};
  for (int32_t z = 0; z < 4; ++z) {
    std::vector<int64_t> group;
    for (int32_t y = 0; y < 4; ++y)
      for (int32_t x = 0; x < 4; ++x)
        group.push_back(coreAt(topology, x, y, z));
    gather.replicaGroups.push_back(group);
  }
  ProgramSpec spec = oneCollective(topology, gather);
  expectRatio(predictedSeconds(spec, {}, topology), 46e-6, 0.85, 1.15);
}

// [7] Worked out by the makers. Scaling book, "How to Think About TPUs"
// (https://jax-ml.github.io/scaling-book/tpus/), Question 1: a 200B-parameter
// bf16 model on 32 TPU v4p chips; reading every parameter from HBM "takes
// around 10ms" (12.5e9 bytes per chip at 1.23e12 B/s). A memory-bound step
// on a v4 slice of 32 chips (v4-64 is not a preset; 2 x 4 x 4 chips of a
// custom mesh would have no generation, so v4-2048's first 32 cores).
TEST(CostModelValidationTest, V4WeightLoadIsHbmBound) {
  const Topology topology = preset("v4-2048");
  ProgramSpec spec;
  spec.name = "sample";
  spec.numReplicas = 32;
  ProgramCounts counts;
  counts.hbmBytes = 2.0 * 200e9 / 32;
  auto cost = estimateStepCost(spec, counts, topology);
  ASSERT_TRUE(cost.ok()) << cost.status();
  EXPECT_GT(cost->memorySeconds, cost->flopSeconds);
  expectRatio(cost->totalSeconds, 10e-3, 0.85, 1.15);
}

// [8] Worked out by the makers. Scaling book, "All About Rooflines"
// (https://jax-ml.github.io/scaling-book/roofline/): a bf16[B, D] x
// bf16[D, F] matmul on TPU v5e is compute-bound once B exceeds
// 1.97e14 / 8.2e11 = 240 (for B much smaller than D and F). The model's
// roofline, asked batch size by batch size for D = F = 131072.
TEST(CostModelValidationTest, V5eMatmulCriticalBatchSize) {
  const Topology topology = preset("v5e-8");
  ProgramSpec spec;
  spec.name = "matmul";
  spec.numReplicas = 1;
  const double d = 131072, f = 131072;
  int64_t critical = 0;
  for (int64_t b = 1; b <= 1024 && critical == 0; ++b) {
    ProgramCounts counts;
    counts.bf16Flops = 2.0 * b * d * f;
    counts.hbmBytes = 2.0 * (b * d + d * f + b * f);
    auto cost = estimateStepCost(spec, counts, topology);
    ASSERT_TRUE(cost.ok()) << cost.status();
    if (cost->flopSeconds >= cost->memorySeconds)
      critical = b;
  }
  expectRatio(static_cast<double>(critical), 240, 0.85, 1.15);
}

} // namespace
} // namespace torus::rt
