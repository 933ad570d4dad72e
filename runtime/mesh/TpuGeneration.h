//===- TpuGeneration.h - Per-generation TPU chip figures --------*- C++ -*-===//
//
// One record per TPU generation with the figures the emulator and the ICI
// cost model need. Every figure, its public source and whether it is an
// estimate is listed in docs/tpu-topology.md; keep the two in step.
//
// "Core" here means what TensorFlow calls a TPU device (one entry of
// mesh_shape[3]): a TensorCore on v2/v3, a whole chip on v4 and v5p, whose
// two TensorCores TensorFlow drives as one "megacore" device, and the chip's
// single TensorCore on v5e and v6e.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_TPUGENERATION_H
#define TORUS_RUNTIME_MESH_TPUGENERATION_H

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace torus::rt {

enum class TpuVersion { V2, V3, V4, V5e, V5p, V6e };

struct TpuGeneration {
  TpuVersion version;
  /// "v2", "v3", "v4", "v5e", "v5p", "v6e".
  std::string_view name;
  /// Physical TensorCores on one chip.
  int tensorCoresPerChip;
  /// TPU devices per chip as TensorFlow sees them: mesh_shape[3].
  int coresPerChip;
  /// True when the chip's TensorCores are driven as one device (megacore).
  bool megacore;
  /// HBM capacity of one device (core), in bytes.
  int64_t hbmBytesPerCore;
  /// HBM bandwidth of one device (core), in bytes per second.
  double hbmBandwidthPerCore;
  /// Peak dense bf16 matmul rate of one device (core), in FLOP/s.
  double peakBf16FlopsPerCore;
  /// Peak f32 matmul rate of one device at full f32 accuracy (XLA's HIGHEST
  /// precision, six bf16 passes): an estimate, see docs/tpu-topology.md.
  double peakF32FlopsPerCore;
  /// ICI ports on one chip (4 on 2-D torus generations, 6 on 3-D ones).
  int iciLinksPerChip;
  /// Bandwidth of one ICI link in one direction, in bytes per second.
  double iciLinkBandwidth;
  /// 2 for a 2-D torus (chips on x and y), 3 for a 3-D torus.
  int torusRank;
  /// Chips one host (TensorFlow task) owns, as an x*y*z block.
  std::array<int32_t, 3> chipsPerHost;
  /// Chips along x, y, z of a whole pod.
  std::array<int32_t, 3> podChips;
};

/// The record for `version`.
const TpuGeneration &tpuGeneration(TpuVersion version);

/// The record named `name` ("v4", case-sensitive; "v5litepod" is accepted
/// for v5e, "trillium" for v6e), or nullptr.
const TpuGeneration *findTpuGeneration(std::string_view name);

/// Every record, oldest generation first.
std::span<const TpuGeneration> allTpuGenerations();

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_TPUGENERATION_H
