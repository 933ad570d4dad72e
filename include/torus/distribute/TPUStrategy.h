//===- TPUStrategy.h - TPUStrategy and TPUStrategyV1 ------------*- C++ -*-===//
//
// tf.distribute.TPUStrategy and tf.compat.v1.distribute.experimental
// .TPUStrategy on an emulated TPU slice (spec §8). One replica per TPU core
// (or per DeviceAssignment replica); the compiled step runs on the cores
// the assignment names, and collectives follow the slice's ICI rings.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_TPUSTRATEGY_H
#define TORUS_DISTRIBUTE_TPUSTRATEGY_H

#include "torus/distribute/DistributedDataset.h"
#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "torus/distribute/Strategy.h"
#include "torus/distribute/Tpu.h"

#include <functional>
#include <memory>
#include <optional>

namespace torus::distribute {

/// tf.distribute.TPUStrategy (TPUStrategyV2) on an emulated TPU slice: one
/// replica per core, or per replica of the DeviceAssignment; steps run through
/// Function only.
class TPUStrategy : public Strategy {
public:
  /// TPUStrategy(tpu_cluster_resolver, experimental_device_assignment,
  /// experimental_spmd_xla_partitioning). A null resolver is
  /// TPUClusterResolver("").
  /// NotFound "TPUs not found in the cluster." when the slice has no TPU
  /// device; the resolver's errors as they are.
  ///
  /// One process per host (Torus's own; TensorFlow drives a pod from one
  /// client): when the resolver names this process's host of a multi-host
  /// slice (TPUClusterResolverOptions::hostIndex, $TPU_WORKER_ID), every
  /// host's process creates the strategy and they meet as `multiHost` (and
  /// the environment) says, as MultiWorkerMirroredStrategy's workers do; each
  /// listens on its host's grpc endpoint address (127.0.0.1 for a local
  /// slice). numReplicasInSync() counts the slice's replicas; this process
  /// runs its host's, which are its worker devices, its PerReplica
  /// components and its input pipeline (InputContext id = host). Steps are
  /// compiled for the whole slice and every collective crosses the hosts;
  /// strategy.reduce() sums over them. A host whose process died is named in
  /// the others' errors. Unimplemented unless each host runs the same number
  /// of whole replicas in replica order (the default and ring assignments
  /// do).
  static absl::StatusOr<TPUStrategy>
  create(std::shared_ptr<TPUClusterResolver> resolver = nullptr,
         std::optional<DeviceAssignment> deviceAssignment = std::nullopt,
         bool experimentalSpmdXlaPartitioning = false,
         MultiWorkerOptions multiHost = {});

  /// The TPU cluster resolver (never null).
  std::shared_ptr<TPUClusterResolver> tpuClusterResolver() const;
  ///@{
  /// Hosts feeding the replicas, and replicas per host (spec §8.2).
  int64_t numHosts() const;
  int64_t numReplicasPerHost() const;
  ///@}
  /// Logical devices (cores) per replica.
  int64_t numCoresPerReplica() const;

  //===--- Model parallelism (spec §8.7), inside a replica function ------===//
  //
  // Annotations of the step being traced (torus/Sharding.h): the compiler
  // propagates them and partitions the step over the replica's logical
  // devices. TensorFlow's checks and ValueError texts, returned by run().

