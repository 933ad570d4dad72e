//===- VJPOpInterface.h - Each op's gradient rule ---------------*- C++ -*-===//
//
// The C++ side of ir/VJPOpInterface.td: the VJPOpInterface that autodiff
// calls, the NoGradient trait of ops that pass no cotangent and the
// VJPNotImplemented trait of differentiable ops that have no rule yet.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_VJPOPINTERFACE_H
#define TORUS_IR_VJPOPINTERFACE_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::torus {

class GradBuilder;

/// The op has no gradient with respect to any operand.
template <typename ConcreteType>
class NoGradient : public OpTrait::TraitBase<ConcreteType, NoGradient> {};

/// The op is differentiable but has no rule yet; autodiff fails at it.
template <typename ConcreteType>
class VJPNotImplemented
    : public OpTrait::TraitBase<ConcreteType, VJPNotImplemented> {};

} // namespace mlir::torus

#include "ir/VJPOpInterface.h.inc"

#endif // TORUS_IR_VJPOPINTERFACE_H
