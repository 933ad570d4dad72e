//===- Transposes.cpp - Blocked, vectorized transposing copies ------------===//
//
// A transpose read one element at a time (the naive loops of
// linalg.transpose) touches a new cache line per element on one side; with
// power-of-two row strides those lines also map to the same cache sets.
// Here a transpose is done in square tiles of one vector register edge
// (16 x 16 f32 with AVX-512, 8 x 8 with AVX2): each tile is read as 16 row
// vectors, transposed in registers (vector.transpose, lowered to shuffles:
// VectorTransposeLowering::Shuffle16x16 for full f32 tiles) and written as
// 16 row vectors, so both sides move whole cache lines. Every tile has a
// static shape: the tiles at the right and bottom edges are smaller static
// tiles, never masked.
//
//===----------------------------------------------------------------------===//

#include "codegen/KernelParts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::torus {

int64_t transposeBlock(int64_t vectorBits, Type elementType) {
  // One register per row: 16 x 16 f32 with AVX-512, 8 x 8 with AVX2 (and
  // f64 with AVX-512); narrower types stay at 16 x 16.
  int64_t lanes = vectorBits / std::max(1u, elementType.getIntOrFloatBitWidth());
  return std::clamp<int64_t>(lanes, 4, 16);
}

namespace {

/// The parts of [0, size): full blocks, then one static remainder.
struct Part {
  int64_t begin, end, size;
};

SmallVector<Part> parts(int64_t size, int64_t block) {
  SmallVector<Part> out;
  int64_t full = size / block * block;
  if (full > 0)
    out.push_back({0, full, block});
  if (size > full)
    out.push_back({full, size, size - full});
  return out;
}

/// Calls `body(b, i, j, h, w)` for every static h x w block of a rows x
/// cols space (loops over the full blocks, straight-line code for the
/// edges).
void forEachBlock(
    OpBuilder &b, Location loc, int64_t rows, int64_t cols, int64_t blockRows,
    int64_t blockCols,
    function_ref<void(OpBuilder &, Value, Value, int64_t, int64_t)> body) {
  for (Part rp : parts(rows, blockRows))
    for (Part cp : parts(cols, blockCols)) {
      auto inner = [&](OpBuilder &b, Value i) {
        if (cp.end - cp.begin == cp.size) {
          body(b, i, b.create<arith::ConstantIndexOp>(loc, cp.begin), rp.size,
               cp.size);
          return;
        }
        b.create<scf::ForOp>(
            loc, b.create<arith::ConstantIndexOp>(loc, cp.begin),
            b.create<arith::ConstantIndexOp>(loc, cp.end),
            b.create<arith::ConstantIndexOp>(loc, cp.size), ValueRange{},
            [&](OpBuilder &b, Location, Value j, ValueRange) {
              body(b, i, j, rp.size, cp.size);
              b.create<scf::YieldOp>(loc);
            });
      };
      if (rp.end - rp.begin == rp.size) {
        inner(b, b.create<arith::ConstantIndexOp>(loc, rp.begin));
        continue;
      }
      b.create<scf::ForOp>(loc, b.create<arith::ConstantIndexOp>(loc, rp.begin),
                           b.create<arith::ConstantIndexOp>(loc, rp.end),
                           b.create<arith::ConstantIndexOp>(loc, rp.size),
                           ValueRange{},
                           [&](OpBuilder &b, Location, Value i, ValueRange) {
                             inner(b, i);
                             b.create<scf::YieldOp>(loc);
                           });
    }
}

} // namespace

void emitBlockedTranspose(OpBuilder &b, Location loc, Value src, Value dst,
                          int64_t block) {
  auto type = cast<MemRefType>(src.getType());
  Type et = type.getElementType();
  SmallVector<bool> inBounds(2, true);
  forEachBlock(b, loc, type.getDimSize(0), type.getDimSize(1), block, block,
               [&](OpBuilder &b, Value i, Value j, int64_t h, int64_t w) {
                 Value tile = b.create<vector::TransferReadOp>(
                     loc, VectorType::get({h, w}, et), src, ValueRange{i, j},
                     inBounds);
                 Value t = b.create<vector::TransposeOp>(
                     loc, tile, ArrayRef<int64_t>{1, 0});
                 b.create<vector::TransferWriteOp>(loc, t, dst,
                                                   ValueRange{j, i}, inBounds);
               });
}

