//===- ComputeCounts.h - FLOPs and memory traffic of a program --*- C++ -*-===//
//
// What one core computes in one step, counted on the torus-level program, for
// the cost model (runtime/cost/CostModel.h's ProgramCounts): XLA's
// HloCostAnalysis in miniature.
//
//   dot_general   2 x (result elements) x (product of contracting sizes),
//                 at the matrix unit's rate for its element type (bf16 and
//                 f16 operands: bf16Flops; anything else: f32Flops)
//   convolution   2 x (output elements) x (kernel elements / output features)
//   reductions    one FLOP per operand element; elementwise ops one per
//                 result element (f32Flops)
//   memory        every op reads its operands from and writes its results to
//                 HBM: an upper bound (fused ops share their traffic);
//                 constants, ids and shape-only ops move nothing
// Collectives are priced by the cost model from the ProgramSpec, not here.
// Ops inside loops (while) are counted once; `exact` says so.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_COMPUTECOUNTS_H
#define TORUS_CODEGEN_COMPUTECOUNTS_H

#include "torus/Status.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::torus {

/// One counted op.
struct OpCount {
  std::string name;     // "torus.dot_general"
  std::string location; // "step.mlir:4:8"
  double bf16Flops = 0;
  double f32Flops = 0;
  double hbmBytes = 0;
};

struct ComputeCounts {
  /// Every op that computes or moves data, in program order; the totals
  /// below are their sums.
  std::vector<OpCount> ops;
  double bf16Flops = 0;
  double f32Flops = 0;
  double hbmBytes = 0;
  /// False when loops or unknown ops make the counts estimates.
  bool exact = true;
  std::vector<std::string> notes;
};

/// Counts the public function of a torus-level module (Stage::Torus).
absl::StatusOr<ComputeCounts> countCompute(ModuleOp module);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_COMPUTECOUNTS_H
