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
           absl::Duration collectiveTimeout)
      : runId_(runId), spec_(spec), communicator_(communicator),
        collectiveTimeout_(collectiveTimeout) {}
  RunState(const RunState &) = delete;
  RunState &operator=(const RunState &) = delete;

  uint64_t runId() const { return runId_; }
  const ProgramSpec &spec() const { return spec_; }
  Communicator &communicator() { return communicator_; }
  absl::Duration collectiveTimeout() const { return collectiveTimeout_; }

  /// Records that core `coreId` (running `replicaId`) failed. The first
  /// failure becomes the run's status, prefixed `core C (replica R): `, and
  /// aborts the run; later ones (usually peers woken with Aborted) are
  /// dropped.
  void fail(int64_t coreId, int64_t replicaId, const absl::Status &status);
  bool isAborted() const { return aborted_.load(std::memory_order_acquire); }
  /// OK, or the first failure.
  absl::Status status() const;

private:
  const uint64_t runId_;
  const ProgramSpec &spec_;
  Communicator &communicator_;
  const absl::Duration collectiveTimeout_;

  mutable std::mutex mutex_;
  absl::Status firstError_;
  std::atomic<bool> aborted_{false};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_RUNSTATE_H
