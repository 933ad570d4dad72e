//===- Tpu.h - TPU cluster resolver, topology, device assignment -*- C++ -*-===//
//
// The public face of the emulated TPU system (runtime/mesh, spec §9–§11):
//
//   auto resolver = TPUClusterResolver::create("");      // the local v3-8
//   auto topology = initializeTpuSystem(&*resolver);
//   auto assignment = DeviceAssignment::build(*topology, {{1, 1, 1, 2}},
//                                             std::nullopt, /*replicas=*/4);
//
// Errors carry TensorFlow's texts; ValueError is InvalidArgument.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_TPU_H
#define TORUS_DISTRIBUTE_TPU_H

#include "torus/Status.h"
#include "torus/distribute/ClusterResolver.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute {

/// tf.tpu.experimental.Topology of an emulated slice.
class Topology {
public:
  /// A preset ("v3-8", "v4-32", ...) or mesh string ("2x2x1x2").
  static absl::StatusOr<Topology> fromString(const std::string &slice);

  /// (x, y, z, cores per chip).
  std::array<int32_t, 4> meshShape() const;
  int numTasks() const;
  int numTpusPerTask() const;
  /// [task][tpu ordinal] -> (x, y, z, core).
  std::vector<std::vector<std::array<int32_t, 4>>> deviceCoordinates() const;
  std::string serialized() const;
  std::string toString() const;

  struct Impl;
  explicit Topology(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  const Impl &impl() const { return *impl_; }

private:
  std::shared_ptr<const Impl> impl_;
};

/// tf.distribute.cluster_resolver.TPUClusterResolver over an emulated slice
/// ("local" or "" name the local slice, default v3-8; see
/// runtime/mesh/ClusterResolver.h).
struct TPUClusterResolverOptions {
  /// The emulated slice: a preset or mesh string (default
  /// $TORUS_TPU_ACCELERATOR_TYPE, else "v3-8").
  std::optional<std::string> acceleratorType;
  std::string jobName = "worker";
};

class TPUClusterResolver : public ClusterResolver {
public:
  using Options = TPUClusterResolverOptions;
  static absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
  create(std::optional<std::string> tpu = std::nullopt, Options options = {});

  absl::StatusOr<ClusterSpec> clusterSpec() const override;
  absl::StatusOr<std::string>
  master(std::optional<std::string> taskType = std::nullopt,
         std::optional<int> taskId = std::nullopt,
         std::optional<std::string> rpcLayer = std::nullopt) const override;
  std::optional<std::string> taskType() const override;
  std::optional<int> taskId() const override;
  absl::StatusOr<std::map<std::string, int>> numAccelerators() const override;
  std::string environment() const override { return ""; }
  /// The topology initializeTpuSystem stored, if any.
  std::optional<Topology> tpuTopology() const;
  /// The slice this resolver names.
  absl::StatusOr<Topology> sliceTopology() const;

  struct Impl;
  explicit TPUClusterResolver(std::unique_ptr<Impl> impl);
  ~TPUClusterResolver() override;
  Impl &impl() const { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

/// tf.tpu.experimental.initialize_tpu_system(resolver); null means
/// TPUClusterResolver("").
absl::StatusOr<Topology>
initializeTpuSystem(TPUClusterResolver *resolver = nullptr);
absl::Status shutdownTpuSystem(TPUClusterResolver *resolver = nullptr);

/// tf.tpu.experimental.DeviceOrderMode.
enum class DeviceOrderMode { Auto = 0, Ring = 1, Mesh = 2 };

/// tf.tpu.experimental.DeviceAssignment.
class DeviceAssignment {
public:
  using CoreAssignment = std::vector<std::vector<std::vector<int64_t>>>;
  static absl::StatusOr<DeviceAssignment>
  create(const Topology &topology, const CoreAssignment &coreAssignment);
  /// DeviceAssignment.build (TensorFlow's algorithm and errors).
  static absl::StatusOr<DeviceAssignment>
  build(const Topology &topology,
        std::optional<std::vector<int64_t>> computationShape = std::nullopt,
        std::optional<std::vector<int64_t>> computationStride = std::nullopt,
        int64_t numReplicas = 1,
        DeviceOrderMode deviceOrderMode = DeviceOrderMode::Auto);

  Topology topology() const;
  int numReplicas() const;
  int numCoresPerReplica() const;
  absl::StatusOr<std::array<int32_t, 4>> coordinates(int64_t replica,
                                                     int64_t logicalCore) const;
  absl::StatusOr<int> tpuOrdinal(int64_t replica = 0,
                                 int64_t logicalCore = 0) const;
  absl::StatusOr<std::string>
  hostDevice(int64_t replica = 0, int64_t logicalCore = 0,
             std::optional<std::string> job = std::nullopt) const;
  absl::StatusOr<std::string>
  tpuDevice(int64_t replica = 0, int64_t logicalCore = 0,
            std::optional<std::string> job = std::nullopt) const;
  absl::StatusOr<std::vector<int>> lookupReplicas(int64_t taskId,
                                                  int64_t logicalCore) const;

  struct Impl;
  explicit DeviceAssignment(std::shared_ptr<const Impl> impl)
      : impl_(std::move(impl)) {}
  const Impl &impl() const { return *impl_; }

private:
  std::shared_ptr<const Impl> impl_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_TPU_H
