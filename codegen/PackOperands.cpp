//===- PackOperands.cpp - Operand tiles copied for the register tiles -----===//
//
// The register tile (regM rows x 4 vectors of C) reads, per k, one row of B
// (4 vectors) and regM scalars of A. Read in place, those come from rows a
// matrix row apart; with power-of-two row strides every one of them maps
// to the same few cache sets, and a transposed operand (a · bᵀ, aᵀ · b)
// would be read one element per cache line. Packing copies each tile once
// into a stack buffer in the order the register tile reads it:
//
// - B: each (N, K) cache tile into a dense [cacheK][cacheN] buffer, once
//   per tile (it then serves every row of A). A transposed B (a view with
//   stride 1 along K) is copied by a blocked transpose of its row-major
//   source (Transposes.cpp): no whole-matrix transpose, no heap buffer.
// - A: each strip of regM rows of a cache tile into a [cacheK][regM]
//   buffer right before the strip's register tiles run: one slice of the
//   Goto layout [cacheM/regM][cacheK][regM], so a k step reads regM
//   consecutive floats. (A strip serves only the register tiles of one
//   N panel in this loop order, so one slice is all that needs to live.)
//   A row-major A is packed by a blocked transpose, a transposed A
//   (matmul_transpose_a) by row copies; the strip then runs as
//   matmul_transpose_a of the buffer.
//
//===----------------------------------------------------------------------===//

#include "codegen/KernelParts.h"
#include "codegen/Markers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::torus {

Value PackBuffers::get(RewriterBase &rw, func::FuncOp fn, Location loc,
                       int kind, MemRefType type) {
  Value &buffer = buffers[{type, kind}];
  if (!buffer) {
    OpBuilder::InsertionGuard guard(rw);
    rw.setInsertionPointToStart(&fn.getBody().front());
    buffer = rw.create<memref::AllocaOp>(loc, type, rw.getI64IntegerAttr(64));
  }
  return buffer;
}

bool isTransposedView(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() == 2 &&
         succeeded(getStridesAndOffset(type, strides, offset)) &&
         strides[0] == 1 && strides[1] != 1;
}

namespace {

enum Kind { kRhs = 0, kLhs = 1 };

/// The leading [rows, cols] corner of a 2-D buffer.
Value corner(OpBuilder &b, Location loc, Value buffer, int64_t rows,
             int64_t cols) {
  SmallVector<OpFoldResult> zeros(2, b.getIndexAttr(0)),
      ones(2, b.getIndexAttr(1)),
      sizes = {b.getIndexAttr(rows), b.getIndexAttr(cols)};
  return b.create<memref::SubViewOp>(loc, buffer, zeros, sizes, ones);
}

/// `v` with its two dims swapped (memref.transpose).
Value swapDims(OpBuilder &b, Location loc, Value v) {
  MLIRContext *ctx = b.getContext();
  AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx);
  return b.create<memref::TransposeOp>(loc, v, AffineMapAttr::get(swap));
}

/// The 2-D subview `m[off0 : off0 + size0, off1 : off1 + size1]`.
Value window(OpBuilder &b, Location loc, Value m, OpFoldResult off0,
             OpFoldResult off1, int64_t size0, int64_t size1) {
  SmallVector<OpFoldResult> offsets = {off0, off1},
                            sizes = {b.getIndexAttr(size0),
                                     b.getIndexAttr(size1)},
                            ones(2, b.getIndexAttr(1));
  return b.create<memref::SubViewOp>(loc, m, offsets, sizes, ones);
}

} // namespace

void packRhsTile(RewriterBase &rw, func::FuncOp fn, linalg::LinalgOp op,
                 int64_t cacheK, int64_t cacheN, int64_t vectorBits,
                 PackBuffers &buffers) {
  Value b = op.getDpsInputOperand(1)->get();
  auto type = cast<MemRefType>(b.getType());
  Type et = type.getElementType();
  Location loc = op.getLoc();
  Value buffer = buffers.get(rw, fn, loc, kRhs,
                             MemRefType::get({cacheK, cacheN}, et));
  rw.setInsertionPoint(op);
  Value view =
      corner(rw, loc, buffer, type.getDimSize(0), type.getDimSize(1));
  if (isTransposedView(type))
    emitBlockedTranspose(rw, loc, swapDims(rw, loc, b), view,
                         transposeBlock(vectorBits, et));
  else
    rw.create<linalg::CopyOp>(loc, b, view);
  rw.modifyOpInPlace(op, [&] { op->setOperand(1, view); });
}

SmallVector<linalg::LinalgOp>
packLhsStrips(RewriterBase &rw, func::FuncOp fn, linalg::LinalgOp op,
              int64_t cacheK, int64_t regM, int64_t vectorBits,
              PackBuffers &buffers) {
  bool transposed = isa<linalg::MatmulTransposeAOp>(op);
  Value a = op.getDpsInputOperand(0)->get(), b = op.getDpsInputOperand(1)->get(),
        c = op.getDpsInitOperand(0)->get();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges(); // M, N, K
  int64_t rows = ranges[0], cols = ranges[1], depth = ranges[2];
  Type et = cast<MemRefType>(a.getType()).getElementType();
  Location loc = op.getLoc();
  Value buffer =
      buffers.get(rw, fn, loc, kLhs, MemRefType::get({cacheK, regM}, et));
  rw.setInsertionPoint(op);
  SmallVector<linalg::LinalgOp> strips;
  // One strip of `h` rows starting at row `m`: pack, then multiply.
  auto strip = [&](OpBuilder &bld, Value m, int64_t h) {
    Value packed = corner(bld, loc, buffer, depth, h);
    OpFoldResult zero = bld.getIndexAttr(0);
    if (transposed)
      emitRowCopy(bld, loc, window(bld, loc, a, zero, m, depth, h), packed);
    else
      emitBlockedTranspose(bld, loc, window(bld, loc, a, m, zero, h, depth),
                           packed, transposeBlock(vectorBits, et));
    Value cStrip = window(bld, loc, c, m, zero, h, cols);
    // A plain matmul on the [h, K] view of the buffer: its register tile
    // reads A one scalar per row and k (a broadcast load), where
    // matmul_transpose_a would load an h-vector and shuffle each lane out.
    auto mm = bld.create<linalg::MatmulOp>(
        loc, ValueRange{swapDims(bld, loc, packed), b}, ValueRange{cStrip});
    setMarker<TorusDialect::CacheTileAttrHelper>(mm);
    strips.push_back(cast<linalg::LinalgOp>(mm.getOperation()));
  };
  int64_t full = rows / regM * regM;
  if (full == regM) {
    strip(rw, rw.create<arith::ConstantIndexOp>(loc, 0), regM);
  } else if (full > 0) {
    rw.create<scf::ForOp>(loc, rw.create<arith::ConstantIndexOp>(loc, 0),
                          rw.create<arith::ConstantIndexOp>(loc, full),
                          rw.create<arith::ConstantIndexOp>(loc, regM),
                          ValueRange{},
                          [&](OpBuilder &bld, Location, Value m, ValueRange) {
                            strip(bld, m, regM);
                            bld.create<scf::YieldOp>(loc);
                          });
  }
  if (rows > full)
    strip(rw, rw.create<arith::ConstantIndexOp>(loc, full), rows - full);
  rw.eraseOp(op);
  return strips;
}

} // namespace mlir::torus
