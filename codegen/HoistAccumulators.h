//===- HoistAccumulators.h - Keep a kernel's accumulators in registers ---===//
//
// Part of the kernel stage (VectorizeKernels.cpp). After vectorization a
// register tile's K loop reads its accumulators from C, updates them and
// writes them back on every iteration. MLIR's hoistRedundantVectorTransfers
// moves such read/write pairs out of the loop, but never for a buffer that
// comes from a view op, and every temporary the buffer plan carves from the
// workspace is a memref.view: a matmul into a temporary then stores its
// whole register tile to memory on every K step (2-4x slower). The
// function here hoists those pairs too, when no other op in the loop uses a
// buffer that may overlap (BufferOverlap.h: planned views overlap only
// where their byte ranges do).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_HOISTACCUMULATORS_H
#define TORUS_CODEGEN_HOISTACCUMULATORS_H

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::torus {

/// Hoists every vector.transfer_read / transfer_write pair of the same
/// buffer at the same loop-invariant indices out of its scf.for when
/// nothing else in the loop touches that buffer (see the file comment).
void hoistAccumulators(func::FuncOp fn);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_HOISTACCUMULATORS_H
