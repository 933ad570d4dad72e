//===- InProcessCommunicator.h - Collectives in shared memory ---*- C++ -*-===//
//
// Collectives between emulated cores that are threads of one process (XLA's
// in_process_communicator design). The members of a replica group meet at a
// rendezvous named by the collective key and the group. Each registers its
// buffers and waits (blocking, so 64 or 256 participants share two host
// cores) until all have arrived or the timeout expires; a mismatched peer
// fails the rendezvous for everyone. Then every member does its share of the
// data movement, following the algorithm's schedule (CollectiveAlgorithm.h),
// and a final barrier keeps every member inside the call until all shares
// are done, so nobody frees a buffer a peer still touches.
//
// How each schedule is emulated (every member is a thread; "sending" is a
// memcpy by the receiver from the sender's buffer once the sender has
// published, through a per-member progress counter, that the data is there):
//
//   all-reduce   Direct: member i reduces slice i of the elements over every
//                input and writes it to every output. Ring and Torus: member
//                i reduces chunk i into its own output (the reduce-scatter
//                half, read directly from every input so that reductions
//                stay left to right in group order), then the chunks travel
//                the ring, or the rings of each grid dimension in turn (the
//                all-gather half), each member copying only from its ring
//                predecessor.
//   all-gather   Direct: each member copies every operand into its output.
//                Ring/Torus: each member places its own operand, then copies
//                blocks from its predecessor as above.
//   broadcast    Direct: each member copies the root's operand. Ring (also
//                for Torus): a pipelined chain from the root in group order,
//                in segments of 256 KiB.
//   reduce-scatter, all-to-all, collective-permute: Direct (each member
//                computes its own result from the operands it needs).
//
// Small collectives (CommunicatorOptions::smallCollectiveBytes) are done
// entirely by the last member to arrive, with the direct schedule.
//
// Results are therefore identical for every algorithm, floats included: a
// reduction always folds the members left to right in group order. When a
// member's output is its input (in place) for all-to-all or permute, results
// are computed into a staging buffer and copied out after every member has
// read its operands.
//
// A communicator serves any number of runs (keys carry a run id), but abort()
// is final: create one communicator per run when runs must survive a failed
// predecessor (the Executor does).
//
// Steady state allocates nothing. A program executes each collective over
// and over, so rendezvous are pooled per collective index and replica group:
// a finished one is restarted for a later execution once all its members
// have left it (a pool holds as many as were in flight at once, usually one
// or two: a new pool starts with two). The description a named method
// builds and the staging buffer of an in-place share are kept per thread,
// and emulated cores are persistent threads. After the first execution of
// each of a program's collectives (with replica groups of at most
// IdSet::kInlineIds participants and tensors of rank at most kInlineRank), a
// successful call allocates nothing on the heap, formats nothing and makes
// no std::function; only errors do.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H
#define TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H

#include "runtime/collectives/CollectiveAlgorithm.h"
#include "runtime/collectives/Communicator.h"

#include "absl/container/flat_hash_map.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace torus::rt {

struct CommunicatorOptions {
  /// The algorithm every collective that has several uses (all-reduce,
  /// all-gather, broadcast); Auto chooses from the placement.
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;
  /// Where each participant runs; enables Auto's ring and torus choice.
  std::optional<MeshPlacement> placement;
  /// A collective moving at most this many bytes in all (members x the
  /// larger of operand and result) is done entirely, with the direct
  /// schedule, by the last member to arrive, and the others are released
  /// once: waking every member to copy a few bytes costs more than the
  /// copies. 0 turns this off (every schedule runs as described above).
  size_t smallCollectiveBytes = size_t{256} << 10;
};

class InProcessCommunicator final : public Communicator {
public:
  /// Fails (InvalidArgument) unless numReplicas >= 1 and the placement, if
  /// any, is valid and covers every participant.
  static absl::StatusOr<std::unique_ptr<InProcessCommunicator>>
  create(int64_t numReplicas, CommunicatorOptions options = {});
  ~InProcessCommunicator() override;

