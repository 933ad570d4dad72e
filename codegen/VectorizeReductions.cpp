//===- VectorizeReductions.cpp - Vectorized innermost reductions ----------===//
//
// torus-vectorize-reductions: part of the kernel stage (buildKernelPipeline),
// on buffers. A reduction whose innermost loop is a reduction over
// contiguous memory (a row sum, a softmax's max, a fused sum(x * y) over the
// last axis, a full sum) is a chain of dependent scalar operations when it
// becomes loops, and LLVM does not reorder floating-point operations to
// vectorize it. This pass does: every such reduction runs on one row at a
// time (the other loops are tiled by 1), and each row is
//
//   acc[0..A) = identity vectors             A independent accumulators
//   for k in steps of A * lanes:             (latency hidden, never masked)
//     acc[a] = acc[a] (+) body(row[k + a * lanes : ... + lanes])
//   acc[a] (+)= body(...) for the remaining whole vectors
//   s = reduce(acc[0] (+) acc[1] (+) ...)   horizontal, once per row
//   for k in the last < lanes elements:      peeled scalar tail
//     s = s (+) body(row[k])
//   out = out (+) s
//
// The body's elementwise ops (the fused producers) run on vectors. Floating
// point sums are therefore reassociated: they differ from the sequential
// loop by rounding (docs/codegen.md gives the bound the tests use).
//
//===----------------------------------------------------------------------===//

#include "codegen/Markers.h"
#include "codegen/ParallelLoop.h"
#include "codegen/Passes.h"
#include "codegen/Pipelines.h"
#include "codegen/RowTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSVECTORIZEREDUCTIONS
#include "codegen/Passes.h.inc"

namespace {

using vector::CombiningKind;

/// Accumulators per row: enough independent chains to cover the latency
/// of a vector add.
constexpr int64_t kAccumulators = 4;

std::optional<CombiningKind> combiningKind(Operation *op) {
  using K = std::optional<CombiningKind>;
  return llvm::TypeSwitch<Operation *, K>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return CombiningKind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return CombiningKind::MUL; })
      .Case([](arith::MaximumFOp) { return CombiningKind::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return CombiningKind::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return CombiningKind::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return CombiningKind::MINNUMF; })
      .Case([](arith::MaxSIOp) { return CombiningKind::MAXSI; })
      .Case([](arith::MinSIOp) { return CombiningKind::MINSI; })
      .Case([](arith::MaxUIOp) { return CombiningKind::MAXUI; })
      .Case([](arith::MinUIOp) { return CombiningKind::MINUI; })
      .Case([](arith::AndIOp) { return CombiningKind::AND; })
      .Case([](arith::OrIOp) { return CombiningKind::OR; })
      .Case([](arith::XOrIOp) { return CombiningKind::XOR; })
      .Default([](Operation *) -> K { return std::nullopt; });
}

/// x (+) identity == x for every x of `type` (-0.0 for a float sum, so a
/// sum of -0.0s stays -0.0).
TypedAttr identity(CombiningKind kind, Type type) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case CombiningKind::ADD:
      return FloatAttr::get(ft, llvm::APFloat::getZero(sem, /*Negative=*/true));
    case CombiningKind::MUL:
      return FloatAttr::get(ft, 1.0);
    case CombiningKind::MAXIMUMF:
    case CombiningKind::MAXNUMF:
      return FloatAttr::get(ft, llvm::APFloat::getInf(sem, /*Negative=*/true));
    case CombiningKind::MINIMUMF:
    case CombiningKind::MINNUMF:
      return FloatAttr::get(ft, llvm::APFloat::getInf(sem));
    default:
      return {};
    }
  }
  auto it = cast<IntegerType>(type);
  unsigned w = it.getWidth();
  switch (kind) {
  case CombiningKind::ADD:
  case CombiningKind::OR:
  case CombiningKind::XOR:
  case CombiningKind::MAXUI:
    return IntegerAttr::get(it, llvm::APInt::getZero(w));
  case CombiningKind::MUL:
    return IntegerAttr::get(it, llvm::APInt(w, 1));
  case CombiningKind::AND:
  case CombiningKind::MINUI:
    return IntegerAttr::get(it, llvm::APInt::getAllOnes(w));
  case CombiningKind::MAXSI:
    return IntegerAttr::get(it, llvm::APInt::getSignedMinValue(w));
  case CombiningKind::MINSI:
    return IntegerAttr::get(it, llvm::APInt::getSignedMaxValue(w));
  default:
    return {};
  }
}

/// What vectorizing one reduction needs to know about it.
struct RowReduction {
  linalg::GenericOp op;
  unsigned row;       // the innermost loop, a reduction
  int64_t length;     // its extent
  int64_t lanes;      // vector lanes of the result's element type
  CombiningKind kind; // how the body's value joins the result
  Operation *combiner;
  Value value;        // the body's value for one element, combined
};

