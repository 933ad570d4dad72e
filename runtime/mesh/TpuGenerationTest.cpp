//===- TpuGenerationTest.cpp - Per-generation chip figures ----------------===//
//
// Pins the figures documented in docs/tpu-topology.md.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/TpuGeneration.h"

#include "gtest/gtest.h"

namespace torus::rt {
namespace {

constexpr double kGiB = double(int64_t(1) << 30);

TEST(TpuGenerationTest, FiguresPerGeneration) {
  const TpuGeneration &v2 = tpuGeneration(TpuVersion::V2);
  EXPECT_EQ(v2.name, "v2");
  EXPECT_EQ(v2.coresPerChip, 2);
  EXPECT_EQ(v2.hbmBytesPerCore, 8 * int64_t(1) << 30);
  EXPECT_DOUBLE_EQ(v2.peakBf16FlopsPerCore, 22.5e12);
  EXPECT_EQ(v2.iciLinksPerChip, 4);

  const TpuGeneration &v3 = tpuGeneration(TpuVersion::V3);
  EXPECT_EQ(v3.hbmBytesPerCore, 16 * int64_t(1) << 30);
  EXPECT_DOUBLE_EQ(v3.peakBf16FlopsPerCore, 61.5e12);
  EXPECT_DOUBLE_EQ(v3.peakF32FlopsPerCore, 61.5e12 / 6);

  const TpuGeneration &v4 = tpuGeneration(TpuVersion::V4);
  EXPECT_TRUE(v4.megacore);
  EXPECT_EQ(v4.tensorCoresPerChip, 2);
  EXPECT_EQ(v4.coresPerChip, 1);
  EXPECT_DOUBLE_EQ(double(v4.hbmBytesPerCore), 32 * kGiB);
  EXPECT_DOUBLE_EQ(v4.peakBf16FlopsPerCore, 275e12);
  EXPECT_EQ(v4.iciLinksPerChip, 6);
  EXPECT_EQ(v4.torusRank, 3);

  const TpuGeneration &v5e = tpuGeneration(TpuVersion::V5e);
  EXPECT_EQ(v5e.coresPerChip, 1);
  EXPECT_FALSE(v5e.megacore);
  EXPECT_DOUBLE_EQ(v5e.peakBf16FlopsPerCore, 197e12);
  EXPECT_EQ(v5e.chipsPerHost, (std::array<int32_t, 3>{2, 4, 1}));

  const TpuGeneration &v5p = tpuGeneration(TpuVersion::V5p);
  EXPECT_DOUBLE_EQ(double(v5p.hbmBytesPerCore), 95 * kGiB);
  EXPECT_DOUBLE_EQ(v5p.peakBf16FlopsPerCore, 459e12);
  EXPECT_DOUBLE_EQ(v5p.iciLinkBandwidth, 100e9);
}

TEST(TpuGenerationTest, LookupByName) {
  ASSERT_EQ(allTpuGenerations().size(), 5u);
  for (const TpuGeneration &generation : allTpuGenerations())
    EXPECT_EQ(findTpuGeneration(generation.name), &generation);
  EXPECT_EQ(findTpuGeneration("v5litepod"), &tpuGeneration(TpuVersion::V5e));
  EXPECT_EQ(findTpuGeneration("v6"), nullptr);
}

} // namespace
} // namespace torus::rt
