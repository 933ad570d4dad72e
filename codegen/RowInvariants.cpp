//===- RowInvariants.cpp - Row-invariant operands read once per row -------===//
//
// torus-row-invariants (Passes.td): an elementwise kernel that reads an
// operand the same along its innermost loop (softmax's row max, a bias
// broadcast over rows) reads it once per row, before the loop, so that
// LLVM can vectorize the row.
//
//===----------------------------------------------------------------------===//

#include "codegen/BufferOverlap.h"
#include "codegen/Passes.h"
#include "codegen/RowTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSROWINVARIANTS
#include "codegen/Passes.h.inc"

namespace {

/// The inputs of `op` that its innermost loop does not index, when `op` is
/// an elementwise kernel of static shapes on buffers with a row of at least
/// 2 elements that they could block from vectorizing, and none of them
/// shares bytes with an output; empty otherwise.
SmallVector<OpOperand *> rowInvariantInputs(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
        return t != utils::IteratorType::parallel;
      }))
    return {};
  for (Value operand : op->getOperands())
    if (!cast<MemRefType>(operand.getType()).hasStaticShape())
      return {};
  const unsigned inner = op.getNumLoops() - 1;
  if (op.getStaticLoopRanges()[inner] < 2)
    return {};
  SmallVector<OpOperand *> invariant;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (op.getMatchingIndexingMap(in).isFunctionOfDim(inner) ||
        !op.payloadUsesValueFromOperand(in))
      continue;
    // Read once, it must not be written during the row: no output may
    // share bytes with it.
    if (llvm::any_of(op.getDpsInits(), [&](Value out) {
          return mayOverlap(in->get(), out);
        }))
      return {};
    invariant.push_back(in);
  }
  return invariant;
}

/// Tiles every loop of `op` but the innermost by 1 and, in the row kernel
/// left, replaces each row-invariant input by its value loaded before it.
LogicalResult readOncePerRow(RewriterBase &rw, linalg::GenericOp op) {
  Operation *outer;
  FailureOr<linalg::GenericOp> tiled = tileToRows(rw, op, &outer);
  if (failed(tiled))
    return failure();
  linalg::GenericOp row = *tiled;
  rw.setInsertionPoint(row);
  Location loc = row.getLoc();
  for (OpOperand *in : rowInvariantInputs(row)) {
    // Every dim it has is indexed by a loop tiled by 1: one element.
    auto type = cast<MemRefType>(in->get().getType());
    if (type.getNumElements() != 1)
      continue;
    SmallVector<Value> zeros(type.getRank(),
                             rw.create<arith::ConstantIndexOp>(loc, 0));
    Value value = rw.create<memref::LoadOp>(loc, in->get(), zeros);
    BlockArgument arg = row.getMatchingBlockArgument(in);
    rw.replaceAllUsesWith(arg, value);
  }
  return success();
}

struct RowInvariantsPass
    : impl::TorusRowInvariantsBase<RowInvariantsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!rowInvariantInputs(op).empty())
        ops.push_back(op);
    });
    IRRewriter rw(&getContext());
    for (linalg::GenericOp op : ops)
      (void)readOncePerRow(rw, op);
  }
};

} // namespace
} // namespace mlir::torus