/// The reduction `op` is, when it can be vectorized (see the file
/// comment): static shapes, buffer operands, projected-permutation maps;
/// the innermost loop a reduction that every input either reads along its
/// innermost unit-stride dimension or does not depend on; a body of
/// elementwise ops whose yield is `combiner(result, value)`.
std::optional<RowReduction> match(linalg::GenericOp op, int64_t vectorBits) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() == 0)
    return std::nullopt;
  unsigned row = op.getNumLoops() - 1;
  if (op.getIteratorTypesArray()[row] != utils::IteratorType::reduction)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  Type et = getElementTypeOrSelf(init->get().getType());
  if (!isa<FloatType>(et) && !(isa<IntegerType>(et) &&
                               et.getIntOrFloatBitWidth() >= 8))
    return std::nullopt;
  int64_t lanes = vectorBits / et.getIntOrFloatBitWidth();
  if (lanes < 2 || ranges[row] < lanes)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !type.hasStaticShape() || !map.isProjectedPermutation())
      return std::nullopt;
    if (!map.isFunctionOfDim(row))
      continue;
    if (&operand == init || map.getDimPosition(map.getNumResults() - 1) != row ||
        !innermostStrideIsOne(type))
      return std::nullopt;
  }
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  BlockArgument result = op.getMatchingBlockArgument(init);
  if (!combiner || combiner->getBlock() != &body ||
      combiner->getNumOperands() != 2 || !result.hasOneUse() ||
      !llvm::is_contained(combiner->getOperands(), result))
    return std::nullopt;
  std::optional<CombiningKind> kind = combiningKind(combiner);
  if (!kind || !identity(*kind, et))
    return std::nullopt;
  Value value = combiner->getOperand(combiner->getOperand(0) == result);
  for (Operation &inner : body.without_terminator()) {
    if (&inner == combiner)
      continue;
    if (inner.getNumRegions() != 0 || inner.getNumResults() != 1 ||
        !(inner.hasTrait<OpTrait::Elementwise>() ||
          inner.hasTrait<OpTrait::ConstantLike>()) ||
        !isMemoryEffectFree(&inner))
      return std::nullopt;
    for (Type t : inner.getResultTypes())
      if (!t.isIntOrFloat())
        return std::nullopt;
  }
  return RowReduction{op, row, ranges[row], lanes, *kind, combiner, value};
}

/// Emits the body of a (tiled: every loop but the row has extent 1)
/// reduction for the elements at `k` (a vector of `lanes` of them, or one
/// when `lanes` is 0); returns its value before it is combined.
class RowBody {
public:
  RowBody(const RowReduction &r) : r_(r) {}

  Value emit(OpBuilder &b, Location loc, Value k, int64_t lanes) {
    linalg::GenericOp op = r_.op;
    Block &body = op.getRegion().front();
    IRMapping map;
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    auto vectorOf = [&](Type t) -> Type {
      return lanes ? VectorType::get({lanes}, t) : t;
    };
    auto splat = [&](Value scalar) -> Value {
      return lanes ? b.create<vector::BroadcastOp>(
                         loc, vectorOf(scalar.getType()), scalar)
                   : scalar;
    };
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap m = op.getMatchingIndexingMap(in);
      SmallVector<Value> indices;
      for (unsigned j = 0; j < m.getNumResults(); ++j)
        indices.push_back(m.getDimPosition(j) == r_.row ? k : zero);
      BlockArgument arg = op.getMatchingBlockArgument(in);
      if (!m.isFunctionOfDim(r_.row)) {
        map.map(arg, splat(b.create<memref::LoadOp>(loc, in->get(), indices)));
      } else if (lanes) {
        map.map(arg, b.create<vector::LoadOp>(
                         loc, VectorType::get({lanes}, arg.getType()),
                         in->get(), indices));
      } else {
        map.map(arg, b.create<memref::LoadOp>(loc, in->get(), indices));
      }
    }
    for (Operation &inner : body.without_terminator()) {
      if (&inner == r_.combiner)
        continue;
      // Values from above the body are scalars used by every lane.
      for (Value operand : inner.getOperands())
        if (!map.contains(operand) && operand.getParentBlock() != &body)
          map.map(operand, splat(operand));
      if (inner.getNumOperands() == 0) { // a constant
        map.map(inner.getResult(0), splat(b.clone(inner)->getResult(0)));
        continue;
      }
      Operation *clone = b.clone(inner, map);
      for (Value result : clone->getResults())
        result.setType(vectorOf(result.getType()));
    }
    Value value = r_.value;
    if (!map.contains(value)) // read straight from an input or from above
      map.map(value, splat(value));
    return map.lookup(value);
  }

private:
  const RowReduction &r_;
};

