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
// Global ids (ParticipantIds::Global): for a program whose logical devices
// are spread over the workers (RunOptions::firstDevice: worker w runs
// devices w * L .. w * L + L - 1), participant ids and replica groups name
// those global devices, e.g. the 2 x 2 data x model-parallel groups
// {{0,1},{2,3}} (the partitions of a replica) and {{0,2},{1,3}} (a
// partition's replicas). A group list of every device in order takes the
// hierarchical paths above; any other groups (all-reduce, all-gather,
// reduce-scatter, all-to-all, broadcast) are exchanged point to point: the
// leader sends each other worker, in one message, the operands of this
// worker's participants whose group has a member there, and computes every
// local participant's result from its group's operands in group order (a
// reduction folds them left to right, as InProcessCommunicator does, so a
// program spread over workers reduces exactly as on one process).
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
#include <optional>
#include <vector>

namespace torus::rt {

/// What the participant ids of the calls (and replica groups) name.
enum class ParticipantIds {
  /// This worker's participants, 0..L-1; one group of all of them means
  /// every participant of every worker (MultiWorkerMirroredStrategy: a
  /// program compiled for one worker's replicas).
  PerWorker,
  /// Every worker's, 0..W*L-1, worker-major (a program whose devices are
  /// spread over the workers; RunOptions::firstDevice).
  Global,
};

class CrossWorkerCommunicator final : public Communicator {
public:
  /// `local` connects this worker's participants and must outlive the
  /// communicator; `workers` is shared by every run of the job.
  CrossWorkerCommunicator(InProcessCommunicator &local,
                          std::shared_ptr<WorkerGroup> workers,
                          ParticipantIds ids = ParticipantIds::PerWorker)
      : local_(local), workers_(std::move(workers)), ids_(ids) {}

  /// The participant ids the calls take: the local participants (the
  /// executor's view of a per-worker program), or with global ids every
  /// worker's.
  int64_t numReplicas() const override {
    return ids_ == ParticipantIds::Global ? numGlobalReplicas()
                                          : local_.numReplicas();
  }
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
  /// With global ids: `id` as this worker's local participant (InvalidArgument
  /// for another worker's).
  absl::StatusOr<int64_t> localParticipant(int64_t id) const;
  /// With global ids: whether `groups` is empty or one group of every
  /// participant in order (the hierarchical paths).
  bool spansEveryoneInOrder(const ReplicaGroups &groups) const;
  /// With global ids, groups that are not everyone: local participant
  /// `replicaId`'s result of `op` over its group (see the file comment).
  /// With ParticipantIds::Global: `replicaId` becomes the local
  /// participant, and a collective over `*groups` other than everyone in
  /// order runs point to point as `op` (groupCollective), whose status is
  /// returned. Otherwise nullopt, with `*groups` the groups the
  /// hierarchical path runs on (everyone, under global ids).
  std::optional<absl::Status>
  routeGlobalIds(const CollectiveKey &key, int64_t &replicaId,
                 const ReplicaGroups *&groups, const CollectiveOp &op,
                 const void *in, void *out, absl::Duration timeout);
  absl::Status groupCollective(const CollectiveKey &key, int64_t replicaId,
                               const ReplicaGroups &groups,
                               const CollectiveOp &op, const void *in,
                               void *out, absl::Duration timeout);
  /// The hierarchical all-reduce over every participant of every worker
  /// (`groups`: one group of every local participant, or empty).
  absl::Status allReduceSpanning(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, ReduceKind kind,
                                 DType dtype, int64_t count, const void *in,
                                 void *out, absl::Duration timeout);
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
  ParticipantIds ids_;
  /// Per local participant, each used only by its own thread.
  std::vector<std::array<std::vector<uint8_t>, 3>> scratch_{
      static_cast<size_t>(local_.numReplicas())};
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MULTIWORKER_CROSSWORKERCOMMUNICATOR_H
