//===- DeviceAssignment.h - Logical cores to physical TPU cores -*- C++ -*-===//
//
// The emulated counterpart of tf.tpu.experimental.DeviceAssignment
// (tensorflow/python/tpu/device_assignment.py; spec §10): which physical core
// of a Topology runs logical core k of replica r. build() is TensorFlow's
// device_assignment() algorithm, ring ordering included, with its validation
// order and error texts.
//
// TensorFlow's ValueErrors are InvalidArgument here, numpy's IndexErrors
// OutOfRange, and its `assert`s FailedPrecondition.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_DEVICEASSIGNMENT_H
#define TORUS_RUNTIME_MESH_DEVICEASSIGNMENT_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/mesh/Topology.h"
#include "torus/Status.h"

namespace torus::rt {

/// tf.tpu.experimental.DeviceOrderMode.
enum class DeviceOrderMode {
  /// Form rings when the 3-D tiling conditions hold, else a mesh.
  Auto = 0,
  /// Form rings for replicas and model-parallel cores (error when the 3-D
  /// tiling conditions do not hold).
  Ring = 1,
  /// Form meshes.
  Mesh = 2,
};

class DeviceAssignment {
public:
  /// [replica][logical_core][axis], as the `core_assignment` argument.
  using CoreAssignmentArg = std::vector<std::vector<std::vector<int64_t>>>;
  /// An optional int vector: std::nullopt is Python's None.
  using OptionalShape = std::optional<std::vector<int64_t>>;

  /// TensorFlow's constructor. A null `topology` fails as passing None does
  /// in Python. Beyond TensorFlow, coordinates outside the mesh, negative, or
  /// naming a mesh cell no task owns are rejected (TensorFlow raises
  /// IndexError, wraps negatives, or maps the core to task -1).
  static absl::StatusOr<DeviceAssignment>
  create(std::shared_ptr<const Topology> topology,
         const CoreAssignmentArg &coreAssignment);
  static absl::StatusOr<DeviceAssignment>
  create(const Topology &topology, const CoreAssignmentArg &coreAssignment);

  /// TensorFlow's DeviceAssignment.build / device_assignment(): lays out
  /// `numReplicas` replicas of a computation of `computationShape` cores
  /// (default [1,1,1,1]) spaced by `computationStride` (default [1,1,1,1]).
  static absl::StatusOr<DeviceAssignment>
  build(std::shared_ptr<const Topology> topology,
        OptionalShape computationShape = std::nullopt,
        OptionalShape computationStride = std::nullopt,
        int64_t numReplicas = 1,
        DeviceOrderMode deviceOrderMode = DeviceOrderMode::Auto);
  static absl::StatusOr<DeviceAssignment>
  build(const Topology &topology, OptionalShape computationShape = std::nullopt,
        OptionalShape computationStride = std::nullopt,
        int64_t numReplicas = 1,
        DeviceOrderMode deviceOrderMode = DeviceOrderMode::Auto);
  /// build() from a serialized TopologyProto, as TensorFlow accepts bytes.
  static absl::StatusOr<DeviceAssignment>
  buildFromSerialized(std::string_view serializedTopology,
                      OptionalShape computationShape = std::nullopt,
                      OptionalShape computationStride = std::nullopt,
                      int64_t numReplicas = 1,
                      DeviceOrderMode deviceOrderMode = DeviceOrderMode::Auto);

  /// SINGLE_CORE_ASSIGNMENT = [[[0, 0, 0, 0]]].
  static const CoreAssignmentArg &singleCoreAssignment();

  const Topology &topology() const { return *topology_; }
  const std::shared_ptr<const Topology> &sharedTopology() const {
    return topology_;
  }
  int numReplicas() const { return static_cast<int>(coreAssignment_.size()); }
  int numCoresPerReplica() const { return numCoresPerReplica_; }
  /// [num_replicas][num_cores_per_replica] physical coordinates.
  const std::vector<std::vector<Coordinates>> &coreAssignment() const {
    return coreAssignment_;
  }

  /// Physical coordinates of `logicalCore` of `replica`. Negative indices
  /// count from the end (numpy); beyond that, OutOfRange with numpy's text.
  absl::StatusOr<Coordinates> coordinates(int64_t replica,
                                          int64_t logicalCore) const;
  /// The sorted replicas whose `logicalCore` lives on task `taskId`, or
  /// InvalidArgument "Can not find any replica in task: ...".
  absl::StatusOr<std::vector<int>> lookupReplicas(int64_t taskId,
                                                  int64_t logicalCore) const;
  /// The TPU ordinal, within its task, of the core running the given
  /// logical core.
  absl::StatusOr<int> tpuOrdinal(int64_t replica = 0,
                                 int64_t logicalCore = 0) const;
  /// The CPU device of the task owning that core: "/task:{t}/device:CPU:0",
  /// prefixed with "/job:{job}" when `job` is given.
  absl::StatusOr<std::string>
  hostDevice(int64_t replica = 0, int64_t logicalCore = 0,
             std::optional<std::string_view> job = std::nullopt) const;
  /// The TPU device of that core: "/task:{t}/device:TPU:{d}".
  absl::StatusOr<std::string>
  tpuDevice(int64_t replica = 0, int64_t logicalCore = 0,
            std::optional<std::string_view> job = std::nullopt) const;

private:
  DeviceAssignment(std::shared_ptr<const Topology> topology,
                   std::vector<std::vector<Coordinates>> coreAssignment,
                   int numCoresPerReplica);
  /// Validates coordinates against the topology and fills the task index.
  static absl::StatusOr<DeviceAssignment>
  fromCoordinates(std::shared_ptr<const Topology> topology,
                  std::vector<std::vector<Coordinates>> coreAssignment,
                  int numCoresPerReplica);

  std::shared_ptr<const Topology> topology_;
  std::vector<std::vector<Coordinates>> coreAssignment_;
  int numCoresPerReplica_ = 0;
  /// task -> logical core -> sorted replicas.
  std::map<int, std::map<int, std::vector<int>>> taskAndCoresToReplicas_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_DEVICEASSIGNMENT_H
