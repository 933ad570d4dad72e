//===- RunState.h - What the cores of one run share -------------*- C++ -*-===//
//
// One execution of a program on the mesh: its id, the program's spec, the
// communicator its collectives go through and its outcome. The first core to
// fail decides the run's error and aborts the communicator, so every peer
// blocked in a rendezvous returns promptly instead of waiting for a core that
// will never arrive.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_RUNSTATE_H
#define TORUS_RUNTIME_EXECUTOR_RUNSTATE_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/Communicator.h"
#include "torus/Status.h"

#include "absl/time/time.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace torus::rt {

class RunState {
public:
  RunState(uint64_t runId, const ProgramSpec &spec, Communicator &communicator,
           absl::Duration collectiveTimeout, int64_t numPartitions = 1)
      : runId_(runId), spec_(spec), communicator_(communicator),
        collectiveTimeout_(collectiveTimeout), numPartitions_(numPartitions) {}
  RunState(const RunState &) = delete;
  RunState &operator=(const RunState &) = delete;

  uint64_t runId() const { return runId_; }
  const ProgramSpec &spec() const { return spec_; }
  Communicator &communicator() { return communicator_; }
  absl::Duration collectiveTimeout() const { return collectiveTimeout_; }
  /// Partitions (logical cores) per replica; cores = replicas x partitions.
  int64_t numPartitions() const { return numPartitions_; }

  /// Records that core `coreId` (running partition `partitionId` of
  /// `replicaId`) failed. The first failure becomes the run's status,
  /// prefixed `core C (replica R): ` (`core C (replica R, partition P): `
  /// when the run has several partitions), and aborts the run; later ones
  /// (usually peers woken with Aborted) are dropped.
  void fail(int64_t coreId, int64_t replicaId, int64_t partitionId,
            const absl::Status &status);
  void fail(int64_t coreId, int64_t replicaId, const absl::Status &status) {
    fail(coreId, replicaId, 0, status);
  }
  bool isAborted() const { return aborted_.load(std::memory_order_acquire); }
  /// OK, or the first failure.
  absl::Status status() const;

private:
  const uint64_t runId_;
  const ProgramSpec &spec_;
  Communicator &communicator_;
  const absl::Duration collectiveTimeout_;
  const int64_t numPartitions_;

  mutable std::mutex mutex_;
  absl::Status firstError_;
  std::atomic<bool> aborted_{false};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_RUNSTATE_H
