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
#include "torus/distribute/Strategy.h"
#include "torus/distribute/Tpu.h"

#include <functional>
#include <memory>
#include <optional>

namespace torus::distribute {

class TPUStrategy : public Strategy {
public:
  /// TPUStrategy(tpu_cluster_resolver, experimental_device_assignment,
  /// experimental_spmd_xla_partitioning). A null resolver is
  /// TPUClusterResolver("").
  static absl::StatusOr<TPUStrategy>
  create(std::shared_ptr<TPUClusterResolver> resolver = nullptr,
         std::optional<DeviceAssignment> deviceAssignment = std::nullopt,
         bool experimentalSpmdXlaPartitioning = false);

  /// The TPU cluster resolver (never null).
  std::shared_ptr<TPUClusterResolver> tpuClusterResolver() const;
  /// Hosts feeding the replicas, and replicas per host (spec §8.2).
  int64_t numHosts() const;
  int64_t numReplicasPerHost() const;
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
  static absl::StatusOr<TPUStrategyV1>
  create(std::shared_ptr<TPUClusterResolver> resolver = nullptr,
         std::optional<int64_t> stepsPerRun = std::nullopt,
         std::optional<DeviceAssignment> deviceAssignment = std::nullopt);

  /// DEPRECATED in TensorFlow: extended().stepsPerRun().
  int64_t stepsPerRun() const;

  using StepFn = std::function<std::vector<Tensor>(
      StepContext &ctx, const std::vector<Tensor> &inputs)>;
  /// extended.experimental_run_steps_on_iterator(fn, iterator, iterations):
  /// runs `iterations` steps on the devices in one call (the compiled step
  /// loops on device; variables stay there between steps and each step
  /// takes the next element of `iterator`). With stepsPerRun() == 1 exactly
  /// one step runs whatever `iterations` is (TensorFlow's behaviour, spec
  /// §8.6).
  absl::StatusOr<MultiStepContext>
  experimentalRunStepsOnIterator(const StepFn &fn,
                                 DistributedIterator &iterator,
                                 int64_t iterations = 1) const;

private:
  using TPUStrategy::TPUStrategy;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_TPUSTRATEGY_H
