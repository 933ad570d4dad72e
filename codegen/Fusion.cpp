//===- Fusion.cpp - Elementwise fusion and kernel naming ------------------===//
//
// The torus-fusion pass (Passes.td): loop fusion of elementwise ops,
// broadcasts and converts; input fusion of elementwise producers into
// reductions; output fusion of a contraction with its elementwise epilogue
// (kept adjacent and named one kernel). Every kernel is annotated with
// `torus.fusion`, `torus.kernel` and `torus.fused_ops`.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/TorusDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSFUSION
#include "codegen/Passes.h.inc"

namespace {

/// A generic whose loops are all parallel: an elementwise op, a broadcast,
/// a convert or a transpose.
bool isElementwise(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() == 0;
}

/// Whether the producer of `fused` may be fused into its consumer: the
/// producer has no other use (never duplicate work), and the consumer is
/// elementwise or reads every element of the operand exactly once (a
/// reduction, not a contraction, which would recompute each element once
/// per output column).
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!consumer)
    return false;
  if (consumer.getNumReductionLoops() == 0)
    return true;
  return consumer.getMatchingIndexingMap(fused).isPermutation();
}

/// linalg.reduce as a linalg.generic, so elementwise producers fuse into it.
struct GeneralizeReduce : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    return linalg::generalizeNamedOp(rewriter,
                                     cast<linalg::LinalgOp>(op.getOperation()));
  }
};

int64_t countBodyOps(linalg::LinalgOp op) {
  if (op->getNumRegions() == 0 || op->getRegion(0).empty())
    return 0;
  int64_t n = 0;
  for (Operation &inner : op->getRegion(0).front().without_terminator())
    if (!isa<linalg::IndexOp>(inner))
      ++n;
  return n;
}

/// A multiply-accumulate that reads some operand element more than once (a
/// matmul, a matvec), unlike the reduction of a fused elementwise product.
bool isContraction(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || !linalg::isaContractionOpInterface(op))
    return false;
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *operand) {
    return !op.getMatchingIndexingMap(operand).isPermutation();
  });
}

/// Names every kernel of `fn` in program order.
void annotate(func::FuncOp fn) {
  MLIRContext *ctx = fn.getContext();
  Builder b(ctx);
  TorusDialect::FusionAttrHelper fusion(ctx);
  TorusDialect::KernelAttrHelper kernel(ctx);
  TorusDialect::FusedOpsAttrHelper fusedOps(ctx);
  int64_t next = 0;
  auto mark = [&](Operation *op, StringRef kind, StringAttr name) {
    fusion.setAttr(op, b.getStringAttr(kind));
    kernel.setAttr(op, name);
    fusedOps.setAttr(
        op, b.getI64IntegerAttr(countBodyOps(cast<linalg::LinalgOp>(op))));
  };
  fn.walk([&](linalg::LinalgOp op) {
    if (kernel.isAttrPresent(op))
      return; // An epilogue named with its contraction.
    StringAttr name = b.getStringAttr("fusion." + std::to_string(next++));
    if (op.getNumReductionLoops() == 0) {
      mark(op.getOperation(), "loop", name);
      return;
    }
    if (!isContraction(op)) {
      mark(op.getOperation(), "input", name);
      return;
    }
    Operation *epilogue = nullptr;
    if (op->getNumResults() == 1 && op->getResult(0).hasOneUse()) {
      Operation *user = *op->getResult(0).getUsers().begin();
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (isElementwise(user) && user->getBlock() == op->getBlock() &&
          generic.isDpsInput(&*op->getResult(0).getUses().begin()))
        epilogue = user;
    }
    if (!epilogue) {
      mark(op.getOperation(), "none", name);
      return;
    }
    // Keep the epilogue right after its contraction, if its other operands
    // allow.
    // allow: operands defined between the two must be operand-free and
    // pure (tensor.empty, constants), and move up with it.
    SmallVector<Operation *> hoist;
    for (Value operand : epilogue->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def == op.getOperation() || def->getBlock() != op->getBlock() ||
          !op.getOperation()->isBeforeInBlock(def))
        continue;
      if (def->getNumOperands() != 0 || def->getNumRegions() != 0 ||
          !isMemoryEffectFree(def))
        return mark(op.getOperation(), "none", name);
      hoist.push_back(def);
    }
    for (Operation *def : hoist)
      def->moveBefore(op.getOperation());
    epilogue->moveAfter(op.getOperation());
    mark(op.getOperation(), "output", name);
    mark(epilogue, "output", name);
  });
}

struct FusionPass : impl::TorusFusionBase<FusionPass> {
  using TorusFusionBase::TorusFusionBase;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    MLIRContext *ctx = &getContext();
    if (fuse) {
      // Unit dimensions dropped first (a [4096, 1] row statistic is a
      // [4096] one), so that the reshapes HLO puts around them cancel
      // instead of being expanded into every consumer: fusing through an
      // expand_shape gives the kernels a rank-3 [4096, 1, 1024] space whose
      // result no longer has the output's shape, so the output is copied.
      RewritePatternSet unitDims(ctx);
      // Only of generics indexed by projected permutations (elementwise,
      // broadcasts, reductions): a convolution's windowed maps keep theirs.
      linalg::ControlDropUnitDims dropOptions;
      dropOptions.controlFn = [](Operation *op) -> SmallVector<unsigned> {
        auto generic = dyn_cast<linalg::GenericOp>(op);
        if (!generic ||
            !llvm::all_of(generic.getIndexingMapsArray(), [](AffineMap map) {
              return map.isProjectedPermutation();
            }))
          return {};
        return llvm::to_vector(llvm::seq<unsigned>(0, generic.getNumLoops()));
      };
      linalg::populateFoldUnitExtentDimsPatterns(unitDims, dropOptions);
      tensor::ExpandShapeOp::getCanonicalizationPatterns(unitDims, ctx);
      tensor::CollapseShapeOp::getCanonicalizationPatterns(unitDims, ctx);
      if (failed(applyPatternsAndFoldGreedily(fn, std::move(unitDims))))
        return signalPassFailure();
      RewritePatternSet patterns(ctx);
      patterns.add<GeneralizeReduce>(ctx);
      linalg::ControlFusionFn control = shouldFuse;
      linalg::populateElementwiseOpsFusionPatterns(patterns, control);
      linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
      affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
      linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
      ctx->getLoadedDialect<linalg::LinalgDialect>()
          ->getCanonicalizationPatterns(patterns);
      linalg::populateConstantFoldLinalgOperations(patterns, control);
      GreedyRewriteConfig config;
      config.useTopDownTraversal = true;
      if (failed(applyPatternsAndFoldGreedily(fn, std::move(patterns),
                                              config)))
        return signalPassFailure();
    }
    annotate(fn);
  }
};

} // namespace
} // namespace mlir::torus
