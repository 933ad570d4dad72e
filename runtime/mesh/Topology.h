//===- Topology.h - A TPU slice: mesh shape and device coordinates -*- C++ -*-===//
//
// The emulated counterpart of tf.tpu.experimental.Topology
// (tensorflow/python/tpu/topology.py; spec §9.2). A slice is a 4-D mesh
// `mesh_shape = [x, y, z, cores_per_chip]`; `device_coordinates[t][d]` holds
// the mesh coordinates of TPU ordinal d on task (host) t. Lookups from
// coordinates back to task, ordinal and device names behave as TensorFlow's,
// including numpy's index rules (negative indices count from the end, -1 for
// a mesh cell no task owns).
//
// Beyond TensorFlow's class, a Topology made from a preset or a SliceSpec also
// carries the physical model the runtime needs: the TPU generation (chip
// figures) and which chip dimensions have wraparound (torus) ICI links. A
// Topology made from device coordinates or a serialized proto has neither.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_TOPOLOGY_H
#define TORUS_RUNTIME_MESH_TOPOLOGY_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/mesh/SliceSpec.h"
#include "torus/Status.h"

namespace torus::rt {

struct TpuGeneration;

/// Coordinates of one TPU core in the mesh: (x, y, z, core).
using Coordinates = std::array<int32_t, 4>;
/// Coordinates of one chip: (x, y, z).
using ChipCoordinates = std::array<int32_t, 3>;

/// One ICI link leaving a chip.
struct IciLink {
  ChipCoordinates from;
  ChipCoordinates to;
  /// The chip dimension (0 = x, 1 = y, 2 = z) the link runs along.
  int dim;
  /// +1 or -1 along `dim`.
  int direction;
  /// True for the link that closes the torus ring (from the last chip of a
  /// dimension to the first, or back).
  bool wraparound;
};

class Topology {
public:
  /// TensorFlow's constructor form `Topology(mesh_shape=...,
  /// device_coordinates=...)`, with its validation and error texts.
  /// `deviceCoordinates` is [num_tasks][num_tpus_per_task][4]. Beyond
  /// TensorFlow, coordinates outside the mesh, negative or naming the same
  /// core twice are rejected here (TensorFlow raises IndexError, wraps
  /// negatives numpy-style, or silently keeps the last duplicate).
  static absl::StatusOr<Topology>
  create(const std::vector<int64_t> &meshShape,
         const std::vector<std::vector<std::vector<int64_t>>> &deviceCoordinates);

  /// TensorFlow's `Topology(serialized=...)`: parses a serialized
  /// TopologyProto, with TensorFlow's error texts. serialized() returns the
  /// same bytes.
  static absl::StatusOr<Topology> fromSerialized(std::string_view serialized);

  /// A named preset such as "v3-8" or "v4-32" (see SliceSpec.h).
  static absl::StatusOr<Topology> fromPreset(std::string_view name);
  /// A custom mesh string such as "2x2x1x2" (see SliceSpec.h).
  static absl::StatusOr<Topology> fromMeshString(std::string_view text);
  /// A preset name or a custom mesh string.
  static absl::StatusOr<Topology> fromString(std::string_view text);
  /// Lays out tasks and ordinals for `spec`: tasks own host blocks numbered
  /// x-fastest, then y, then z; within a task, ordinals run over its chips
  /// x-fastest, then y, then z, with the cores of a chip consecutive.
  static absl::StatusOr<Topology> fromSliceSpec(const SliceSpec &spec);

  // --- TensorFlow's properties -------------------------------------------

  /// [x, y, z, cores_per_chip].
  const std::array<int32_t, 4> &meshShape() const { return meshShape_; }
  /// Always 4.
  int meshRank() const { return 4; }
  /// [num_tasks][num_tpus_per_task] mesh coordinates.
  const std::vector<std::vector<Coordinates>> &deviceCoordinates() const {
    return deviceCoordinates_;
  }
  int numTasks() const { return static_cast<int>(deviceCoordinates_.size()); }
  int numTpusPerTask() const { return numTpusPerTask_; }
  /// Mesh cells no (task, ordinal) maps to, in row-major mesh order (numpy's
  /// argwhere).
  std::vector<Coordinates> missingDevices() const;

