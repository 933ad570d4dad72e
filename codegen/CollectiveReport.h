//===- CollectiveReport.h - The collectives of a program, as text -*- C++ -*-===//
//
// What `torusc --dump-dir` writes as `<prefix>.collectives.txt`: one row per
// collective call site of the program (kind, reduction, operand and result
// types, bytes, replica groups, source location) and the bytes each core
// sends for it with a ring algorithm. There is no simulated time yet: the
// ICI cost model (issue 5) does not exist in runtime/; the report says so.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_COLLECTIVEREPORT_H
#define TORUS_CODEGEN_COLLECTIVEREPORT_H

#include "runtime/ProgramSpec.h"

#include <string>

namespace mlir::torus {

/// Bytes one member of a group of `groupSize` sends for `collective` with a
/// ring algorithm (reduce-scatter then all-gather for all_reduce).
int64_t ringBytesPerCore(const ::torus::rt::CollectiveSpec &collective,
                         int64_t groupSize);

std::string formatCollectiveReport(const ::torus::rt::ProgramSpec &spec);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_COLLECTIVEREPORT_H
