//===- ReductionVJPs.cpp - VJPs of reduce ---------------------------------===//
//
// A sum broadcasts the cotangent back over the reduced dimensions; product,
// max and min weight it by how each element entered the result. At ties,
// max and min share the cotangent equally (JAX).
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::torus {

namespace {

/// max/min ties: the cotangent is shared equally among the tied elements.
Value reduceExtremumGrad(GradBuilder &gb, ReduceOp op, Value ct) {
  auto inType = GradBuilder::typeOf(op.getOperand());
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    if (!llvm::is_contained(op.getDimensions(), d))
      kept.push_back(d);
  Value y = gb.broadcastInDim(op.getResult(), inType.getShape(), kept);
  Value mask = gb.convert(gb.compare(ComparisonDirection::EQ, op.getOperand(), y),
                          inType.getElementType());
  Value count = gb.reduce(ReduceKind::sum, mask, op.getDimensions());
  Value share = gb.div(ct, count);
  return gb.mul(gb.broadcastInDim(share, inType.getShape(), kept), mask);
}

} // namespace

LogicalResult ReduceOp::buildVJP(GradBuilder &gb,
                                 ArrayRef<Value> resultCotangents,
                                 SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  auto inType = GradBuilder::typeOf(getOperand());
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    if (!llvm::is_contained(getDimensions(), d))
      kept.push_back(d);
  switch (getKind()) {
  case ReduceKind::sum:
    cts[0] = gb.broadcastInDim(ct, inType.getShape(), kept);
    return success();
  case ReduceKind::product: {
    // d(prod x)/dx_i = prod x / x_i (undefined where x_i = 0).
    Value y = gb.broadcastInDim(getResult(), inType.getShape(), kept);
    Value c = gb.broadcastInDim(ct, inType.getShape(), kept);
    cts[0] = gb.div(gb.mul(c, y), getOperand());
    return success();
  }
  case ReduceKind::max:
  case ReduceKind::min:
    cts[0] = reduceExtremumGrad(gb, *this, ct);
    return success();
  default:
    return emitOpError("has no gradient for reduction kind ")
           << stringifyReduceKind(getKind());
  }
}

} // namespace mlir::torus
