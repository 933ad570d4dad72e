//===- MeshPlan.h - The emulated mesh a tool compiles or runs for -*- C++ -*-===//
//
// torusc and torus-run take the same target options: `--topology=v3-8` or
// `--mesh-shape=2x2x1x2`, `--replicas`, `--computation-shape` and
// `--num-partitions`. planMesh() checks them against each other and against
// the topology, places the replicas with TensorFlow's
// DeviceAssignment.build, and says what is wrong in terms of those flags.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_MESHPLAN_H
#define TORUS_TOOLS_COMMON_MESHPLAN_H

#include "runtime/mesh/Topology.h"
#include "torus/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::tools {

/// The target options as given (empty / nullopt when not given).
struct MeshRequest {
  std::string topology;
  std::string meshShape;
  std::optional<int64_t> replicas;
  std::string computationShape;
  std::optional<int64_t> numPartitions;
};

struct MeshPlan {
  /// Null when neither --topology nor --mesh-shape was given: then any
  /// number of replicas runs on as many emulated cores.
  std::shared_ptr<const rt::Topology> topology;
  /// The preset or mesh string, "" without a topology.
  std::string topologyName;
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// [x, y, z, cores] of one replica on the mesh.
  std::vector<int64_t> computationShape = {1, 1, 1, 1};
  /// Emulated cores: the mesh's, or numReplicas * numPartitions.
  int64_t numCores = 1;
  /// coresOf[replica][partition]: the emulated core (task * cores per task
  /// + TPU ordinal) running that logical core.
  std::vector<std::vector<int64_t>> coresOf;
  /// The core of partition 0 of every replica.
  std::vector<int64_t> replicaToCore() const;
  /// HBM of one core when the topology has a TPU generation.
  std::optional<int64_t> coreMemoryBytes;

  /// A few lines: topology, replicas × partitions, the core of each replica.
  std::string describe() const;
};

/// Validates `request` and places the replicas. Errors are InvalidArgument
/// texts naming the flags.
absl::StatusOr<MeshPlan> planMesh(const MeshRequest &request);

/// "1x2x1x2" or "1,2,1,2" → {1, 2, 1, 2}.
absl::StatusOr<std::vector<int64_t>> parseShape(std::string_view text,
                                                size_t rank);

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_MESHPLAN_H
