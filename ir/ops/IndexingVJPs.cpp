//===- IndexingVJPs.cpp - VJPs of gather and scatter ----------------------===//
//
// gather and scatter-add are each other's transpose under the same
// dimension numbers (offset_dims ↔ update_window_dims, collapsed_slice_dims
// ↔ inserted_window_dims, start_index_map ↔ scatter_dims_to_operand_dims),
// as in JAX's transpose rules.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::torus {

namespace {

/// gather(source) of the windows a scatter with `op`'s numbers writes.
Value gatherWindows(GradBuilder &gb, ScatterOp op, Value source) {
  auto operandShape = GradBuilder::typeOf(op.getOperand()).getShape();
  auto updateShape = GradBuilder::typeOf(op.getUpdates()).getShape();
  ArrayRef<int64_t> windowDims = op.getUpdateWindowDims();
  ArrayRef<int64_t> inserted = op.getInsertedWindowDims();
  SmallVector<int64_t> sliceSizes;
  size_t next = 0;
  for (int64_t d = 0, e = operandShape.size(); d < e; ++d)
    sliceSizes.push_back(llvm::is_contained(inserted, d)
                             ? 1
                             : updateShape[windowDims[next++]]);
  return gb.builder().create<GatherOp>(
      gb.location(), source, op.getScatterIndices(), windowDims, inserted,
      op.getScatterDimsToOperandDims(), op.getIndexVectorDim(), sliceSizes);
}

} // namespace

LogicalResult GatherOp::buildVJP(GradBuilder &gb,
                                 ArrayRef<Value> resultCotangents,
                                 SmallVectorImpl<Value> &cts) {
  Value zeros = gb.zerosLike(getOperand());
  cts[0] = gb.builder().create<ScatterOp>(
      gb.location(), zeros.getType(), ScatterKind::sum, zeros,
      getStartIndices(), resultCotangents.front(), getOffsetDims(),
      getCollapsedSliceDims(), getStartIndexMap(), getIndexVectorDim(),
      getIndicesAreSorted(), /*unique_indices=*/false);
  return success();
}

LogicalResult ScatterOp::buildVJP(GradBuilder &gb,
                                  ArrayRef<Value> resultCotangents,
                                  SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  switch (getKind()) {
  case ScatterKind::sum:
    cts[0] = ct;
    cts[2] = gatherWindows(gb, *this, ct);
    return success();
  case ScatterKind::replace: {
    // Overwritten operand elements get no gradient; the updates get the
    // cotangent of where they landed.
    Value zeros = gb.zerosLike(getUpdates());
    cts[0] = gb.builder().create<ScatterOp>(
        gb.location(), ct.getType(), ScatterKind::replace, ct,
        getScatterIndices(), zeros, getUpdateWindowDims(),
        getInsertedWindowDims(), getScatterDimsToOperandDims(),
        getIndexVectorDim(), getIndicesAreSorted(), getUniqueIndices());
    cts[2] = gatherWindows(gb, *this, ct);
    return success();
  }
  default:
    return emitOpError("has no gradient for a ")
           << stringifyScatterKind(getKind()) << " scatter";
  }
}

} // namespace mlir::torus
