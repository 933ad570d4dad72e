//===- InnermostParallelLoop.cpp - Window reductions vectorizable ---------===//
//
// torus-innermost-parallel-loop (Passes.td): a reduction whose reduced
// loops come last, but whose output's innermost dimension is a parallel
// loop (reduce_window, a reduction over a leading axis), runs with that
// parallel loop innermost, where LLVM vectorizes it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/RowTiling.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSINNERMOSTPARALLELLOOP
#include "codegen/Passes.h.inc"

namespace {

/// Whether `map` reads loop `loop` in its last result only, as `loop` plus
/// other loops (`d3` or `d3 + d7`: unit steps along a row), or not at all.
bool readsAlongRow(AffineMap map, unsigned loop) {
  unsigned n = map.getNumResults();
  for (unsigned r = 0; r + 1 < n; ++r)
    if (map.getResult(r).isFunctionOfDim(loop))
      return false;
  if (n == 0 || !map.getResult(n - 1).isFunctionOfDim(loop))
    return true;
  // A sum of loops, each with coefficient 1.
  SmallVector<AffineExpr> terms = {map.getResult(n - 1)};
  while (!terms.empty()) {
    AffineExpr e = terms.pop_back_val();
    if (auto add = dyn_cast<AffineBinaryOpExpr>(e);
        add && add.getKind() == AffineExprKind::Add) {
      terms.push_back(add.getLHS());
      terms.push_back(add.getRHS());
    } else if (!isa<AffineDimExpr, AffineConstantExpr>(e)) {
      return false;
    }
  }
  return true;
}

/// The loop order that puts `op`'s output row loop innermost and keeps the
/// others in their order, or nothing when `op` is not such a reduction.
std::optional<SmallVector<unsigned>> rowLoopInnermost(linalg::GenericOp op) {
  auto iterators = op.getIteratorTypesArray();
  const unsigned numLoops = op.getNumLoops();
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      numLoops < 2 || iterators.back() != utils::IteratorType::reduction)
    return std::nullopt;
  OpOperand *out = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(out);
  auto outType = dyn_cast<MemRefType>(out->get().getType());
  if (!outType || !outType.hasStaticShape() || outMap.getNumResults() == 0 ||
      !outMap.isProjectedPermutation() || !innermostStrideIsOne(outType))
    return std::nullopt;
  const unsigned row = outMap.getDimPosition(outMap.getNumResults() - 1);
  if (op.getStaticLoopRanges()[row] < 2)
    return std::nullopt;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!type || !type.hasStaticShape() || !readsAlongRow(map, row))
      return std::nullopt;
    if (map.getNumResults() > 0 &&
        map.getResult(map.getNumResults() - 1).isFunctionOfDim(row) &&
        !innermostStrideIsOne(type))
      return std::nullopt;
  }
  SmallVector<unsigned> order;
  for (unsigned l = 0; l < numLoops; ++l)
    if (l != row)
      order.push_back(l);
  order.push_back(row);
  return order;
}

struct InnermostParallelLoopPass
    : impl::TorusInnermostParallelLoopBase<InnermostParallelLoopPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, SmallVector<unsigned>>> todo;
    getOperation().walk([&](linalg::GenericOp op) {
      if (auto order = rowLoopInnermost(op))
        todo.push_back({op, std::move(*order)});
    });
    IRRewriter rw(&getContext());
    for (auto &[op, order] : todo)
      if (failed(linalg::interchangeGenericOp(rw, op, order)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::torus
