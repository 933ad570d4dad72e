//===- Tpu.h - TPU cluster resolver, topology, device assignment -*- C++ -*-===//
//
// The public face of the emulated TPU system (runtime/mesh, spec §9–§11):
//
//   auto resolver = TPUClusterResolver::create("");      // the local v3-8
//   auto topology = initializeTpuSystem(&*resolver);
//   auto assignment = DeviceAssignment::build(*topology, {{1, 1, 1, 2}},
//                                             std::nullopt, /*replicas=*/4);
//
// Errors carry TensorFlow's texts; ValueError is InvalidArgument.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_TPU_H
#define TORUS_DISTRIBUTE_TPU_H

#include "torus/Status.h"
#include "torus/distribute/ClusterResolver.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torus::distribute {

/// tf.tpu.experimental.Topology of an emulated slice.
class Topology {
public:
  /// A preset ("v3-8", "v4-32", ...) or mesh string ("2x2x1x2").
  static absl::StatusOr<Topology> fromString(const std::string &slice);
  /// Topology(mesh_shape=..., device_coordinates=...): `deviceCoordinates`
  /// is [num_tasks][num_tpus_per_task][4]. TensorFlow's ValueError texts as
  /// InvalidArgument ("`mesh_shape` must be a sequence of 4 positive entries;
  /// got `mesh_shape=[2 2 1]`", "`device_coordinates` must be a rank 3 int32
  /// array with minor dimension equal to the `mesh_shape` rankgot ...").
  /// Beyond TensorFlow, coordinates outside the mesh, negative, or naming one
  /// core twice are InvalidArgument too.
  static absl::StatusOr<Topology>
  create(const std::vector<int64_t> &meshShape,
         const std::vector<std::vector<std::vector<int64_t>>> &deviceCoordinates);
  /// Topology(serialized=...): parses a serialized TopologyProto (mesh_shape,
  /// num_tasks, num_tpu_devices_per_task, device_coordinates), with
  /// TensorFlow's texts ("`mesh_shape` must be a vector of size 4 with
  /// positive entries; got [2 2]", "`device_coordinates` must have shape
  /// num_tasks (1) * num_tpu_devices_per_task (8) * len(mesh_shape) ([2, 2,
  /// 1, 2]); got shape 4" (TensorFlow prints the mesh shape there), ...); a malformed proto is InvalidArgument. serialized()
  /// returns the same bytes.
  static absl::StatusOr<Topology> fromSerialized(std::string_view serialized);

  /// (x, y, z, cores per chip).
  std::array<int32_t, 4> meshShape() const;
  /// mesh_rank: always 4.
  int meshRank() const;
  /// missing_devices: the (x, y, z, core) mesh cells no (task, ordinal) maps
  /// to, in row-major mesh order (numpy's argwhere).
  std::vector<std::array<int32_t, 4>> missingDevices() const;
  ///@{
  /// task_ordinal_at_coordinates / tpu_device_ordinal_at_coordinates: the
  /// task owning the core at `coordinates`, its TPU ordinal within that task;
  /// -1 for a missing cell. Negative coordinates count from the end of their
  /// axis (numpy); beyond that OutOfRange with numpy's IndexError text.
  absl::StatusOr<int>
  taskOrdinalAtCoordinates(const std::array<int32_t, 4> &coordinates) const;
  absl::StatusOr<int>
  tpuDeviceOrdinalAtCoordinates(const std::array<int32_t, 4> &coordinates) const;
  ///@}
  ///@{
  /// cpu_device_name_at_coordinates: "/task:{t}/device:CPU:0";
  /// tpu_device_name_at_coordinates: "/task:{t}/device:TPU:{d}"; both
  /// prefixed with "/job:{job}" when `job` is given. Errors as above.
  absl::StatusOr<std::string>
  cpuDeviceNameAtCoordinates(const std::array<int32_t, 4> &coordinates,
                             std::optional<std::string> job = std::nullopt) const;
  absl::StatusOr<std::string>
  tpuDeviceNameAtCoordinates(const std::array<int32_t, 4> &coordinates,
                             std::optional<std::string> job = std::nullopt) const;
  ///@}
  /// Hosts (tasks) of the slice.
  int numTasks() const;
  /// TPU cores each task drives.
  int numTpusPerTask() const;
  /// [task][tpu ordinal] -> (x, y, z, core).
  std::vector<std::vector<std::array<int32_t, 4>>> deviceCoordinates() const;
  /// The serialized TopologyProto, as TensorFlow's Topology.serialized().
  std::string serialized() const;
  /// "Topology(mesh_shape=[2 2 1 2], num_tasks=1, num_tpus_per_task=8)".
  std::string toString() const;

