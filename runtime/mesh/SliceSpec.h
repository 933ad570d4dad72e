//===- SliceSpec.h - The shape of an emulated TPU slice ---------*- C++ -*-===//
//
// A SliceSpec says how big an emulated slice is and how it is wired: the
// mesh of chips with cores per chip (TensorFlow's mesh_shape), the block of
// chips each host owns, which chip dimensions wrap around (torus links) and,
// for the named presets, the TPU generation. Topology::fromSliceSpec turns it
// into TensorFlow's device_coordinates.
//
// Two spellings are accepted:
//   * a preset name as Cloud TPU accelerator types are written: "v3-8",
//     "v4-32", "v5e-8" (alias "v5litepod-8"), ... (presetNames() lists them);
//   * a custom mesh "XxYxZxC" (chips along x, y, z, then cores per chip),
//     optionally followed by "/HXxHYxHZ" (the chips one host owns; default
//     the whole mesh, one host) and ":wrap=DIMS" with DIMS a subset of "xyz"
//     (dimensions with wraparound links), e.g. "4x4x1x2/2x2x1:wrap=xy".
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_SLICESPEC_H
#define TORUS_RUNTIME_MESH_SLICESPEC_H

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "torus/Status.h"

namespace torus::rt {

struct TpuGeneration;

struct SliceSpec {
  /// The preset name or the mesh string this spec was parsed from.
  std::string name;
  /// TensorFlow's mesh_shape: chips along x, y, z, then cores per chip.
  std::array<int32_t, 4> meshShape = {1, 1, 1, 1};
  /// The x*y*z block of chips one host (TensorFlow task) owns. Must divide
  /// the chip mesh.
  std::array<int32_t, 3> chipsPerHost = {1, 1, 1};
  /// Whether chip dimension x, y, z has wraparound (torus) links.
  std::array<bool, 3> wraparound = {false, false, false};
  /// The generation of a preset; nullptr for a custom mesh.
  const TpuGeneration *generation = nullptr;
};

/// The preset named `name` ("v3-8", ...), or NotFound listing the presets.
absl::StatusOr<SliceSpec> presetSliceSpec(std::string_view name);

/// Parses a custom mesh string ("2x2x1x2", "4x4x1x2/2x2x1:wrap=xy"), or
/// InvalidArgument saying what is wrong and what is expected.
absl::StatusOr<SliceSpec> parseMeshString(std::string_view text);

/// A preset name or, failing that, a custom mesh string.
absl::StatusOr<SliceSpec> parseSliceSpec(std::string_view text);

/// The preset names, in the order presets are listed in messages.
std::vector<std::string_view> presetNames();

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_SLICESPEC_H
