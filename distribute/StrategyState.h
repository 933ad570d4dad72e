//===- StrategyState.h - What a strategy is, behind its handle --*- C++ -*-===//
//
// Every strategy class is a thin handle over one StrategyState: the replica
// count, devices, variable policy, input workers and the emulated devices
// that run its steps. The behaviours that differ between TensorFlow's
// strategies are fields here (spec §2.5–§2.7, §3, §4, §7, §8), so the
// shared API is written once.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_STRATEGYSTATE_H
#define TORUS_DISTRIBUTE_STRATEGYSTATE_H

#include "runtime/executor/Executor.h"
#include "torus/distribute/ClusterResolver.h"
#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "torus/distribute/Tpu.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torus::rt {
class WorkerGroup;
}

namespace torus::distribute::detail {

enum class StrategyKind {
  Default,
  OneDevice,
  Mirrored,
  CentralStorage,
  TPU,
  MultiWorkerMirrored,
};

/// How variables created in scope are stored.
enum class VariablePolicy {
  /// One plain variable (default and one-device strategies).
  Plain,
  /// One component per replica (Mirrored, TPU, MWMS).
  Mirrored,
  /// One copy on the parameter device (CentralStorage).
  Central,
};

struct StrategyState {
  StrategyKind kind = StrategyKind::Default;
  /// TensorFlow's class name ("TPUStrategyV2", "MirroredStrategy", ...).
  std::string className;
  /// The C++ class, for repr().
  std::string cppClass;

  int64_t numReplicas = 1;
  /// Canonical device of each replica (logical core 0 for TPU).
  std::vector<std::string> workerDevices;
  std::vector<std::string> parameterDevices;
  VariablePolicy variablePolicy = VariablePolicy::Plain;
  /// TPUMirroredVariable / TPUSyncOnReadVariable names.
  bool tpuVariables = false;
  /// MEAN across replicas multiplies by 1/R (TPU) instead of dividing.
  bool meanByReciprocal = false;

  bool enableGetNextAsOptional = true;
  bool betweenGraph = false;
  bool multiWorkerMode = false;

  /// Input workers: the replicas each one feeds, in feeding order.
  std::vector<std::vector<int64_t>> inputWorkerReplicas;
  /// TPU data reorder (spec §3.10); empty when off.
  std::vector<int64_t> replicaOrder;

  /// TPU.
  int64_t stepsPerRun = 1;
  bool isV1 = false;
  int64_t numHosts = 1;
  int64_t numReplicasPerHost = 1;
  int64_t numCoresPerReplica = 1;
  std::shared_ptr<TPUClusterResolver> tpuResolver;
  std::optional<Topology> topology;

  std::shared_ptr<ClusterResolver> resolver;
  CommunicationOptions communicationOptions;

  /// MultiWorkerMirroredStrategy across processes: `numReplicas` counts this
  /// worker's replicas; numReplicas * numWorkers are in sync. workerId is
  /// multi_worker_util.id_in_cluster; the group connects to the others.
  int64_t numWorkers = 1;
  int64_t workerId = 0;
  /// The cluster and this worker's task in it (empty / nullopt without a
  /// cluster spec); update_config_proto reads them (spec §5.5).
  ClusterSpec clusterSpec;
  std::optional<std::string> taskType;
  std::optional<int> taskId;
  bool isChief = true;
  std::shared_ptr<rt::WorkerGroup> workerGroup;
  /// How long collectives wait for peers (ExecutorOptions' default unset).
  std::optional<absl::Duration> collectiveTimeout;
  int64_t numReplicasInSync() const { return numReplicas * numWorkers; }
  /// TPUStrategy with one process per host: steps are compiled for every
  /// replica of the slice, and this process runs its share, replicas
  /// workerId * numReplicas onwards (RunOptions::firstDevice), with global
  /// replica ids and collectives over global ids. Otherwise (MWMS) a step
  /// is this worker's replicas, and collectives over everyone span the
  /// workers.
  bool globalProgram = false;

  /// TPUStrategy(experimental_spmd_xla_partitioning=...).
  bool spmdXlaPartitioning = false;

  /// Emulated devices. Created on first use; the core of each replica
  /// (its logical core 0), and of every logical core of each replica.
  std::vector<int64_t> replicaToCore;
  std::vector<std::vector<int64_t>> logicalCoreToCore;
  /// TPU: tpu_devices[replica][logical core], canonical names.
  std::vector<std::vector<std::string>> logicalCoreDevices;
  /// TPU: the logical core of extended.experimental_logical_device (0
  /// outside any); worker devices are that column of logicalCoreDevices.
  int64_t currentLogicalDevice = 0;
  int64_t numCores = 1;
  std::mutex executorMutex;
  std::unique_ptr<rt::Executor> executor;

  /// The executor, created on first use (one thread per core).
  absl::StatusOr<rt::Executor *> getExecutor();
};

/// The default strategy's state (one replica, plain variables).
const std::shared_ptr<StrategyState> &defaultStrategyState();

/// "/job:localhost/replica:0/task:0/device:GPU:1" for "GPU:1",
/// "/device:GPU:1", ...; InvalidArgument for a name that is not a device.
absl::StatusOr<std::string> canonicalizeDevice(const std::string &device);

/// A state for a local strategy over `devices` (one replica each).
std::shared_ptr<StrategyState>
localState(StrategyKind kind, const std::vector<std::string> &devices);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_STRATEGYSTATE_H
