//===- VJPRules.h - Vector-Jacobian products of torus ops -------*- C++ -*-===//
#ifndef TORUS_PASSES_VJPRULES_H
#define TORUS_PASSES_VJPRULES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::torus {

class GradBuilder;

/// Emits the cotangents of `op`'s operands given the cotangents of its
/// results (`resultCotangents[i]` is null for a result nothing depends on).
/// `operandCotangents` gets one entry per operand, null where the operand
/// has no gradient (integers, predicates, indices). Fails, with a diagnostic
/// on `op`, for an op that has no rule (neither VJPOpInterface nor the
/// NoGradient trait).
LogicalResult buildVJP(GradBuilder &gb, Operation *op,
                       ArrayRef<Value> resultCotangents,
                       SmallVectorImpl<Value> &operandCotangents);

} // namespace mlir::torus

#endif // TORUS_PASSES_VJPRULES_H
