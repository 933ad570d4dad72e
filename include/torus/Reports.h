//===- Reports.h - What a compiled program needs and exchanges --*- C++ -*-===//
//
// The memory and collective reports of a compiled program as values, the
// figures `torusc --dump-dir` writes as `memory.txt` and `collectives.txt`
// (computed by the same code):
//
//   TORUS_ASSIGN_OR_RETURN(torus::MemoryReport memory, exe.memoryReport());
//   std::printf("%lld bytes per core\n", (long long)memory.peakBytes);
//   for (const torus::CollectiveCall &c : exe.collectiveReport().calls)
//     std::printf("%s of %lld bytes at %s\n", c.kind.c_str(),
//                 (long long)c.operandBytes, c.location.c_str());
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_REPORTS_H
#define TORUS_REPORTS_H

#include "torus/Types.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace torus {

/// The memory one core needs to run a program, read from the program after
/// bufferization. Every core of the mesh needs the same.
struct MemoryReport {
  /// Bytes of the program's inputs and outputs on one core.
  int64_t inputBytes = 0;
  int64_t outputBytes = 0;
  /// The buffer plan's workspace (CompileOptions::planBuffers): the planned
  /// temporaries, allocated once per core. 0 without a plan.
  int64_t workspaceBytes = 0;
  /// The largest sum of the temporaries the code allocates itself (those
  /// the plan left out) alive at once, and where that is reached
  /// (`file:line:col`, empty when there are none).
  int64_t temporaryPeakBytes = 0;
  std::string temporaryPeakLocation;
  /// One core's peak: inputBytes + outputBytes + workspaceBytes +
  /// temporaryPeakBytes.
  int64_t peakBytes = 0;
  /// The peak if every temporary were freed right after its last use.
  int64_t livenessPeakBytes = 0;
  /// The cores that run the program (replicas x partitions).
  int64_t numCores = 1;
  /// False when the peaks are estimates (allocations in loops or branches);
  /// `notes` says why.
  bool exact = true;
  /// Why the figures are estimates, one sentence each.
  std::vector<std::string> notes;

  /// peakBytes on every core: the mesh's memory for this program.
  int64_t totalBytes() const { return peakBytes * numCores; }
};

/// One collective call site of a program, as every core of its group runs
/// it once per step.
struct CollectiveCall {
  /// `all_reduce`, `all_gather`, `reduce_scatter`, `all_to_all` or
  /// `collective_permute`.
  std::string kind;
  /// `sum`, `product`, `max`, `min`, `and`, `or` for all_reduce and
  /// reduce_scatter; empty for the others.
  std::string reduction;
  /// One core's operand and result.
  TensorSpec operand;
  TensorSpec result;
  /// operand.sizeInBytes().
  int64_t operandBytes = 0;
  /// HLO replica groups (device ids); empty: one group of every device.
  std::vector<std::vector<int64_t>> replicaGroups;
  /// collective_permute's (source, target) pairs; empty for the others.
  std::vector<std::pair<int64_t, int64_t>> sourceTargetPairs;
  /// The cores of one group (2 for collective_permute).
  int64_t groupSize = 1;
  /// Bytes each core sends with a ring algorithm (reduce-scatter then
  /// all-gather for all_reduce; 0 in a group of one).
  int64_t ringBytesPerCore = 0;
  /// Where the op was traced or written (`file:line:col`).
  std::string location;
};

/// Every collective call site of a program, in the order a step runs them.
struct CollectiveReport {
  /// The call sites.
  std::vector<CollectiveCall> calls;

  /// Sum of operandBytes over the calls: what each core contributes per
  /// step.
  int64_t operandBytes() const {
    int64_t sum = 0;
    for (const CollectiveCall &c : calls)
      sum += c.operandBytes;
    return sum;
  }
  /// Sum of ringBytesPerCore over the calls: what each core sends per step.
  int64_t ringBytesPerCore() const {
    int64_t sum = 0;
    for (const CollectiveCall &c : calls)
      sum += c.ringBytesPerCore;
    return sum;
  }
};

} // namespace torus

#endif // TORUS_REPORTS_H
