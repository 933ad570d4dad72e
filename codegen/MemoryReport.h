//===- MemoryReport.h - Per-core memory of a bufferized program -*- C++ -*-===//
//
// How much memory one core needs to run the program, read from the module
// after bufferization (Stage::Bufferized): the entry function's argument
// buffers (inputs, then outputs, which the executor allocates in the core's
// memory) plus the temporaries the code allocates.
//
// Two peaks are computed by walking the entry function's operations in
// program order and summing the temporaries alive at each point:
//  - as generated: a temporary lives from its `memref.alloc` to its
//    `memref.dealloc`, where ownership-based deallocation put it (the end of
//    its block, often the end of the function): what this code needs;
//  - by liveness: a temporary lives from its allocation to its last use
//    (through views, casts and pointers taken from it): what the code would
//    need if every buffer were freed, or its memory reused, as soon as it is
//    dead; the target for a memory planner.
// Both are exact for straight-line code, which is what the torus lowering
// produces today; an allocation inside a loop or a conditional is counted
// once, and the report says so (`exact` false, with a note).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_MEMORYREPORT_H
#define TORUS_CODEGEN_MEMORYREPORT_H

#include "torus/Reports.h"
#include "torus/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::torus {

struct BufferInfo {
  enum class Kind { Input, Output, Temporary };
  Kind kind;
  /// Argument or result index; for a temporary, its order of allocation.
  int64_t index = 0;
  /// `f32[512,512]`.
  std::string type;
  int64_t bytes = 0;
  /// `file:line:col` of the op the buffer holds the result of.
  std::string location;
  /// The op that computes its contents (temporaries), e.g. `linalg.generic`,
  /// and its life in program order (operation indices in the entry
  /// function): allocated at liveFrom, last used at lastUse, freed at
  /// liveUntil (the end of the function when never freed). Inputs and
  /// outputs live throughout.
  std::string producer;
  int64_t liveFrom = 0;
  int64_t lastUse = 0;
  int64_t liveUntil = 0;
  /// A temporary of the buffer plan (torus-plan-buffers): a view of the
  /// workspace at `offset`, never allocated or freed by the code.
  bool planned = false;
  int64_t offset = 0;
};

/// One way of counting: the largest sum of temporaries alive at once, where
/// it is reached, and the temporaries alive then (indices into
/// MemoryReport::buffers).
struct TemporaryPeak {
  int64_t bytes = 0;
  std::string location;
  std::vector<size_t> alive;
};

struct MemoryReport {
  std::string function;
  int64_t inputBytes = 0;
  int64_t outputBytes = 0;
  /// The buffer plan's workspace (0 without one): every planned temporary
  /// lives in it, at offsets fixed at compile time; the runtime allocates it
  /// once per core.
  int64_t workspaceBytes = 0;
  int64_t numPlanned = 0;
  /// Temporaries the plan left to the code (dynamic shapes, inside loops or
  /// branches, escaping), alive from alloc to dealloc, as generated.
  TemporaryPeak asGenerated;
  /// Temporaries alive from alloc to last use.
  TemporaryPeak byLiveness;
  /// Sum of all temporaries: the peak if none were ever freed.
  int64_t totalTemporaryBytes = 0;
  /// Every buffer, largest first.
  std::vector<BufferInfo> buffers;
  /// False when the peaks are estimates (allocations in loops or branches,
  /// dynamic sizes, calls into other functions); `notes` says why.
  bool exact = true;
  std::vector<std::string> notes;

  /// inputs + outputs + workspace + peak unplanned temporaries as
  /// generated: one core's peak.
  int64_t peakBytes() const {
    return inputBytes + outputBytes + workspaceBytes + asGenerated.bytes;
  }
  /// The same by liveness.
  int64_t livenessPeakBytes() const {
    return inputBytes + outputBytes + byLiveness.bytes;
  }
};

/// Analyzes the public function of a bufferized module. Its first
/// `numInputs` arguments are inputs, the rest outputs (out-parameters);
/// -1 counts every argument as an input.
absl::StatusOr<MemoryReport> analyzeMemory(ModuleOp module,
                                           int64_t numInputs = -1);

/// The figures of `report` for one core of `numCores` as the API gives them
/// (Executable::memoryReport()); formatMemoryReport prints the same.
::torus::MemoryReport summarizeMemory(const MemoryReport &report,
                                      int64_t numCores);

/// The report as text: totals, the largest `maxBuffers` buffers, what is
/// alive at the peaks. `numCores` cores run the program (every core needs the
/// same); `capacityBytes`, when known, is one core's memory.
std::string formatMemoryReport(const MemoryReport &report, int64_t numCores,
                               std::optional<int64_t> capacityBytes,
                               size_t maxBuffers = 10);

/// `1.50 MiB (1572864 bytes)`.
std::string formatBytes(int64_t bytes);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_MEMORYREPORT_H
