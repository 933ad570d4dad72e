//===- CollectiveReport.h - The collectives of a program, as text -*- C++ -*-===//
//
// What `torusc --dump-dir` writes as `<prefix>.collectives.txt`: one row per
// collective call site of the program (kind, reduction, operand and result
// types, bytes, replica groups, source location), the bytes each core sends
// for it with a ring algorithm and, when the tool priced the program on a
// TPU slice with runtime/cost's model, its simulated time and how it was
// priced. (The pricing is the tool's: codegen does not link the runtime.)
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_COLLECTIVEREPORT_H
#define TORUS_CODEGEN_COLLECTIVEREPORT_H

#include "runtime/ProgramSpec.h"

#include <string>
#include <string_view>
#include <vector>

namespace mlir::torus {

/// The cost model's price of one collective.
struct CollectiveTiming {
  double seconds = 0;
  /// How it was priced, e.g. "ring over 8: 14 steps of 24 B".
  std::string detail;
};

/// The report. `timings` has one entry per collective of `spec` (priced on
/// `slice`), or is empty, and then `noTimingReason` says why.
/// `numPartitions` logical devices run each replica (replica groups then
/// name flattened device ids).
std::string formatCollectiveReport(const ::torus::rt::ProgramSpec &spec,
                                   const std::vector<CollectiveTiming> &timings = {},
                                   std::string_view slice = "",
                                   std::string_view noTimingReason = "",
                                   int64_t numPartitions = 1);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_COLLECTIVEREPORT_H