  /// experimental_assign_to_logical_device: `tensor` computed on logical
  /// device `logicalDeviceId` only.
  Tensor experimentalAssignToLogicalDevice(const Tensor &tensor,
                                           int64_t logicalDeviceId,
                                           Loc loc = Loc::current()) const;
  /// experimental_replicate_to_logical_devices: held whole by every one.
  Tensor experimentalReplicateToLogicalDevices(const Tensor &tensor,
                                               Loc loc = Loc::current()) const;
  /// experimental_split_to_logical_devices: dimension d cut into
  /// partitionDimensions[d] tiles; logical device k holds the tile at
  /// unravel(k, partitionDimensions).
  Tensor experimentalSplitToLogicalDevices(
      const Tensor &tensor, const std::vector<int64_t> &partitionDimensions,
      Loc loc = Loc::current()) const;

protected:
  using Strategy::Strategy;
};

/// tf.compat.v1.distribute.experimental.TPUStrategy: steps_per_run and the
/// device-side training loop.
class TPUStrategyV1 : public TPUStrategy {
public:
  /// TPUStrategyV1(tpu_cluster_resolver, steps_per_run, device_assignment): as
  /// TPUStrategy::create() (one process per host included), with
  /// `stepsPerRun` (default 1) steps per experimentalRunStepsOnIterator()
  /// call. InvalidArgument "steps_per_run must be >= 1, got 0".
  static absl::StatusOr<TPUStrategyV1>
  create(std::shared_ptr<TPUClusterResolver> resolver = nullptr,
         std::optional<int64_t> stepsPerRun = std::nullopt,
         std::optional<DeviceAssignment> deviceAssignment = std::nullopt,
         MultiWorkerOptions multiHost = {});

  /// DEPRECATED in TensorFlow: extended().stepsPerRun().
  int64_t stepsPerRun() const;

  /// The host-side infeed partitioner (tpu_feed.py's
  /// partition_or_replicate_on_host, with num_cores_per_replica =
  /// numCoresPerReplica()): one tensor per logical core of a replica, the
  /// tensor itself for each when `dims` is nullopt, else its tiles (uneven
  /// dimensions split greedily). TensorFlow's ValueError texts as
  /// InvalidArgument (tpu_feed::checkInputPartitionDims).
  absl::StatusOr<std::vector<HostTensor>>
  partitionInfeed(const HostTensor &tensor,
                  const std::optional<std::vector<int64_t>> &dims) const;

  /// One step of experimentalRunStepsOnIterator(): the replica's inputs in, its
  /// outputs out; `ctx` collects last-step outputs.
  using StepFn = std::function<std::vector<Tensor>(
      StepContext &ctx, const std::vector<Tensor> &inputs)>;
  /// extended.experimental_run_steps_on_iterator(fn, iterator, iterations):
  /// runs `iterations` steps on the devices in one call (the compiled step
  /// loops on device; variables stay there between steps and each step
  /// takes the next element of `iterator`). With stepsPerRun() == 1 exactly
  /// one step runs whatever `iterations` is (TensorFlow's behaviour, spec
  /// §8.6).
  /// Errors: FailedPrecondition "Method requires being in cross-replica
  /// context, ..." inside a replica function; InvalidArgument "iterations must
  /// be >= 1"; Unimplemented when the steps' inputs differ in shape (use
  /// drop_remainder=True).
  absl::StatusOr<MultiStepContext>
  experimentalRunStepsOnIterator(const StepFn &fn,
                                 DistributedIterator &iterator,
                                 int64_t iterations = 1) const;

private:
  using TPUStrategy::TPUStrategy;
};

/// \namespace torus::distribute::experimental
/// tf.distribute.experimental: TensorFlow's deprecated aliases.
namespace experimental {

/// tf.distribute.experimental.TPUStrategy, TensorFlow's deprecated alias of
/// TPUStrategy: the same strategy (data reordered iff a device assignment is
/// given, spec §3.10), without experimental_spmd_xla_partitioning. create()
/// warns once per call, through the mesh warning handler
/// (runtime/mesh/MeshWarnings.h, stderr by default): "`tf.distribute.
/// experimental.TPUStrategy` is deprecated, please use the non-experimental
/// symbol `tf.distribute.TPUStrategy` instead.". Its className() is
/// "TPUStrategy", as the Python class's __name__.
class TPUStrategy : public distribute::TPUStrategy {
public:
  /// TPUStrategy(tpu_cluster_resolver, device_assignment); errors as
  /// distribute::TPUStrategy::create().
  static absl::StatusOr<TPUStrategy>
  create(std::shared_ptr<TPUClusterResolver> resolver = nullptr,
         std::optional<DeviceAssignment> deviceAssignment = std::nullopt);

private:
  using distribute::TPUStrategy::TPUStrategy;
};

} // namespace experimental

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_TPUSTRATEGY_H
