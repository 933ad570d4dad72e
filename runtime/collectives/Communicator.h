//===- Communicator.h - Collectives between replicas ------------*- C++ -*-===//
//
// The interface the executor runs collectives through. The in-process
// implementation (InProcessCommunicator) connects emulated cores that are
// threads of one process; a cross-process engine (Gloo, MPI) implements the
// same interface for multi-worker runs.
//
// Every call is made by one participant ("replica": a replica id, or with
// several partitions a global device id) for itself, on its own thread, and
// blocks until the collective has finished for the caller: its output is
// written and no peer still reads its input. Failures are Status values,
// never hangs: a missing peer times out naming it, a mismatched peer
// (shape, type, parameters or groups) is reported naming both, and abort()
// wakes everyone.
//
// Semantics are HLO's, on dense row-major tensors; reductions combine the
// members in group order, left to right, so results are identical on every
// member and independent of timing and of the algorithm. `out` may be the
// very buffer `in` for all-reduce, all-to-all, collective-permute and
// broadcast; it must not otherwise overlap `in`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H
#define TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/CollectiveOp.h"
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
  /// A later rendezvous of the same invocation (0 for the first): the
  /// broadcast phase of a hierarchical all-reduce across workers is 1, so
  /// that a fast participant does not meet a slow one's finished first
  /// phase.
  uint32_t phase = 0;

  /// `run 3, collective #0, invocation 2` (then `, phase 1` for a later
  /// phase).
  std::string toString() const;
  friend bool operator==(const CollectiveKey &,
                         const CollectiveKey &) = default;
  template <typename H> friend H AbslHashValue(H h, const CollectiveKey &k) {
    return H::combine(std::move(h), k.runId, k.collectiveIndex, k.invocation,
                      k.phase);
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
  /// abort() was called. The other collectives fail the same ways.
  virtual absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, ReduceKind kind,
                                 DType dtype, int64_t count, const void *in,
                                 void *out, absl::Duration timeout) = 0;

  /// HLO all-gather: `out` (shape[dimension] * group size) is the members'
  /// operands (`shape`) concatenated along `dimension` in group order.
  virtual absl::Status allGather(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, DType dtype,
                                 const Shape &shape, int64_t dimension,
                                 const void *in, void *out,
                                 absl::Duration timeout) = 0;

  /// HLO reduce-scatter: the operands (`shape`, whose `dimension` the group
  /// size divides) are reduced element-wise with `kind` in group order, and
  /// member i receives block i of `dimension` (shape[dimension] / size).
  virtual absl::Status reduceScatter(const CollectiveKey &key,
                                     int64_t replicaId,
                                     const ReplicaGroups &groups,
                                     ReduceKind kind, DType dtype,
                                     const Shape &shape, int64_t dimension,
                                     const void *in, void *out,
                                     absl::Duration timeout) = 0;

  /// HLO all-to-all: each member splits its operand along `splitDimension`
  /// into `splitCount` (= group size) blocks and sends block j to member j;
  /// each concatenates the blocks it receives along `concatDimension` in
  /// group order.
  virtual absl::Status allToAll(const CollectiveKey &key, int64_t replicaId,
                                const ReplicaGroups &groups, DType dtype,
                                const Shape &shape, int64_t splitDimension,
                                int64_t concatDimension, int64_t splitCount,
                                const void *in, void *out,
                                absl::Duration timeout) = 0;

  /// HLO collective-permute: for each (source, target) pair of replica ids,
  /// the target receives the source's operand; a replica that is no target
  /// receives zeros. Every replica of the communicator takes part.
  virtual absl::Status collectivePermute(const CollectiveKey &key,
                                         int64_t replicaId,
                                         const SourceTargetPairs &pairs,
                                         DType dtype, const Shape &shape,
                                         const void *in, void *out,
                                         absl::Duration timeout) = 0;

  /// Broadcast: every member of the caller's group receives the operand of
  /// the member at position `rootRank` of the group (a rank, not a replica
  /// id, so one call serves every group).
  virtual absl::Status broadcast(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, int64_t rootRank,
                                 DType dtype, const Shape &shape,
                                 const void *in, void *out,
                                 absl::Duration timeout) = 0;

  /// Fails every waiting and every later collective with Aborted, carrying
  /// `reason`'s message; waiters wake promptly. A collective whose peers
  /// have all arrived still completes (peers are writing into its output).
  /// Idempotent: the first reason is kept.
  virtual void abort(const absl::Status &reason) = 0;
  virtual bool isAborted() const = 0;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_COMMUNICATOR_H
