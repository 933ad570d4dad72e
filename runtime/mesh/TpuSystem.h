//===- TpuSystem.h - initialize_tpu_system for emulated slices --*- C++ -*-===//
//
// tf.tpu.experimental.initialize_tpu_system / shutdown_tpu_system
// (tensorflow/python/tpu/tpu_strategy_util.py; spec §9.1) for the emulator:
// initializing brings up the resolver's emulated slice, stores its serialized
// topology on the resolver and registers the TPU name, warning on a second
// initialization as TensorFlow does.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_TPUSYSTEM_H
#define TORUS_RUNTIME_MESH_TPUSYSTEM_H

#include <string_view>

#include "runtime/mesh/ClusterResolver.h"
#include "runtime/mesh/Topology.h"
#include "torus/Status.h"

namespace torus::rt {

/// Initializes the slice `resolver` names (nullptr: TPUClusterResolver(""))
/// and returns its Topology. Re-initializing a name emits the warning "TPU
/// system {name} has already been initialized. Reinitializing the TPU can
/// cause previously created variables on TPU to be lost." A slice the
/// cluster cannot hold fails with NotFound "TPUs not found in the cluster.
/// Failed in initialization: ...".
absl::StatusOr<Topology> initializeTpuSystem(TPUClusterResolver *resolver = nullptr);

/// Shuts the slice down; warns "You are shutting down a TPU system {name}
/// that has not been initialized." when it was not initialized.
absl::Status shutdownTpuSystem(TPUClusterResolver *resolver = nullptr);

/// Whether `tpuName` ("local", "grpc://...") is currently initialized.
bool isTpuSystemInitialized(std::string_view tpuName);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_TPUSYSTEM_H
