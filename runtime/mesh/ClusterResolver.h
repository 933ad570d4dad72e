//===- ClusterResolver.h - TPUClusterResolver for emulated slices -*- C++ -*-===//
//
// The emulated counterpart of tf.distribute.cluster_resolver.TPUClusterResolver
// (tensorflow/python/distribute/cluster_resolver/tpu/tpu_cluster_resolver.py
// and the Cloud TPU client it uses; spec §11), as far as it applies without a
// Cloud TPU API:
//
//   * tpu = "local": the directly attached slice; here, the emulated slice
//     named by the accelerator type (default "v3-8"). master() is "",
//     cluster_spec() is empty.
//   * tpu = "" (or nullopt, Python's None): TensorFlow takes the name from
//     KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS, then TPU_NAME, then TPU_CONFIG's
//     "tpu_node_name". When none is set TensorFlow fails with "Please provide
//     a TPU Name to connect to."; the emulator instead uses the local emulated
//     slice (turn that off with `emulateLocalWhenUnnamed = false`).
//   * "grpc://host[:port],..." endpoints are parsed as TensorFlow does
//     (default port 8470) and give cluster_spec() and master().
//   * any other name would need the Cloud TPU API and fails clearly.
//
// TensorFlow's ValueErrors are InvalidArgument here, NotImplementedError is
// Unimplemented and RuntimeError FailedPrecondition.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_CLUSTERRESOLVER_H
#define TORUS_RUNTIME_MESH_CLUSTERRESOLVER_H

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/mesh/Topology.h"
#include "torus/Status.h"

namespace torus::rt {

/// A ClusterSpec as a map from job name to its task addresses, task index
/// order. Empty for a local TPU.
using ClusterSpecMap = std::map<std::string, std::vector<std::string>>;

/// tf.tpu.experimental.TPUSystemMetadata as get_tpu_system_metadata()
/// returns it (topology is not queried there, so it is absent).
struct TPUSystemMetadata {
  int numCores = 0;
  int numHosts = 0;
  int numOfCoresPerHost = 0;
  std::optional<Topology> topology;
  /// Full device names, per task: CPU:0, TPU:0..n-1, TPU_SYSTEM:0.
  std::vector<std::string> devices;
};

struct TPUClusterResolverOptions {
  std::optional<std::string> zone;
  std::optional<std::string> project;
  std::string jobName = "worker";
  std::optional<std::string> coordinatorName;
  std::optional<std::string> coordinatorAddress;
  /// The emulated slice: a preset ("v3-8", "v4-32", ...) or a mesh string
  /// ("2x2x1x2"). Default: $TORUS_TPU_ACCELERATOR_TYPE, else "v3-8".
  std::optional<std::string> acceleratorType;
  /// Environment variables to consult instead of the process environment
  /// (KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS, TPU_NAME, TPU_CONFIG,
  /// TORUS_TPU_ACCELERATOR_TYPE).
  std::optional<std::map<std::string, std::string>> environment;
  /// Use the local emulated slice when no TPU name is given or found.
  bool emulateLocalWhenUnnamed = true;
  /// One process per host (multi-controller, as JAX runs a pod): this
  /// process is host `hostIndex` of the slice and drives only that host's
  /// cores. Default: $TPU_WORKER_ID (the variable a Cloud TPU VM sets on
  /// each of its hosts); unset, the process drives every host (TensorFlow's
  /// single client).
  std::optional<int> hostIndex;
};

/// The host part of a "host:port" task address, the address a worker
/// listens on: "[::1]:2222" is "::1"; an empty host and "localhost" are
/// "127.0.0.1".
std::string hostOfAddress(std::string_view address);

class TPUClusterResolver {
public:
  /// TPUClusterResolver(tpu=...). nullopt and "" are Python's falsy names.
  static absl::StatusOr<TPUClusterResolver>
  create(std::optional<std::string> tpu = std::nullopt,
         TPUClusterResolverOptions options = {});
  /// TPUClusterResolver(tpu=[...]): exactly one name is supported.
  static absl::StatusOr<TPUClusterResolver>
  create(const std::vector<std::string> &tpus,
         TPUClusterResolverOptions options = {});
  /// TPUClusterResolver.connect: create, then initializeTpuSystem.
  static absl::StatusOr<TPUClusterResolver>
  connect(std::optional<std::string> tpu = std::nullopt,
          std::optional<std::string> zone = std::nullopt,
          std::optional<std::string> project = std::nullopt);

