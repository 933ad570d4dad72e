//===- VectorizeKernels.cpp - Tiled, vectorized contraction kernels -------===//
//
// torus-vectorize-kernels: the kernel stage (buildKernelPipeline), on
// buffers, before the remaining linalg ops become naive loops.
//
// 1. Every contraction `linalg.generic` (dot_general's and convolution's,
//    body `c + a * b` in f32 or f64, affine operand maps) becomes a nest of
//    scf.for loops around one `linalg.matmul` (or `matmul_transpose_a`) on
//    rank-reducing subviews: the core loops M, N, K are the result's
//    innermost dimension (N), the result's innermost other dimension (M)
//    and a contracted dimension (K); every other loop (batch, extra free or
//    contracted dims, a convolution's kernel window and output rows) is an
//    outer loop, but for contracted loops that step through A and B as
//    the next K would (a window column over NHWC input features: K becomes
//    kw x C, A a view whose rows overlap). A convolution's strided input
//    becomes a strided view. When
//    N is not the right-hand operand's innermost dimension but K is, B is
//    read through a transposed view whose tiles packing copies (without
//    `pack`, B is first transposed into a fresh buffer), so the register
//    tiles always read contiguous vectors of B and C. Transposes on
//    buffers become blocked vector transposes (Transposes.cpp).
// 2. Every static f32/f64 matmul with unit-stride C rows (and B rows, or a
//    transposed B) is tiled for the cache (M, N, K) = (512, 128, 256) on
//    AVX-512, (256, 128, 128) otherwise,
//    with B's tiles and a transposed A's strips packed into stack buffers
//    (PackOperands.cpp), and for registers (4, 4 x lanes, 1) on AVX-512
//    ((6, 2 x lanes, 1) on AVX2); every tile loop is peeled so that all
//    tiles are static (never masked), a peeled tile whose row is not a
//    power of two long is split into ones that are, and the register tiles
//    are vectorized.
// 3. The vectors are lowered: vector.contract as outer products (FMAs),
//    memref alias ops folded into the transfers, then the accumulator's
//    transfers hoisted out of the K loop, then transfers to 1-D loads and
//    stores.
//
//===----------------------------------------------------------------------===//

#include "codegen/BufferOverlap.h"
#include "codegen/KernelParts.h"
#include "codegen/Passes.h"
#include "codegen/HoistAccumulators.h"
#include "codegen/Markers.h"
#include "codegen/ParallelLoop.h"
#include "codegen/Pipelines.h"
#include "codegen/RowTiling.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSVECTORIZEKERNELS
#include "codegen/Passes.h.inc"

namespace {

// The kernel stage's markers (ir/TorusDialect.td).
using KernelLoop = TorusDialect::KernelLoopAttrHelper;
using ParallelTile = TorusDialect::ParallelTileAttrHelper;
using CachePanel = TorusDialect::CachePanelAttrHelper;
using CacheTile = TorusDialect::CacheTileAttrHelper;
using RegisterTile = TorusDialect::RegisterTileAttrHelper;

//===--- Contractions as matmuls on views ---------------------------------===//

/// `constant + sum(coeffs[d] * d)` for an affine expression of dims.
struct Linear {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

bool linearize(AffineExpr e, int64_t scale, Linear &out) {
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    out.coeffs[d.getPosition()] += scale;
    return true;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    out.constant += scale * c.getValue();
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return linearize(bin.getLHS(), scale, out) &&
           linearize(bin.getRHS(), scale, out);
  if (e.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      return linearize(bin.getLHS(), scale * c.getValue(), out);
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
      return linearize(bin.getRHS(), scale * c.getValue(), out);
  }
  return false;
}

/// Each result of `map` as a linear form, or nullopt.
std::optional<SmallVector<Linear>> linearizeMap(AffineMap map) {
  SmallVector<Linear> forms;
  for (AffineExpr e : map.getResults()) {
    Linear l;
    l.coeffs.assign(map.getNumDims(), 0);
    if (!linearize(e, 1, l))
      return std::nullopt;
    forms.push_back(std::move(l));
  }
  return forms;
}

/// The generic's body is `yield out + lhs * rhs` on floats.
bool isMultiplyAccumulate(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 3)
    return false;
  auto mul = dyn_cast<arith::MulFOp>(&body.front());
  auto add = dyn_cast_or_null<arith::AddFOp>(mul ? mul->getNextNode() : nullptr);
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!mul || !add || !yield || yield.getValues().size() != 1 ||
      yield.getValues()[0] != add.getResult())
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1),
        c = body.getArgument(2);
  bool mulOk = (mul.getLhs() == a && mul.getRhs() == b) ||
               (mul.getLhs() == b && mul.getRhs() == a);
  bool addOk = (add.getLhs() == c && add.getRhs() == mul.getResult()) ||
               (add.getRhs() == c && add.getLhs() == mul.getResult());
  return mulOk && addOk;
}

/// A contraction generic in the form the kernels take: its operands
/// (A, B, C), their maps as linear forms, and the loops that become the
/// matmul's M, N and K; every other loop is an outer loop.
struct Contraction {
  Value mems[3];
  Type elementType;
  SmallVector<int64_t> ranges;
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<Linear>> forms;
  unsigned mLoop = 0, nLoop = 0, kLoop = 0;
  /// Contracted loops read as part of K (mergeIntoK), outermost first:
  /// K runs over them and kLoop, kLoop fastest. Empty: K is kLoop alone.
  SmallVector<unsigned> kMerged;

