//===- Topology.cpp - A TPU slice: mesh shape and device coordinates ------===//
//
// Error texts in create() and fromSerialized() are TensorFlow's
// (tensorflow/python/tpu/topology.py, spec §9.2), built from the same numpy
// and Python renderings.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/Topology.h"

#include <limits>

#include "fmt/format.h"
#include "runtime/mesh/PyFormat.h"
#include "runtime/mesh/TopologyProto.h"

namespace torus::rt {
namespace {

// Cap on mesh cells, so a mistyped mesh fails clearly instead of exhausting
// memory (TensorFlow would raise MemoryError from numpy).
constexpr int64_t kMaxMeshCells = int64_t(1) << 24;

std::vector<int64_t> widen(std::span<const int32_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

std::string coordinatesTuple(std::span<const int64_t> c) {
  return formatPyTuple(c);
}

absl::Status checkMeshSize(const std::array<int32_t, 4> &mesh) {
  int64_t cells = 1;
  for (int32_t d : mesh) {
    cells *= d;
    if (cells > kMaxMeshCells)
      return absl::InvalidArgumentError(fmt::format(
          "mesh_shape {} has more than {} cores; the emulator cannot model a "
          "slice that large",
          formatNumpyArray(widen(mesh)), kMaxMeshCells));
  }
  return absl::OkStatus();
}

std::string deviceName(std::optional<std::string_view> job, int task,
                       std::optional<int> device) {
  std::string prefix =
      job ? fmt::format("/job:{}/task:{}", *job, task) : fmt::format("/task:{}", task);
  if (device)
    return fmt::format("{}/device:TPU:{}", prefix, *device);
  return prefix + "/device:CPU:0";
}

} // namespace

absl::StatusOr<Topology>
Topology::create(const std::vector<int64_t> &meshShape,
                 const std::vector<std::vector<std::vector<int64_t>>> &deviceCoordinates) {
  bool meshOk = meshShape.size() == 4;
  for (int64_t d : meshShape)
    meshOk = meshOk && d >= 1;
  if (!meshOk)
    return absl::InvalidArgumentError(fmt::format(
        "`mesh_shape` must be a sequence of 4 positive entries; got "
        "`mesh_shape={}`",
        formatNumpyArray(meshShape)));
  for (int64_t d : meshShape)
    if (d > std::numeric_limits<int32_t>::max())
      return absl::InvalidArgumentError(fmt::format(
          "`mesh_shape` entries must fit in int32; got `mesh_shape={}`",
          formatNumpyArray(meshShape)));

  // numpy's shape for the nested lists: a level that is empty ends the shape
  // there (np.asarray([]) has shape (0,)); ragged levels have no shape.
  std::vector<int64_t> shape = {static_cast<int64_t>(deviceCoordinates.size())};
  if (!deviceCoordinates.empty()) {
    size_t devices = deviceCoordinates[0].size();
    for (size_t t = 0; t < deviceCoordinates.size(); ++t)
      if (deviceCoordinates[t].size() != devices)
        return absl::InvalidArgumentError(fmt::format(
            "`device_coordinates` must be a rectangular [num_tasks]"
            "[num_tpus_per_task][4] array; task {} has {} devices but task 0 "
            "has {}",
            t, deviceCoordinates[t].size(), devices));
    shape.push_back(static_cast<int64_t>(devices));
    if (devices != 0) {
      size_t minor = deviceCoordinates[0][0].size();
      for (size_t t = 0; t < deviceCoordinates.size(); ++t)
        for (size_t d = 0; d < devices; ++d)
          if (deviceCoordinates[t][d].size() != minor)
            return absl::InvalidArgumentError(fmt::format(
                "`device_coordinates` must be a rectangular [num_tasks]"
                "[num_tpus_per_task][4] array; device_coordinates[{}][{}] has "
                "{} entries but device_coordinates[0][0] has {}",
                t, d, deviceCoordinates[t][d].size(), minor));
      shape.push_back(static_cast<int64_t>(minor));
    }
  }
  if (shape.size() != 3 || shape[2] != 4) {
    // TensorFlow reads shape[2] for the message; a shape of rank < 3 makes it
    // raise IndexError instead, so say what is there.
    std::string minor =
        shape.size() >= 3 ? std::to_string(shape[2]) : "<no such dimension>";
    return absl::InvalidArgumentError(fmt::format(
        "`device_coordinates` must be a rank 3 int32 array with minor "
        "dimension equal to the `mesh_shape` rankgot "
        "device_coordinates.shape={} len(device_coordinates.shape)={} "
        "device_coordinates.shape[2]={} mesh_shape={}, len(mesh_shape)={}",
        formatPyTuple(shape), shape.size(), minor, formatNumpyArray(meshShape),
        meshShape.size()));
  }

  Topology topology;
  for (int i = 0; i < 4; ++i)
    topology.meshShape_[i] = static_cast<int32_t>(meshShape[i]);
  TORUS_RETURN_IF_ERROR(checkMeshSize(topology.meshShape_));
  topology.numTpusPerTask_ = static_cast<int>(shape[1]);
  topology.deviceCoordinates_.resize(shape[0]);
  for (size_t t = 0; t < deviceCoordinates.size(); ++t) {
    for (size_t d = 0; d < deviceCoordinates[t].size(); ++d) {
      const std::vector<int64_t> &c = deviceCoordinates[t][d];
      Coordinates coordinates;
      for (int i = 0; i < 4; ++i) {
        if (c[i] < 0 || c[i] >= meshShape[i])
          return absl::InvalidArgumentError(fmt::format(
              "device_coordinates[{}][{}]={} is outside the mesh: coordinate "
              "{} is {} but must be in [0, {}) for mesh_shape={}",
              t, d, coordinatesTuple(c), i, c[i], meshShape[i],
              formatNumpyArray(meshShape)));
        coordinates[i] = static_cast<int32_t>(c[i]);
      }
      topology.deviceCoordinates_[t].push_back(coordinates);
    }
  }
  TORUS_RETURN_IF_ERROR(topology.invert());
  return topology;
}

absl::StatusOr<Topology> Topology::fromSerialized(std::string_view serialized) {
  TORUS_ASSIGN_OR_RETURN(TopologyProto proto, parseTopologyProto(serialized));
  std::vector<int64_t> mesh = widen(proto.meshShape);
  bool meshOk = mesh.size() == 4;
  for (int64_t d : mesh)
    meshOk = meshOk && d >= 1;
  if (!meshOk)
    return absl::InvalidArgumentError(fmt::format(
        "`mesh_shape` must be a vector of size 4 with positive entries; got {}",
        formatNumpyArray(mesh)));
  if (proto.numTasks < 0)
    return absl::InvalidArgumentError(
        fmt::format("`num_tasks` must be >= 0; got {}", proto.numTasks));
  if (proto.numTpuDevicesPerTask < 0)
    return absl::InvalidArgumentError(fmt::format(
        "`num_tpu_devices_per_task` must be >= 0; got {}",
        proto.numTpuDevicesPerTask));
  int64_t expected = int64_t(proto.numTasks) * proto.numTpuDevicesPerTask *
                     static_cast<int64_t>(proto.meshShape.size());
  if (static_cast<int64_t>(proto.deviceCoordinates.size()) != expected)
    return absl::InvalidArgumentError(fmt::format(
        "`device_coordinates` must have shape num_tasks ({}) * "
        "num_tpu_devices_per_task ({}) * len(mesh_shape) ({}); got shape {}",
        proto.numTasks, proto.numTpuDevicesPerTask, formatPyList(mesh),
        proto.deviceCoordinates.size()));
  std::vector<int64_t> coords = widen(proto.deviceCoordinates);
  for (int64_t c : coords)
    if (c < 0)
      return absl::InvalidArgumentError(fmt::format(
          "All values in `device_coordinates` must be >= 0, got {}",
          formatNumpyArray(coords)));

  Topology topology;
  for (int i = 0; i < 4; ++i)
    topology.meshShape_[i] = proto.meshShape[i];
  TORUS_RETURN_IF_ERROR(checkMeshSize(topology.meshShape_));
  topology.numTpusPerTask_ = proto.numTpuDevicesPerTask;
  topology.deviceCoordinates_.resize(proto.numTasks);
  size_t next = 0;
  for (int t = 0; t < proto.numTasks; ++t) {
    for (int d = 0; d < proto.numTpuDevicesPerTask; ++d) {
      Coordinates c;
      for (int i = 0; i < 4; ++i)
        c[i] = proto.deviceCoordinates[next++];
      for (int i = 0; i < 4; ++i)
        if (c[i] >= topology.meshShape_[i])
          return absl::InvalidArgumentError(fmt::format(
              "device_coordinates[{}][{}]={} is outside the mesh: coordinate "
              "{} is {} but must be in [0, {}) for mesh_shape={}",
              t, d, coordinatesTuple(widen(c)), i, c[i],
              topology.meshShape_[i], formatNumpyArray(mesh)));
      topology.deviceCoordinates_[t].push_back(c);
    }
  }
  TORUS_RETURN_IF_ERROR(topology.invert());
  topology.serialized_ = std::string(serialized);
  return topology;
}

absl::StatusOr<Topology> Topology::fromPreset(std::string_view name) {
  TORUS_ASSIGN_OR_RETURN(SliceSpec spec, presetSliceSpec(name));
  return fromSliceSpec(spec);
}

absl::StatusOr<Topology> Topology::fromMeshString(std::string_view text) {
  TORUS_ASSIGN_OR_RETURN(SliceSpec spec, parseMeshString(text));
  return fromSliceSpec(spec);
}

absl::StatusOr<Topology> Topology::fromString(std::string_view text) {
  TORUS_ASSIGN_OR_RETURN(SliceSpec spec, parseSliceSpec(text));
  return fromSliceSpec(spec);
}

absl::StatusOr<Topology> Topology::fromSliceSpec(const SliceSpec &spec) {
  const std::array<int32_t, 4> &mesh = spec.meshShape;
  for (int i = 0; i < 4; ++i)
    if (mesh[i] < 1)
      return absl::InvalidArgumentError(fmt::format(
          "slice \"{}\": mesh_shape {} must have 4 positive entries", spec.name,
          formatNumpyArray(widen(mesh))));
  for (int d = 0; d < 3; ++d)
    if (spec.chipsPerHost[d] < 1 || mesh[d] % spec.chipsPerHost[d] != 0)
      return absl::InvalidArgumentError(fmt::format(
          "slice \"{}\": the host block {}x{}x{} must be positive and divide "
          "the chip mesh {}x{}x{}",
          spec.name, spec.chipsPerHost[0], spec.chipsPerHost[1],
          spec.chipsPerHost[2], mesh[0], mesh[1], mesh[2]));
  Topology topology;
  topology.meshShape_ = mesh;
  TORUS_RETURN_IF_ERROR(checkMeshSize(mesh));
  const std::array<int32_t, 3> &block = spec.chipsPerHost;
  std::array<int32_t, 3> hosts = {mesh[0] / block[0], mesh[1] / block[1],
                                  mesh[2] / block[2]};
  for (int32_t hz = 0; hz < hosts[2]; ++hz) {
    for (int32_t hy = 0; hy < hosts[1]; ++hy) {
      for (int32_t hx = 0; hx < hosts[0]; ++hx) {
        std::vector<Coordinates> task;
        for (int32_t z = 0; z < block[2]; ++z)
          for (int32_t y = 0; y < block[1]; ++y)
            for (int32_t x = 0; x < block[0]; ++x)
              for (int32_t core = 0; core < mesh[3]; ++core)
                task.push_back({hx * block[0] + x, hy * block[1] + y,
                                hz * block[2] + z, core});
        topology.deviceCoordinates_.push_back(std::move(task));
      }
    }
  }
  topology.numTpusPerTask_ = block[0] * block[1] * block[2] * mesh[3];
  TORUS_RETURN_IF_ERROR(topology.invert());
  topology.name_ = spec.name;
  topology.generation_ = spec.generation;
  topology.wraparound_ = spec.wraparound;
  return topology;
}

absl::Status Topology::invert() {
  int64_t cells = 1;
  for (int32_t d : meshShape_)
    cells *= d;
  tasks_.assign(cells, -1);
  devices_.assign(cells, -1);
  for (size_t t = 0; t < deviceCoordinates_.size(); ++t) {
    for (size_t d = 0; d < deviceCoordinates_[t].size(); ++d) {
      TORUS_ASSIGN_OR_RETURN(int64_t cell, cellIndex(deviceCoordinates_[t][d]));
      if (tasks_[cell] >= 0)
        return absl::InvalidArgumentError(fmt::format(
            "device_coordinates[{}][{}] and device_coordinates[{}][{}] both "
            "name the core at {}; every TPU device needs its own core",
            tasks_[cell], devices_[cell], t, d,
            coordinatesTuple(widen(deviceCoordinates_[t][d]))));
      tasks_[cell] = static_cast<int32_t>(t);
      devices_[cell] = static_cast<int32_t>(d);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Topology::cellIndex(const Coordinates &coordinates) const {
  int64_t cell = 0;
  for (int axis = 0; axis < 4; ++axis) {
    int64_t size = meshShape_[axis];
    int64_t index = coordinates[axis];
    if (index < -size || index >= size)
      return absl::OutOfRangeError(fmt::format(
          "index {} is out of bounds for axis {} with size {}", index, axis,
          size));
    if (index < 0)
      index += size;
    cell = cell * size + index;
  }
  return cell;
}

std::vector<Coordinates> Topology::missingDevices() const {
  std::vector<Coordinates> missing;
  for (size_t cell = 0; cell < tasks_.size(); ++cell) {
    if (tasks_[cell] >= 0)
      continue;
    Coordinates c;
    int64_t rest = static_cast<int64_t>(cell);
    for (int axis = 3; axis >= 0; --axis) {
      c[axis] = static_cast<int32_t>(rest % meshShape_[axis]);
      rest /= meshShape_[axis];
    }
    missing.push_back(c);
  }
  return missing;
}

absl::StatusOr<int>
Topology::taskOrdinalAtCoordinates(const Coordinates &coordinates) const {
  TORUS_ASSIGN_OR_RETURN(int64_t cell, cellIndex(coordinates));
  return tasks_[cell];
}

absl::StatusOr<int>
Topology::tpuDeviceOrdinalAtCoordinates(const Coordinates &coordinates) const {
  TORUS_ASSIGN_OR_RETURN(int64_t cell, cellIndex(coordinates));
  return devices_[cell];
}

absl::StatusOr<std::string>
Topology::cpuDeviceNameAtCoordinates(const Coordinates &coordinates,
                                     std::optional<std::string_view> job) const {
  TORUS_ASSIGN_OR_RETURN(int64_t cell, cellIndex(coordinates));
  return deviceName(job, tasks_[cell], std::nullopt);
}

absl::StatusOr<std::string>
Topology::tpuDeviceNameAtCoordinates(const Coordinates &coordinates,
                                     std::optional<std::string_view> job) const {
  TORUS_ASSIGN_OR_RETURN(int64_t cell, cellIndex(coordinates));
  return deviceName(job, tasks_[cell], devices_[cell]);
}

std::string Topology::serialized() const {
  if (serialized_)
    return *serialized_;
  TopologyProto proto;
  proto.meshShape.assign(meshShape_.begin(), meshShape_.end());
  proto.numTasks = numTasks();
  proto.numTpuDevicesPerTask = numTpusPerTask_;
  for (const std::vector<Coordinates> &task : deviceCoordinates_)
    for (const Coordinates &c : task)
      proto.deviceCoordinates.insert(proto.deviceCoordinates.end(), c.begin(),
                                     c.end());
  return serializeTopologyProto(proto);
}

bool Topology::hasWraparound(int dim) const {
  return dim >= 0 && dim < 3 && wraparound_[dim];
}

int64_t Topology::numChips() const {
  return int64_t(meshShape_[0]) * meshShape_[1] * meshShape_[2];
}

absl::Status Topology::checkChip(const ChipCoordinates &chip) const {
  for (int d = 0; d < 3; ++d)
    if (chip[d] < 0 || chip[d] >= meshShape_[d])
      return absl::OutOfRangeError(fmt::format(
          "chip ({}, {}, {}) is outside the {}x{}x{} chip mesh", chip[0],
          chip[1], chip[2], meshShape_[0], meshShape_[1], meshShape_[2]));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<IciLink>>
Topology::iciLinks(const ChipCoordinates &chip) const {
  TORUS_RETURN_IF_ERROR(checkChip(chip));
  std::vector<IciLink> links;
  for (int d = 0; d < 3; ++d) {
    int32_t size = meshShape_[d];
    if (size == 1)
      continue;
    for (int direction : {+1, -1}) {
      int32_t next = chip[d] + direction;
      bool wrap = next < 0 || next >= size;
      if (wrap) {
        // A ring of two chips already joins them with the direct link.
        if (!wraparound_[d] || size == 2)
          continue;
        next = (next + size) % size;
      }
      ChipCoordinates to = chip;
      to[d] = next;
      links.push_back({chip, to, d, direction, wrap});
    }
  }
  return links;
}

absl::StatusOr<int64_t> Topology::iciHopDistance(const ChipCoordinates &a,
                                                 const ChipCoordinates &b) const {
  TORUS_RETURN_IF_ERROR(checkChip(a));
  TORUS_RETURN_IF_ERROR(checkChip(b));
  int64_t hops = 0;
  for (int d = 0; d < 3; ++d) {
    int64_t delta = std::abs(int64_t(a[d]) - b[d]);
    if (wraparound_[d])
      delta = std::min(delta, meshShape_[d] - delta);
    hops += delta;
  }
  return hops;
}

std::string Topology::toString() const {
  return fmt::format("Topology(mesh_shape={}, num_tasks={}, "
                     "num_tpus_per_task={})",
                     formatNumpyArray(widen(meshShape_)), numTasks(),
                     numTpusPerTask_);
}

} // namespace torus::rt
