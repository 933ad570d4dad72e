//===- ShapeVJPs.cpp - VJPs of broadcasting, slicing, padding, ... --------===//
//
// The shape ops move elements without changing them, so each gradient moves
// the cotangent back: broadcast ↔ sum, slice ↔ pad with zeros, transpose by
// the inverse permutation.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::torus {

LogicalResult BroadcastInDimOp::buildVJP(GradBuilder &gb,
                                         ArrayRef<Value> resultCotangents,
                                         SmallVectorImpl<Value> &cts) {
  cts[0] = gb.unbroadcast(resultCotangents.front(),
                          GradBuilder::typeOf(getOperand()).getShape(),
                          getBroadcastDimensions());
  return success();
}

LogicalResult ReshapeOp::buildVJP(GradBuilder &gb,
                                  ArrayRef<Value> resultCotangents,
                                  SmallVectorImpl<Value> &cts) {
  cts[0] = gb.reshape(resultCotangents.front(),
                      GradBuilder::typeOf(getOperand()).getShape());
  return success();
}

LogicalResult TransposeOp::buildVJP(GradBuilder &gb,
                                    ArrayRef<Value> resultCotangents,
                                    SmallVectorImpl<Value> &cts) {
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  cts[0] = gb.transpose(resultCotangents.front(), inverse);
  return success();
}

LogicalResult SliceOp::buildVJP(GradBuilder &gb,
                                ArrayRef<Value> resultCotangents,
                                SmallVectorImpl<Value> &cts) {
  // Put every sliced element back where it came from; zeros elsewhere.
  auto in = GradBuilder::typeOf(getOperand()).getShape();
  auto out = GradBuilder::typeOf(getResult()).getShape();
  SmallVector<int64_t> low, high, interior;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t stride = getStrides()[d];
    int64_t last = getStartIndices()[d] + (out[d] - 1) * stride;
    low.push_back(getStartIndices()[d]);
    interior.push_back(stride - 1);
    high.push_back(out[d] == 0 ? in[d] - low.back() : in[d] - 1 - last);
  }
  cts[0] = gb.padZeros(resultCotangents.front(), low, high, interior);
  return success();
}

LogicalResult PadOp::buildVJP(GradBuilder &gb,
                              ArrayRef<Value> resultCotangents,
                              SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  ArrayRef<int64_t> low = getEdgePaddingLow(), high = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  if (llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v < 0; }))
    return emitOpError("has no gradient rule for negative padding");
  auto in = GradBuilder::typeOf(getOperand()).getShape();
  SmallVector<int64_t> start, limit, strides;
  for (size_t d = 0; d < in.size(); ++d) {
    start.push_back(low[d]);
    strides.push_back(interior[d] + 1);
    limit.push_back(in[d] == 0 ? low[d]
                               : low[d] + (in[d] - 1) * strides[d] + 1);
  }
  Value operandGrad = gb.slice(ct, start, limit, strides);
  cts[0] = operandGrad;
  // The padding value fills every element that is not the operand's.
  cts[1] = gb.sub(gb.sumAll(ct), gb.sumAll(operandGrad));
  return success();
}

LogicalResult ConcatenateOp::buildVJP(GradBuilder &gb,
                                      ArrayRef<Value> resultCotangents,
                                      SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  int64_t dim = getDimension();
  auto shape = GradBuilder::typeOf(ct).getShape();
  int64_t offset = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto inShape = GradBuilder::typeOf(input).getShape();
    SmallVector<int64_t> start(shape.size(), 0), limit(shape),
        strides(shape.size(), 1);
    start[dim] = offset;
    limit[dim] = offset + inShape[dim];
    offset += inShape[dim];
    cts[i] = gb.slice(ct, start, limit, strides);
  }
  return success();
}

LogicalResult ReverseOp::buildVJP(GradBuilder &gb,
                                  ArrayRef<Value> resultCotangents,
                                  SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  cts[0] = gb.builder().create<ReverseOp>(gb.location(), ct.getType(), ct,
                                          getDimensions());
  return success();
}

LogicalResult DynamicSliceOp::buildVJP(GradBuilder &gb,
                                       ArrayRef<Value> resultCotangents,
                                       SmallVectorImpl<Value> &cts) {
  // Scatter the slice into zeros at the same (clamped) start.
  Value zeros = gb.zerosLike(getOperand());
  cts[0] = gb.builder().create<DynamicUpdateSliceOp>(
      gb.location(), zeros.getType(), zeros, resultCotangents.front(),
      getStartIndices());
  return success();
}

LogicalResult DynamicUpdateSliceOp::buildVJP(GradBuilder &gb,
                                             ArrayRef<Value> resultCotangents,
                                             SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  auto updateShape = GradBuilder::typeOf(getUpdate()).getShape();
  Value zeros = gb.zerosLike(getUpdate());
  cts[0] = gb.builder().create<DynamicUpdateSliceOp>(
      gb.location(), ct.getType(), ct, zeros, getStartIndices());
  cts[1] = gb.builder().create<DynamicSliceOp>(gb.location(), ct,
                                               getStartIndices(), updateShape);
  return success();
}

} // namespace mlir::torus