  unsigned numLoops() const { return ranges.size(); }
  bool isCore(unsigned l) const {
    return l == mLoop || l == nLoop || l == kLoop || llvm::is_contained(kMerged, l);
  }
  /// K's iterations: kLoop's and those of the loops merged into it.
  int64_t kRange() const {
    int64_t r = ranges[kLoop];
    for (unsigned l : kMerged)
      r *= ranges[l];
    return r;
  }

  /// The dim of operand x that loop l is in (it is in exactly one), or -1.
  int64_t dimOf(int x, unsigned l) const {
    for (auto [j, f] : llvm::enumerate(forms[x]))
      if (f.coeffs[l] != 0)
        return j;
    return -1;
  }
};

/// Whether `op` is a static f32/f64 multiply-accumulate on buffers with
/// linear operand maps; fills `c` but its loops.
bool matchOperands(linalg::GenericOp op, Contraction &c) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !isMultiplyAccumulate(op))
    return false;
  c.mems[0] = op.getDpsInputOperand(0)->get();
  c.mems[1] = op.getDpsInputOperand(1)->get();
  c.mems[2] = op.getDpsInitOperand(0)->get();
  Type et = cast<MemRefType>(c.mems[2].getType()).getElementType();
  if (!et.isF32() && !et.isF64())
    return false;
  c.elementType = et;
  for (Value v : c.mems) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || t.getElementType() != et || !t.hasStaticShape() ||
        t.getRank() == 0)
      return false;
  }
  c.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(c.ranges, ShapedType::isDynamic))
    return false;
  c.maps = op.getIndexingMapsArray();
  if (!c.maps[2].isProjectedPermutation())
    return false;
  for (AffineMap m : c.maps) {
    auto f = linearizeMap(m);
    if (!f)
      return false;
    c.forms.push_back(std::move(*f));
  }
  return true;
}

enum class LoopKind { Batch, M, N, K };

/// Each loop's role from the operands it indexes (A and B and C: batch; A
/// and C: M; B and C: N; A and B: K), or nullopt when a loop has none of
/// these or C's loops are not exactly the parallel ones. uses[x][l]: how
/// many dims of operand x loop l appears in.
std::optional<SmallVector<LoopKind>>
classifyLoops(linalg::GenericOp op, ArrayRef<SmallVector<int>> uses) {
  auto iterators = op.getIteratorTypesArray();
  SmallVector<LoopKind> kind;
  for (unsigned l = 0; l < op.getNumLoops(); ++l) {
    bool a = uses[0][l], b = uses[1][l], c = uses[2][l];
    if (c != (iterators[l] == utils::IteratorType::parallel))
      return std::nullopt;
    if (a && b && c)
      kind.push_back(LoopKind::Batch);
    else if (a && c && !b)
      kind.push_back(LoopKind::M);
    else if (b && c && !a)
      kind.push_back(LoopKind::N);
    else if (a && b && !c)
      kind.push_back(LoopKind::K);
    else
      return std::nullopt;
  }
  return kind;
}

/// Picks the core loops: N, the loop of C's innermost (unit-stride) dim;
/// M, the loop of C's innermost other M dim; K, a contracted loop alone in
/// its dims of A and B (not in M's dim of A), preferring the innermost in
/// A. False when there are none such, or a dim holds two core loops.
bool chooseCoreLoops(Contraction &c, ArrayRef<LoopKind> kind,
                     ArrayRef<SmallVector<int>> uses) {
  AffineMap cMap = c.maps[2];
  c.nLoop = cMap.getDimPosition(cMap.getNumResults() - 1);
  if (kind[c.nLoop] != LoopKind::N ||
      !innermostStrideIsOne(cast<MemRefType>(c.mems[2].getType())))
    return false;
  std::optional<unsigned> mLoop;
  for (int j = cMap.getNumResults() - 2; j >= 0 && !mLoop; --j)
    if (kind[cMap.getDimPosition(j)] == LoopKind::M)
      mLoop = cMap.getDimPosition(j);
  if (!mLoop || uses[0][*mLoop] != 1)
    return false;
  c.mLoop = *mLoop;
  std::optional<unsigned> kLoop;
  int64_t kDimA = -1;
  for (unsigned l = 0; l < c.numLoops(); ++l) {
    if (kind[l] != LoopKind::K || uses[0][l] != 1 || uses[1][l] != 1)
      continue;
    int64_t j = c.dimOf(0, l);
    if (j == c.dimOf(0, c.mLoop))
      continue;
    if (!kLoop || j > kDimA) {
      kLoop = l;
      kDimA = j;
    }
  }
  if (!kLoop || uses[1][c.nLoop] != 1)
    return false;
  c.kLoop = *kLoop;
  // Each dim of each operand holds at most one core loop.
  unsigned core[3] = {c.mLoop, c.nLoop, c.kLoop};
  for (int x = 0; x < 3; ++x)
    for (const Linear &f : c.forms[x])
      if (llvm::count_if(core, [&](unsigned l) { return f.coeffs[l] != 0; }) >
          1)
        return false;
  return true;
}

/// `op` as a Contraction, or nullopt when it does not have the form the
/// kernels need (it then stays a naive loop).
std::optional<Contraction> matchContraction(linalg::GenericOp op) {
  Contraction c;
  if (!matchOperands(op, c))
    return std::nullopt;
  SmallVector<SmallVector<int>> uses(3, SmallVector<int>(c.numLoops(), 0));
  for (int x = 0; x < 3; ++x)
    for (const Linear &l : c.forms[x])
      for (unsigned d = 0; d < c.numLoops(); ++d)
        if (l.coeffs[d] != 0)
          ++uses[x][d];
  std::optional<SmallVector<LoopKind>> kind = classifyLoops(op, uses);
  if (!kind || !chooseCoreLoops(c, *kind, uses))
    return std::nullopt;
  return c;
}

