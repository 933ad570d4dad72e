//===- ProgramMesh.h - The mesh a program runs on ---------------*- C++ -*-===//
//
// torusc and torus-run place a program by the same rules: the device counts
// a program states (an HLO header's replica_count and num_partitions, or a
// module traced for logical devices) are the defaults of --replicas and
// --num-partitions; the flags override them (docs/hlo.md, "Device
// counts"). One function so that both tools agree.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_PROGRAMMESH_H
#define TORUS_TOOLS_COMMON_PROGRAMMESH_H

#include "tools/common/MeshPlan.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace torus::tools {

/// The mesh for `module` from the command line's `request` (whose
/// `replicas` and `numPartitions` are set only when the flags were given).
/// FailedPrecondition naming `programName` when the counts do not fit.
absl::StatusOr<MeshPlan> planMeshForProgram(MeshRequest request,
                                            mlir::ModuleOp module,
                                            const std::string &programName);

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_PROGRAMMESH_H
