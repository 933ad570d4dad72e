//===- MultiWorkerMirroredStrategy.h - MWMS, one process a worker -*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H
#define TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H

#include "torus/distribute/Strategy.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute {

/// tf.distribute.experimental.CommunicationOptions (spec §1.6).
class CommunicationOptions {
public:
  /// InvalidArgument "Argument `bytes_per_pack` must be >=0, Received -1."
  static absl::StatusOr<CommunicationOptions>
  create(int64_t bytesPerPack = 0,
         std::optional<double> timeoutSeconds = std::nullopt,
         CommunicationImplementation implementation =
             CommunicationImplementation::Auto);
  /// All defaults: bytes_per_pack 0, no timeout, AUTO.
  CommunicationOptions() = default;

  /// bytes_per_pack: 0 lets the runtime choose how to pack gradients.
  int64_t bytesPerPack() const { return bytesPerPack_; }
  /// timeout_seconds for collectives; nullopt: none set.
  std::optional<double> timeoutSeconds() const { return timeoutSeconds_; }
  /// The collective implementation asked for (AUTO, RING or NCCL).
  CommunicationImplementation implementation() const { return impl_; }
  /// a.merge(b): b's non-default fields override.
  CommunicationOptions merge(const CommunicationOptions &other) const;
  /// "Options(bytes_per_pack=0,timeout_seconds=None, implementation=...)".
  std::string toString() const;

private:
  int64_t bytesPerPack_ = 0;
  std::optional<double> timeoutSeconds_;
  CommunicationImplementation impl_ = CommunicationImplementation::Auto;
};

/// How this worker process finds the others. Torus's own: TensorFlow's
/// workers meet through their gRPC servers at the TF_CONFIG addresses; here
/// they meet in a rendezvous directory or a Redis server and then connect
/// with Gloo over TCP
/// (docs/multi-worker.md). Unset fields come from the environment.
struct MultiWorkerOptions {
  /// A directory every worker can reach (a temp dir on one machine, a shared
  /// file system across machines); default $TORUS_RENDEZVOUS_DIR.
  std::string rendezvousDirectory;
  /// Or a Redis server every worker can reach, `redis://host:port` (workers
  /// on different machines without a shared disk); default
  /// $TORUS_RENDEZVOUS. When set it is used instead of the directory.
  std::string rendezvousAddress;
  /// Names one launch of the job: the same on every worker, new for every
  /// launch, restarts included; default $TORUS_JOB_ID, else "torus-job".
  std::string jobId;
  /// How long to wait for every worker to join; default
  /// $TORUS_CONNECT_TIMEOUT (seconds), else 60.
  std::optional<double> connectTimeoutSeconds;
};

/// tf.distribute.MultiWorkerMirroredStrategy. Without a cluster spec (no
/// TF_CONFIG) it is one worker whose local devices (`numLocalDevices`
/// emulated devices, default one "/device:CPU:0") are the replicas. With a
/// cluster spec of several workers (chief + workers, spec §5.2, §6.2) this
/// process is one of them: every worker process creates the strategy with
/// its own task, they connect (MultiWorkerOptions), and
/// numReplicasInSync() = numLocalDevices x workers. Steps run on this
/// worker's devices; gradients are all-reduced over every replica of every
/// worker (in the worker, then across workers over Gloo, then back), each
/// worker reads its shard of the data (spec §3.6, §3.7), and
/// strategy.reduce() combines every worker's values. A collective waits at
/// most CommunicationOptions::timeoutSeconds (default $TORUS_COLLECTIVE_TIMEOUT,
/// else 30 s) for the others: a worker that died is named in the error.
class MultiWorkerMirroredStrategy : public Strategy {
public:
  static absl::StatusOr<MultiWorkerMirroredStrategy>
  create(std::shared_ptr<ClusterResolver> clusterResolver = nullptr,
         CommunicationOptions communicationOptions = {},
         int64_t numLocalDevices = 1, MultiWorkerOptions multiWorker = {});

  /// CollectiveAllReduceStrategy(devices=...) (TensorFlow's
  /// `_from_local_devices`): one worker whose replicas are the given local
  /// devices ("GPU:0", "/device:GPU:1", ...; canonicalised). Empty `devices`
  /// is create(resolver, communicationOptions). Errors: InvalidArgument
  /// "cluster_resolver and devices cannot be set at the same time" with a
  /// non-null `resolver`; a name that is not a device, or a device named
  /// twice.
  static absl::StatusOr<MultiWorkerMirroredStrategy>
  createWithDevices(const std::vector<std::string> &devices,
                    std::shared_ptr<ClusterResolver> resolver = nullptr,
                    CommunicationOptions communicationOptions = {});

  const CommunicationOptions &communicationOptions() const;
  /// Workers taking part in collectives (chief + workers), 1 without a
  /// cluster spec.
  int64_t numWorkers() const;
  /// multi_worker_util.id_in_cluster: the chief is 0, worker i is i + the
  /// number of chiefs.
  int64_t workerId() const;
  /// The chief (or worker 0 without a chief) saves checkpoints; the same as
  /// extended().shouldCheckpoint().
  bool isChief() const;

private:
  using Strategy::Strategy;
};

// Documented here, apart from the declarations, because the multi-process
// work changes the lines around them.

/// \fn MultiWorkerMirroredStrategy::create
/// MultiWorkerMirroredStrategy(cluster_resolver, communication_options): the
/// cluster comes from `clusterResolver` or, when null, from TF_CONFIG
/// (TFConfigClusterResolver). Errors: InvalidArgument "When `cluster_spec`
/// is given, you must also specify `task_type` and `task_id`.", "No
/// `worker`, `chief` or `evaluator` tasks can be found in `cluster_spec`.",
/// "numLocalDevices must be >= 1"; a malformed TF_CONFIG is InvalidArgument.

/// \fn MultiWorkerMirroredStrategy::communicationOptions
/// The CommunicationOptions given to create().

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H
