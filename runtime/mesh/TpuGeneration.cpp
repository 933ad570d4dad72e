//===- TpuGeneration.cpp - Per-generation TPU chip figures ----------------===//
//
// Sources and which figures are estimates: docs/tpu-topology.md.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/TpuGeneration.h"

namespace torus::rt {
namespace {

constexpr int64_t kGiB = int64_t(1) << 30;
constexpr double kGB = 1e9;
constexpr double kTera = 1e12;
// XLA runs an f32 matmul at HIGHEST precision as six bf16 passes.
constexpr double kF32Passes = 6.0;

constexpr TpuGeneration kGenerations[] = {
    {TpuVersion::V2, "v2", /*tensorCoresPerChip=*/2, /*coresPerChip=*/2,
     /*megacore=*/false, /*hbmBytesPerCore=*/16 * kGiB / 2,
     /*hbmBandwidthPerCore=*/600 * kGB / 2,
     /*peakBf16FlopsPerCore=*/45 * kTera / 2,
     /*peakF32FlopsPerCore=*/45 * kTera / 2 / kF32Passes,
     /*iciLinksPerChip=*/4, /*iciLinkBandwidth=*/496e9 / 8,
     /*torusRank=*/2, /*chipsPerHost=*/{2, 2, 1}, /*podChips=*/{16, 16, 1}},
    {TpuVersion::V3, "v3", 2, 2, false, 32 * kGiB / 2, 900 * kGB / 2,
     123 * kTera / 2, 123 * kTera / 2 / kF32Passes, 4, 656e9 / 8, 2,
     {2, 2, 1}, {32, 32, 1}},
    // v4 link: the page's "All-reduce bandwidth per Pod 1.1 PB/s" over
    // 4096 chips x 6 links (docs/tpu-topology.md note [d]).
    {TpuVersion::V4, "v4", 2, 1, true, 32 * kGiB, 1200 * kGB, 275 * kTera,
     275 * kTera / kF32Passes, 6, 1.1e15 / (4096 * 6), 3, {2, 2, 1},
     {16, 16, 16}},
    {TpuVersion::V5e, "v5e", 1, 1, false, 16 * int64_t(1000000000),
     819 * kGB, 197 * kTera, 197 * kTera / kF32Passes, 4, 50 * kGB, 2,
     {2, 4, 1}, {16, 16, 1}},
    {TpuVersion::V5p, "v5p", 2, 1, true, 95 * kGiB, 2765 * kGB, 459 * kTera,
     459 * kTera / kF32Passes, 6, 100 * kGB, 3, {2, 2, 1}, {16, 20, 28}},
    // v6e link: 800 GB/s bidirectional per chip over 4 ports, 2 directions.
    {TpuVersion::V6e, "v6e", 1, 1, false, 32 * int64_t(1000000000),
     1638 * kGB, 918 * kTera, 918 * kTera / kF32Passes, 4, 800 * kGB / 4 / 2,
     2, {2, 4, 1}, {16, 16, 1}},
};

} // namespace

const TpuGeneration &tpuGeneration(TpuVersion version) {
  return kGenerations[static_cast<int>(version)];
}

const TpuGeneration *findTpuGeneration(std::string_view name) {
  if (name == "v5litepod")
    name = "v5e";
  if (name == "trillium")
    name = "v6e";
  for (const TpuGeneration &generation : kGenerations)
    if (generation.name == name)
      return &generation;
  return nullptr;
}

std::span<const TpuGeneration> allTpuGenerations() { return kGenerations; }

} // namespace torus::rt
