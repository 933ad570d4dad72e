//===- DeviceAssignment.cpp - Logical cores to physical TPU cores ---------===//
//
// build() follows tensorflow/python/tpu/device_assignment.py (spec §10.3)
// step by step; comments name the Python it mirrors.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/DeviceAssignment.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "fmt/format.h"
#include "runtime/mesh/PyFormat.h"
#include "runtime/mesh/RingOrder.h"
#include "torus/Types.h"

namespace torus::rt {
namespace {

constexpr int kRank = 4;
constexpr std::string_view kNoneType = "<class 'NoneType'>";

std::vector<int64_t> widen(const Coordinates &c) {
  return std::vector<int64_t>(c.begin(), c.end());
}

// numpy indexing of one axis: negative indices count from the end.
absl::StatusOr<int64_t> numpyIndex(int64_t index, int axis, int64_t size) {
  if (index < -size || index >= size)
    return absl::OutOfRangeError(fmt::format(
        "index {} is out of bounds for axis {} with size {}", index, axis,
        size));
  return index < 0 ? index + size : index;
}

// np.asarray(x, dtype=np.int32) refuses values that do not fit.
absl::Status checkInt32(std::string_view name, const std::vector<int64_t> &v) {
  for (int64_t x : v)
    if (x < std::numeric_limits<int32_t>::min() ||
        x > std::numeric_limits<int32_t>::max())
      return absl::InvalidArgumentError(fmt::format(
          "{} entries must fit in int32; got {}={}", name, name,
          formatPyList(v)));
  return absl::OkStatus();
}

} // namespace

DeviceAssignment::DeviceAssignment(
    std::shared_ptr<const Topology> topology,
    std::vector<std::vector<Coordinates>> coreAssignment,
    int numCoresPerReplica)
    : topology_(std::move(topology)), coreAssignment_(std::move(coreAssignment)),
      numCoresPerReplica_(numCoresPerReplica) {}

const DeviceAssignment::CoreAssignmentArg &
DeviceAssignment::singleCoreAssignment() {
  static const CoreAssignmentArg kSingle = {{{0, 0, 0, 0}}};
  return kSingle;
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::create(const Topology &topology,
                         const CoreAssignmentArg &coreAssignment) {
  return create(std::make_shared<const Topology>(topology), coreAssignment);
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::create(std::shared_ptr<const Topology> topology,
                         const CoreAssignmentArg &coreAssignment) {
  if (!topology)
    return absl::InvalidArgumentError(
        fmt::format("topology must be a Topology object, got {}", kNoneType));
  // numpy's shape for the nested lists (np.asarray([]) has shape (0,)).
  std::vector<int64_t> shape = {static_cast<int64_t>(coreAssignment.size())};
  if (!coreAssignment.empty()) {
    size_t cores = coreAssignment[0].size();
    for (size_t r = 0; r < coreAssignment.size(); ++r)
      if (coreAssignment[r].size() != cores)
        return absl::InvalidArgumentError(fmt::format(
            "core_assignment must be a rectangular [num_replicas]"
            "[num_cores_per_replica][4] array; replica {} has {} cores but "
            "replica 0 has {}",
            r, coreAssignment[r].size(), cores));
    shape.push_back(static_cast<int64_t>(cores));
    if (cores != 0) {
      size_t minor = coreAssignment[0][0].size();
      for (size_t r = 0; r < coreAssignment.size(); ++r)
        for (size_t c = 0; c < cores; ++c)
          if (coreAssignment[r][c].size() != minor)
            return absl::InvalidArgumentError(fmt::format(
                "core_assignment must be a rectangular [num_replicas]"
                "[num_cores_per_replica][4] array; core_assignment[{}][{}] "
                "has {} entries but core_assignment[0][0] has {}",
                r, c, coreAssignment[r][c].size(), minor));
      shape.push_back(static_cast<int64_t>(minor));
    }
  }
  if (shape.size() != 3)
    return absl::InvalidArgumentError(fmt::format(
        "core_assignment must be a rank 3 numpy array, got shape {}",
        formatPyTuple(shape)));
  if (shape[2] != topology->meshRank())
    return absl::InvalidArgumentError(fmt::format(
        "core_assignment.shape[-1] must have size equal to topology rank ({}), "
        "got core_assignment.shape={}",
        topology->meshRank(), formatPyTuple(shape)));

  const std::array<int32_t, 4> &mesh = topology->meshShape();
  std::vector<std::vector<Coordinates>> coordinates(shape[0]);
  for (size_t r = 0; r < coreAssignment.size(); ++r) {
    for (size_t c = 0; c < coreAssignment[r].size(); ++c) {
      const std::vector<int64_t> &v = coreAssignment[r][c];
      Coordinates coords;
      for (int axis = 0; axis < kRank; ++axis) {
        if (v[axis] < 0 || v[axis] >= mesh[axis])
          return absl::InvalidArgumentError(fmt::format(
              "core_assignment[{}][{}]={} is outside the TPU mesh: coordinate "
              "{} must be in [0, {}) for mesh_shape={}",
              r, c, formatPyTuple(v), axis, mesh[axis],
              formatNumpyArray(widen(mesh))));
        coords[axis] = static_cast<int32_t>(v[axis]);
      }
      coordinates[r].push_back(coords);
    }
  }
  return fromCoordinates(std::move(topology), std::move(coordinates),
                         static_cast<int>(shape[1]));
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::fromCoordinates(std::shared_ptr<const Topology> topology,
                                  std::vector<std::vector<Coordinates>> cores,
                                  int numCoresPerReplica) {
  DeviceAssignment assignment(std::move(topology), std::move(cores),
                              numCoresPerReplica);
  // _compute_task_and_cores_to_replicas.
  for (size_t r = 0; r < assignment.coreAssignment_.size(); ++r) {
    for (size_t c = 0; c < assignment.coreAssignment_[r].size(); ++c) {
      const Coordinates &coords = assignment.coreAssignment_[r][c];
      TORUS_ASSIGN_OR_RETURN(
          int task, assignment.topology_->taskOrdinalAtCoordinates(coords));
      if (task < 0)
        return absl::InvalidArgumentError(fmt::format(
            "core_assignment[{}][{}]={} names a core that no task owns (a "
            "missing device of this topology); choose a core listed in the "
            "topology's device_coordinates",
            r, c, formatPyTuple(widen(coords))));
      assignment.taskAndCoresToReplicas_[task][static_cast<int>(c)].push_back(
          static_cast<int>(r));
    }
  }
  // Replicas were visited in increasing order, so every list is sorted.
  return assignment;
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::build(const Topology &topology, OptionalShape computationShape,
                        OptionalShape computationStride, int64_t numReplicas,
                        DeviceOrderMode deviceOrderMode) {
  return build(std::make_shared<const Topology>(topology),
               std::move(computationShape), std::move(computationStride),
               numReplicas, deviceOrderMode);
}

absl::StatusOr<DeviceAssignment> DeviceAssignment::buildFromSerialized(
    std::string_view serializedTopology, OptionalShape computationShape,
    OptionalShape computationStride, int64_t numReplicas,
    DeviceOrderMode deviceOrderMode) {
  TORUS_ASSIGN_OR_RETURN(Topology topology,
                         Topology::fromSerialized(serializedTopology));
  return build(std::make_shared<const Topology>(std::move(topology)),
               std::move(computationShape), std::move(computationStride),
               numReplicas, deviceOrderMode);
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::build(std::shared_ptr<const Topology> topology,
                        OptionalShape computationShape,
                        OptionalShape computationStride, int64_t numReplicas,
                        DeviceOrderMode deviceOrderMode) {
  if (!topology)
    return absl::InvalidArgumentError(fmt::format(
        "`topology` is not a Topology object; got {}", kNoneType));

  std::vector<int64_t> mesh(topology->meshShape().begin(),
                            topology->meshShape().end());
  std::vector<int64_t> shape =
      computationShape.value_or(std::vector<int64_t>(kRank, 1));
  std::vector<int64_t> stride =
      computationStride.value_or(std::vector<int64_t>(kRank, 1));
  TORUS_RETURN_IF_ERROR(checkInt32("computation_shape", shape));
  TORUS_RETURN_IF_ERROR(checkInt32("computation_stride", stride));

  if (shape.size() != kRank)
    return absl::InvalidArgumentError(fmt::format(
        "computation_shape must have shape [{}]; got {}", kRank,
        formatPyTuple(std::vector<int64_t>{static_cast<int64_t>(shape.size())})));
  if (stride.size() != kRank)
    return absl::InvalidArgumentError(fmt::format(
        "computation_stride must have shape [{}]; got {}", kRank,
        formatPyTuple(
            std::vector<int64_t>{static_cast<int64_t>(stride.size())})));
  if (std::any_of(shape.begin(), shape.end(), [](int64_t v) { return v < 1; }))
    return absl::InvalidArgumentError(fmt::format(
        "computation_shape must be positive; got computation_shape={}",
        formatNumpyArray(shape)));
  if (std::any_of(stride.begin(), stride.end(), [](int64_t v) { return v < 1; }))
    return absl::InvalidArgumentError(fmt::format(
        "computation_stride must be positive; got computation_stride={}",
        formatNumpyArray(stride)));

  // Computes the physical size of one computation instance.
  std::vector<int64_t> footprint(kRank);
  for (int i = 0; i < kRank; ++i)
    footprint[i] = shape[i] * stride[i];
  for (int i = 0; i < kRank; ++i)
    if (footprint[i] > mesh[i])
      return absl::InvalidArgumentError(fmt::format(
          "computation footprint {} does not fit in TPU topology shape {}",
          formatNumpyArray(footprint), formatNumpyArray(mesh)));

  // Computes how many copies of the computation footprint fit in the mesh.
  std::vector<int64_t> replicaCounts(kRank);
  for (int i = 0; i < kRank; ++i)
    replicaCounts[i] = (mesh[i] / footprint[i]) * stride[i];
  int64_t maxReplicas = numElements(replicaCounts);
  if (numReplicas > maxReplicas)
    return absl::InvalidArgumentError(fmt::format(
        "requested {} replicas but only {} replicas with shape {} and "
        "computation_stride {} fit in a TPU mesh of shape {}",
        numReplicas, maxReplicas, formatNumpyArray(shape),
        formatNumpyArray(stride), formatNumpyArray(mesh)));
  if (numReplicas < 0)
    return absl::InvalidArgumentError(fmt::format(
        "num_replicas must be >= 0; got {}", numReplicas));

  const int64_t coresPerReplica = numElements(shape);
  std::vector<Coordinates> missing = topology->missingDevices();
  if (!missing.empty()) {
    // A slice with missing chips: replicas take devices in task order,
    // ignoring geometry.
    if (numElements(stride) != 1)
      return absl::FailedPreconditionError(fmt::format(
          "this topology has {} missing devices (a degraded slice), where "
          "device assignment ignores geometry and needs computation_stride "
          "[1 1 1 1]; got computation_stride={}",
          missing.size(), formatNumpyArray(stride)));
    int64_t available =
        int64_t(topology->numTasks()) * topology->numTpusPerTask();
    if (numReplicas * coresPerReplica > available)
      return absl::FailedPreconditionError(fmt::format(
          "this degraded slice has {} TPU devices but {} replicas of {} cores "
          "need {}",
          available, numReplicas, coresPerReplica,
          numReplicas * coresPerReplica));
    CoreAssignmentArg assignment;
    const int perTask = topology->numTpusPerTask();
    for (int64_t r = 0; r < numReplicas; ++r) {
      std::vector<std::vector<int64_t>> replica;
      for (int64_t k = 0; k < coresPerReplica; ++k) {
        int64_t logicalId = r * coresPerReplica + k;
        const Coordinates &c =
            topology->deviceCoordinates()[logicalId / perTask][logicalId % perTask];
        replica.push_back(widen(c));
      }
      assignment.push_back(std::move(replica));
    }
    // Through the constructor, as TensorFlow does (so 0 replicas fail its
    // rank check, as in TensorFlow).
    return create(std::move(topology), assignment);
  }

  // Choose replicas per axis as close to an equal cube as possible, visiting
  // axes by increasing count, then core axis first, then x, y, z.
  std::vector<int64_t> replicaShape(kRank, 0);
  if (numReplicas > 0) {
    int64_t remaining = numReplicas;
    int remainingDims = kRank;
    std::vector<std::pair<int64_t, int>> order;
    for (int i = 0; i < kRank; ++i)
      order.push_back({replicaCounts[i], (i + 1) % kRank});
    std::sort(order.begin(), order.end());
    for (const auto &[count, rotated] : order) {
      int i = (rotated + kRank - 1) % kRank;
      // int(math.ceil(remaining_replicas ** (1.0 / remaining_dims)))
      auto target = static_cast<int64_t>(std::ceil(
          std::pow(static_cast<double>(remaining), 1.0 / remainingDims)));
      replicaShape[i] = std::min(target, count);
      remaining = (remaining + replicaShape[i] - 1) / replicaShape[i];
      --remainingDims;
    }
    if (remaining != 1)
      return absl::FailedPreconditionError(fmt::format(
          "device assignment could not factor {} replicas over the replica "
          "counts {} (TensorFlow asserts here)",
          numReplicas, formatNumpyArray(replicaCounts)));
  }

  bool enable3dTiling = shape[kRank - 1] == mesh[kRank - 1] &&
                        numElements(stride) == 1 && numReplicas == maxReplicas;
  if (deviceOrderMode != DeviceOrderMode::Auto) {
    if (deviceOrderMode == DeviceOrderMode::Ring && !enable3dTiling)
      return absl::InvalidArgumentError(
          "device_order_mode=DeviceOrderMode.RING is not compatible with the "
          "3D tiling current topology.  Try setting "
          "device_order_mode=DeviceOrderMode.AUTO");
    enable3dTiling = deviceOrderMode == DeviceOrderMode::Ring;
  }

  std::vector<std::vector<Coordinates>> assignment;
  if (enable3dTiling) {
    std::vector<RingPosition> innerRing = ring3d(
        static_cast<int32_t>(shape[0]), static_cast<int32_t>(shape[1]),
        static_cast<int32_t>(shape[2]));
    std::vector<RingPosition> outerRing = ring3d(
        static_cast<int32_t>(replicaShape[0]),
        static_cast<int32_t>(replicaShape[1]),
        static_cast<int32_t>(replicaShape[2]));
    const int64_t coresPerChip = mesh[kRank - 1];
    for (int64_t replica = 0; replica < numReplicas; ++replica) {
      if (replica >= static_cast<int64_t>(outerRing.size()))
        return absl::FailedPreconditionError(fmt::format(
            "the replica ring over {}x{}x{} chips has no place for replica {}",
            replicaShape[0], replicaShape[1], replicaShape[2], replica));
      const RingPosition &outer = outerRing[replica];
      std::vector<Coordinates> perReplica;
      for (int64_t index = 0; index < coresPerReplica; ++index) {
        const RingPosition &inner = innerRing[index / coresPerChip];
        perReplica.push_back(
            {static_cast<int32_t>(outer[0] * shape[0] + inner[0]),
             static_cast<int32_t>(outer[1] * shape[1] + inner[1]),
             static_cast<int32_t>(outer[2] * shape[2] + inner[2]),
             static_cast<int32_t>(index % coresPerChip)});
      }
      assignment.push_back(std::move(perReplica));
    }
  } else {
    // Logical cores of a replica: meshgrid(arange(0, shape*stride, stride))
    // in row-major order (x slowest, core fastest).
    std::vector<std::array<int64_t, kRank>> indices;
    for (int64_t flat = 0; flat < coresPerReplica; ++flat) {
      std::array<int64_t, kRank> index;
      int64_t rest = flat;
      for (int i = kRank - 1; i >= 0; --i) {
        index[i] = (rest % shape[i]) * stride[i];
        rest /= shape[i];
      }
      indices.push_back(index);
    }
    for (int64_t replica = 0; replica < numReplicas; ++replica) {
      // Chooses a replica number in each axis, visiting the core axis first.
      int64_t t = replica;
      std::array<int64_t, kRank> pos;
      std::array<int64_t, kRank> radixOrder = {replicaShape[3], replicaShape[0],
                                               replicaShape[1], replicaShape[2]};
      for (int j = 0; j < kRank; ++j) {
        pos[j] = t % radixOrder[j];
        t /= radixOrder[j];
      }
      std::array<int64_t, kRank> replicaPos = {pos[1], pos[2], pos[3], pos[0]};
      // Determines where that replica starts in each axis.
      std::array<int64_t, kRank> offset;
      for (int i = 0; i < kRank; ++i)
        offset[i] = (replicaPos[i] / stride[i]) * footprint[i] +
                    replicaPos[i] % stride[i];
      std::vector<Coordinates> perReplica;
      for (const auto &index : indices) {
        Coordinates c;
        for (int i = 0; i < kRank; ++i)
          c[i] = static_cast<int32_t>(index[i] + offset[i]);
        perReplica.push_back(c);
      }
      assignment.push_back(std::move(perReplica));
    }
  }
  return fromCoordinates(std::move(topology), std::move(assignment),
                         static_cast<int>(coresPerReplica));
}

absl::StatusOr<Coordinates>
DeviceAssignment::coordinates(int64_t replica, int64_t logicalCore) const {
  TORUS_ASSIGN_OR_RETURN(int64_t r, numpyIndex(replica, 0, numReplicas()));
  TORUS_ASSIGN_OR_RETURN(int64_t c,
                         numpyIndex(logicalCore, 1, numCoresPerReplica_));
  return coreAssignment_[r][c];
}

absl::StatusOr<std::vector<int>>
DeviceAssignment::lookupReplicas(int64_t taskId, int64_t logicalCore) const {
  auto task = taskAndCoresToReplicas_.find(static_cast<int>(taskId));
  if (task != taskAndCoresToReplicas_.end() &&
      taskId == static_cast<int>(taskId)) {
    auto core = task->second.find(static_cast<int>(logicalCore));
    if (core != task->second.end() &&
        logicalCore == static_cast<int>(logicalCore))
      return core->second;
  }
  return absl::InvalidArgumentError(
      fmt::format("Can not find any replica in task: {} contains "
                  "logical_core: {} ",
                  taskId, logicalCore));
}

absl::StatusOr<int> DeviceAssignment::tpuOrdinal(int64_t replica,
                                                 int64_t logicalCore) const {
  TORUS_ASSIGN_OR_RETURN(Coordinates c, coordinates(replica, logicalCore));
  return topology_->tpuDeviceOrdinalAtCoordinates(c);
}

absl::StatusOr<std::string>
DeviceAssignment::hostDevice(int64_t replica, int64_t logicalCore,
                             std::optional<std::string_view> job) const {
  TORUS_ASSIGN_OR_RETURN(Coordinates c, coordinates(replica, logicalCore));
  return topology_->cpuDeviceNameAtCoordinates(c, job);
}

absl::StatusOr<std::string>
DeviceAssignment::tpuDevice(int64_t replica, int64_t logicalCore,
                            std::optional<std::string_view> job) const {
  TORUS_ASSIGN_OR_RETURN(Coordinates c, coordinates(replica, logicalCore));
  return topology_->tpuDeviceNameAtCoordinates(c, job);
}

} // namespace torus::rt