/// Replaces the tiled reduction `r.op` (one row) with the vector loop of
/// the file comment.
void vectorizeRow(RewriterBase &rw, const RowReduction &r) {
  linalg::GenericOp op = r.op;
  Location loc = op.getLoc();
  rw.setInsertionPoint(op);
  RowBody body(r);
  Type et = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  auto vt = VectorType::get({r.lanes}, et);
  auto index = [&](int64_t v) -> Value {
    return rw.create<arith::ConstantIndexOp>(loc, v);
  };

  int64_t vectors = r.length / r.lanes;
  int64_t numAcc = std::min(kAccumulators, vectors);
  int64_t chunk = numAcc * r.lanes;
  int64_t mainEnd = r.length / chunk * chunk;
  Value id = rw.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(vt, identity(r.kind, et)));
  SmallVector<Value> acc(numAcc, id);
  auto loop = rw.create<scf::ForOp>(
      loc, index(0), index(mainEnd), index(chunk), acc,
      [&](OpBuilder &b, Location l, Value k, ValueRange accs) {
        SmallVector<Value> next;
        for (int64_t a = 0; a < numAcc; ++a) {
          Value at = b.create<arith::AddIOp>(
              l, k, b.create<arith::ConstantIndexOp>(l, a * r.lanes));
          next.push_back(vector::makeArithReduction(
              b, l, r.kind, body.emit(b, l, at, r.lanes), accs[a]));
        }
        b.create<scf::YieldOp>(l, next);
      });
  acc = loop.getResults();
  // Whole vectors after the main loop (fewer than numAcc).
  for (int64_t a = 0; mainEnd + (a + 1) * r.lanes <= r.length; ++a)
    acc[a] = vector::makeArithReduction(
        rw, loc, r.kind,
        body.emit(rw, loc, index(mainEnd + a * r.lanes), r.lanes), acc[a]);
  while (acc.size() > 1) {
    SmallVector<Value> half;
    for (size_t a = 0; a + 1 < acc.size(); a += 2)
      half.push_back(
          vector::makeArithReduction(rw, loc, r.kind, acc[a + 1], acc[a]));
    if (acc.size() % 2)
      half.push_back(acc.back());
    acc = std::move(half);
  }
  Value sum = rw.create<vector::ReductionOp>(loc, r.kind, acc[0]);
  // The peeled scalar tail.
  int64_t tail = vectors * r.lanes;
  if (tail < r.length) {
    auto tailLoop = rw.create<scf::ForOp>(
        loc, index(tail), index(r.length), index(1), ValueRange{sum},
        [&](OpBuilder &b, Location l, Value k, ValueRange s) {
          b.create<scf::YieldOp>(
              l, vector::makeArithReduction(b, l, r.kind,
                                            body.emit(b, l, k, 0), s[0]));
        });
    sum = tailLoop.getResult(0);
  }
  Value out = op.getDpsInitOperand(0)->get();
  SmallVector<Value> zeros(cast<MemRefType>(out.getType()).getRank(),
                           index(0));
  Value old = rw.create<memref::LoadOp>(loc, out, zeros);
  rw.create<memref::StoreOp>(
      loc, vector::makeArithReduction(rw, loc, r.kind, sum, old), out, zeros);
  rw.eraseOp(op);
}

/// Whether the rows of `op` (static shapes) may run on host threads: its
/// outermost loop is parallel and it reads enough elements for the start
/// of a parallel loop to pay (ParallelLoop.h).
bool rowsInParallel(linalg::GenericOp op) {
  return op.getIteratorTypesArray()[0] == utils::IteratorType::parallel &&
         op.getStaticLoopRanges()[0] >= 2 &&
         staticIterations(op) >= kMinParallelElements;
}

struct VectorizeReductionsPass
    : impl::TorusVectorizeReductionsBase<VectorizeReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t bits = vectorBits > 0 ? vectorBits : hostVectorBits();
    IRRewriter rw(&getContext());
    // linalg.reduce (the naive lowering keeps it) as the generic it is.
    SmallVector<linalg::ReduceOp> reduces;
    getOperation().walk([&](linalg::ReduceOp op) { reduces.push_back(op); });
    for (linalg::ReduceOp op : reduces) {
      rw.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rw, op);
    }
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) {
      if (match(op, bits))
        generics.push_back(op);
    });
    for (linalg::GenericOp op : generics) {
      // One row at a time: every loop but the innermost tiled by 1. Rows
      // of a large reduction go to host threads when its outermost loop is
      // parallel: each row writes its own result (torus-parallel-loops
      // outlines the row loop).
      const bool threadRows = op.getNumLoops() > 1 && rowsInParallel(op);
      Operation *outer;
      FailureOr<linalg::GenericOp> row = tileToRows(rw, op, &outer);
      if (failed(row))
        continue;
      linalg::GenericOp tiled = *row;
      if (threadRows)
        setMarker<TorusDialect::ParallelTileAttrHelper>(outer);
      std::optional<RowReduction> r = match(tiled, bits);
      if (!r) {
        tiled.emitOpError("torus-vectorize-reductions: tile lost its form");
        return signalPassFailure();
      }
      vectorizeRow(rw, *r);
    }
  }
};

} // namespace
} // namespace mlir::torus
