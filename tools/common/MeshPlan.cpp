//===- MeshPlan.cpp - The emulated mesh a tool compiles or runs for -------===//

#include "tools/common/MeshPlan.h"

#include "runtime/mesh/DeviceAssignment.h"
#include "runtime/mesh/TpuGeneration.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

namespace torus::tools {

std::vector<int64_t> MeshPlan::replicaToCore() const {
  std::vector<int64_t> cores;
  for (const auto &partitions : coresOf)
    cores.push_back(partitions.empty() ? -1 : partitions.front());
  return cores;
}

absl::StatusOr<std::vector<int64_t>> parseShape(std::string_view text,
                                                size_t rank) {
  std::vector<int64_t> shape;
  std::string current;
  auto flush = [&]() -> absl::Status {
    if (current.empty() || current.size() > 9)
      return absl::InvalidArgumentError(fmt::format(
          "'{}' is not a shape such as 1x1x1x2", text));
    shape.push_back(std::stoll(current));
    current.clear();
    return absl::OkStatus();
  };
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      current.push_back(c);
    } else if (c == 'x' || c == ',') {
      TORUS_RETURN_IF_ERROR(flush());
    } else {
      return absl::InvalidArgumentError(fmt::format(
          "'{}' is not a shape such as 1x1x1x2", text));
    }
  }
  TORUS_RETURN_IF_ERROR(flush());
  if (shape.size() != rank)
    return absl::InvalidArgumentError(fmt::format(
        "'{}' has {} dimensions; expected {} ([x, y, z, cores per chip])",
        text, shape.size(), rank));
  for (int64_t d : shape)
    if (d < 1)
      return absl::InvalidArgumentError(
          fmt::format("'{}': every dimension must be at least 1", text));
  return shape;
}

