//===- TopologyProto.h - TensorFlow's TopologyProto wire format -*- C++ -*-===//
//
// tensorflow/core/protobuf/tpu/topology.proto, encoded and decoded by hand
// (proto3, no protobuf dependency) so that Topology::serialized() produces the
// bytes TensorFlow's `Topology.serialized()` does and either side can read the
// other's:
//
//   message TopologyProto {
//     repeated int32 mesh_shape = 1;            // packed
//     int32 num_tasks = 2;
//     int32 num_tpu_devices_per_task = 3;
//     repeated int32 device_coordinates = 4;    // packed, [task][device][axis]
//     TPUHardwareFeature tpu_hardware_feature = 5;
//   }
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_TOPOLOGYPROTO_H
#define TORUS_RUNTIME_MESH_TOPOLOGYPROTO_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "torus/Status.h"

namespace torus::rt {

struct TopologyProto {
  std::vector<int32_t> meshShape;
  int32_t numTasks = 0;
  int32_t numTpuDevicesPerTask = 0;
  std::vector<int32_t> deviceCoordinates;
  /// Field 5, kept as its encoded bytes so a round trip preserves it.
  std::optional<std::string> tpuHardwareFeature;
};

/// Encodes as protobuf's SerializeToString does: fields in number order,
/// repeated fields packed, zero scalars and empty repeated fields omitted.
std::string serializeTopologyProto(const TopologyProto &proto);

/// Decodes packed or unpacked repeated fields and skips unknown fields;
/// InvalidArgument naming the byte offset for malformed input.
absl::StatusOr<TopologyProto> parseTopologyProto(std::string_view bytes);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_TOPOLOGYPROTO_H
