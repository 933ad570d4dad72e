//===- DeviceAssignmentCores.h - A DeviceAssignment as executor cores -*- C++ -*-===//
//
// The executor numbers the cores of a Topology in TensorFlow's device order
// (core c = TPU ordinal o of task t, c = t * numTpusPerTask + o). A
// DeviceAssignment places logical core p of replica r at mesh coordinates;
// this turns it into RunOptions: numPartitions = num_cores_per_replica and
// replicaToCore[r * P + p] = the executor core at those coordinates.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_DEVICEASSIGNMENTCORES_H
#define TORUS_RUNTIME_EXECUTOR_DEVICEASSIGNMENTCORES_H

#include "runtime/executor/Executor.h"
#include "runtime/mesh/DeviceAssignment.h"

namespace torus::rt {

/// RunOptions placing every logical device as `assignment` does, for an
/// executor created from `assignment.topology()`.
absl::StatusOr<RunOptions>
runOptionsForDeviceAssignment(const DeviceAssignment &assignment);

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_DEVICEASSIGNMENTCORES_H