  /// Internal: the runtime's topology.
  struct Impl;
  /// Internal: use fromString() or initializeTpuSystem().
  explicit Topology(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  /// Internal: the runtime's topology.
  const Impl &impl() const { return *impl_; }

private:
  std::shared_ptr<const Impl> impl_;
};

/// tf.distribute.cluster_resolver.TPUClusterResolver over an emulated slice
/// ("local" or "" name the local slice, default v3-8; see
/// runtime/mesh/ClusterResolver.h).
struct TPUClusterResolverOptions {
  /// The emulated slice: a preset or mesh string (default
  /// $TORUS_TPU_ACCELERATOR_TYPE, else "v3-8").
  std::optional<std::string> acceleratorType;
  /// The job the TPU hosts form in the cluster spec.
  std::string jobName = "worker";
  /// One process per host: this process is host `hostIndex` of a multi-host
  /// slice, and a TPUStrategy over it runs only that host's replicas,
  /// meeting the other hosts' processes (TPUStrategy::create). Default
  /// $TPU_WORKER_ID, as a Cloud TPU VM sets it on each host; unset, one
  /// process drives every host (TensorFlow's single client).
  /// InvalidArgument for an index outside the slice's hosts, or for grpc
  /// endpoints that are not one per host.
  std::optional<int> hostIndex;
};

/// tf.distribute.cluster_resolver.TPUClusterResolver over an emulated slice.
/// Shared (create() returns a std::shared_ptr); initializeTpuSystem() stores
/// the topology in it.
class TPUClusterResolver : public ClusterResolver {
public:
  /// The slice and job name.
  using Options = TPUClusterResolverOptions;
  /// TPUClusterResolver(tpu): nullopt, "" and "local" name the local emulated
  /// slice of options.acceleratorType. InvalidArgument for a slice string that
  /// is neither a preset nor a mesh string ("accelerator type: invalid mesh
  /// ..."), for a TPU name that cannot be looked up, or for a malformed
  /// TPU_CONFIG.
  static absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
  create(std::optional<std::string> tpu = std::nullopt, Options options = {});
  /// TPUClusterResolver(tpu=[...]): TensorFlow takes a list of exactly one
  /// TPU name, resolved as create(name). InvalidArgument "At least one TPU
  /// must be specified." for an empty list; Unimplemented "Using multiple
  /// TPUs in a single session is not yet implemented" for more than one. (Pass
  /// a std::vector<std::string>: a braced list of one name is ambiguous with
  /// the single-name form.)
  static absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
  create(const std::vector<std::string> &tpus, Options options = {});

  absl::StatusOr<ClusterSpec> clusterSpec() const override;
  absl::StatusOr<std::string>
  master(std::optional<std::string> taskType = std::nullopt,
         std::optional<int> taskId = std::nullopt,
         std::optional<std::string> rpcLayer = std::nullopt) const override;
  std::optional<std::string> taskType() const override;
  std::optional<int> taskId() const override;
  /// {"TPU": n}: a local slice counts all its TPU devices; a named TPU
  /// groups its master's devices by host (tpuCoresPerHost) and gives the
  /// cores per host.
  absl::StatusOr<std::map<std::string, int>> numAccelerators() const override;
  /// Always "", as TensorFlow's TPUClusterResolver.
  std::string environment() const override { return ""; }
  /// The host this process is (Options::hostIndex), or nullopt when it
  /// drives every host.
  std::optional<int> hostIndex() const;
  /// The topology initializeTpuSystem stored, if any.
  std::optional<Topology> tpuTopology() const;
  /// The slice this resolver names.
  absl::StatusOr<Topology> sliceTopology() const;

