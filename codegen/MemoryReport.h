//===- MemoryReport.h - Per-core memory of a bufferized program -*- C++ -*-===//
//
// How much memory one core needs to run the program, read from the module
// after bufferization (Stage::Bufferized): the entry function's argument
// buffers (inputs, then outputs, which the executor allocates in the core's
// memory) plus the temporaries the code allocates.
//
// The peak is liveness-based: the entry function's operations are walked in
// program order, a temporary counts from its `memref.alloc` to its
// `memref.dealloc` (placed after its last use by ownership-based buffer
// deallocation), and the peak is the largest sum of live buffers. It is
// exact for straight-line code, which is what the torus lowering produces
// today; an allocation inside a loop or a conditional is counted once, and
// the report says so (`exact` false, with a note).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_MEMORYREPORT_H
#define TORUS_CODEGEN_MEMORYREPORT_H

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
  /// The op that allocates it (temporaries), e.g. `linalg.generic`, and its
  /// live range in program order (operation indices in the entry function);
  /// inputs and outputs live throughout.
  std::string producer;
  int64_t liveFrom = 0;
  int64_t liveUntil = 0;
};

struct MemoryReport {
  std::string function;
  int64_t inputBytes = 0;
  int64_t outputBytes = 0;
  /// Largest sum of live temporaries, and where it is reached.
  int64_t peakTemporaryBytes = 0;
  std::string peakLocation;
  /// Temporaries live at the peak, largest first (indices into `buffers`).
  std::vector<size_t> liveAtPeak;
  /// Sum of all temporaries: what the peak would be if none were freed.
  int64_t totalTemporaryBytes = 0;
  /// Every buffer, largest first.
  std::vector<BufferInfo> buffers;
  /// False when the peak is an estimate (allocations in loops or branches,
  /// dynamic sizes, calls into other functions); `notes` says why.
  bool exact = true;
  std::vector<std::string> notes;

  /// inputs + outputs + peak temporaries: one core's peak.
  int64_t peakBytes() const {
    return inputBytes + outputBytes + peakTemporaryBytes;
  }
};

/// Analyzes the public function of a bufferized module. Its first
/// `numInputs` arguments are inputs, the rest outputs (out-parameters);
/// -1 counts every argument as an input.
absl::StatusOr<MemoryReport> analyzeMemory(ModuleOp module,
                                           int64_t numInputs = -1);

/// The report as text: totals, the largest `maxBuffers` buffers, what is
/// live at the peak. `numCores` cores run the program (every core needs the
/// same); `capacityBytes`, when known, is one core's memory.
std::string formatMemoryReport(const MemoryReport &report, int64_t numCores,
                               std::optional<int64_t> capacityBytes,
                               size_t maxBuffers = 10);

/// `1.50 MiB (1572864 bytes)`.
std::string formatBytes(int64_t bytes);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_MEMORYREPORT_H