  int64_t numReplicas() const override { return numReplicas_; }
  absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, ReduceKind kind,
                         DType dtype, int64_t count, const void *in, void *out,
                         absl::Duration timeout) override;
  absl::Status allGather(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, DType dtype,
                         const Shape &shape, int64_t dimension, const void *in,
                         void *out, absl::Duration timeout) override;
  absl::Status reduceScatter(const CollectiveKey &key, int64_t replicaId,
                             const ReplicaGroups &groups, ReduceKind kind,
                             DType dtype, const Shape &shape,
                             int64_t dimension, const void *in, void *out,
                             absl::Duration timeout) override;
  absl::Status allToAll(const CollectiveKey &key, int64_t replicaId,
                        const ReplicaGroups &groups, DType dtype,
                        const Shape &shape, int64_t splitDimension,
                        int64_t concatDimension, int64_t splitCount,
                        const void *in, void *out,
                        absl::Duration timeout) override;
  absl::Status collectivePermute(const CollectiveKey &key, int64_t replicaId,
                                 const SourceTargetPairs &pairs, DType dtype,
                                 const Shape &shape, const void *in, void *out,
                                 absl::Duration timeout) override;
  absl::Status broadcast(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, int64_t rootRank,
                         DType dtype, const Shape &shape, const void *in,
                         void *out, absl::Duration timeout) override;
  void abort(const absl::Status &reason) override;
  bool isAborted() const override {
    return aborted_.load(std::memory_order_acquire);
  }

  /// Any collective described by `op`: what the named methods call.
  absl::Status run(const CollectiveKey &key, int64_t replicaId,
                   const ReplicaGroups &groups, const CollectiveOp &op,
                   const void *in, void *out, absl::Duration timeout);

  /// The schedule `op` runs with in the group `members` (participant ids).
  CollectiveAlgorithm algorithmFor(const CollectiveOp &op,
                                   std::span<const int64_t> members) const;
  const CommunicatorOptions &options() const { return options_; }

  /// Rendezvous still open (for tests: 0 after successful collectives;
  /// failed ones are kept so late peers see the original error).
  size_t numPendingRendezvous() const;
  /// Rendezvous objects held, open or kept for reuse (for tests: bounded by
  /// the collectives in flight at once, not by the calls made).
  size_t numPooledRendezvous() const;

private:
  InProcessCommunicator(int64_t numReplicas, CommunicatorOptions options);

  struct Rendezvous;
  /// One collective index in one replica group, named by its first member
  /// (groups partition the participants).
  struct PoolKey {
    int64_t collectiveIndex;
    int64_t groupLeader;
    friend bool operator==(const PoolKey &, const PoolKey &) = default;
    template <typename H> friend H AbslHashValue(H h, const PoolKey &k) {
      return H::combine(std::move(h), k.collectiveIndex, k.groupLeader);
    }
  };
  /// The rendezvous of one PoolKey: the open ones (in flight, or failed)
  /// and the finished ones kept for reuse.
  using Pool = std::vector<std::unique_ptr<Rendezvous>>;

  /// Under mutex_: the open rendezvous of `key` in the group `members`, or a
  /// finished one of its pool restarted for it (a new one only when every
  /// one is in use). The caller is counted as inside it.
  Rendezvous *join(const CollectiveKey &key, std::span<const int64_t> members,
                   int64_t rank, const CollectiveOp &op);
  /// Closes a completed rendezvous: later calls with its key start anew,
  /// and it is reused once every member has left it.
  void close(Rendezvous &rv);

  const int64_t numReplicas_;
  const CommunicatorOptions options_;
  /// 0..numReplicas-1: the group of an empty replica group list.
  const std::vector<int64_t> everyone_;
  mutable std::mutex mutex_;
  std::atomic<bool> aborted_{false};
  absl::Status abortReason_;
  absl::flat_hash_map<PoolKey, Pool> pools_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H
