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

  // v4's link: 1.1 PB/s of all-reduce bandwidth per pod over 4096 x 6 links.
  EXPECT_NEAR(v4.iciLinkBandwidth, 44.76e9, 0.01e9);

  const TpuGeneration &v6e = tpuGeneration(TpuVersion::V6e);
  EXPECT_EQ(v6e.name, "v6e");
  EXPECT_EQ(v6e.coresPerChip, 1);
  EXPECT_EQ(v6e.hbmBytesPerCore, 32 * int64_t(1000000000));
  EXPECT_DOUBLE_EQ(v6e.hbmBandwidthPerCore, 1638e9);
  EXPECT_DOUBLE_EQ(v6e.peakBf16FlopsPerCore, 918e12);
  EXPECT_EQ(v6e.iciLinksPerChip, 4);
  EXPECT_DOUBLE_EQ(v6e.iciLinkBandwidth, 100e9);
  EXPECT_EQ(v6e.torusRank, 2);
  EXPECT_EQ(v6e.podChips, (std::array<int32_t, 3>{16, 16, 1}));
}

// Google's pages give "All-reduce bandwidth per Pod"; for v5e and v6e, whose
// pages also give the per-chip ICI bandwidth, it equals chips x links x the
// one-way link bandwidth exactly, which is how v3's and v4's link figures are
// read from their pages (docs/tpu-topology.md).
TEST(TpuGenerationTest, PodAllReduceBandwidthIsChipsTimesLinks) {
  auto podBandwidth = [](const TpuGeneration &g) {
    double chips = double(g.podChips[0]) * g.podChips[1] * g.podChips[2];
    return chips * g.iciLinksPerChip * g.iciLinkBandwidth;
  };
  EXPECT_NEAR(podBandwidth(tpuGeneration(TpuVersion::V5e)), 51.2e12, 1e9);
  EXPECT_NEAR(podBandwidth(tpuGeneration(TpuVersion::V6e)), 102.4e12, 1e9);
  EXPECT_NEAR(podBandwidth(tpuGeneration(TpuVersion::V4)), 1.1e15, 1e9);
  // v3: 656 Gbit/s per link (Jouppi et al. 2020) gives 336 TB/s; the page
  // says 340 TB/s.
  EXPECT_NEAR(podBandwidth(tpuGeneration(TpuVersion::V3)) / 340e12, 1.0,
              0.02);
}

TEST(TpuGenerationTest, LookupByName) {
  ASSERT_EQ(allTpuGenerations().size(), 6u);
  for (const TpuGeneration &generation : allTpuGenerations())
    EXPECT_EQ(findTpuGeneration(generation.name), &generation);
  EXPECT_EQ(findTpuGeneration("v5litepod"), &tpuGeneration(TpuVersion::V5e));
  EXPECT_EQ(findTpuGeneration("trillium"), &tpuGeneration(TpuVersion::V6e));
  EXPECT_EQ(findTpuGeneration("v6"), nullptr);
}

} // namespace
} // namespace torus::rt
