//===- VJPFamilies.h - VJP rules, one function per op family ----*- C++ -*-===//
//
// Internal to passes/: buildVJP (VJPRules.cpp) dispatches here. Each
// function fills `cts` (one entry per operand, null for no gradient) from
// the result cotangent `ct`, or fails with a diagnostic on the op.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_PASSES_VJPFAMILIES_H
#define TORUS_PASSES_VJPFAMILIES_H

#include "ir/GradBuilder.h"

namespace mlir::torus {

LogicalResult shapeVJP(GradBuilder &gb, Operation *op, Value ct,
                       SmallVectorImpl<Value> &cts);
LogicalResult windowVJP(GradBuilder &gb, Operation *op, Value ct,
                        SmallVectorImpl<Value> &cts);
LogicalResult indexingVJP(GradBuilder &gb, Operation *op, Value ct,
                          SmallVectorImpl<Value> &cts);
LogicalResult collectiveVJP(GradBuilder &gb, Operation *op, Value ct,
                            SmallVectorImpl<Value> &cts);

} // namespace mlir::torus

#endif // TORUS_PASSES_VJPFAMILIES_H
