//===- InProcessCommunicator.cpp - Collectives in shared memory -----------===//

#include "runtime/collectives/InProcessCommunicator.h"

#include "runtime/collectives/Reduction.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <optional>

namespace torus::rt {

/// The meeting point of one group for one execution of one collective.
/// Guarded by the communicator's mutex, except the buffers during the
/// reduction phase, which are only read (all members are blocked in it).
struct InProcessCommunicator::Rendezvous {
  std::vector<int64_t> members;
  // What the first member to arrive passed; later members must agree.
  int64_t firstRank = -1;
  ReduceKind kind = ReduceKind::Sum;
  DType dtype = DType::F32;
  int64_t count = 0;

  std::vector<const void *> inputs;
  std::vector<void *> outputs;
  std::vector<bool> arrived;
  int64_t numArrived = 0;
  int64_t numReduced = 0;
  int64_t numDeparted = 0;
  /// Set once the rendezvous can never complete (mismatch, timeout); every
  /// member still waiting and every later one returns it.
  absl::Status error;
  std::condition_variable cv;
};

absl::StatusOr<std::unique_ptr<InProcessCommunicator>>
InProcessCommunicator::create(int64_t numReplicas) {
  if (numReplicas < 1)
    return absl::InvalidArgumentError(
        fmt::format("in-process communicator needs at least 1 replica, got {}",
                    numReplicas));
  return std::unique_ptr<InProcessCommunicator>(
      new InProcessCommunicator(numReplicas));
}

InProcessCommunicator::~InProcessCommunicator() = default;

void InProcessCommunicator::abort(const absl::Status &reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_.load(std::memory_order_relaxed))
    return;
  abortReason_ = reason.ok() ? absl::AbortedError("aborted") : reason;
  aborted_.store(true, std::memory_order_release);
  for (auto &[key, rv] : rendezvous_)
    rv->cv.notify_all();
}

absl::Status InProcessCommunicator::abortedStatusLocked() const {
  return absl::AbortedError(
      fmt::format("run aborted: {}", std::string(abortReason_.message())));
}

size_t InProcessCommunicator::numPendingRendezvous() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rendezvous_.size();
}

namespace {

std::string describeValues(int64_t count, DType dtype, ReduceKind kind) {
  return fmt::format("{} {} element{} with {}", count, dtypeName(dtype),
                     count == 1 ? "" : "s", reduceKindName(kind));
}

/// Waits longer than this count as "forever" (and avoid clock overflow).
constexpr absl::Duration kForever = absl::Hours(24 * 365);

} // namespace

