//===- FuseEpilogues.cpp - Run a contraction's epilogue panel by panel ----===//
//
// torus-fuse-epilogues: the first step of the kernel stage, on buffers.
// torus-fusion names a contraction and the elementwise ops that consume its
// result (bias add, activation) as one output fusion; after bufferization
// they are still two loop nests, and the epilogue reads the whole result
// back from memory after the contraction has written it. This pass puts
// both in one loop over panels of the result's innermost (N) dimension:
// each iteration runs the contraction on one panel (all of K) and then the
// epilogue on that panel while it is still in cache (a fill of the result
// right before the contraction zeroes the panel first, in the same
// iteration). The loop is peeled so that, once canonicalized (the pipeline
// runs the canonicalizer next), both see static shapes, and the kernel
// stage then tiles each panel's contraction as usual. A large kernel's
// panel loop is marked for host threads, as the kernel stage marks its own.
//
//===----------------------------------------------------------------------===//

#include "codegen/BufferOverlap.h"
#include "codegen/Markers.h"
#include "codegen/ParallelLoop.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSFUSEEPILOGUES
#include "codegen/Passes.h.inc"

namespace {

/// Columns per panel: the kernel stage's N cache tile, so each panel is one
/// of its N tiles.
constexpr int64_t kPanel = 128;

bool isStaticBuffer(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.hasStaticShape();
}

/// A contraction of an output fusion and the epilogue that consumes it.
struct Pair {
  linalg::FillOp fill; // of the result, right before; may be null
  linalg::GenericOp contraction, epilogue;
  unsigned nLoop; // the contraction's loop over the result's innermost dim
  SmallVector<Operation *> between; // view ops to hoist above the pair
};

/// The epilogue of `op` when the two can run panel by panel: `op` is a
/// static contraction whose result C is written once; the next op of the
/// same kernel is an all-parallel generic over C's shape that reads C with
/// the identity map and writes buffers `op` does not read; only ops
/// without memory effects lie between them.
std::optional<Pair> matchPair(linalg::GenericOp op) {
  TorusDialect::KernelAttrHelper kernelAttr(op.getContext());
  StringAttr kernel = kernelAttr.getAttr(op);
  if (!kernel || op.getNumReductionLoops() == 0 ||
      !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return std::nullopt;
  for (Value v : op->getOperands())
    if (!isStaticBuffer(v))
      return std::nullopt;
  Value c = op.getDpsInitOperand(0)->get();
  AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!cMap.isProjectedPermutation() || cMap.getNumResults() == 0)
    return std::nullopt;
  unsigned nLoop = cMap.getDimPosition(cMap.getNumResults() - 1);
  if (op.getStaticLoopRanges()[nLoop] < 2 * kPanel)
    return std::nullopt; // one panel: nothing to interleave
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (fill && (!fill.hasPureBufferSemantics() ||
               fill.getDpsInitOperand(0)->get() != c))
    fill = nullptr;
  Pair pair{fill, op, nullptr, nLoop, {}};
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto generic = dyn_cast<linalg::GenericOp>(next);
    if (generic && kernelAttr.getAttr(generic) == kernel) {
      pair.epilogue = generic;
      break;
    }
    if (!isMemoryEffectFree(next) || next->getNumRegions() != 0)
      return std::nullopt;
    pair.between.push_back(next);
  }
  linalg::GenericOp epi = pair.epilogue;
  if (!epi || epi.getNumReductionLoops() != 0 ||
      !epi.hasPureBufferSemantics() ||
      epi.getNumLoops() != cast<MemRefType>(c.getType()).getRank())
    return std::nullopt;
  bool readsC = false;
  for (OpOperand &operand : epi->getOpOperands()) {
    if (!isStaticBuffer(operand.get()) ||
        !epi.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return std::nullopt;
    if (operand.get() != c)
      continue;
    if (!epi.getMatchingIndexingMap(&operand).isIdentity())
      return std::nullopt;
    readsC = true;
  }
  if (!readsC)
    return std::nullopt;
  // Later panels of the contraction still read all of its inputs: the
  // epilogue must not write where they are (the buffer plan may have put
  // its result where an input was, since the input dies at the
  // contraction).
  for (OpOperand &init : epi.getDpsInitsMutable())
    for (OpOperand *in : op.getDpsInputOperands())
      if (mayOverlap(init.get(), in->get()))
        return std::nullopt;
  // What lies between must be computable above the contraction.
  for (Operation *mid : pair.between)
    for (Value operand : mid->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (def->getBlock() == op->getBlock() && op->isBeforeInBlock(def) &&
            !llvm::is_contained(pair.between, def))
          return std::nullopt;
  return pair;
}

/// Both ops tiled by kPanel along N, their loops fused (contraction first)
/// and peeled; false when tiling fails (nothing changed then).
bool fusePair(RewriterBase &rw, const Pair &pair) {
  linalg::GenericOp op = pair.contraction, epi = pair.epilogue;
  for (Operation *mid : pair.between)
    rw.moveOpBefore(mid, op);
  rw.moveOpAfter(epi, op);

  auto tileAlong = [&](linalg::LinalgOp target,
                       unsigned loop) -> FailureOr<scf::ForOp> {
    SmallVector<int64_t> sizes(target.getNumLoops(), 0);
    sizes[loop] = kPanel;
    linalg::LinalgTilingOptions options;
    options.setTileSizes(sizes);
    rw.setInsertionPoint(target);
    FailureOr<linalg::TiledLinalgOp> tiled =
        linalg::tileLinalgOp(rw, target, options);
    if (failed(tiled) || tiled->loops.size() != 1)
      return failure();
    rw.eraseOp(target);
    return cast<scf::ForOp>(tiled->loops.front());
  };
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t work = 1;
  for (int64_t r : ranges)
    work *= r;
  FailureOr<scf::ForOp> zero;
  if (linalg::FillOp fill = pair.fill) {
    zero = tileAlong(fill, fill.getNumLoops() - 1);
    if (failed(zero))
      return false;
  }
  FailureOr<scf::ForOp> first = tileAlong(op, pair.nLoop);
  if (failed(first))
    return false;
  FailureOr<scf::ForOp> second = tileAlong(epi, epi.getNumLoops() - 1);
  if (failed(second))
    return false;
  scf::ForOp fused = fuseIndependentSiblingForLoops(*first, *second, rw);
  if (pair.fill)
    fused = fuseIndependentSiblingForLoops(*zero, fused, rw);
  scf::ForOp partial;
  rw.setInsertionPoint(fused);
  (void)scf::peelForLoopAndSimplifyBounds(rw, fused, partial);
  if (work >= kMinParallelWork)
    setMarker<TorusDialect::ParallelTileAttrHelper>(fused);
  return true;
}

struct FuseEpiloguesPass : impl::TorusFuseEpiloguesBase<FuseEpiloguesPass> {
  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    SmallVector<Pair> pairs;
    fn.walk([&](linalg::GenericOp op) {
      if (auto pair = matchPair(op))
        pairs.push_back(*pair);
    });
    IRRewriter rw(&getContext());
    for (const Pair &pair : pairs)
      (void)fusePair(rw, pair);
  }
};

} // namespace
} // namespace mlir::torus