void emitRowCopy(OpBuilder &b, Location loc, Value src, Value dst) {
  auto type = cast<MemRefType>(src.getType());
  Type et = type.getElementType();
  int64_t cols = type.getDimSize(1);
  SmallVector<bool> inBounds(2, true);
  // Several rows per step, so that a step moves a few hundred bytes.
  int64_t rowsPerStep = std::max<int64_t>(1, 64 / std::max<int64_t>(1, cols));
  forEachBlock(b, loc, type.getDimSize(0), cols, rowsPerStep, cols,
               [&](OpBuilder &b, Value i, Value j, int64_t h, int64_t w) {
                 Value tile = b.create<vector::TransferReadOp>(
                     loc, VectorType::get({h, w}, et), src, ValueRange{i, j},
                     inBounds);
                 b.create<vector::TransferWriteOp>(loc, tile, dst,
                                                   ValueRange{i, j}, inBounds);
               });
}

static bool unitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(getStridesAndOffset(type, strides, offset)) &&
         !strides.empty() && strides.back() == 1;
}

int lowerTransposes(RewriterBase &rw, func::FuncOp fn, int64_t vectorBits) {
  int rewritten = 0;
  SmallVector<linalg::TransposeOp> ops;
  fn.walk([&](linalg::TransposeOp op) { ops.push_back(op); });
  for (linalg::TransposeOp op : ops) {
    if (!op.hasPureBufferSemantics())
      continue;
    auto in = dyn_cast<MemRefType>(op.getInput().getType());
    auto out = dyn_cast<MemRefType>(op.getInit().getType());
    if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape() ||
        in.getRank() < 2 || !unitInnerStride(in) || !unitInnerStride(out) ||
        !in.getElementType().isIntOrFloat())
      continue;
    ArrayRef<int64_t> perm = op.getPermutation(); // out dim d = in dim perm[d]
    int64_t rank = in.getRank(), last = rank - 1;
    if (perm[last] == last)
      continue; // rows stay rows: a strided copy of contiguous rows
    // Output dim `outOfInLast` receives the input's innermost dim; the
    // input's dim `perm[last]` becomes the output's innermost.
    int64_t inDim = perm[last], outDim = -1;
    for (int64_t d = 0; d < rank; ++d)
      if (perm[d] == last)
        outDim = d;
    Location loc = op.getLoc();
    rw.setInsertionPoint(op);
    SmallVector<int64_t> outer; // output dims looped over
    for (int64_t d = 0; d < rank; ++d)
      if (d != outDim && d != last)
        outer.push_back(d);
    auto body = [&](OpBuilder &b, Location l, ValueRange ivs) {
      SmallVector<OpFoldResult> inOff(rank, b.getIndexAttr(0)),
          outOff(rank, b.getIndexAttr(0)), inSizes(rank, b.getIndexAttr(1)),
          outSizes(rank, b.getIndexAttr(1)), ones(rank, b.getIndexAttr(1));
      for (auto [k, d] : llvm::enumerate(outer)) {
        outOff[d] = ivs[k];
        inOff[perm[d]] = ivs[k];
      }
      inSizes[inDim] = b.getIndexAttr(in.getDimSize(inDim));
      inSizes[last] = b.getIndexAttr(in.getDimSize(last));
      outSizes[outDim] = b.getIndexAttr(out.getDimSize(outDim));
      outSizes[last] = b.getIndexAttr(out.getDimSize(last));
      auto view = [&](Value m, MemRefType t, ArrayRef<OpFoldResult> off,
                      ArrayRef<OpFoldResult> sizes, int64_t d0) -> Value {
        SmallVector<int64_t> kept = {t.getDimSize(d0), t.getDimSize(last)};
        auto vt = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
            kept, t, off, sizes, ones));
        return b.create<memref::SubViewOp>(l, vt, m, off, sizes, ones);
      };
      Value src = view(op.getInput(), in, inOff, inSizes, inDim);
      Value dst = view(op.getInit(), out, outOff, outSizes, outDim);
      emitBlockedTranspose(b, l, src, dst,
                           transposeBlock(vectorBits, in.getElementType()));
    };
    if (outer.empty()) {
      body(rw, loc, {});
    } else {
      SmallVector<Value> lbs, ubs, steps;
      for (int64_t d : outer) {
        lbs.push_back(rw.create<arith::ConstantIndexOp>(loc, 0));
        ubs.push_back(
            rw.create<arith::ConstantIndexOp>(loc, out.getDimSize(d)));
        steps.push_back(rw.create<arith::ConstantIndexOp>(loc, 1));
      }
      scf::buildLoopNest(rw, loc, lbs, ubs, steps, body);
    }
    rw.eraseOp(op);
    ++rewritten;
  }
  return rewritten;
}

} // namespace mlir::torus
