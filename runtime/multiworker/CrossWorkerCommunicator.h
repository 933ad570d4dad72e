//===- CrossWorkerCommunicator.h - Hierarchical collectives -----*- C++ -*-===//
//
// The communicator of a run on one worker of a multi-worker job: the
// executor's emulated cores (the local participants) talk to each other in
// shared memory through an InProcessCommunicator, and the workers talk
// through a WorkerGroup (Gloo). Every worker runs the same SPMD program on
// the same number of local participants; a collective over all local
// participants spans every participant of every worker:
//
//   all-reduce  1. the local participants all-reduce in shared memory (in
//                  participant order);
//               2. local participant 0 all-reduces that partial result with
//                  the other workers (Gloo's ring);
//               3. it broadcasts the result to the local participants.
//               Every participant of every worker ends with the same bits.
//
//   all-gather, all-to-all, collective-permute
//               1. the local participants all-gather their operands in
//                  shared memory;
//               2. local participant 0 (the leader) moves them across
//                  workers: Gloo's all-gather, Gloo's all-to-all of the
//                  blocks each worker's replicas receive, or one
//                  point-to-point message per pair of workers (permute);
//               3. it shares what it got with the local participants, which
//                  lay out their results.
//               With one participant per worker there is nothing to gather
//               or share: all-to-all (blocks contiguous on both sides) and
//               permute move the operand and result themselves; all-gather
//               gathers straight into the result when its blocks are
//               contiguous (every dimension before the gathered one is 1).
//   reduce-scatter  blocks contiguous: the in-worker all-reduce, then the
//                  leaders' ring reduce-scatter over the workers
//                  (WorkerGroup::reduceScatter; with one participant per
//                  worker from the operand straight into the result), then
//                  each keeps its block of the worker's chunk. Otherwise
//                  the hierarchical all-reduce above, then each keeps its
//                  block along the scatter dimension.
//   broadcast   the root's worker broadcasts in shared memory, the leaders
//               over Gloo, then the other workers in shared memory.
//
// Global participant ids are worker-major: worker w's replica l is
// w * numReplicas() + l, the order of the global group and the ids of
// collective-permute's pairs (and a broadcast's root). Replica groups must be
// one group of every local participant (or empty), meaning every participant
// of every worker; groups inside a worker or spanning some of them are
// Unimplemented across workers.
//
// Failures: a worker that died or stopped answering fails the leader's Gloo
// call with the WorkerGroup's error naming it; the leader's failure aborts
// the run, which wakes the local participants waiting for its broadcast.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MULTIWORKER_CROSSWORKERCOMMUNICATOR_H
#define TORUS_RUNTIME_MULTIWORKER_CROSSWORKERCOMMUNICATOR_H

#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/multiworker/WorkerGroup.h"

#include <array>
#include <atomic>
#include <memory>
#include <vector>

namespace torus::rt {

class CrossWorkerCommunicator final : public Communicator {
public:
  /// `local` connects this worker's participants and must outlive the
  /// communicator; `workers` is shared by every run of the job.
  CrossWorkerCommunicator(InProcessCommunicator &local,
                          std::shared_ptr<WorkerGroup> workers)
      : local_(local), workers_(std::move(workers)) {}

  /// Local participants (the executor's view).
  int64_t numReplicas() const override { return local_.numReplicas(); }
  /// Participants over every worker.
  int64_t numGlobalReplicas() const {
    return local_.numReplicas() * workers_->size();
  }
  const std::shared_ptr<WorkerGroup> &workers() const { return workers_; }

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
  void abort(const absl::Status &reason) override { local_.abort(reason); }
  bool isAborted() const override { return local_.isAborted(); }

private:
  /// OK when `groups` is one group of every local participant (or empty).
  absl::Status checkSpansWorker(const ReplicaGroups &groups,
                                std::string_view what) const;
  /// checkSpansWorker, and the group lists the replicas in order (global
  /// replica w * L + l is worker w's replica l).
  absl::Status checkInOrder(const ReplicaGroups &groups,
                            std::string_view what) const;
  /// `all` (numReplicas() * bytes) becomes every local participant's
  /// `bytes` at `in`, in replica order (an in-worker all-gather).
  absl::Status gatherLocal(const CollectiveKey &key, int64_t replicaId,
                           DType dtype, int64_t bytes, const void *in,
                           uint8_t *all, absl::Duration timeout);
  /// Local participant 0 (the leader, whose Gloo step ended with
  /// `leaderStatus`) gives `bytes` at `data` to every local participant;
  /// a failed leader aborts the local communicator instead.
  absl::Status shareFromLeader(const CollectiveKey &key, int64_t replicaId,
                               DType dtype, int64_t bytes, void *data,
                               absl::Status leaderStatus,
                               absl::Duration timeout);

  /// Participant `replicaId`'s scratch buffer `slot` (0..2: a collective
  /// uses up to three at once) of at least `bytes`, kept from call to call
  /// until the communicator goes: a fresh buffer of tens of MiB costs more
  /// in page faults than moving it between workers.
  uint8_t *scratch(int64_t replicaId, int slot, size_t bytes);

  InProcessCommunicator &local_;
  std::shared_ptr<WorkerGroup> workers_;
  /// Per local participant, each used only by its own thread.
  std::vector<std::array<std::vector<uint8_t>, 3>> scratch_{
      static_cast<size_t>(local_.numReplicas())};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MULTIWORKER_CROSSWORKERCOMMUNICATOR_H
