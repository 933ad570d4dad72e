//===- ParallelLoops.cpp - Large loop kernels over host threads -----------===//
//
// torus-parallel-loops (Passes.td): the elementwise and reduction kernels
// that stay loops split their outermost parallel loop into blocks, and
// every loop marked for host threads is outlined (ParallelLoop.h).
//
//===----------------------------------------------------------------------===//

#include "codegen/BufferOverlap.h"
#include "codegen/Markers.h"
#include "codegen/ParallelLoop.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSPARALLELLOOPS
#include "codegen/Passes.h.inc"

namespace {

using ParallelTile = TorusDialect::ParallelTileAttrHelper;

/// Elements each block of a split loop kernel covers at least (at most
/// kMaxParallelBlocks blocks).
constexpr int64_t kMinBlockElements = int64_t(1) << 16;

/// How many rows of its outermost loop each block of `op` takes, or
/// nullopt when `op` stays whole: too small, dynamic, not parallel in its
/// outermost loop, or writing where another iteration of it reads.
std::optional<int64_t> blockRows(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getIteratorTypesArray()[0] != utils::IteratorType::parallel)
    return std::nullopt;
  for (Value operand : op->getOperands())
    if (!cast<MemRefType>(operand.getType()).hasStaticShape())
      return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  const int64_t elements = staticIterations(op);
  if (elements < kMinParallelElements || ranges[0] < 2)
    return std::nullopt;
  // Each iteration of the outer loop writes its own part of every output;
  // an input that may share bytes with an output must be that very buffer,
  // read where it is written (an elementwise op in place).
  for (OpOperand &out : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&out);
    if (!llvm::any_of(map.getResults(), [](AffineExpr e) {
          auto dim = dyn_cast<AffineDimExpr>(e);
          return dim && dim.getPosition() == 0;
        }))
      return std::nullopt;
    for (OpOperand *in : op.getDpsInputOperands())
      if (mayOverlap(in->get(), out.get()) &&
          (in->get() != out.get() || op.getMatchingIndexingMap(in) != map))
        return std::nullopt;
  }
  int64_t blocks = std::clamp<int64_t>(elements / kMinBlockElements, 2,
                                       std::min(kMaxParallelBlocks, ranges[0]));
  return (ranges[0] + blocks - 1) / blocks;
}

/// Tiles `op`'s outermost loop by `rows` and marks the loop over whole
/// blocks; a partial last block is peeled off.
void splitOuterLoop(RewriterBase &rw, linalg::GenericOp op, int64_t rows) {
  SmallVector<int64_t> sizes(op.getNumLoops(), 0);
  sizes[0] = rows;
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes);
  rw.setInsertionPoint(op);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rw, op, options);
  if (failed(tiled) || tiled->loops.size() != 1)
    return;
  rw.eraseOp(op);
  auto loop = cast<scf::ForOp>(tiled->loops[0]);
  scf::ForOp partial;
  rw.setInsertionPoint(loop);
  (void)scf::peelForLoopAndSimplifyBounds(rw, loop, partial);
  setMarker<ParallelTile>(loop);
}

/// Folds what splitting left in `fn`: block sizes as affine.apply, views of
/// them, and partial blocks as loops of one iteration.
LogicalResult foldBlockSizes(func::FuncOp fn) {
  MLIRContext *ctx = fn.getContext();
  RewritePatternSet patterns(ctx);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
  affine::AffineMinOp::getCanonicalizationPatterns(patterns, ctx);
  memref::SubViewOp::getCanonicalizationPatterns(patterns, ctx);
  memref::CastOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
  scf::ForOp::getCanonicalizationPatterns(patterns, ctx); // the partial block
  return applyPatternsAndFoldGreedily(fn, std::move(patterns));
}

struct ParallelLoopsPass
    : impl::TorusParallelLoopsBase<ParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rw(&getContext());
    SmallVector<func::FuncOp> fns;
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal())
        fns.push_back(fn);
    for (func::FuncOp fn : fns) {
      // A loop inside an outlined body already runs on one of the threads.
      const bool split = threads && !isParallelBody(fn);
      if (split) {
        // Kernels already inside a loop are a part of a larger one.
        SmallVector<std::pair<linalg::GenericOp, int64_t>> split;
        fn.walk([&](linalg::GenericOp op) {
          if (op->getParentOfType<scf::ForOp>() ||
              op->getParentOfType<scf::ParallelOp>())
            return;
          if (std::optional<int64_t> rows = blockRows(op))
            split.push_back({op, *rows});
        });
        for (auto [op, rows] : split)
          splitOuterLoop(rw, op, rows);
        // Peeling leaves the blocks' sizes as affine.apply and the partial
        // block as a loop of one iteration: fold both, so that every
        // block's views and kernel are static.
        if (!split.empty() && failed(foldBlockSizes(fn)))
          return signalPassFailure();
      }
      outlineMarkedLoops(rw, fn, split);
    }
  }
};

} // namespace
} // namespace mlir::torus
