//===- DeviceAssignmentCores.cpp - A DeviceAssignment as executor cores ---===//

#include "runtime/executor/DeviceAssignmentCores.h"

#include <fmt/format.h>

namespace torus::rt {

absl::StatusOr<RunOptions>
runOptionsForDeviceAssignment(const DeviceAssignment &assignment) {
  const Topology &topology = assignment.topology();
  RunOptions options;
  options.numPartitions = assignment.numCoresPerReplica();
  for (int r = 0; r < assignment.numReplicas(); ++r)
    for (int p = 0; p < assignment.numCoresPerReplica(); ++p) {
      const Coordinates &c = assignment.coreAssignment()[r][p];
      TORUS_ASSIGN_OR_RETURN(int task, topology.taskOrdinalAtCoordinates(c));
      TORUS_ASSIGN_OR_RETURN(int ordinal,
                             topology.tpuDeviceOrdinalAtCoordinates(c));
      if (task < 0 || ordinal < 0)
        return absl::InvalidArgumentError(fmt::format(
            "replica {} logical core {} is at ({}, {}, {}, {}), which no task "
            "owns",
            r, p, c[0], c[1], c[2], c[3]));
      options.replicaToCore.push_back(
          static_cast<int64_t>(task) * topology.numTpusPerTask() + ordinal);
    }
  return options;
}

} // namespace torus::rt
