//===- RowTiling.h - A kernel one row at a time -----------------*- C++ -*-===//
//
// Internal to codegen/: a linalg op tiled by 1 in every loop but the
// innermost, so that the op left works on one row (torus-vectorize-
// reductions vectorizes that row, torus-row-invariants hoists what the row
// reads once). An op of one loop is its own row.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_ROWTILING_H
#define TORUS_CODEGEN_ROWTILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::torus {

/// Whether `type` (of rank 1 or more) has static strides with a unit
/// innermost one: its rows are contiguous.
inline bool innermostStrideIsOne(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() > 0 &&
         succeeded(getStridesAndOffset(type, strides, offset)) &&
         strides.back() == 1;
}

/// The generic on one row of `op` (`op` itself when it has one loop; else
/// `op` is replaced by loops around the row's generic, the outermost in
/// `outerLoop`), or failure with `op` unchanged.
inline FailureOr<linalg::GenericOp> tileToRows(RewriterBase &rw,
                                               linalg::GenericOp op,
                                               Operation **outerLoop) {
  *outerLoop = nullptr;
  if (op.getNumLoops() <= 1)
    return op;
  SmallVector<int64_t> sizes(op.getNumLoops(), 1);
  sizes.back() = 0;
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes);
  rw.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rw, op, options);
  if (failed(tiled))
    return failure();
  rw.eraseOp(op);
  *outerLoop = tiled->loops.front();
  return cast<linalg::GenericOp>(tiled->op.getOperation());
}

} // namespace mlir::torus

#endif // TORUS_CODEGEN_ROWTILING_H
