//===- Autodiff.h - Reverse-mode differentiation of torus IR ----*- C++ -*-===//
//
// The trace is the tape: the ops that compute `output` from `wrt` are
// already in the IR, so reverse mode is a walk back over them from `output`,
// emitting each op's vector-Jacobian product (VJPRules.cpp) at the builder's
// insertion point and summing cotangents where a value has several uses.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_PASSES_AUTODIFF_H
#define TORUS_PASSES_AUTODIFF_H

#include "mlir/IR/Builders.h"

namespace mlir::torus {

/// Emits d`output`/d`wrt[i]` contracted with `cotangent` (the seed; may be
/// null only when `output` is a scalar, then it is 1). `output` and every
/// `wrt` must live in the block of the builder's insertion point, and `wrt`
/// must be floating-point. A `wrt` that `output` does not depend on gets
/// zeros. Fails with a diagnostic at `loc` or at the op that has no rule.
FailureOr<SmallVector<Value>> buildGradients(OpBuilder &builder, Location loc,
                                             Value output, Value cotangent,
                                             ArrayRef<Value> wrt);

} // namespace mlir::torus

#endif // TORUS_PASSES_AUTODIFF_H
