//===- CoreContext.cpp - The emulated core a thread is running ------------===//

#include "runtime/executor/CoreContext.h"

#include "runtime/trace/TraceRecorder.h"

#include <fmt/format.h>

namespace torus::rt {

namespace {
thread_local CoreContext *currentContext = nullptr;

absl::Status prefixed(const absl::Status &status, std::string_view prefix) {
  return absl::Status(
      status.code(),
      fmt::format("{}: {}", prefix, std::string(status.message())));
}
} // namespace

CoreContext::CoreContext(int64_t coreId, int64_t replicaId,
                         int64_t partitionId, RunState &run,
                         CoreMemory &memory)
    : coreId_(coreId), replicaId_(replicaId), partitionId_(partitionId),
      deviceId_(replicaId * run.numPartitions() + partitionId), run_(run),
      memory_(memory), invocations_(run.spec().collectives.size(), 0) {}

CoreContext *CoreContext::current() { return currentContext; }

CoreContext::Scope::Scope(CoreContext &context) : previous_(currentContext) {
  currentContext = &context;
}

CoreContext::Scope::~Scope() { currentContext = previous_; }

void CoreContext::fail(const absl::Status &status) {
  if (status.ok())
    return;
  if (error_.ok())
    error_ = status;
  run_.fail(coreId_, replicaId_, partitionId_, status);
}

absl::Status CoreContext::executeCollective(int64_t index, const void *in,
                                            void *out) {
  const ProgramSpec &spec = run_.spec();
  if (index < 0 || index >= static_cast<int64_t>(spec.collectives.size()))
    return absl::InvalidArgumentError(
        fmt::format("collective index {} is out of range: program '{}' has {} "
                    "collective{}",
                    index, spec.name, spec.collectives.size(),
                    spec.collectives.size() == 1 ? "" : "s"));
  const CollectiveSpec &collective = spec.collectives[index];
  // Formatted only for an error: a collective allocates nothing itself.
  auto where = [&] {
    std::string text =
        fmt::format("{} #{}", collectiveKindName(collective.kind), index);
    if (!collective.location.empty())
      text += " at " + collective.location;
    return text;
  };

  if (run_.isAborted())
    return absl::AbortedError(fmt::format("{}: run aborted", where()));
  // Named only when traced; the communicator's waits and data movement
  // nest inside.
  TraceSpan span(TraceTrack::current() ? where() : std::string(),
                 "collective");
  if (span.active()) {
    span.addArg("operand", collective.operand.toString());
    span.addArg("bytes",
                static_cast<int64_t>(collective.operand.sizeInBytes()));
  }
  CollectiveKey key{run_.runId(), index, invocations_[index]++};

  Communicator &comm = run_.communicator();
  const absl::Duration timeout = run_.collectiveTimeout();
  const TensorSpec &operand = collective.operand;
  absl::Status status;
  switch (collective.kind) {
  case CollectiveKind::AllReduce:
    status = comm.allReduce(key, deviceId_, collective.replicaGroups,
                            collective.reduce, operand.dtype,
                            operand.numElements(), in, out, timeout);
    break;
  case CollectiveKind::AllGather:
    status = comm.allGather(key, deviceId_, collective.replicaGroups,
                            operand.dtype, operand.shape, collective.dimension,
                            in, out, timeout);
    break;
  case CollectiveKind::ReduceScatter:
    status = comm.reduceScatter(key, deviceId_, collective.replicaGroups,
                                collective.reduce, operand.dtype,
                                operand.shape, collective.dimension, in, out,
                                timeout);
    break;
  case CollectiveKind::AllToAll:
    status = comm.allToAll(key, deviceId_, collective.replicaGroups,
                           operand.dtype, operand.shape,
                           collective.splitDimension,
                           collective.concatDimension, collective.splitCount,
                           in, out, timeout);
    break;
  case CollectiveKind::CollectivePermute:
    status = comm.collectivePermute(key, deviceId_,
                                    collective.sourceTargetPairs,
                                    operand.dtype, operand.shape, in, out,
                                    timeout);
    break;
  default:
    status = absl::UnimplementedError(
        fmt::format("collective kind {} is not supported",
                    static_cast<int32_t>(collective.kind)));
  }
  if (!status.ok())
    return prefixed(status, where());
  return absl::OkStatus();
}

} // namespace torus::rt
