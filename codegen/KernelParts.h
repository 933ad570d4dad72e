//===- KernelParts.h - Pieces of the kernel stage ---------------*- C++ -*-===//
//
// Internal to codegen/: the parts of torus-vectorize-kernels that live in
// their own files. PackOperands.cpp copies a matmul's operand tiles into
// stack buffers laid out for the register tiles; Transposes.cpp emits
// blocked, vectorized transposing copies (used by the packing and for
// standalone linalg.transpose ops on buffers).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_KERNELPARTS_H
#define TORUS_CODEGEN_KERNELPARTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::torus {

//===--- Transposes.cpp ---------------------------------------------------===//

/// Emits `dst = transpose(src)` for static 2-D memrefs whose innermost
/// strides are 1: `block` x `block` tiles (the remainders are smaller static
/// tiles, never masked) each read as `block` vectors, transposed in
/// registers (vector.transpose) and written as `block` vectors.
void emitBlockedTranspose(OpBuilder &b, Location loc, Value src, Value dst,
                          int64_t block);

/// Emits `dst = src` for static 2-D memrefs with unit innermost strides, as
/// one vector per row (`dst` rows must be short: a row is one vector).
void emitRowCopy(OpBuilder &b, Location loc, Value src, Value dst);

/// Rewrites every static `linalg.transpose` on buffers in `fn` that moves
/// the innermost dimension into outer loops around a blocked transpose of
/// its two moving dims (transposes that keep the innermost dim stay
/// linalg: their rows are contiguous copies). Returns how many it rewrote.
int lowerTransposes(RewriterBase &rw, func::FuncOp fn, int64_t vectorBits);

/// Vector tile edge of a transpose: one register of 32-bit lanes.
int64_t transposeBlock(int64_t vectorBits, Type elementType);

//===--- PackOperands.cpp -------------------------------------------------===//

/// Stack buffers for packed tiles, one per buffer type and kind, created
/// at the top of the function on first use (the parallel outlining
/// re-creates them in each thread's body).
struct PackBuffers {
  llvm::DenseMap<std::pair<Type, int>, Value> buffers; // (type, kind)
  Value get(RewriterBase &rw, func::FuncOp fn, Location loc, int kind,
            MemRefType type);
};

/// A memref of rank 2 whose first dimension has stride 1 and second not:
/// a transposed view (`memref.transpose` of a row-major one).
bool isTransposedView(MemRefType type);

/// Copies B's (N, K) cache tile of the matmul `op` (a static [K, N] view,
/// row-major or a transposed view) into a dense [cacheK, cacheN] stack
/// buffer, and makes `op` read the copy. A transposed view is copied by a
/// blocked transpose from its row-major source, so `a · bᵀ` never
/// transposes the whole of B.
void packRhsTile(RewriterBase &rw, func::FuncOp fn, linalg::LinalgOp op,
                 int64_t cacheK, int64_t cacheN, int64_t vectorBits,
                 PackBuffers &buffers);

/// Packs A of the cache tile `op` (matmul on [R, K] or matmul_transpose_a
/// on [K, R]) one register strip at a time: a loop over strips of `regM`
/// rows copies the strip into a [cacheK, regM] stack buffer (one slice of
/// the Goto layout [cacheM/regM][cacheK][regM]: the strip's regM values of
/// one k are consecutive) and runs `matmul_transpose_a` of that buffer with
/// the strip's rows of C (a matmul on the buffer's transposed view). A row-major A is packed by a blocked transpose, a
/// transposed one by row copies. Returns the strip matmuls (marked as
/// cache tiles, TorusDialect::CacheTileAttrHelper); `op` is erased.
SmallVector<linalg::LinalgOp>
packLhsStrips(RewriterBase &rw, func::FuncOp fn, linalg::LinalgOp op,
              int64_t cacheK, int64_t regM, int64_t vectorBits,
              PackBuffers &buffers);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_KERNELPARTS_H