absl::StatusOr<MeshPlan> planMesh(const MeshRequest &request) {
  MeshPlan plan;
  if (!request.topology.empty() && !request.meshShape.empty())
    return absl::InvalidArgumentError(
        "give either --topology or --mesh-shape, not both");
  if (request.replicas && *request.replicas < 1)
    return absl::InvalidArgumentError(fmt::format(
        "--replicas must be at least 1, got {}", *request.replicas));
  if (request.numPartitions && *request.numPartitions < 1)
    return absl::InvalidArgumentError(fmt::format(
        "--num-partitions must be at least 1, got {}",
        *request.numPartitions));

  // The shape of one replica, from --computation-shape or --num-partitions.
  if (!request.computationShape.empty()) {
    auto shape = parseShape(request.computationShape, 4);
    if (!shape.ok())
      return absl::InvalidArgumentError(fmt::format(
          "--computation-shape: {}", std::string(shape.status().message())));
    plan.computationShape = *shape;
  }
  int64_t coresPerReplica = 1;
  for (int64_t d : plan.computationShape)
    coresPerReplica *= d;
  plan.numPartitions = coresPerReplica;
  if (request.numPartitions) {
    if (!request.computationShape.empty() &&
        *request.numPartitions != coresPerReplica)
      return absl::InvalidArgumentError(fmt::format(
          "--num-partitions={} does not match --computation-shape={} ({} "
          "cores per replica)",
          *request.numPartitions, request.computationShape, coresPerReplica));
    plan.numPartitions = *request.numPartitions;
  }

  std::string topologyText =
      !request.topology.empty() ? request.topology : request.meshShape;
  if (topologyText.empty()) {
    // No mesh: replicas x partitions emulated cores, numbered in order.
    plan.numReplicas = request.replicas.value_or(1);
    if (plan.numPartitions > 1 && request.computationShape.empty())
      plan.computationShape = {1, 1, 1, plan.numPartitions};
    plan.numCores = plan.numReplicas * plan.numPartitions;
    if (plan.numCores > 1024)
      return absl::InvalidArgumentError(fmt::format(
          "{} replicas x {} partitions is {} cores; at most 1024 can be "
          "emulated",
          plan.numReplicas, plan.numPartitions, plan.numCores));
    for (int64_t r = 0; r < plan.numReplicas; ++r) {
      plan.coresOf.emplace_back();
      for (int64_t p = 0; p < plan.numPartitions; ++p)
        plan.coresOf.back().push_back(r * plan.numPartitions + p);
    }
    return plan;
  }

  auto topology = !request.topology.empty()
                      ? rt::Topology::fromPreset(request.topology)
                      : rt::Topology::fromMeshString(request.meshShape);
  if (!topology.ok())
    return absl::InvalidArgumentError(fmt::format(
        "{}={}: {}", !request.topology.empty() ? "--topology" : "--mesh-shape",
        topologyText, std::string(topology.status().message())));
  plan.topology = std::make_shared<const rt::Topology>(std::move(*topology));
  plan.topologyName = topologyText;
  const auto &mesh = plan.topology->meshShape();
  plan.numCores = static_cast<int64_t>(mesh[0]) * mesh[1] * mesh[2] * mesh[3];
  if (const rt::TpuGeneration *generation = plan.topology->generation())
    plan.coreMemoryBytes = generation->hbmBytesPerCore;

  if (plan.numPartitions > 1 && request.computationShape.empty()) {
    // --num-partitions alone: the cores of one chip, when it fits there.
    if (plan.numPartitions <= mesh[3] && mesh[3] % plan.numPartitions == 0)
      plan.computationShape = {1, 1, 1, plan.numPartitions};
    else
      return absl::InvalidArgumentError(fmt::format(
          "--num-partitions={} needs --computation-shape to say how a "
          "replica's {} cores lie on the {} mesh [{}] (e.g. "
          "--computation-shape=1x{}x1x{})",
          plan.numPartitions, plan.numPartitions, topologyText,
          fmt::join(mesh, ","), plan.numPartitions / mesh[3], mesh[3]));
  }
  int64_t fit = plan.numCores / plan.numPartitions;
  plan.numReplicas = request.replicas.value_or(std::max<int64_t>(fit, 1));
  if (plan.numReplicas * plan.numPartitions > plan.numCores)
    return absl::InvalidArgumentError(fmt::format(
        "--replicas={} x {} core{} per replica = {} cores, but {} has {} "
        "(mesh [{}])",
        plan.numReplicas, plan.numPartitions,
        plan.numPartitions == 1 ? "" : "s",
        plan.numReplicas * plan.numPartitions, topologyText, plan.numCores,
        fmt::join(mesh, ",")));

  auto assignment = rt::DeviceAssignment::build(
      plan.topology, plan.computationShape, std::nullopt, plan.numReplicas);
  if (!assignment.ok())
    return absl::InvalidArgumentError(fmt::format(
        "cannot place {} replica{} of computation shape [{}] on {} (mesh "
        "[{}]): {}",
        plan.numReplicas, plan.numReplicas == 1 ? "" : "s",
        fmt::join(plan.computationShape, ","), topologyText,
        fmt::join(mesh, ","), std::string(assignment.status().message())));
  int64_t perTask = plan.topology->numTpusPerTask();
  for (int64_t r = 0; r < plan.numReplicas; ++r) {
    plan.coresOf.emplace_back();
    for (int64_t p = 0; p < assignment->numCoresPerReplica(); ++p) {
      auto coordinates = assignment->coordinates(r, p);
      if (!coordinates.ok())
        return coordinates.status();
      auto task = plan.topology->taskOrdinalAtCoordinates(*coordinates);
      auto ordinal = plan.topology->tpuDeviceOrdinalAtCoordinates(*coordinates);
      if (!task.ok() || !ordinal.ok() || *task < 0 || *ordinal < 0)
        return absl::InternalError(fmt::format(
            "replica {} partition {} is on a mesh cell no host owns", r, p));
      plan.coresOf.back().push_back(*task * perTask + *ordinal);
    }
  }
  return plan;
}

std::string MeshPlan::describe() const {
  std::string out;
  if (topology)
    out += fmt::format("topology {} (mesh [{}], {} cores)\n", topologyName,
                       fmt::join(topology->meshShape(), ","), numCores);
  else
    out += fmt::format("no topology: {} emulated cores\n", numCores);
  out += fmt::format("{} replica{} x {} partition{} (computation shape "
                     "[{}])\n",
                     numReplicas, numReplicas == 1 ? "" : "s", numPartitions,
                     numPartitions == 1 ? "" : "s",
                     fmt::join(computationShape, ","));
  for (size_t r = 0; r < coresOf.size(); ++r)
    out += fmt::format("  replica {} on core{} {}\n", r,
                       coresOf[r].size() == 1 ? "" : "s",
                       fmt::join(coresOf[r], ","));
  return out;
}

} // namespace torus::tools
