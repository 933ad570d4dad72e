//===- CollectiveCalls.h - A program's collectives as a report --*- C++ -*-===//
//
// The rows of a collective report (torus/Reports.h) computed from a
// ProgramSpec: the group each call runs in and the bytes a core sends for
// it with a ring algorithm. Executable::collectiveReport() and the text
// `torusc --dump-dir` writes (codegen/CollectiveReport.h) both come from
// here.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVECALLS_H
#define TORUS_RUNTIME_COLLECTIVECALLS_H

#include "runtime/ProgramSpec.h"
#include "torus/Reports.h"

namespace torus::rt {

/// Bytes one member of a group of `groupSize` sends for `collective` with a
/// ring algorithm (reduce-scatter then all-gather for all_reduce).
int64_t ringBytesPerCore(const CollectiveSpec &collective, int64_t groupSize);

/// The members of one group of `collective` in a program on `numDevices`
/// devices (replicas x partitions; no replica groups is one group of them
/// all, as the executor runs it; 2 for collective_permute).
int64_t collectiveGroupSize(const CollectiveSpec &collective,
                            int64_t numDevices);

/// Every collective of `spec`, partitioned `numPartitions` ways, in call
/// order.
CollectiveReport collectiveReportOf(const ProgramSpec &spec,
                                    int64_t numPartitions);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVECALLS_H