/// How the matmul reads B: N innermost with unit stride in place; with
/// `transposedViews`, a B whose K dim is the unit-stride one through a
/// transposed view (`transposed`); else a transposed copy that has N
/// innermost (`copy`, freed after the loops), which replaces B in `c`.
/// False when B cannot be copied so (nothing created).
struct RhsAccess {
  bool transposed = false;
  Value copy;
};
std::optional<RhsAccess> prepareRhs(RewriterBase &rw, Location loc,
                                    Contraction &c, bool transposedViews) {
  auto bType = cast<MemRefType>(c.mems[1].getType());
  int64_t jnB = c.dimOf(1, c.nLoop), jkB = c.dimOf(1, c.kLoop);
  bool nInnermost = jnB == bType.getRank() - 1 &&
                    c.forms[1][jnB].coeffs[c.nLoop] == 1 &&
                    innermostStrideIsOne(bType);
  bool kInnermost = jkB == bType.getRank() - 1 &&
                    c.forms[1][jkB].coeffs[c.kLoop] == 1 &&
                    innermostStrideIsOne(bType);
  RhsAccess access;
  access.transposed = !nInnermost && kInnermost && transposedViews;
  if (nInnermost || access.transposed)
    return access;
  AffineMap bMap = c.maps[1];
  if (!bMap.isProjectedPermutation())
    return std::nullopt;
  SmallVector<int64_t> perm, shape;
  SmallVector<AffineExpr> exprs;
  for (int64_t j = 0; j < bType.getRank(); ++j)
    if (j != jnB)
      perm.push_back(j);
  perm.push_back(jnB);
  for (int64_t j : perm) {
    shape.push_back(bType.getDimSize(j));
    exprs.push_back(bMap.getResult(j));
  }
  auto copyType = MemRefType::get(shape, c.elementType);
  access.copy =
      rw.create<memref::AllocOp>(loc, copyType, rw.getI64IntegerAttr(64));
  rw.create<linalg::TransposeOp>(loc, c.mems[1], access.copy, perm);
  c.mems[1] = access.copy;
  c.maps[1] = AffineMap::get(c.numLoops(), 0, exprs, rw.getContext());
  c.forms[1] = *linearizeMap(c.maps[1]);
  return access;
}

/// The rank-reducing 2-D view of operand x of `c` over its core loops
/// `first` and `second`, at loop indices `at`; `swapped` when `second`'s
/// dim comes first.
Value coreView(OpBuilder &b, Location l, const Contraction &c, int x,
               ArrayRef<OpFoldResult> at, unsigned first, unsigned second,
               bool &swapped) {
  auto type = cast<MemRefType>(c.mems[x].getType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> kept;
  int64_t jFirst = -1, jSecond = -1;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    offsets.push_back(affine::makeComposedFoldedAffineApply(
        b, l, AffineMap::get(c.numLoops(), 0, c.maps[x].getResult(j)), at));
    const Linear &f = c.forms[x][j];
    std::optional<unsigned> core;
    for (unsigned loop : {first, second})
      if (f.coeffs[loop] != 0)
        core = loop;
    if (core) {
      sizes.push_back(b.getIndexAttr(c.ranges[*core]));
      strides.push_back(b.getIndexAttr(f.coeffs[*core]));
      kept.push_back(c.ranges[*core]);
      (*core == first ? jFirst : jSecond) = j;
    } else {
      sizes.push_back(b.getIndexAttr(1));
      strides.push_back(b.getIndexAttr(1));
    }
  }
  swapped = jFirst > jSecond;
  auto viewType =
      cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
          kept, type, offsets, sizes, strides));
  return b.create<memref::SubViewOp>(l, viewType, c.mems[x], offsets, sizes,
                                     strides);
}

/// The distance in elements of operand x between iterations of loop `l`
/// (its coefficient times the stride of the one dim it indexes), or
/// nullopt when that stride is dynamic or `l` indexes no dim or several.
std::optional<int64_t> elementStride(const Contraction &c, int x,
                                     unsigned l) {
  auto type = cast<MemRefType>(c.mems[x].getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)))
    return std::nullopt;
  std::optional<int64_t> stride;
  for (auto [j, f] : llvm::enumerate(c.forms[x])) {
    if (f.coeffs[l] == 0)
      continue;
    if (stride || ShapedType::isDynamic(strides[j]))
      return std::nullopt;
    stride = strides[j] * f.coeffs[l];
  }
  return stride;
}

