//===- CrossWorkerCommunicator.cpp - Hierarchical collectives -------------===//

#include "runtime/multiworker/CrossWorkerCommunicator.h"

#include <fmt/format.h>

namespace torus::rt {

namespace {

/// The key of the broadcast phase: distinct from the all-reduce phase's key
/// (a fast participant must not meet a slow one's finished rendezvous).
CollectiveKey broadcastPhase(const CollectiveKey &key) {
  CollectiveKey k = key;
  k.phase = 1;
  return k;
}

/// `{count}`, in a shape of the calling thread reused from call to call (the
/// local phases of a step allocate nothing).
const Shape &flatShape(int64_t count) {
  thread_local Shape shape;
  shape.assign(1, count);
  return shape;
}

} // namespace

absl::Status
CrossWorkerCommunicator::checkSpansWorker(const ReplicaGroups &groups,
                                          std::string_view what) const {
  if (groups.empty() ||
      (groups.size() == 1 &&
       static_cast<int64_t>(groups[0].size()) == local_.numReplicas()))
    return absl::OkStatus();
  return absl::UnimplementedError(fmt::format(
      "{} over replica groups {} across {} workers: a collective spanning "
      "workers must include every replica of each worker",
      what, replicaGroupsToString(groups), workers_->size()));
}

absl::Status
CrossWorkerCommunicator::acrossWorkers(std::string_view what) const {
  return absl::UnimplementedError(fmt::format(
      "{} across {} worker processes is not supported (only all-reduce is)",
      what, workers_->size()));
}

absl::Status CrossWorkerCommunicator::allReduce(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, int64_t count, const void *in, void *out,
    absl::Duration timeout) {
  if (workers_->size() == 1)
    return local_.allReduce(key, replicaId, groups, kind, dtype, count, in,
                            out, timeout);
  TORUS_RETURN_IF_ERROR(checkSpansWorker(groups, "all-reduce"));
  // 1. Inside the worker.
  TORUS_RETURN_IF_ERROR(local_.allReduce(key, replicaId, groups, kind, dtype,
                                         count, in, out, timeout));
  // 2. Across workers, by the first participant of the group.
  const int64_t leader = groups.empty() ? 0 : groups[0].front();
  if (replicaId == leader) {
    absl::Status status =
        workers_->allReduce(out, dtype, count, kind, timeout);
    if (!status.ok()) {
      local_.abort(status); // wakes the participants waiting in step 3
      return status;
    }
  }
  // 3. Back to every participant of the worker. The others wait here while
  // the leader is in Gloo: give them the Gloo timeout on top of their own.
  return local_.broadcast(broadcastPhase(key), replicaId, groups,
                          /*rootRank=*/0, dtype, flatShape(count), out, out,
                          timeout * 2 + absl::Seconds(5));
}

absl::Status CrossWorkerCommunicator::allGather(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t dimension, const void *in,
    void *out, absl::Duration timeout) {
  if (workers_->size() > 1)
    return acrossWorkers("all-gather");
  return local_.allGather(key, replicaId, groups, dtype, shape, dimension, in,
                          out, timeout);
}

absl::Status CrossWorkerCommunicator::reduceScatter(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, const Shape &shape, int64_t dimension,
    const void *in, void *out, absl::Duration timeout) {
  if (workers_->size() > 1)
    return acrossWorkers("reduce-scatter");
  return local_.reduceScatter(key, replicaId, groups, kind, dtype, shape,
                              dimension, in, out, timeout);
}

absl::Status CrossWorkerCommunicator::allToAll(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t splitDimension,
    int64_t concatDimension, int64_t splitCount, const void *in, void *out,
    absl::Duration timeout) {
  if (workers_->size() > 1)
    return acrossWorkers("all-to-all");
  return local_.allToAll(key, replicaId, groups, dtype, shape, splitDimension,
                         concatDimension, splitCount, in, out, timeout);
}

absl::Status CrossWorkerCommunicator::collectivePermute(
    const CollectiveKey &key, int64_t replicaId,
    const SourceTargetPairs &pairs, DType dtype, const Shape &shape,
    const void *in, void *out, absl::Duration timeout) {
  if (workers_->size() > 1)
    return acrossWorkers("collective-permute");
  return local_.collectivePermute(key, replicaId, pairs, dtype, shape, in,
                                  out, timeout);
}

absl::Status CrossWorkerCommunicator::broadcast(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    int64_t rootRank, DType dtype, const Shape &shape, const void *in,
    void *out, absl::Duration timeout) {
  if (workers_->size() > 1)
    return acrossWorkers("broadcast");
  return local_.broadcast(key, replicaId, groups, rootRank, dtype, shape, in,
                          out, timeout);
}

} // namespace torus::rt
