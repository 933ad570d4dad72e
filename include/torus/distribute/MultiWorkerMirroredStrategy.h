//===- MultiWorkerMirroredStrategy.h - MWMS in one process ------*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H
#define TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H

#include "torus/distribute/Strategy.h"

#include <memory>
#include <optional>

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
  CommunicationOptions() = default;

  int64_t bytesPerPack() const { return bytesPerPack_; }
  std::optional<double> timeoutSeconds() const { return timeoutSeconds_; }
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

/// tf.distribute.MultiWorkerMirroredStrategy, single-worker: the local
/// devices of this process (`numLocalDevices` emulated devices, default one
/// "/device:CPU:0") form the replicas. A cluster spec with more than one
/// worker (from TF_CONFIG or the resolver) is Unimplemented here: the
/// multi-process strategy is a separate piece of work.
class MultiWorkerMirroredStrategy : public Strategy {
public:
  static absl::StatusOr<MultiWorkerMirroredStrategy>
  create(std::shared_ptr<ClusterResolver> clusterResolver = nullptr,
         CommunicationOptions communicationOptions = {},
         int64_t numLocalDevices = 1);

  const CommunicationOptions &communicationOptions() const;

private:
  using Strategy::Strategy;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_MULTIWORKERMIRROREDSTRATEGY_H