  /// "grpc://" + the address of (taskType, taskId) — both arguments given —
  /// or of the resolver's own task; "" for a local TPU. As in TensorFlow the
  /// rpc layer is always grpc.
  absl::StatusOr<std::string>
  master(std::optional<std::string> taskType = std::nullopt,
         std::optional<int> taskId = std::nullopt,
         std::optional<std::string> rpcLayer = std::nullopt) const;
  absl::StatusOr<std::string> getMaster() const { return master(); }
  /// {task_type: ["ip:port", ...]} plus {coordinator_name:
  /// [coordinator_address]}; empty for a local TPU.
  absl::StatusOr<ClusterSpecMap> clusterSpec() const;
  /// {"TPU": n}: every emulated TPU device of a local slice (TensorFlow
  /// counts the local logical TPU devices), else TPU cores per host.
  absl::StatusOr<std::map<std::string, int>> numAccelerators() const;
  absl::StatusOr<TPUSystemMetadata> getTpuSystemMetadata() const;

  /// Stores the topology initializeTpuSystem produced (a serialized
  /// TopologyProto).
  absl::Status setTpuTopology(std::string_view serializedTopology);
  /// The stored topology, or nullopt before initialization (TensorFlow's
  /// tpu_hardware_feature is None then).
  const std::optional<Topology> &tpuTopology() const { return tpuTopology_; }

  /// The emulated slice this resolver names (from the accelerator type).
  absl::StatusOr<Topology> sliceTopology() const;

  /// The host this process drives alone (TPUClusterResolverOptions::
  /// hostIndex), or nullopt when it drives the whole slice.
  std::optional<int> hostIndex() const { return hostIndex_; }
  /// "ip" of host `host`: the host part of its grpc endpoint, or 127.0.0.1
  /// for a local slice (its hosts are processes on this machine).
  absl::StatusOr<std::string> hostAddress(int host) const;

  const std::string &taskType() const { return taskType_; }
  void setTaskType(std::string taskType) { taskType_ = std::move(taskType); }
  int taskId() const { return taskId_; }
  void setTaskId(int taskId) { taskId_ = taskId; }
  std::string getJobName() const { return taskType_; }
  /// "/job:{job}/task:0".
  std::string getCoordinationServiceLeader() const;
  /// Always "" (TensorFlow's TPUClusterResolver.environment).
  std::string environment() const { return ""; }

  /// The resolved TPU name ("local", or e.g. "grpc://10.1.2.3:8470"); the
  /// key initializeTpuSystem registers.
  const std::string &tpuName() const { return tpu_; }
  bool isLocal() const { return local_; }
  /// The accelerator type of the emulated slice ("v3-8", "2x2x1x2", ...).
  const std::string &acceleratorType() const { return acceleratorType_; }

private:
  TPUClusterResolver() = default;
  /// hostIndex_ from the options or $TPU_WORKER_ID, checked against the
  /// slice (and the endpoints, one per host).
  absl::Status setHostIndex(const TPUClusterResolverOptions &options);

  std::string tpu_;
  bool local_ = false;
  /// "ip:port" per worker task (grpc:// targets).
  std::vector<std::string> workerAddresses_;
  std::string taskType_ = "worker";
  int taskId_ = 0;
  std::optional<int> hostIndex_;
  std::optional<std::string> coordinatorName_;
  std::optional<std::string> coordinatorAddress_;
  std::string acceleratorType_;
  std::optional<Topology> tpuTopology_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_CLUSTERRESOLVER_H