/// Merges contracted outer loops into K while each steps through A and B
/// exactly as the next K iteration would (its element stride is K's
/// range times K's stride in both, and not in C): with NHWC input and HWIO
/// kernel, a convolution's window column kw over C input features is
/// contiguous in both, so K becomes kw x C. A first convolution over an
/// RGB image (C = 3) otherwise ran 9 matmuls with K = 3, each loading and
/// storing its accumulators for 3 multiply-adds, at a fifth of the FMA
/// peak. Only when A's rows are M (M's stride above K's) and B's are K
/// (N's stride 1), so that the merged views are plain [M, K] and [K, N].
void mergeIntoK(Contraction &c) {
  // The merged views address A and B from their strides: all static.
  for (int x : {0, 1}) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStridesAndOffset(cast<MemRefType>(c.mems[x].getType()),
                                   strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return;
  }
  std::optional<int64_t> sA = elementStride(c, 0, c.kLoop),
                         sB = elementStride(c, 1, c.kLoop),
                         sM = elementStride(c, 0, c.mLoop),
                         sN = elementStride(c, 1, c.nLoop);
  if (!sA || !sB || !sM || !sN || *sN != 1 || *sM <= *sA || *sB <= *sN)
    return;
  bool merged = true;
  while (merged) {
    merged = false;
    const int64_t range = c.kRange();
    for (unsigned l = 0; l < c.numLoops() && !merged; ++l) {
      if (c.isCore(l) || c.dimOf(2, l) >= 0)
        continue;
      std::optional<int64_t> a = elementStride(c, 0, l),
                             b = elementStride(c, 1, l);
      if (!a || !b || *a != range * *sA || *b != range * *sB)
        continue;
      c.kMerged.insert(c.kMerged.begin(), l);
      merged = true;
    }
  }
}

/// The [first, second] view of operand x (A or B) of `c` when K has merged
/// loops: a strided view of its buffer at the element the loop indices
/// `at` address, K's extent being kRange() with kLoop's stride. (A
/// rank-reducing subview cannot join dims; the rows of A may overlap.)
Value mergedView(OpBuilder &b, Location l, const Contraction &c, int x,
                 ArrayRef<OpFoldResult> at, unsigned first, unsigned second) {
  auto type = cast<MemRefType>(c.mems[x].getType());
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  (void)getStridesAndOffset(type, strides, staticOffset);
  auto meta = b.create<memref::ExtractStridedMetadataOp>(l, c.mems[x]);
  // offset + sum_j strides[j] * (dim j's index at `at`).
  MLIRContext *ctx = b.getContext();
  AffineExpr sum = getAffineSymbolExpr(0, ctx);
  for (auto [j, e] : llvm::enumerate(c.maps[x].getResults()))
    sum = sum + e * strides[j];
  SmallVector<OpFoldResult> operands(at);
  operands.push_back(meta.getOffset());
  OpFoldResult offset = affine::makeComposedFoldedAffineApply(
      b, l, AffineMap::get(c.numLoops(), 1, sum), operands);
  auto extent = [&](unsigned loop) {
    return loop == c.kLoop ? c.kRange() : c.ranges[loop];
  };
  SmallVector<int64_t> sizes = {extent(first), extent(second)};
  SmallVector<int64_t> viewStrides = {*elementStride(c, x, first),
                                      *elementStride(c, x, second)};
  auto viewType = MemRefType::get(
      sizes, c.elementType,
      StridedLayoutAttr::get(ctx, ShapedType::kDynamic, viewStrides));
  return b.create<memref::ReinterpretCastOp>(
      l, viewType, meta.getBaseBuffer(), offset,
      ArrayRef<OpFoldResult>{b.getIndexAttr(sizes[0]),
                             b.getIndexAttr(sizes[1])},
      ArrayRef<OpFoldResult>{b.getIndexAttr(viewStrides[0]),
                             b.getIndexAttr(viewStrides[1])});
}

/// One iteration of the outer loops `outer` (induction variables `ivs`):
/// a matmul (or matmul_transpose_a) on the core views of A, B and C, named
/// as the contraction's kernel `kernel` (torus-fusion's name, if any).
void emitMatmul(OpBuilder &b, Location l, const Contraction &c,
                ArrayRef<unsigned> outer, ValueRange ivs, bool transposedB,
                StringAttr kernel) {
  SmallVector<OpFoldResult> at(c.numLoops(), b.getIndexAttr(0));
  for (auto [i, loop] : llvm::enumerate(outer))
    at[loop] = ivs[i];
  bool swapA = false, swapB = false, swapC;
  Value a, bv;
  if (c.kMerged.empty()) {
    a = coreView(b, l, c, 0, at, c.mLoop, c.kLoop, swapA);
    bv = coreView(b, l, c, 1, at, c.kLoop, c.nLoop, swapB);
  } else {
    a = mergedView(b, l, c, 0, at, c.mLoop, c.kLoop);
    bv = mergedView(b, l, c, 1, at, c.kLoop, c.nLoop);
  }
  Value cv = coreView(b, l, c, 2, at, c.mLoop, c.nLoop, swapC);
  assert(!swapC && "N is innermost in C");
  assert(swapB == transposedB && "B is [K, N] or a transposed [N, K]");
  (void)swapC;
  if (swapB) // [N, K] with K contiguous, as a [K, N] view
    bv = b.create<memref::TransposeOp>(
        l, bv,
        AffineMapAttr::get(AffineMap::getPermutationMap(
            ArrayRef<unsigned>{1, 0}, b.getContext())));
  Operation *mm;
  if (swapA)
    mm = b.create<linalg::MatmulTransposeAOp>(l, ValueRange{a, bv},
                                              ValueRange{cv});
  else
    mm = b.create<linalg::MatmulOp>(l, ValueRange{a, bv}, ValueRange{cv});
  if (kernel)
    TorusDialect::KernelAttrHelper(b.getContext()).setAttr(mm, kernel);
}

