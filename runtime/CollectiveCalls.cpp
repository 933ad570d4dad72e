//===- CollectiveCalls.cpp - A program's collectives as a report ----------===//

#include "runtime/CollectiveCalls.h"

#include <algorithm>

namespace torus::rt {

int64_t ringBytesPerCore(const CollectiveSpec &c, int64_t g) {
  int64_t bytes = static_cast<int64_t>(c.operand.sizeInBytes());
  if (g <= 1)
    return 0;
  switch (c.kind) {
  case CollectiveKind::AllReduce:
    return 2 * (g - 1) * bytes / g;
  case CollectiveKind::AllGather:
    return (g - 1) * bytes;
  case CollectiveKind::ReduceScatter:
  case CollectiveKind::AllToAll:
    return (g - 1) * bytes / g;
  case CollectiveKind::CollectivePermute:
    return bytes;
  }
  return 0;
}

int64_t collectiveGroupSize(const CollectiveSpec &c, int64_t numDevices) {
  if (c.kind == CollectiveKind::CollectivePermute)
    return 2;
  if (c.replicaGroups.empty())
    return numDevices;
  return static_cast<int64_t>(c.replicaGroups.front().size());
}

CollectiveReport collectiveReportOf(const ProgramSpec &spec,
                                    int64_t numPartitions) {
  const int64_t numDevices =
      spec.numReplicas * std::max<int64_t>(1, numPartitions);
  CollectiveReport report;
  for (const CollectiveSpec &c : spec.collectives) {
    CollectiveCall call;
    call.kind = std::string(collectiveKindName(c.kind));
    if (c.kind == CollectiveKind::AllReduce ||
        c.kind == CollectiveKind::ReduceScatter)
      call.reduction = std::string(reduceKindName(c.reduce));
    call.operand = c.operand;
    call.result = c.result;
    call.operandBytes = static_cast<int64_t>(c.operand.sizeInBytes());
    call.replicaGroups = c.replicaGroups;
    call.sourceTargetPairs = c.sourceTargetPairs;
    call.groupSize = collectiveGroupSize(c, numDevices);
    call.ringBytesPerCore = ringBytesPerCore(c, call.groupSize);
    call.location = c.location;
    report.calls.push_back(std::move(call));
  }
  return report;
}

} // namespace torus::rt
