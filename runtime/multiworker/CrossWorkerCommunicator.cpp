//===- CrossWorkerCommunicator.cpp - Hierarchical collectives -------------===//

#include "runtime/multiworker/CrossWorkerCommunicator.h"

#include "runtime/collectives/BlockCopy.h"
#include "runtime/collectives/Reduction.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <optional>

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

/// Whether blocks along `dimension` of `shape` are contiguous in memory
/// (every dimension before it is 1): then a concatenation or split along it
/// is one of whole buffers, and the data can move without relayout.
bool contiguousAlong(const Shape &shape, int64_t dimension) {
  for (int64_t d = 0; d < dimension; ++d)
    if (shape[d] != 1)
      return false;
  return true;
}

} // namespace

uint8_t *CrossWorkerCommunicator::scratch(int64_t replicaId, int slot,
                                          size_t bytes) {
  std::vector<uint8_t> &buffer =
      scratch_.at(static_cast<size_t>(replicaId)).at(slot);
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

absl::StatusOr<int64_t>
CrossWorkerCommunicator::localParticipant(int64_t id) const {
  const int64_t L = local_.numReplicas(), w = workers_->rank();
  if (id < w * L || id >= (w + 1) * L)
    return absl::InvalidArgumentError(fmt::format(
        "participant {} does not run on {} (its participants are {}..{})", id,
        workers_->name(static_cast<int>(w)), w * L, (w + 1) * L - 1));
  return id - w * L;
}

bool CrossWorkerCommunicator::spansEveryoneInOrder(
    const ReplicaGroups &groups) const {
  if (groups.empty())
    return true;
  if (groups.size() != 1 ||
      static_cast<int64_t>(groups[0].size()) != numGlobalReplicas())
    return false;
  for (size_t i = 0; i < groups[0].size(); ++i)
    if (groups[0][i] != static_cast<int64_t>(i))
      return false;
  return true;
}

absl::Status CrossWorkerCommunicator::groupCollective(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    const CollectiveOp &op, const void *in, void *out,
    absl::Duration timeout) {
  const int64_t L = local_.numReplicas(), W = workers_->size(),
                w = workers_->rank(), G = L * W;
  const std::string_view what = collectiveOpKindName(op.kind);
  absl::Status valid = validateReplicaGroups(groups, G);
  if (!valid.ok())
    return absl::InvalidArgumentError(fmt::format(
        "{} across {} workers: {}", what, W, std::string(valid.message())));
  const int64_t n = static_cast<int64_t>(groups[0].size());
  if (op.kind != CollectiveOpKind::AllReduce)
    for (const auto &group : groups)
      if (static_cast<int64_t>(group.size()) != n)
        return absl::InvalidArgumentError(
            fmt::format("{} across {} workers: replica groups {} differ in "
                        "size",
                        what, W, replicaGroupsToString(groups)));
  TORUS_RETURN_IF_ERROR(op.check(n, G));
  const int64_t bytes = op.operandBytes();
  const size_t width = byteWidth(op.dtype);
  // 1. The worker's operands, in participant order.
  uint8_t *local = scratch(replicaId, 0, static_cast<size_t>(L * bytes));
  TORUS_RETURN_IF_ERROR(
      gatherLocal(key, replicaId, op.dtype, bytes, in, local, timeout));
  // 2. The leader exchanges with every worker that shares a group, then
  // computes every local participant's result.
  const int64_t resultBytes =
      op.kind == CollectiveOpKind::AllReduce ? bytes : op.resultBytes(n);
  std::vector<uint8_t> results(static_cast<size_t>(L * resultBytes));
  absl::Status status;
  if (replicaId == 0) {
    std::vector<int64_t> groupOf(G);
    for (size_t g = 0; g < groups.size(); ++g)
      for (int64_t m : groups[g])
        groupOf[m] = static_cast<int64_t>(g);
    // Whether participant s's group has a member on worker v.
    auto reaches = [&](int64_t s, int64_t v) {
      for (int64_t m : groups[groupOf[s]])
        if (m / L == v)
          return true;
      return false;
    };
    std::vector<const uint8_t *> operand(G, nullptr);
    for (int64_t l = 0; l < L; ++l)
      operand[w * L + l] = local + l * bytes;
    std::vector<std::vector<uint8_t>> outgoing(W), incoming(W);
    std::vector<WorkerGroup::Transfer> sends, recvs;
    for (int64_t v = 0; v < W; ++v) {
      if (v == w)
        continue;
      for (int64_t s = w * L; s < (w + 1) * L; ++s)
        if (reaches(s, v))
          outgoing[v].insert(outgoing[v].end(), operand[s],
                             operand[s] + bytes);
      for (int64_t s = v * L; s < (v + 1) * L; ++s)
        if (reaches(s, w))
          incoming[v].resize(incoming[v].size() + bytes);
      if (!outgoing[v].empty())
        sends.push_back({static_cast<int>(v), outgoing[v].data(),
                         outgoing[v].size()});
      if (!incoming[v].empty())
        recvs.push_back({static_cast<int>(v), incoming[v].data(),
                         incoming[v].size()});
    }
    status = workers_->exchange(sends, recvs, timeout);
    if (status.ok()) {
      for (int64_t v = 0; v < W; ++v) {
        if (v == w)
          continue;
        const uint8_t *next = incoming[v].data();
        for (int64_t s = v * L; s < (v + 1) * L; ++s)
          if (reaches(s, w)) {
            operand[s] = next;
            next += bytes;
          }
      }
      const Shape result = op.kind == CollectiveOpKind::AllReduce
                               ? op.shape
                               : op.resultShape(n);
      const BlockIndex zero(op.shape.size(), 0);
      std::vector<uint8_t> reduced;
      for (int64_t l = 0; l < L; ++l) {
        const std::vector<int64_t> &members = groups[groupOf[w * L + l]];
        int64_t rank = 0;
        while (members[rank] != w * L + l)
          ++rank;
        uint8_t *mine = results.data() + l * resultBytes;
        std::vector<const void *> inputs;
        for (int64_t m : members)
          inputs.push_back(operand[m]);
        switch (op.kind) {
        case CollectiveOpKind::AllReduce: {
          std::array<void *const, 1> to = {mine};
          reduceRange(op.reduce, op.dtype, inputs, to, 0,
                      bytes / static_cast<int64_t>(width));
          break;
        }
        case CollectiveOpKind::ReduceScatter: {
          reduced.resize(static_cast<size_t>(bytes));
          std::array<void *const, 1> to = {reduced.data()};
          reduceRange(op.reduce, op.dtype, inputs, to, 0,
                      bytes / static_cast<int64_t>(width));
          BlockIndex from(op.shape.size(), 0);
          from[op.dimension] = rank * result[op.dimension];
          copyBlock(reduced.data(), op.shape, from, mine, result, zero, result,
                    width);
          break;
        }
        case CollectiveOpKind::AllGather:
          for (int64_t k = 0; k < n; ++k) {
            BlockIndex at(op.shape.size(), 0);
            at[op.dimension] = k * op.shape[op.dimension];
            copyBlock(operand[members[k]], op.shape, zero, mine, result, at,
                      op.shape, width);
          }
          break;
        case CollectiveOpKind::AllToAll: {
          // Block `rank` of member k's operand, at position k along the
          // concat dimension.
          Shape block = op.shape;
          block[op.splitDimension] /= n;
          for (int64_t k = 0; k < n; ++k) {
            BlockIndex from(op.shape.size(), 0), at(op.shape.size(), 0);
            from[op.splitDimension] = rank * block[op.splitDimension];
            at[op.concatDimension] = k * block[op.concatDimension];
            copyBlock(operand[members[k]], op.shape, from, mine, result, at,
                      block, width);
          }
          break;
        }
        case CollectiveOpKind::Broadcast:
          std::memcpy(mine, operand[members[op.root]],
                      static_cast<size_t>(bytes));
          break;
        case CollectiveOpKind::CollectivePermute:
          break; // pairs, not groups: never routed here
        }
      }
    }
  }
  // 3. Every participant of the worker takes its own.
  TORUS_RETURN_IF_ERROR(shareFromLeader(key, replicaId, op.dtype,
                                        L * resultBytes, results.data(),
                                        status, timeout));
  std::memcpy(out, results.data() + replicaId * resultBytes,
              static_cast<size_t>(resultBytes));
  return absl::OkStatus();
}

std::optional<absl::Status> CrossWorkerCommunicator::routeGlobalIds(
    const CollectiveKey &key, int64_t &replicaId,
    const ReplicaGroups *&groups, const CollectiveOp &op, const void *in,
    void *out, absl::Duration timeout) {
  if (ids_ != ParticipantIds::Global)
    return std::nullopt;
  absl::StatusOr<int64_t> local = localParticipant(replicaId);
  if (!local.ok())
    return local.status();
  replicaId = *local;
  if (!spansEveryoneInOrder(*groups))
    return groupCollective(key, replicaId, *groups, op, in, out, timeout);
  static const ReplicaGroups everyone;
  groups = &everyone;
  return std::nullopt;
}

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

absl::Status CrossWorkerCommunicator::allReduce(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, int64_t count, const void *in, void *out,
    absl::Duration timeout) {
  if (ids_ == ParticipantIds::Global) {
    CollectiveOp routed;
    routed.kind = CollectiveOpKind::AllReduce;
    routed.reduce = kind;
    routed.dtype = dtype;
    routed.shape = {count};
    const ReplicaGroups *spanning = &groups;
    if (auto done = routeGlobalIds(key, replicaId, spanning, routed, in, out,
                                   timeout))
      return *done;
    return allReduceSpanning(key, replicaId, *spanning, kind, dtype, count,
                             in, out, timeout);
  }
  if (workers_->size() == 1)
    return local_.allReduce(key, replicaId, groups, kind, dtype, count, in,
                            out, timeout);
  TORUS_RETURN_IF_ERROR(checkSpansWorker(groups, "all-reduce"));
  return allReduceSpanning(key, replicaId, groups, kind, dtype, count, in,
                           out, timeout);
}

absl::Status CrossWorkerCommunicator::allReduceSpanning(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, int64_t count, const void *in, void *out,
    absl::Duration timeout) {
  if (workers_->size() == 1)
    return local_.allReduce(key, replicaId, groups, kind, dtype, count, in,
                            out, timeout);
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

absl::Status
CrossWorkerCommunicator::checkInOrder(const ReplicaGroups &groups,
                                      std::string_view what) const {
  TORUS_RETURN_IF_ERROR(checkSpansWorker(groups, what));
  if (!groups.empty())
    for (size_t i = 0; i < groups[0].size(); ++i)
      if (groups[0][i] != static_cast<int64_t>(i))
        return absl::UnimplementedError(fmt::format(
            "{} over replica groups {} across {} workers: the group must list "
            "the worker's replicas in order",
            what, replicaGroupsToString(groups), workers_->size()));
  return absl::OkStatus();
}

absl::Status CrossWorkerCommunicator::gatherLocal(const CollectiveKey &key,
                                                  int64_t replicaId,
                                                  DType dtype, int64_t bytes,
                                                  const void *in,
                                                  uint8_t *all,
                                                  absl::Duration timeout) {
  const int64_t width = static_cast<int64_t>(byteWidth(dtype));
  Shape flat = {bytes / width};
  return local_.allGather(key, replicaId, {}, dtype, flat, 0, in, all,
                          timeout);
}

absl::Status CrossWorkerCommunicator::shareFromLeader(
    const CollectiveKey &key, int64_t replicaId, DType dtype, int64_t bytes,
    void *data, absl::Status leaderStatus, absl::Duration timeout) {
  if (replicaId == 0 && !leaderStatus.ok()) {
    local_.abort(leaderStatus); // wakes the participants waiting below
    return leaderStatus;
  }
  CollectiveKey k = key;
  k.phase = 1;
  const int64_t width = static_cast<int64_t>(byteWidth(dtype));
  // The others wait here while the leader is in Gloo: give them the Gloo
  // timeout on top of their own.
  return local_.broadcast(k, replicaId, {}, /*rootRank=*/0, dtype,
                          flatShape(bytes / width), data, data,
                          timeout * 2 + absl::Seconds(5));
}

absl::Status CrossWorkerCommunicator::allGather(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t dimension, const void *in,
    void *out, absl::Duration timeout) {
  // The operation; with global ids, groups other than everyone run it
  // point to point.
  CollectiveOp op;
  op.kind = CollectiveOpKind::AllGather;
  op.dimension = dimension;
  op.dtype = dtype;
  op.shape = shape;
  const ReplicaGroups *spanningGroups = &groups;
  if (auto done = routeGlobalIds(key, replicaId, spanningGroups, op, in,
                                 out, timeout))
    return *done;
  const ReplicaGroups &spanning = *spanningGroups;
  if (workers_->size() == 1)
    return local_.allGather(key, replicaId, spanning, dtype, shape, dimension,
                            in, out, timeout);
  TORUS_RETURN_IF_ERROR(checkInOrder(spanning, "all-gather"));
  const int64_t P = numGlobalReplicas(), L = local_.numReplicas();
  TORUS_RETURN_IF_ERROR(op.check(P, P));
  const int64_t bytes = op.operandBytes();
  // 1. The worker's operands, in replica order (one replica: its own).
  const void *worker = in;
  if (L > 1) {
    uint8_t *local = scratch(replicaId, 0, static_cast<size_t>(bytes * L));
    TORUS_RETURN_IF_ERROR(
        gatherLocal(key, replicaId, dtype, bytes, in, local, timeout));
    worker = local;
  }
  // 2. The leader gathers every worker's and lays the operands out along
  // `dimension` (global replica w * L + l is block w * L + l): straight
  // into `out` when those blocks are contiguous.
  absl::Status status;
  if (replicaId == 0 && contiguousAlong(shape, dimension)) {
    status = workers_->allGather(worker, out, static_cast<size_t>(bytes * L),
                                 timeout);
  } else if (replicaId == 0) {
    uint8_t *global = scratch(replicaId, 1, static_cast<size_t>(bytes * P));
    status = workers_->allGather(worker, global,
                                 static_cast<size_t>(bytes * L), timeout);
    if (status.ok()) {
      Shape result = op.resultShape(P);
      BlockIndex zero(shape.size(), 0), at(shape.size(), 0);
      for (int64_t p = 0; p < P; ++p) {
        at[dimension] = p * shape[dimension];
        copyBlock(global + p * bytes, shape, zero, out, result, at,
                  shape, byteWidth(dtype));
      }
    }
  }
  // 3. The result to every participant of the worker.
  return shareFromLeader(key, replicaId, dtype, op.resultBytes(P), out, status,
                         timeout);
}

absl::Status CrossWorkerCommunicator::reduceScatter(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, const Shape &shape, int64_t dimension,
    const void *in, void *out, absl::Duration timeout) {
  // The operation; with global ids, groups other than everyone run it
  // point to point.
  CollectiveOp op;
  op.kind = CollectiveOpKind::ReduceScatter;
  op.reduce = kind;
  op.dimension = dimension;
  op.dtype = dtype;
  op.shape = shape;
  const ReplicaGroups *spanningGroups = &groups;
  if (auto done = routeGlobalIds(key, replicaId, spanningGroups, op, in,
                                 out, timeout))
    return *done;
  const ReplicaGroups &spanning = *spanningGroups;
  if (workers_->size() == 1)
    return local_.reduceScatter(key, replicaId, spanning, kind, dtype, shape,
                                dimension, in, out, timeout);
  TORUS_RETURN_IF_ERROR(checkInOrder(spanning, "reduce-scatter"));
  const int64_t P = numGlobalReplicas();
  TORUS_RETURN_IF_ERROR(op.check(P, P));
  const int64_t count = op.operandBytes() / byteWidth(dtype);
  if (contiguousAlong(shape, dimension)) {
    // The operand is P blocks, worker w's replicas' blocks w * L.. in a
    // row (chunk w of W). One replica per worker (and a result apart from
    // the operand): the workers reduce-scatter the operand straight into
    // the result. Otherwise 1. reduce in the worker; 2. the leaders
    // reduce-scatter those chunks in place (each worker's own, reduced over
    // every worker); 3. the leader shares its chunk and each replica keeps
    // its block.
    const int64_t L = local_.numReplicas(), W = workers_->size();
    const int64_t chunk = count / W;
    const size_t chunkBytes = static_cast<size_t>(chunk) * byteWidth(dtype);
    const auto *first = static_cast<const uint8_t *>(in);
    const auto *result = static_cast<const uint8_t *>(out);
    const bool apart = result + chunkBytes <= first ||
                       result >= first + op.operandBytes();
    if (L == 1 && apart) {
      absl::Status status =
          workers_->reduceScatter(in, out, dtype, chunk, kind, timeout);
      if (!status.ok())
        local_.abort(status);
      return status;
    }
    uint8_t *reduced =
        scratch(replicaId, 0, static_cast<size_t>(op.operandBytes()));
    uint8_t *mine = reduced + workers_->rank() * chunkBytes;
    if (L > 1)
      TORUS_RETURN_IF_ERROR(local_.allReduce(key, replicaId, spanning, kind,
                                             dtype, count, in, reduced,
                                             timeout));
    else
      std::memcpy(reduced, in, static_cast<size_t>(op.operandBytes()));
    absl::Status status;
    if (replicaId == 0)
      status = workers_->reduceScatter(reduced, mine, dtype, chunk, kind,
                                       timeout);
    TORUS_RETURN_IF_ERROR(shareFromLeader(key, replicaId, dtype,
                                          static_cast<int64_t>(chunkBytes),
                                          mine, status, timeout));
    const size_t blockBytes = chunkBytes / static_cast<size_t>(L);
    std::memcpy(out, mine + replicaId * blockBytes, blockBytes);
    return absl::OkStatus();
  }
  // Otherwise the hierarchical all-reduce of the whole operand, then each
  // participant keeps its block along `dimension`.
  uint8_t *reduced =
      scratch(replicaId, 0, static_cast<size_t>(op.operandBytes()));
  TORUS_RETURN_IF_ERROR(allReduceSpanning(key, replicaId, spanning, kind,
                                          dtype, count, in, reduced,
                                          timeout));
  Shape result = op.resultShape(P);
  BlockIndex from(shape.size(), 0), zero(shape.size(), 0);
  from[dimension] = (workers_->rank() * local_.numReplicas() + replicaId) *
                    result[dimension];
  copyBlock(reduced, shape, from, out, result, zero, result,
            byteWidth(dtype));
  return absl::OkStatus();
}

absl::Status CrossWorkerCommunicator::allToAll(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t splitDimension,
    int64_t concatDimension, int64_t splitCount, const void *in, void *out,
    absl::Duration timeout) {
  // The operation; with global ids, groups other than everyone run it
  // point to point.
  CollectiveOp op;
  op.kind = CollectiveOpKind::AllToAll;
  op.splitDimension = splitDimension;
  op.concatDimension = concatDimension;
  op.splitCount = splitCount;
  op.dtype = dtype;
  op.shape = shape;
  const ReplicaGroups *spanningGroups = &groups;
  if (auto done = routeGlobalIds(key, replicaId, spanningGroups, op, in,
                                 out, timeout))
    return *done;
  const ReplicaGroups &spanning = *spanningGroups;
  if (workers_->size() == 1)
    return local_.allToAll(key, replicaId, spanning, dtype, shape,
                           splitDimension, concatDimension, splitCount, in,
                           out, timeout);
  TORUS_RETURN_IF_ERROR(checkInOrder(spanning, "all-to-all"));
  const int64_t P = numGlobalReplicas(), L = local_.numReplicas(),
                W = workers_->size();
  TORUS_RETURN_IF_ERROR(op.check(P, P));
  const size_t width = byteWidth(dtype);
  const int64_t bytes = op.operandBytes(), blockBytes = bytes / P;
  if (L == 1 && in != out && contiguousAlong(shape, splitDimension) &&
      contiguousAlong(op.resultShape(P), concatDimension)) {
    // One replica per worker and blocks that are whole runs of memory on
    // both sides: block v of the operand goes to worker v as it is, and
    // what worker u sends is block u of the result.
    absl::Status status =
        workers_->allToAll(in, out, static_cast<size_t>(blockBytes), timeout);
    if (!status.ok())
      local_.abort(status);
    return status;
  }
  Shape block = shape;
  block[splitDimension] /= P;
  BlockIndex zero(shape.size(), 0), at(shape.size(), 0);
  // 1. The worker's operands, in replica order.
  uint8_t *local = scratch(replicaId, 0, static_cast<size_t>(L * bytes));
  TORUS_RETURN_IF_ERROR(
      gatherLocal(key, replicaId, dtype, bytes, in, local, timeout));
  // 2. The leader sends worker v the blocks its replicas receive from this
  // worker's (source l, target m: block v * L + m of operand l), and
  // receives from each worker the blocks for this worker's replicas.
  uint8_t *received = scratch(replicaId, 2, static_cast<size_t>(L * bytes));
  absl::Status status;
  if (replicaId == 0) {
    uint8_t *send = scratch(replicaId, 1, static_cast<size_t>(L * bytes));
    uint8_t *next = send;
    for (int64_t v = 0; v < W; ++v)
      for (int64_t l = 0; l < L; ++l)
        for (int64_t m = 0; m < L; ++m, next += blockBytes) {
          at[splitDimension] = (v * L + m) * block[splitDimension];
          copyBlock(local + l * bytes, shape, at, next, block, zero,
                    block, width);
        }
    status = workers_->allToAll(send, received,
                                static_cast<size_t>(L * L * blockBytes),
                                timeout);
  }
  // 3. Every replica of the worker gets them and concatenates its own
  // blocks, source by source, along concatDimension.
  TORUS_RETURN_IF_ERROR(shareFromLeader(key, replicaId, dtype, L * bytes,
                                        received, status, timeout));
  Shape result = op.resultShape(P);
  for (int64_t u = 0; u < W; ++u)
    for (int64_t l = 0; l < L; ++l) {
      at.assign(shape.size(), 0);
      at[concatDimension] = (u * L + l) * block[concatDimension];
      copyBlock(received + ((u * L + l) * L + replicaId) * blockBytes,
                block, zero, out, result, at, block, width);
    }
  return absl::OkStatus();
}

absl::Status CrossWorkerCommunicator::collectivePermute(
    const CollectiveKey &key, int64_t replicaId,
    const SourceTargetPairs &pairs, DType dtype, const Shape &shape,
    const void *in, void *out, absl::Duration timeout) {
  if (ids_ == ParticipantIds::Global) {
    TORUS_ASSIGN_OR_RETURN(replicaId, localParticipant(replicaId));
  }
  if (workers_->size() == 1)
    return local_.collectivePermute(key, replicaId, pairs, dtype, shape, in,
                                    out, timeout);
  // Pairs name global replicas: worker w's replica l is w * L + l.
  const int64_t P = numGlobalReplicas(), L = local_.numReplicas(),
                W = workers_->size(), w = workers_->rank();
  CollectiveOp op;
  op.kind = CollectiveOpKind::CollectivePermute;
  op.dtype = dtype;
  op.shape = shape;
  op.pairs = pairs;
  TORUS_RETURN_IF_ERROR(op.check(P, P));
  const int64_t bytes = op.operandBytes();
  if (L == 1 && in != out) {
    // One replica per worker: at most one pair from it and one to it (the
    // pairs are a permutation), sent from `in` and received into `out`.
    std::vector<WorkerGroup::Transfer> sends, recvs;
    bool targeted = false;
    for (const auto &[s, t] : pairs) {
      if (s == w && t == w)
        std::memmove(out, in, bytes);
      else if (s == w)
        sends.push_back({static_cast<int>(t), const_cast<void *>(in),
                         static_cast<size_t>(bytes)});
      else if (t == w)
        recvs.push_back(
            {static_cast<int>(s), out, static_cast<size_t>(bytes)});
      targeted |= t == w;
    }
    if (!targeted)
      std::memset(out, 0, bytes);
    absl::Status status = workers_->exchange(sends, recvs, timeout);
    if (!status.ok())
      local_.abort(status);
    return status;
  }
  // 1. The worker's operands, in replica order.
  uint8_t *local = scratch(replicaId, 0, static_cast<size_t>(L * bytes));
  TORUS_RETURN_IF_ERROR(
      gatherLocal(key, replicaId, dtype, bytes, in, local, timeout));
  // 2. The leader delivers: pairs inside the worker by copying, the others
  // as one message per pair of workers (its pairs in list order). Targets
  // no pair names get zeros.
  uint8_t *results = scratch(replicaId, 1, static_cast<size_t>(L * bytes));
  absl::Status status;
  if (replicaId == 0) {
    std::memset(results, 0, static_cast<size_t>(L * bytes));
    std::vector<std::vector<uint8_t>> outgoing(W), incoming(W);
    for (const auto &[s, t] : pairs) {
      if (s / L == w && t / L == w)
        std::memcpy(results + (t % L) * bytes,
                    local + (s % L) * bytes, bytes);
      else if (s / L == w)
        outgoing[t / L].insert(outgoing[t / L].end(),
                               local + (s % L) * bytes,
                               local + (s % L + 1) * bytes);
      else if (t / L == w)
        incoming[s / L].resize(incoming[s / L].size() + bytes);
    }
    std::vector<WorkerGroup::Transfer> sends, recvs;
    for (int64_t v = 0; v < W; ++v) {
      if (!outgoing[v].empty())
        sends.push_back({static_cast<int>(v), outgoing[v].data(),
                         outgoing[v].size()});
      if (!incoming[v].empty())
        recvs.push_back({static_cast<int>(v), incoming[v].data(),
                         incoming[v].size()});
    }
    status = workers_->exchange(sends, recvs, timeout);
    if (status.ok()) {
      std::vector<size_t> offset(W, 0);
      for (const auto &[s, t] : pairs)
        if (t / L == w && s / L != w) {
          std::memcpy(results + (t % L) * bytes,
                      incoming[s / L].data() + offset[s / L], bytes);
          offset[s / L] += bytes;
        }
    }
  }
  // 3. Every replica of the worker takes its own.
  TORUS_RETURN_IF_ERROR(shareFromLeader(key, replicaId, dtype, L * bytes,
                                        results, status, timeout));
  std::memcpy(out, results + replicaId * bytes, bytes);
  return absl::OkStatus();
}

absl::Status CrossWorkerCommunicator::broadcast(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    int64_t rootRank, DType dtype, const Shape &shape, const void *in,
    void *out, absl::Duration timeout) {
  // The operation; with global ids, groups other than everyone run it
  // point to point.
  CollectiveOp op;
  op.kind = CollectiveOpKind::Broadcast;
  op.root = rootRank;
  op.dtype = dtype;
  op.shape = shape;
  const ReplicaGroups *spanningGroups = &groups;
  if (auto done = routeGlobalIds(key, replicaId, spanningGroups, op, in,
                                 out, timeout))
    return *done;
  const ReplicaGroups &spanning = *spanningGroups;
  if (workers_->size() == 1)
    return local_.broadcast(key, replicaId, spanning, rootRank, dtype, shape,
                            in, out, timeout);
  TORUS_RETURN_IF_ERROR(checkInOrder(spanning, "broadcast"));
  const int64_t P = numGlobalReplicas(), L = local_.numReplicas();
  TORUS_RETURN_IF_ERROR(op.check(P, P));
  const int rootWorker = static_cast<int>(rootRank / L);
  const bool rootHere = rootWorker == workers_->rank();
  // 1. On the root's worker, from the root to every replica (the leader
  // included).
  if (rootHere)
    TORUS_RETURN_IF_ERROR(local_.broadcast(key, replicaId, {}, rootRank % L,
                                           dtype, shape, in, out, timeout));
  // 2. Leader to leader (Gloo's broadcast).
  absl::Status status;
  if (replicaId == 0)
    status = workers_->broadcast(out, static_cast<size_t>(op.operandBytes()),
                                 rootWorker, timeout);
  if (rootHere) {
    if (!status.ok())
      local_.abort(status);
    return status;
  }
  // 3. The other workers' leaders to their replicas.
  return shareFromLeader(key, replicaId, dtype, op.operandBytes(), out,
                         status, timeout);
}

} // namespace torus::rt
