//===- TpuSystem.cpp - initialize_tpu_system for emulated slices ----------===//
#include "runtime/mesh/TpuSystem.h"

#include <map>
#include <mutex>
#include <string>

#include "fmt/format.h"
#include "runtime/mesh/MeshWarnings.h"

namespace torus::rt {
namespace {

// _INITIALIZED_TPU_SYSTEMS: TPU name -> topology.
struct Registry {
  std::mutex mutex;
  std::map<std::string, Topology, std::less<>> systems;
};

Registry &registry() {
  static Registry instance;
  return instance;
}

absl::StatusOr<TPUClusterResolver> defaultResolver() {
  return TPUClusterResolver::create(std::string());
}

} // namespace

absl::StatusOr<Topology> initializeTpuSystem(TPUClusterResolver *resolver) {
  std::optional<TPUClusterResolver> owned;
  if (!resolver) {
    TORUS_ASSIGN_OR_RETURN(owned, defaultResolver());
    resolver = &*owned;
  }
  const std::string &tpuName = resolver->tpuName();
  // Warnings go out without the registry lock held, so a handler may call
  // back into this file.
  if (isTpuSystemInitialized(tpuName))
    emitMeshWarning(fmt::format(
        "TPU system {} has already been initialized. Reinitializing the TPU "
        "can cause previously created variables on TPU to be lost.",
        tpuName));

  absl::StatusOr<Topology> topology = resolver->sliceTopology();
  if (!topology.ok())
    return absl::NotFoundError(fmt::format(
        "TPUs not found in the cluster. Failed in initialization: {}",
        std::string(topology.status().message())));
  if (!resolver->isLocal()) {
    TORUS_ASSIGN_OR_RETURN(ClusterSpecMap spec, resolver->clusterSpec());
    size_t workers = spec.count(resolver->taskType())
                         ? spec[resolver->taskType()].size()
                         : 0;
    if (workers != static_cast<size_t>(topology->numTasks()))
      return absl::NotFoundError(fmt::format(
          "TPUs not found in the cluster. Failed in initialization: the "
          "emulated {} slice has {} hosts but the cluster lists {} '{}' "
          "tasks; give one endpoint per host or choose a matching "
          "accelerator type",
          resolver->acceleratorType(), topology->numTasks(), workers,
          resolver->taskType()));
  }
  TORUS_RETURN_IF_ERROR(resolver->setTpuTopology(topology->serialized()));
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    registry().systems.insert_or_assign(tpuName, *topology);
  }
  return topology;
}

absl::Status shutdownTpuSystem(TPUClusterResolver *resolver) {
  std::optional<TPUClusterResolver> owned;
  if (!resolver) {
    TORUS_ASSIGN_OR_RETURN(owned, defaultResolver());
    resolver = &*owned;
  }
  bool erased;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    erased = registry().systems.erase(resolver->tpuName()) > 0;
  }
  if (!erased)
    emitMeshWarning(fmt::format("You are shutting down a TPU system {} that "
                                "has not been initialized.",
                                resolver->tpuName()));
  return absl::OkStatus();
}

bool isTpuSystemInitialized(std::string_view tpuName) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return registry().systems.find(tpuName) != registry().systems.end();
}

} // namespace torus::rt
