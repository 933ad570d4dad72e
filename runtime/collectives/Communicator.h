//===- Communicator.h - Collectives between replicas ------------*- C++ -*-===//
//
// The interface the executor runs collectives through. The in-process
// implementation (InProcessCommunicator) connects emulated cores that are
// threads of one process; a cross-process engine (Gloo, MPI) implements the
// same interface for multi-worker runs.
//
// Every call is made by one replica for itself, on that replica's thread, and
// blocks until the collective has finished for the caller: its output is
// written and no peer still reads its input. Failures are Status values,
// never hangs: a missing peer times out, a mismatched peer is reported, and
// abort() wakes everyone.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H
#define TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/ReplicaGroups.h"
#include "torus/Status.h"
#include "torus/Types.h"

#include "absl/time/time.h"

#include <cstdint>
#include <string>

namespace torus::rt {

/// Names one execution of one collective op. Every participant of that
/// execution passes the same key; together with the replica group it
/// identifies the rendezvous.
struct CollectiveKey {
  /// Distinguishes runs sharing a communicator.
  uint64_t runId = 0;
  /// Index into ProgramSpec::collectives.
  int64_t collectiveIndex = 0;
  /// How many times the participant executed this collective before in this
  /// run (SPMD programs execute each collective equally often everywhere).
  uint64_t invocation = 0;

  /// `run 3, collective #0, invocation 2`.
  std::string toString() const;
  friend bool operator==(const CollectiveKey &,
                         const CollectiveKey &) = default;
  template <typename H> friend H AbslHashValue(H h, const CollectiveKey &k) {
    return H::combine(std::move(h), k.runId, k.collectiveIndex, k.invocation);
  }
};

/// Default time a participant waits for its peers.
inline constexpr absl::Duration kDefaultCollectiveTimeout = absl::Seconds(30);

class Communicator {
public:
  virtual ~Communicator() = default;

  /// Replicas 0..numReplicas()-1 take part in collectives.
  virtual int64_t numReplicas() const = 0;

  /// HLO all-reduce, called by replica `replicaId`: every member of the
  /// caller's group in `groups` (validated; empty = all replicas) contributes
  /// `count` elements of `dtype` at `in`; each receives at `out` the
  /// element-wise `kind` reduction of all of them, combined in the group's
  /// participant order (so identical on every member and independent of
  /// timing). `in` and `out` may be the same buffer.
  ///
  /// Errors: InvalidArgument for invalid groups or for peers that disagree on
  /// count, dtype, kind or groups (naming both replicas and their values);
  /// Unimplemented for unsupported dtypes; DeadlineExceeded when a peer does
  /// not arrive within `timeout` (naming the missing replicas); Aborted once
  /// abort() was called.
  virtual absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, ReduceKind kind,
                                 DType dtype, int64_t count, const void *in,
                                 void *out, absl::Duration timeout) = 0;

  /// Fails every waiting and every later collective with Aborted, carrying
  /// `reason`'s message; waiters wake promptly. A collective whose peers
  /// have all arrived still completes (peers are writing into its output).
  /// Idempotent: the first reason is kept.
  virtual void abort(const absl::Status &reason) = 0;
  virtual bool isAborted() const = 0;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H