  /// Internal: the runtime's resolver.
  struct Impl;
  ///@{
  /// Internal: use create(). The resolver owns its implementation.
  explicit TPUClusterResolver(std::unique_ptr<Impl> impl);
  ~TPUClusterResolver() override;
  Impl &impl() const { return *impl_; }
  ///@}

private:
  std::unique_ptr<Impl> impl_;
};

/// How TPUClusterResolver.num_accelerators groups the master's devices
/// (_get_device_dict_and_cores, _verify_and_return_same_core_count): the
/// names ending in ".../task:{h}/.../device:TPU:{c}" grouped by host h; the
/// TPU cores each host has, 0 when no name is a TPU core. FailedPrecondition
/// (TensorFlow's RuntimeError) "TPU cores on each device is not the same.
/// This should never happen. Devices: defaultdict(<class 'list'>, {'0':
/// ['0', '1'], '1': ['0']})" when hosts differ.
absl::StatusOr<int> tpuCoresPerHost(const std::vector<std::string> &devices);

/// tf.tpu.experimental.initialize_tpu_system(resolver); null means
/// TPUClusterResolver("").
absl::StatusOr<Topology>
initializeTpuSystem(TPUClusterResolver *resolver = nullptr);
/// tf.tpu.experimental.shutdown_tpu_system(resolver); null means
/// TPUClusterResolver(""). Shutting down a slice that was not initialized only
/// warns.
absl::Status shutdownTpuSystem(TPUClusterResolver *resolver = nullptr);

/// tf.tpu.experimental.DeviceOrderMode.
enum class DeviceOrderMode { Auto = 0, Ring = 1, Mesh = 2 };

/// tf.tpu.experimental.DeviceAssignment.
class DeviceAssignment {
public:
  /// [replica][logical core][axis]: (x, y, z, core) mesh coordinates, as the
  /// `core_assignment` argument.
  using CoreAssignment = std::vector<std::vector<std::vector<int64_t>>>;
  /// DeviceAssignment(topology, core_assignment), with TensorFlow's validation
  /// and error texts (InvalidArgument). Beyond TensorFlow, coordinates outside
  /// the mesh, negative, or naming a cell no task owns are rejected.
  static absl::StatusOr<DeviceAssignment>
  create(const Topology &topology, const CoreAssignment &coreAssignment);
  /// DeviceAssignment.build (TensorFlow's algorithm and errors).
  static absl::StatusOr<DeviceAssignment>
  build(const Topology &topology,
        std::optional<std::vector<int64_t>> computationShape = std::nullopt,
        std::optional<std::vector<int64_t>> computationStride = std::nullopt,
        int64_t numReplicas = 1,
        DeviceOrderMode deviceOrderMode = DeviceOrderMode::Auto);

  /// The topology the assignment is over.
  Topology topology() const;
  /// Replicas assigned.
  int numReplicas() const;
  /// Logical cores of each replica.
  int numCoresPerReplica() const;
  /// Physical (x, y, z, core) coordinates of `logicalCore` of `replica`.
  /// Negative indices count from the end (NumPy); beyond that, OutOfRange with
  /// NumPy's IndexError text.
  absl::StatusOr<std::array<int32_t, 4>> coordinates(int64_t replica,
                                                     int64_t logicalCore) const;
  /// The TPU ordinal, within its task, of the core running that logical core;
  /// OutOfRange for indices out of range.
  absl::StatusOr<int> tpuOrdinal(int64_t replica = 0,
                                 int64_t logicalCore = 0) const;
  /// The CPU device of the task owning that core: "/task:{t}/device:CPU:0",
  /// prefixed with "/job:{job}" when `job` is given; OutOfRange for indices out
  /// of range.
  absl::StatusOr<std::string>
  hostDevice(int64_t replica = 0, int64_t logicalCore = 0,
             std::optional<std::string> job = std::nullopt) const;
  /// The TPU device of that core: "/task:{t}/device:TPU:{d}", prefixed with
  /// "/job:{job}" when `job` is given; OutOfRange for indices out of range.
  absl::StatusOr<std::string>
  tpuDevice(int64_t replica = 0, int64_t logicalCore = 0,
            std::optional<std::string> job = std::nullopt) const;
  /// The sorted replicas whose `logicalCore` lives on task `taskId`;
  /// InvalidArgument "Can not find any replica in task: ..." when there are
  /// none.
  absl::StatusOr<std::vector<int>> lookupReplicas(int64_t taskId,
                                                  int64_t logicalCore) const;

  /// Internal: the runtime's assignment.
  struct Impl;
  ///@{
  /// Internal: use create() or build().
  explicit DeviceAssignment(std::shared_ptr<const Impl> impl)
      : impl_(std::move(impl)) {}
  const Impl &impl() const { return *impl_; }
  ///@}

private:
  std::shared_ptr<const Impl> impl_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_TPU_H
