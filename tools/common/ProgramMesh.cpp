//===- ProgramMesh.cpp - The mesh a program runs on -----------------------===//

#include "tools/common/ProgramMesh.h"

#include "codegen/Compiler.h"
#include "ir/Sharding.h"

#include <fmt/format.h>

#include <optional>

namespace torus::tools {

namespace {
absl::Status precondition(const absl::Status &status,
                          const std::string &suffix = "") {
  return absl::FailedPreconditionError(
      fmt::format("{}{}", std::string(status.message()), suffix));
}
} // namespace

absl::StatusOr<MeshPlan> planMeshForProgram(MeshRequest request,
                                            mlir::ModuleOp module,
                                            const std::string &programName) {
  const std::optional<int64_t> flagReplicas = request.replicas;
  const std::optional<int64_t> flagPartitions = request.numPartitions;
  auto plan = planMesh(request);
  if (!plan.ok())
    return precondition(plan.status());

  auto moduleCount = [&](llvm::StringRef attr) -> std::optional<int64_t> {
    if (auto v = module->getAttrOfType<mlir::IntegerAttr>(attr))
      return v.getInt();
    return std::nullopt;
  };
  auto moduleReplicas = moduleCount(mlir::torus::kNumReplicasAttrName);
  auto modulePartitions = moduleCount(mlir::torus::kNumPartitionsAttrName);
  // A module that says what it was built for (an HLO header's
  // replica_count and num_partitions) sets the defaults of the flags.
  if ((moduleReplicas && !flagReplicas) ||
      (modulePartitions && !flagPartitions)) {
    if (moduleReplicas && !flagReplicas)
      request.replicas = *moduleReplicas;
    if (modulePartitions && !flagPartitions)
      request.numPartitions = *modulePartitions;
    plan = planMesh(request);
    if (!plan.ok())
      return precondition(
          plan.status(),
          fmt::format(" (the replica and partition counts of {})",
                      programName));
  }
  // An HLO program already per device runs as one replica per device: the
  // reader took --replicas x --num-partitions as its replicas.
  if (flagPartitions && *flagPartitions > 1 && modulePartitions == 1 &&
      moduleReplicas &&
      *moduleReplicas == flagReplicas.value_or(1) * *flagPartitions) {
    request.replicas = *moduleReplicas;
    request.numPartitions = 1;
    plan = planMesh(request);
    if (!plan.ok())
      return precondition(plan.status());
  }
  // A module traced for logical devices (torus.num_partitions) sets the
  // default of --num-partitions too.
  if (!flagPartitions && request.computationShape.empty() &&
      plan->numPartitions == 1) {
    auto traced = mlir::torus::resolvePartitionCount(
        module, mlir::torus::CompilerOptions());
    if (traced.ok() && *traced > 1) {
      request.numPartitions = *traced;
      plan = planMesh(request);
      if (!plan.ok())
        return precondition(plan.status(),
                            fmt::format(" (the partition count of {})",
                                        programName));
    }
  }
  return plan;
}

} // namespace torus::tools