/// Whether the outermost of the `outer` loops of `c` may go to host
/// threads: it indexes a dim of C by itself (a batch, or a convolution's
/// output rows), so its iterations write disjoint parts of C; it has 2 or
/// more iterations; the contraction has at least kMinParallelWork
/// multiply-adds but each matmul fewer than kMinSelfParallelMatmul (a
/// larger one splits its own tile loops, tileForPanels). Attention's 32
/// matmuls of 128 x 128 x 64 are one such batch.
bool outerLoopInParallel(const Contraction &c, ArrayRef<unsigned> outer) {
  if (outer.empty() || c.ranges[outer[0]] < 2)
    return false;
  int64_t dim = c.dimOf(2, outer[0]);
  if (dim < 0)
    return false;
  for (auto [l, coeff] : llvm::enumerate(c.forms[2][dim].coeffs))
    if (coeff != 0 && l != outer[0])
      return false;
  int64_t work = 1;
  for (int64_t r : c.ranges)
    work *= r;
  int64_t matmul = c.ranges[c.mLoop] * c.ranges[c.nLoop] * c.kRange();
  return work >= kMinParallelWork && matmul < kMinSelfParallelMatmul;
}

/// The fill of `op`'s accumulator (its init buffer) right before it, with
/// only memory-effect-free ops (views, constants) between, or null. Null
/// too when an operand may share bytes with the accumulator: the fill
/// would then no longer come before every read of them.
linalg::FillOp accumulatorFill(linalg::GenericOp op, Value c) {
  for (OpOperand *in : op.getDpsInputOperands())
    if (mayOverlap(in->get(), c))
      return nullptr;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev))
      return fill.hasPureBufferSemantics() && fill.getOutputs()[0] == c
                 ? fill
                 : nullptr;
    if (!isMemoryEffectFree(prev))
      return nullptr;
  }
  return nullptr;
}

/// Moves `fill` (of the whole accumulator C) into `nest`: each iteration of
/// its leading loops that index C by themselves fills the part of C it
/// accumulates, right before the loops inside (a convolution's window)
/// add into it, so the part is still in cache when they do. Filled in
/// one pass, an 8 MiB convolution output went to memory before its first
/// row was accumulated, and came back from memory for it. Nothing moves
/// when the first outer loop does not index C.
void sinkAccumulatorFill(RewriterBase &rw, linalg::FillOp fill,
                         const Contraction &c, ArrayRef<unsigned> outer,
                         scf::LoopNest &nest) {
  size_t lead = 0;
  while (lead < outer.size() && c.dimOf(2, outer[lead]) >= 0)
    ++lead;
  if (lead == 0)
    return;
  auto type = cast<MemRefType>(c.mems[2].getType());
  Location loc = fill.getLoc();
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPointToStart(nest.loops[lead - 1].getBody());
  SmallVector<OpFoldResult> offsets(type.getRank(), rw.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), rw.getIndexAttr(1));
  for (int64_t size : type.getShape())
    sizes.push_back(rw.getIndexAttr(size));
  for (size_t i = 0; i < lead; ++i) {
    int64_t dim = c.dimOf(2, outer[i]);
    offsets[dim] = nest.loops[i].getInductionVar();
    sizes[dim] = rw.getIndexAttr(1);
  }
  Value part = rw.create<memref::SubViewOp>(loc, c.mems[2], offsets, sizes,
                                            strides);
  Operation *inner = rw.clone(*fill);
  inner->setOperand(fill.getDpsInitOperand(0)->getOperandNumber(), part);
  rw.eraseOp(fill);
}

/// Rewrites one contraction generic (see the file comment); false when it
/// does not have the form the kernels need (it then stays a naive loop).
/// With `transposedViews` a B whose K dim is the unit-stride one is read
/// through a transposed view (packing copies its tiles); without, such a B
/// is first transposed into a fresh buffer.
bool rewriteContraction(RewriterBase &rw, linalg::GenericOp op,
                        bool transposedViews) {
  std::optional<Contraction> c = matchContraction(op);
  if (!c)
    return false;
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  std::optional<RhsAccess> rhs = prepareRhs(rw, loc, *c, transposedViews);
  if (!rhs)
    return false;
  if (!rhs->transposed)
    mergeIntoK(*c);
  SmallVector<unsigned> outer;
  for (unsigned l = 0; l < c->numLoops(); ++l)
    if (!c->isCore(l))
      outer.push_back(l);
  StringAttr kernel = TorusDialect::KernelAttrHelper(rw.getContext()).getAttr(op);
  linalg::FillOp fill = accumulatorFill(op, c->mems[2]);
  auto body = [&](OpBuilder &b, Location l, ValueRange ivs) {
    emitMatmul(b, l, *c, outer, ivs, rhs->transposed, kernel);
  };
  if (outer.empty()) {
    body(rw, loc, {});
  } else {
    SmallVector<Value> lbs, ubs, steps;
    Value zero = rw.create<arith::ConstantIndexOp>(loc, 0);
    Value one = rw.create<arith::ConstantIndexOp>(loc, 1);
    for (unsigned l : outer) {
      lbs.push_back(zero);
      ubs.push_back(rw.create<arith::ConstantIndexOp>(loc, c->ranges[l]));
      steps.push_back(one);
    }
    scf::LoopNest nest = scf::buildLoopNest(rw, loc, lbs, ubs, steps, body);
    // Not inside a loop already (an epilogue's panels, which may be on
    // the threads themselves).
    if (!nest.loops[0]->getParentOfType<scf::ForOp>() &&
        outerLoopInParallel(*c, outer))
      setMarker<ParallelTile>(nest.loops[0]);
    if (fill)
      sinkAccumulatorFill(rw, fill, *c, outer, nest);
  }
  if (rhs->copy)
    rw.create<memref::DeallocOp>(loc, rhs->copy);
  rw.eraseOp(op);
  return true;
}

