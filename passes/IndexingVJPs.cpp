//===- IndexingVJPs.cpp - VJPs of gather and scatter ----------------------===//
//
// gather and scatter-add are each other's transpose under the same
// dimension numbers (offset_dims ↔ update_window_dims, collapsed_slice_dims
// ↔ inserted_window_dims, start_index_map ↔ scatter_dims_to_operand_dims),
// as in JAX's transpose rules.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPFamilies.h"

#include "llvm/ADT/TypeSwitch.h"

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

LogicalResult indexingVJP(GradBuilder &gb, Operation *op, Value ct,
                          SmallVectorImpl<Value> &cts) {
  OpBuilder &b = gb.builder();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](GatherOp g) {
        Value zeros = gb.zerosLike(g.getOperand());
        cts[0] = b.create<ScatterOp>(
            gb.location(), zeros.getType(), ScatterKind::sum, zeros,
            g.getStartIndices(), ct, g.getOffsetDims(),
            g.getCollapsedSliceDims(), g.getStartIndexMap(),
            g.getIndexVectorDim(), g.getIndicesAreSorted(),
            /*unique_indices=*/false);
        return success();
      })
      .Case([&](ScatterOp s) -> LogicalResult {
        switch (s.getKind()) {
        case ScatterKind::sum:
          cts[0] = ct;
          cts[2] = gatherWindows(gb, s, ct);
          return success();
        case ScatterKind::replace: {
          // Overwritten operand elements get no gradient; the updates get
          // the cotangent of where they landed.
          Value zeros = gb.zerosLike(s.getUpdates());
          cts[0] = b.create<ScatterOp>(
              gb.location(), ct.getType(), ScatterKind::replace, ct,
              s.getScatterIndices(), zeros, s.getUpdateWindowDims(),
              s.getInsertedWindowDims(), s.getScatterDimsToOperandDims(),
              s.getIndexVectorDim(), s.getIndicesAreSorted(),
              s.getUniqueIndices());
          cts[2] = gatherWindows(gb, s, ct);
          return success();
        }
        default:
          return s.emitOpError("has no gradient for a ")
                 << stringifyScatterKind(s.getKind()) << " scatter";
        }
      })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be differentiated: no gradient "
                                  "rule for this op");
      });
}

} // namespace mlir::torus
