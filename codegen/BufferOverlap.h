//===- BufferOverlap.h - Whether two buffers may share bytes ---*- C++ -*-===//
//
// The kernel stage moves loads and stores across each other (accumulators
// kept in registers, epilogues interleaved with their contraction). That is
// only right when the buffers involved cannot overlap. On buffers after
// torus-plan-buffers, temporaries are `memref.view`s of one workspace,
// marked `torus.buffer` and `torus.offset`: two of them share bytes exactly
// when their byte ranges intersect (the plan reuses a range once its first
// user is dead). Everything else is traced through view ops to a function
// argument or an allocation; distinct ones are distinct buffers, as MLIR's
// own hoisting assumes.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_BUFFEROVERLAP_H
#define TORUS_CODEGEN_BUFFEROVERLAP_H

namespace mlir {
class Value;
} // namespace mlir

namespace mlir::torus {

/// The buffer `v` is part of: through view ops, up to a function argument,
/// an allocation or a planned workspace view.
Value bufferOf(Value v);

/// Whether memrefs `a` and `b` may share bytes (see the file comment).
bool mayOverlap(Value a, Value b);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_BUFFEROVERLAP_H