//===--- Tiling, peeling, vectorizing -------------------------------------===//

struct KernelShape {
  int64_t cache[3];    // M, N, K
  int64_t registers[3];
};

/// The register tile's row is a power-of-two number of vectors (see
/// splitUnevenTiles): 4 x 4 vectors in 32 AVX-512 registers, 6 x 2 vectors
/// in 16 AVX2 ones (BLIS's Haswell shape; the former 4 x 3 vectors ran at
/// 0.13 of oneDNN, measured with 256-bit code on the Zen 4 here). Cache
/// tiles (M, N, K) = (512, 128, 256) with AVX-512, sized for the 1 MiB L2
/// of the Zen 4 here (a 128 KiB packed B tile; longer runs of each A row
/// per tile): 2-3% faster at 512-2048 than (256, 128, 128) in interleaved
/// runs. AVX2 machines keep the smaller tiles (their L2 is often 256 KiB).
KernelShape kernelShape(int64_t vectorBits, Type et) {
  int64_t lanes = std::max<int64_t>(1, vectorBits / et.getIntOrFloatBitWidth());
  if (vectorBits >= 512)
    return {{512, 128, 256}, {4, 4 * lanes, 1}};
  if (vectorBits >= 256)
    return {{256, 128, 128}, {6, 2 * lanes, 1}};
  return {{256, 128, 128}, {4, 2 * lanes, 1}};
}

/// A static f32/f64 matmul the kernels take: B and C rows contiguous, or
/// with `stridedB` B a transposed view (its tiles are packed).
bool isKernelCandidate(linalg::LinalgOp op, bool stridedB = false) {
  if (!isa<linalg::MatmulOp, linalg::MatmulTransposeAOp>(op) ||
      !op.hasPureBufferSemantics())
    return false;
  auto b = cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
  auto c = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  auto a = cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  Type et = c.getElementType();
  return (et.isF32() || et.isF64()) && a.getElementType() == et &&
         b.getElementType() == et && a.hasStaticShape() &&
         b.hasStaticShape() && c.hasStaticShape() &&
         (innermostStrideIsOne(b) || (stridedB && isTransposedView(b))) &&
         innermostStrideIsOne(c);
}

void markLoops(ArrayRef<Operation *> loops) {
  for (Operation *loop : loops)
    setMarker<KernelLoop>(loop);
}

/// Tiles `op` with `sizes`, marks the new loops for peeling and the tiled op
/// with the marker `Tile` (CachePanel or RegisterTile), and erases `op`.
template <typename Tile>
FailureOr<linalg::TiledLinalgOp> tile(RewriterBase &rw, linalg::LinalgOp op,
                                      ArrayRef<int64_t> sizes) {
  rw.setInsertionPoint(op);
  linalg::LinalgTilingOptions options;
  options.setTileSizes(sizes);
  FailureOr<linalg::TiledLinalgOp> tiled = linalg::tileLinalgOp(rw, op, options);
  if (failed(tiled))
    return failure();
  markLoops(tiled->loops);
  clearMarker<CacheTile>(tiled->op);
  clearMarker<CachePanel>(tiled->op);
  setMarker<Tile>(tiled->op);
  rw.eraseOp(op);
  return tiled;
}

/// The cache level: loops over M, then N, then K tiles. M is outermost so
/// that one sweep over N and K touches only a block of A's and C's rows:
/// with M innermost, a 2048 x 2048 matmul read 2048 rows of A and of C (a
/// page each) per (N, K) tile, more pages than the L2 TLB holds, and ran
/// at 0.80-0.88 of oneDNN; M outermost (with M blocks of 256), at
/// 0.90-0.92 (B's tiles are packed once per M block instead of once).
/// Host threads may share the M loop (its iterations write disjoint rows
/// of C) or, with one M block, the N loop (disjoint columns).
LogicalResult tileForPanels(RewriterBase &rw, linalg::LinalgOp op,
                            const KernelShape &shape) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  FailureOr<linalg::TiledLinalgOp> panels = tile<CachePanel>(
      rw, op, {shape.cache[0], shape.cache[1], shape.cache[2]});
  if (failed(panels))
    return failure();
  int64_t work = ranges[0] * ranges[1] * ranges[2];
  if (panels->loops.size() != 3 || work < kMinParallelWork)
    return success();
  // Already on the threads: one of a batch of matmuls.
  for (auto loop = panels->loops[0]->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (hasMarker<ParallelTile>(loop))
      return success();
  if (ranges[0] >= 2 * shape.cache[0])
    setMarker<ParallelTile>(panels->loops[0]);
  else if (ranges[1] >= 2 * shape.cache[1])
    setMarker<ParallelTile>(panels->loops[1]);
  return success();
}

/// Peels every marked loop, outermost first, so that every tile has a
/// static size (the partial iteration keeps the loops nested in it, which
/// are peeled in turn).
void peelTileLoops(RewriterBase &rw, func::FuncOp fn) {
  while (true) {
    scf::ForOp next;
    fn.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (!hasMarker<KernelLoop>(loop))
        return WalkResult::advance();
      next = loop;
      return WalkResult::interrupt();
    });
    if (!next)
      return;
    clearMarker<KernelLoop>(next);
    scf::ForOp partial;
    rw.setInsertionPoint(next);
    if (succeeded(scf::peelForLoopAndSimplifyBounds(rw, next, partial))) {
      clearMarker<KernelLoop>(partial);
      clearMarker<ParallelTile>(partial);
    }
  }
}