absl::Status
InProcessCommunicator::allReduce(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, ReduceKind kind,
                                 DType dtype, int64_t count, const void *in,
                                 void *out, absl::Duration timeout) {
  if (isAborted()) {
    std::lock_guard<std::mutex> lock(mutex_);
    return abortedStatusLocked();
  }
  TORUS_ASSIGN_OR_RETURN(ReplicaGroupMembership membership,
                         findReplicaGroup(groups, numReplicas_, replicaId));
  TORUS_RETURN_IF_ERROR(checkReducible(dtype, kind));
  if (count < 0)
    return absl::InvalidArgumentError(
        fmt::format("all-reduce of a negative element count {}", count));
  if (count > 0 && (!in || !out))
    return absl::InvalidArgumentError("all-reduce with a null buffer");

  const std::vector<int64_t> &members = membership.members;
  const int64_t size = static_cast<int64_t>(members.size());
  const int64_t rank = membership.rank;
  auto describe = [&] {
    return fmt::format("all-reduce ({}) in replica group {{{}}}",
                       key.toString(), fmt::join(members, ","));
  };

  // A group of one reduces nothing.
  if (size == 1) {
    if (in != out && count > 0)
      std::memmove(out, in, count * byteWidth(dtype));
    return absl::OkStatus();
  }

  const RendezvousKey rvKey{key, members[0]};
  std::unique_lock<std::mutex> lock(mutex_);
  if (isAborted())
    return absl::AbortedError(fmt::format("{}: run aborted: {}", describe(),
                                          std::string(abortReason_.message())));

  std::shared_ptr<Rendezvous> &slot = rendezvous_[rvKey];
  if (!slot) {
    slot = std::make_shared<Rendezvous>();
    slot->members = members;
    slot->firstRank = rank;
    slot->kind = kind;
    slot->dtype = dtype;
    slot->count = count;
    slot->inputs.assign(size, nullptr);
    slot->outputs.assign(size, nullptr);
    slot->arrived.assign(size, false);
  }
  std::shared_ptr<Rendezvous> rv = slot;
  if (!rv->error.ok())
    return rv->error;

  // Every member must describe the same collective as the first one.
  auto fail = [&](absl::Status status) {
    rv->error = status;
    rv->cv.notify_all();
    return status;
  };
  const int64_t firstReplica = rv->members[rv->firstRank];
  if (rv->members != members)
    return fail(absl::InvalidArgumentError(fmt::format(
        "{}: replica {} is in replica group {{{}}} but replica {} is in "
        "{{{}}}",
        describe(), replicaId, fmt::join(members, ","), firstReplica,
        fmt::join(rv->members, ","))));
  if (rv->count != count || rv->dtype != dtype || rv->kind != kind)
    return fail(absl::InvalidArgumentError(fmt::format(
        "{}: mismatched operands: replica {} passed {} but replica {} passed "
        "{}",
        describe(), firstReplica,
        describeValues(rv->count, rv->dtype, rv->kind), replicaId,
        describeValues(count, dtype, kind))));
  if (rv->arrived[rank])
    return fail(absl::InternalError(
        fmt::format("{}: replica {} joined twice", describe(), replicaId)));

  rv->inputs[rank] = in;
  rv->outputs[rank] = out;
  rv->arrived[rank] = true;
  ++rv->numArrived;

  // Phase 1: wait for every member. Once all have arrived the rendezvous is
  // committed: peers will write into our output, so neither abort nor the
  // timeout may make us leave.
  if (rv->numArrived == size) {
    rv->cv.notify_all();
  } else {
    auto ready = [&] {
      return rv->numArrived == size || !rv->error.ok() || isAborted();
    };
    if (timeout >= kForever) {
      rv->cv.wait(lock, ready);
    } else {
      auto deadline =
          std::chrono::steady_clock::now() +
          absl::ToChronoNanoseconds(std::max(timeout, absl::ZeroDuration()));
      rv->cv.wait_until(lock, deadline, ready);
    }
    if (rv->numArrived != size) { // failed, aborted or timed out
      if (!rv->error.ok())
        return rv->error;
      if (isAborted())
        return absl::AbortedError(
            fmt::format("{}: run aborted: {}", describe(),
                        std::string(abortReason_.message())));
      std::vector<int64_t> missing, present;
      for (int64_t i = 0; i < size; ++i)
        (rv->arrived[i] ? present : missing).push_back(members[i]);
      return fail(absl::DeadlineExceededError(fmt::format(
          "{}: replica {} timed out after {} waiting for replica{} {} "
          "(arrived: {})",
          describe(), replicaId, absl::FormatDuration(timeout),
          missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
          fmt::join(present, ", "))));
    }
  }
  lock.unlock();

  // Phase 2: reduce our slice of the elements across every input, in
  // participant order, into every output.
  const int64_t begin = count * rank / size;
  const int64_t end = count * (rank + 1) / size;
  reduceRange(kind, dtype, rv->inputs, rv->outputs, begin, end);

  // Phase 3: nobody leaves (and frees its buffers) before every slice is
  // written. Bounded: every member is in phase 2, which does not block.
  lock.lock();
  if (++rv->numReduced == size)
    rv->cv.notify_all();
  else
    rv->cv.wait(lock, [&] { return rv->numReduced == size; });
  if (++rv->numDeparted == size)
    rendezvous_.erase(rvKey);
  return absl::OkStatus();
}

} // namespace torus::rt
