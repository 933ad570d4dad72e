//===- HoistAccumulators.cpp - Keep a kernel's accumulators in registers --===//

#include "codegen/HoistAccumulators.h"
#include "codegen/BufferOverlap.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::torus {
namespace {

bool definedOutside(scf::ForOp loop, ValueRange values) {
  return llvm::all_of(values,
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); });
}

/// The write that stores back what `read` loaded, when the pair can leave
/// `loop`: both in the loop's body block, same buffer, indices, type and
/// map, no masks, and no other op in the loop that may touch the buffer.
vector::TransferWriteOp hoistablePartner(scf::ForOp loop,
                                         vector::TransferReadOp read) {
  if (read.getMask() || !definedOutside(loop, read.getSource()) ||
      !definedOutside(loop, read.getIndices()))
    return nullptr;

  vector::TransferWriteOp write;
  for (auto candidate : loop.getBody()->getOps<vector::TransferWriteOp>())
    if (candidate.getSource() == read.getSource() &&
        candidate.getIndices() == read.getIndices() &&
        candidate.getVectorType() == read.getVectorType() &&
        candidate.getPermutationMap() == read.getPermutationMap() &&
        !candidate.getMask()) {
      if (write)
        return nullptr; // two writes: not an accumulator
      write = candidate;
    }
  if (!write || !read->isBeforeInBlock(write))
    return nullptr;
  Value buffer = read.getSource();
  WalkResult touches = loop.getBody()->walk([&](Operation *op) {
    if (op == read.getOperation() || op == write.getOperation() ||
        isMemoryEffectFree(op))
      return WalkResult::advance();
    if (isa<CallOpInterface>(op)) // may reach any buffer
      return WalkResult::interrupt();
    for (Value operand : op->getOperands())
      if (isa<BaseMemRefType>(operand.getType()) && mayOverlap(operand, buffer))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return touches.wasInterrupted() ? nullptr : write;
}

/// Hoists one pair out of `loop`: the loop that replaces it, or null when
/// there is no pair left to hoist.
scf::ForOp hoistOne(RewriterBase &rw, scf::ForOp loop) {
  for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
    vector::TransferWriteOp write = hoistablePartner(loop, read);
    if (!write)
      continue;
    rw.moveOpBefore(read, loop);
    rw.moveOpAfter(write, loop);
    auto yield = [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
      return SmallVector<Value>{write.getVector()};
    };
    FailureOr<LoopLikeOpInterface> wider = loop.replaceWithAdditionalYields(
        rw, read.getVector(), /*replaceInitOperandUsesInLoop=*/true, yield);
    if (failed(wider))
      return nullptr;
    rw.modifyOpInPlace(write, [&] {
      write.getVectorMutable().assign((*wider)->getResults().back());
    });
    return cast<scf::ForOp>(wider->getOperation());
  }
  return nullptr;
}

} // namespace

void hoistAccumulators(func::FuncOp fn) {
  IRRewriter rw(fn.getContext());
  // Innermost loops first (post-order). Replacing a loop moves its body,
  // so the loops nested in it and around it stay valid.
  SmallVector<scf::ForOp> loops;
  fn.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    while (scf::ForOp wider = hoistOne(rw, loop))
      loop = wider;
}

} // namespace mlir::torus
