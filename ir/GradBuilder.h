//===- GradBuilder.h - Typed emission of torus ops for VJPs -----*- C++ -*-===//
//
// The vector-Jacobian products emit many small torus ops whose result types
// follow from their operands; GradBuilder computes those types so each VJP
// rule reads like the math it implements. Part of the IR library so that
// ops can implement their VJPOpInterface next to their definitions.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_GRADBUILDER_H
#define TORUS_IR_GRADBUILDER_H

#include "ir/TorusOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::torus {

class GradBuilder {
public:
  GradBuilder(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  OpBuilder &builder() { return b; }
  Location location() const { return loc; }

  static RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  /// A same-type unary or binary elementwise op.
  template <typename OpTy, typename... Operands>
  Value same(Value first, Operands... rest) {
    return b.create<OpTy>(loc, first.getType(), first, rest...);
  }

  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value div(Value x, Value y);
  Value neg(Value x);
  Value exp(Value x);
  Value select(Value pred, Value onTrue, Value onFalse);
  Value compare(ComparisonDirection dir, Value x, Value y);
  /// `x` converted to element type `et` (same shape).
  Value convert(Value x, Type et);
  /// A tensor of `type` filled with `value`.
  Value splat(RankedTensorType type, double value);
  Value zerosLike(Value x) { return splat(typeOf(x), 0.0); }
  /// `x` reshaped to `shape`.
  Value reshape(Value x, ArrayRef<int64_t> shape);
  /// HLO transpose: result dimension i is operand dimension perm[i].
  Value transpose(Value x, ArrayRef<int64_t> perm);
  /// HLO broadcast_in_dim to `shape`.
  Value broadcastInDim(Value x, ArrayRef<int64_t> shape, ArrayRef<int64_t> dims);
  /// Reduction over `dims` (removed from the shape).
  Value reduce(ReduceKind kind, Value x, ArrayRef<int64_t> dims);
  /// HLO dot_general; the result type follows the shape rules.
  Value dotGeneral(Value lhs, Value rhs, ArrayRef<int64_t> lhsBatch,
                   ArrayRef<int64_t> rhsBatch, ArrayRef<int64_t> lhsContract,
                   ArrayRef<int64_t> rhsContract);
  Value slice(Value x, ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
              ArrayRef<int64_t> strides);
  /// Pads with zeros: `low`/`high` at the edges, `interior` between elements.
  Value padZeros(Value x, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                 ArrayRef<int64_t> interior);
  /// A scalar of `x`'s element type.
  Value scalarLike(Value x, double value) {
    return splat(RankedTensorType::get({}, typeOf(x).getElementType()), value);
  }
  /// Sum of all elements, as a scalar.
  Value sumAll(Value x);

  /// Sums `x` (of a broadcast result's shape) back to `shape`, undoing a
  /// broadcast_in_dim with `dims`: sums the new and the stretched dimensions.
  Value unbroadcast(Value x, ArrayRef<int64_t> shape, ArrayRef<int64_t> dims);

private:
  RankedTensorType withShape(Value like, ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, typeOf(like).getElementType());
  }
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::torus

#endif // TORUS_IR_GRADBUILDER_H