/// Every loaded dialect's and registered op's canonicalization patterns:
/// what the canonicalizer runs, collected once per pass instance rather
/// than at each of the kernel stage's canonicalizations (there are up to
/// eight per function).
FrozenRewritePatternSet canonicalizationPatterns(MLIRContext *ctx) {
  RewritePatternSet patterns(ctx);
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  return FrozenRewritePatternSet(std::move(patterns));
}

/// Whether A of the static cache tile `op` is packed (packLhsStrips): a
/// transposed A (matmul_transpose_a), whose k steps would otherwise each
/// read a new cache line per strip (dw = dyᵀ · x: 2-2.5x faster packed).
/// A row-major A is read in place: in this loop order a packed strip
/// serves only the register tiles of one N panel, and on this machine
/// packing it was slower at every size measured (512-2048, by 3-8%).
bool shouldPackLhs(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges(); // M, N, K
  return isa<linalg::MatmulTransposeAOp>(op) && ranges[0] >= 4 &&
         ranges[2] >= 16;
}


struct VectorizeKernelsPass
    : impl::TorusVectorizeKernelsBase<VectorizeKernelsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    canonicalPatterns = canonicalizationPatterns(ctx);
    return success();
  }

  LogicalResult canonicalize(func::FuncOp fn) {
    return applyPatternsAndFoldGreedily(fn, canonicalPatterns);
  }

  void runOnOperation() override {
    SmallVector<func::FuncOp> fns(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp fn : fns)
      if (!fn.isExternal() && failed(runOnFunction(fn)))
        return signalPassFailure();
  }

  LogicalResult runOnFunction(func::FuncOp fn) {
    MLIRContext *ctx = &getContext();
    IRRewriter rw(ctx);
    int64_t bits = vectorBits > 0 ? vectorBits : hostVectorBits();

    // 1. Contractions to matmuls on views.
    SmallVector<linalg::GenericOp> generics;
    fn.walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      (void)rewriteContraction(rw, op, pack);
    // Transposes on buffers (the program's, and with pack=false the copies
    // of B made above) as blocked vector transposes.
    int transposes = lowerTransposes(rw, fn, bits);

    // 2. Tile, peel, vectorize.
    SmallVector<linalg::LinalgOp> kernels;
    fn.walk([&](linalg::LinalgOp op) {
      if (isKernelCandidate(op, pack))
        kernels.push_back(op);
    });
    if (kernels.empty() && transposes == 0)
      return success();
    if (failed(tileKernels(rw, fn, kernels, bits)))
      return failure();
    return lowerVectors(rw, fn);
  }

  /// Step 2: tiles, packs, peels and vectorizes `kernels`.
  LogicalResult tileKernels(IRRewriter &rw, func::FuncOp fn,
                            ArrayRef<linalg::LinalgOp> kernels, int64_t bits) {
    if (kernels.empty())
      return success();
    auto shapeOf = [&](linalg::LinalgOp op) {
      Type et = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType())
                    .getElementType();
      return kernelShape(bits, et);
    };
    // Cache level: M, N and K tiles (peeled: static), B's tile packed once
    // per (M, N, K) tile.
    for (linalg::LinalgOp op : kernels)
      if (failed(tileForPanels(rw, op, shapeOf(op))))
        return failure();
    peelTileLoops(rw, fn);
    if (failed(canonicalize(fn)))
      return failure();
    SmallVector<linalg::LinalgOp> panels;
    fn.walk([&](linalg::LinalgOp op) {
      if (hasMarker<CachePanel>(op))
        panels.push_back(op);
    });
    PackBuffers packBuffers;
    for (linalg::LinalgOp op : panels) {
      clearMarker<CachePanel>(op);
      if (!isKernelCandidate(op, pack))
        continue;
      SmallVector<int64_t> panelRanges = op.getStaticLoopRanges();
      KernelShape shape = shapeOf(op);
      // Only tiles that fill most of the buffer and serve enough rows of A
      // are worth the copy; a transposed B is always packed.
      auto bType =
          cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
      if ((pack && panelRanges[0] >= 64 && panelRanges[2] >= 32 &&
           panelRanges[1] >= 32) ||
          !innermostStrideIsOne(bType))
        packRhsTile(rw, fn, op, shape.cache[2], shape.cache[1], bits,
                    packBuffers);
      setMarker<CacheTile>(op);
    }
    if (failed(canonicalize(fn)))
      return failure();
    // The cache tiles are static now (peeled): A packed one register strip
    // at a time where it pays (see shouldPackLhs).
    SmallVector<linalg::LinalgOp> cacheTiles;
    fn.walk([&](linalg::LinalgOp op) {
      if (hasMarker<CacheTile>(op))
        cacheTiles.push_back(op);
    });
    if (pack) {
      SmallVector<linalg::LinalgOp> unpacked;
      bool packed = false;
      for (linalg::LinalgOp op : cacheTiles) {
        if (!isKernelCandidate(op) || !shouldPackLhs(op)) {
          unpacked.push_back(op);
          continue;
        }
        KernelShape shape = shapeOf(op);
        llvm::append_range(unpacked,
                           packLhsStrips(rw, fn, op, shape.cache[2],
                                         shape.registers[0], bits,
                                         packBuffers));
        packed = true;
      }
      cacheTiles = std::move(unpacked);
      if (packed && failed(canonicalize(fn)))
        return failure();
    }
    // Then tile them for registers: M and N (the uneven N remainders
    // split), then K innermost.
    for (linalg::LinalgOp op : cacheTiles) {
      clearMarker<CacheTile>(op);
      if (!isKernelCandidate(op))
        continue;
      KernelShape shape = shapeOf(op);
      if (failed(tile<RegisterTile>(
              rw, op, {shape.registers[0], shape.registers[1], 0})))
        return failure();
    }
    peelTileLoops(rw, fn);
    if (failed(canonicalize(fn)))
      return failure();
    if (failed(splitUnevenTiles(rw, fn)))
      return failure();
    SmallVector<linalg::LinalgOp> tiles;
    auto collectTiles = [&] {
      tiles.clear();
      fn.walk([&](linalg::LinalgOp op) {
        if (hasMarker<RegisterTile>(op) && isKernelCandidate(op))
          tiles.push_back(op);
      });
    };
    collectTiles();
    for (linalg::LinalgOp op : tiles)
      if (failed(tile<RegisterTile>(rw, op, {0, 0, shapeOf(op).registers[2]})))
        return failure();
    peelTileLoops(rw, fn);
    if (failed(canonicalize(fn)))
      return failure();
    collectTiles();
    for (linalg::LinalgOp op : tiles) {
      rw.setInsertionPoint(op);
      // On success vectorize() replaces or erases `op` itself: it must not
      // be touched afterwards (reading it was a use after free).
      if (failed(linalg::vectorize(rw, op)))
        continue; // stays a loop nest
    }
    return success();
  }

  /// Splits every register tile whose N size (its row of C) is not a power
  /// of two into a power-of-two piece and the rest, until all are: a peeled
  /// remainder of 40 columns becomes 32 + 8, 48 becomes 32 + 16, 6 becomes
  /// 4 + 2. LLVM 19 moves a loop-carried vector of any other length (the
  /// accumulator rows the K loop carries, a phi of [4 x <48 x float>]) lane
  /// by lane: one 4 x 48 tile took 288 vinsertps per K step, and the 1000 x
  /// 1000 matmul, whose last panel is 64 + 40 wide, ran at 0.70 of oneDNN
  /// (0.90 split).
  LogicalResult splitUnevenTiles(IRRewriter &rw, func::FuncOp fn) {
    while (true) {
      SmallVector<std::pair<linalg::LinalgOp, int64_t>> uneven;
      fn.walk([&](linalg::LinalgOp op) {
        if (!hasMarker<RegisterTile>(op) || !isKernelCandidate(op))
          return;
        uint64_t n = op.getStaticLoopRanges()[1];
        if (!llvm::isPowerOf2_64(n))
          uneven.push_back({op, int64_t(llvm::bit_floor(n))});
      });
      if (uneven.empty())
        return success();
      for (auto [op, piece] : uneven)
        if (failed(tile<RegisterTile>(rw, op, {0, piece, 0})))
          return failure();
      peelTileLoops(rw, fn);
      if (failed(canonicalize(fn)))
        return failure();
    }
  }

  /// Steps 3 and 4: vectors lowered, large kernels over host threads.
  LogicalResult lowerVectors(IRRewriter &rw, func::FuncOp fn) {
    MLIRContext *ctx = &getContext();

    // 3. Contractions, alias folding, hoisting, lowering.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      if (failed(applyPatternsAndFoldGreedily(fn, std::move(patterns))))
        return failure();
    }
    {
      RewritePatternSet patterns(ctx);
      memref::populateFoldMemRefAliasOpPatterns(patterns);
      if (failed(applyPatternsAndFoldGreedily(fn, std::move(patterns))))
        return failure();
    }
    if (failed(canonicalize(fn)))
      return failure();
    // The accumulator's read and write must index with the same values.
    {
      DominanceInfo dominance(fn);
      eliminateCommonSubExpressions(rw, dominance, fn);
    }
    linalg::hoistRedundantVectorTransfers(fn);
    hoistAccumulators(fn); // what MLIR leaves: C in the buffer plan
    {
      RewritePatternSet patterns(ctx);
      vector::VectorTransformsOptions options;
      options.setVectorTransformsOptions(
          vector::VectorContractLowering::OuterProduct);
      options.setVectorTransposeLowering(
          vector::VectorTransposeLowering::Shuffle16x16);
      vector::populateVectorContractLoweringPatterns(patterns, options);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(patterns, options);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      populateVectorToSCFConversionPatterns(
          patterns, VectorTransferToSCFOptions().enableFullUnroll());
      if (failed(applyPatternsAndFoldGreedily(fn, std::move(patterns))))
        return failure();
    }
    // The one-element reads of a packed A strip (a transposed view) were
    // unrolled into one-trip loops: fold them to plain loads.
    if (failed(canonicalize(fn)))
      return failure();
    // 4. Large kernels' outer tile loops over host threads.
    outlineMarkedLoops(rw, fn, threads);
    // Attributes of the kernels are not needed past this point.
    fn.walk([&](Operation *op) {
      clearMarker<RegisterTile>(op);
      clearMarker<TorusDialect::KernelAttrHelper>(op);
    });
    return success();
  }

  FrozenRewritePatternSet canonicalPatterns;
};

} // namespace

void buildKernelPipeline(OpPassManager &pm, const CodegenOptions &options) {
  TorusVectorizeKernelsOptions kernels;
  kernels.vectorBits = targetVectorBits(options);
  pm.addPass(createTorusVectorizeKernels(kernels));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

} // namespace mlir::torus
