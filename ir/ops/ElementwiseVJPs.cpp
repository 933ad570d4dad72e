//===- ElementwiseVJPs.cpp - VJPs of select, clamp, convert, reduce_precision ===//
//
// The elementwise ops outside the Torus_UnaryOp/Torus_BinaryOp classes;
// those write their rules in ODS (`let vjp` in ir/TorusOps.td).
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

namespace mlir::torus {

LogicalResult SelectOp::buildVJP(GradBuilder &gb,
                                 ArrayRef<Value> resultCotangents,
                                 SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  Value zero = gb.zerosLike(ct);
  cts[1] = gb.select(getPred(), ct, zero);
  cts[2] = gb.select(getPred(), zero, ct);
  return success();
}

LogicalResult ClampOp::buildVJP(GradBuilder &gb,
                                ArrayRef<Value> resultCotangents,
                                SmallVectorImpl<Value> &cts) {
  // The operand's cotangent passes where min <= x <= max (JAX); min (max)
  // gets it where the operand fell below (above) it.
  Value ct = resultCotangents.front();
  Value x = getOperand();
  auto type = GradBuilder::typeOf(x);
  auto full = [&](Value bound) {
    auto shape = GradBuilder::typeOf(bound).getShape();
    return shape == type.getShape()
               ? bound
               : gb.broadcastInDim(bound, type.getShape(), {});
  };
  auto fold = [&](Value bound, Value g) {
    return GradBuilder::typeOf(bound).getRank() == type.getRank()
               ? g
               : gb.sumAll(g);
  };
  Value lo = full(getMin()), hi = full(getMax());
  Value zero = gb.zerosLike(ct);
  Value below = gb.compare(ComparisonDirection::LT, x, lo);
  Value above = gb.compare(ComparisonDirection::GT, x, hi);
  cts[1] = gb.select(below, zero, gb.select(above, zero, ct));
  cts[0] = fold(getMin(), gb.select(below, ct, zero));
  cts[2] = fold(getMax(), gb.select(above, ct, zero));
  return success();
}

LogicalResult ConvertOp::buildVJP(GradBuilder &gb,
                                  ArrayRef<Value> resultCotangents,
                                  SmallVectorImpl<Value> &cts) {
  // Only a float operand has a gradient: back to its element type.
  Type in = GradBuilder::typeOf(getOperand()).getElementType();
  if (isa<FloatType>(in))
    cts[0] = gb.convert(resultCotangents.front(), in);
  return success();
}

LogicalResult ReducePrecisionOp::buildVJP(GradBuilder &gb,
                                          ArrayRef<Value> resultCotangents,
                                          SmallVectorImpl<Value> &cts) {
  // As JAX (`ad.deflinear` in jax/_src/lax/lax.py): the op counts as linear,
  // so the cotangent passes through rounded to the same format. Not the
  // derivative of the rounding (zero almost everywhere): the op stands for
  // "this value, stored narrower".
  cts[0] = gb.same<ReducePrecisionOp>(resultCotangents.front(),
                                      getExponentBitsAttr(),
                                      getMantissaBitsAttr());
  return success();
}

} // namespace mlir::torus