  /// The task owning the core at `coordinates`, or -1 for a missing cell.
  /// Negative coordinates count from the end of their axis (numpy); beyond
  /// that, OutOfRange with numpy's IndexError text.
  absl::StatusOr<int> taskOrdinalAtCoordinates(const Coordinates &coordinates) const;
  /// The TPU ordinal within its task of the core at `coordinates`, or -1.
  absl::StatusOr<int>
  tpuDeviceOrdinalAtCoordinates(const Coordinates &coordinates) const;
  /// "/task:{t}/device:CPU:0", or "/job:{job}/task:{t}/device:CPU:0".
  absl::StatusOr<std::string>
  cpuDeviceNameAtCoordinates(const Coordinates &coordinates,
                             std::optional<std::string_view> job = std::nullopt) const;
  /// "/task:{t}/device:TPU:{d}", or "/job:{job}/task:{t}/device:TPU:{d}".
  absl::StatusOr<std::string>
  tpuDeviceNameAtCoordinates(const Coordinates &coordinates,
                             std::optional<std::string_view> job = std::nullopt) const;

  /// The serialized TopologyProto (the original bytes when parsed).
  std::string serialized() const;

  // --- The physical model (presets and slice specs only) ------------------

  /// The preset name or mesh string, or "" for a topology made from
  /// coordinates or a proto.
  const std::string &name() const { return name_; }
  /// The TPU generation, or nullptr when not known.
  const TpuGeneration *generation() const { return generation_; }
  /// Whether chip dimension `dim` (0..2) has wraparound links.
  bool hasWraparound(int dim) const;
  /// Chips in the mesh: x * y * z.
  int64_t numChips() const;
  /// The ICI links leaving `chip`: one per neighbour along each dimension of
  /// size > 1, plus the wraparound links of a torus dimension of size > 2.
  absl::StatusOr<std::vector<IciLink>> iciLinks(const ChipCoordinates &chip) const;
  /// Fewest ICI hops from chip `a` to chip `b` (shortest way round a torus
  /// dimension).
  absl::StatusOr<int64_t> iciHopDistance(const ChipCoordinates &a,
                                         const ChipCoordinates &b) const;

  /// "Topology(mesh_shape=[2 2 1 2], num_tasks=1, num_tpus_per_task=8)".
  std::string toString() const;

  /// Equal mesh shapes and device coordinates (what TensorFlow can observe);
  /// the physical model is not compared.
  friend bool operator==(const Topology &a, const Topology &b) {
    return a.meshShape_ == b.meshShape_ &&
           a.numTpusPerTask_ == b.numTpusPerTask_ &&
           a.deviceCoordinates_ == b.deviceCoordinates_;
  }

private:
  Topology() = default;
  /// Fills tasks_/devices_ from deviceCoordinates_, rejecting coordinates
  /// outside the mesh and duplicates.
  absl::Status invert();
  /// Flat row-major index of `coordinates` after numpy's negative-index rule.
  absl::StatusOr<int64_t> cellIndex(const Coordinates &coordinates) const;
  absl::Status checkChip(const ChipCoordinates &chip) const;

  std::array<int32_t, 4> meshShape_ = {1, 1, 1, 1};
  std::vector<std::vector<Coordinates>> deviceCoordinates_;
  int numTpusPerTask_ = 0;
  /// Per mesh cell (row-major): owning task and ordinal, -1 when missing.
  std::vector<int32_t> tasks_;
  std::vector<int32_t> devices_;
  std::optional<std::string> serialized_;
  std::string name_;
  const TpuGeneration *generation_ = nullptr;
  std::array<bool, 3> wraparound_ = {false, false, false};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_TOPOLOGY_H
