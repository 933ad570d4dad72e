//===- ShapeOps.cpp - Shape ops: builders, verifiers, folders -------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::torus;

namespace {
/// The type `shape` of `like`'s element type, or `like`'s type itself when
/// the shape rule failed (the verifier then reports why).
Type inferredOr(FailureOr<ShapeVec> shape, Value like) {
  auto type = tensorType(like);
  if (failed(shape))
    return type;
  return RankedTensorType::get(*shape, type.getElementType());
}

/// Reports a ShapeRules failure on `op`, or checks the result.
LogicalResult checkInferred(Operation *op, FailureOr<ShapeVec> shape,
                            const std::string &error, Type elementType) {
  if (failed(shape))
    return op->emitOpError(error);
  return checkResult(op, cast<RankedTensorType>(op->getResult(0).getType()),
                     *shape, elementType);
}
} // namespace

//===----------------------------------------------------------------------===//
// iota, broadcast_in_dim, reshape, transpose
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  std::string error;
  if (failed(checkIota(getType().getShape(), getIotaDimension(), error)))
    return emitOpError(error);
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  if (failed(checkSameElementType(*this, getOperand(), "operand", getResult(),
                                  "result")))
    return failure();
  std::string error;
  if (failed(checkBroadcastInDim(tensorType(getOperand()).getShape(),
                                 getType().getShape(),
                                 getBroadcastDimensions(), error)))
    return emitOpError(error);
  return success();
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType() &&
      llvm::equal(getBroadcastDimensions(),
                  llvm::seq<int64_t>(0, getType().getRank())))
    return getOperand();
  // A broadcast of a splat constant is a splat constant of the result type.
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getOperand()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto in = tensorType(getOperand());
  if (failed(checkSameElementType(*this, getOperand(), "operand", getResult(),
                                  "result")))
    return failure();
  if (in.getNumElements() != getType().getNumElements())
    return emitOpError("cannot reshape ")
           << formatShape(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << formatShape(getType().getShape()) << " ("
           << getType().getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getOperand()))
    return dense.reshape(getType());
  // reshape(reshape(x)) == reshape(x): only the final shape matters.
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  return {};
}

void TransposeOp::build(OpBuilder &builder, OperationState &state,
                        Value operand, ArrayRef<int64_t> permutation) {
  std::string error;
  auto shape = inferTransposeShape(tensorType(operand).getShape(), permutation,
                                   error);
  build(builder, state, inferredOr(shape, operand), operand, permutation);
}

LogicalResult TransposeOp::verify() {
  std::string error;
  auto shape = inferTransposeShape(tensorType(getOperand()).getShape(),
                                   getPermutation(), error);
  return checkInferred(*this, shape, error,
                       tensorType(getOperand()).getElementType());
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())))
    return getOperand();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getOperand()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  // transpose(transpose(x, p), q) == transpose(x, p∘q).
  if (auto inner = getOperand().getDefiningOp<TransposeOp>()) {
    llvm::SmallVector<int64_t> composed;
    for (int64_t q : getPermutation())
      composed.push_back(inner.getPermutation()[q]);
    getOperandMutable().assign(inner.getOperand());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// slice, dynamic_slice, dynamic_update_slice
//===----------------------------------------------------------------------===//

void SliceOp::build(OpBuilder &builder, OperationState &state, Value operand,
                    ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                    ArrayRef<int64_t> strides) {
  std::string error;
  auto shape = inferSliceShape(tensorType(operand).getShape(), start, limit,
                               strides, error);
  build(builder, state, inferredOr(shape, operand), operand, start, limit,
        strides);
}

LogicalResult SliceOp::verify() {
  std::string error;
  auto shape =
      inferSliceShape(tensorType(getOperand()).getShape(), getStartIndices(),
                      getLimitIndices(), getStrides(), error);
  return checkInferred(*this, shape, error,
                       tensorType(getOperand()).getElementType());
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand(); // Only the whole tensor has the operand's shape.
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getOperand()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

void DynamicSliceOp::build(OpBuilder &builder, OperationState &state,
                           Value operand, ValueRange start,
                           ArrayRef<int64_t> sizes) {
  std::string error;
  auto shape = inferDynamicSliceShape(tensorType(operand).getShape(),
                                      start.size(), sizes, error);
  build(builder, state, inferredOr(shape, operand), operand, start, sizes);
}

LogicalResult DynamicSliceOp::verify() {
  std::string error;
  auto shape = inferDynamicSliceShape(tensorType(getOperand()).getShape(),
                                      getStartIndices().size(),
                                      getSliceSizes(), error);
  return checkInferred(*this, shape, error,
                       tensorType(getOperand()).getElementType());
}

OpFoldResult DynamicSliceOp::fold(FoldAdaptor) {
  // A block as large as the operand starts at 0 whatever the indices.
  if (getOperand().getType() == getType())
    return getOperand();
  return {};
}

LogicalResult DynamicUpdateSliceOp::verify() {
  if (failed(checkSameElementType(*this, getUpdate(), "update", getOperand(),
                                  "operand")))
    return failure();
  std::string error;
  if (failed(checkDynamicUpdateSlice(tensorType(getOperand()).getShape(),
                                     tensorType(getUpdate()).getShape(),
                                     getStartIndices().size(), error)))
    return emitOpError(error);
  return success();
}

//===----------------------------------------------------------------------===//
// concatenate, pad, reverse
//===----------------------------------------------------------------------===//

namespace {
SmallVector<ShapeVec> shapesOf(ValueRange values) {
  SmallVector<ShapeVec> shapes;
  for (Value v : values)
    shapes.emplace_back(tensorType(v).getShape());
  return shapes;
}
} // namespace

void ConcatenateOp::build(OpBuilder &builder, OperationState &state,
                          ValueRange inputs, int64_t dimension) {
  std::string error;
  auto shape = inferConcatenateShape(shapesOf(inputs), dimension, error);
  build(builder, state, inferredOr(shape, inputs.front()), inputs, dimension);
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  for (auto [i, v] : llvm::enumerate(getInputs()))
    if (tensorType(v).getElementType() != getType().getElementType())
      return emitOpError("input ")
             << i << " has element type " << tensorType(v).getElementType()
             << " but the result has " << getType().getElementType();
  std::string error;
  auto shape =
      inferConcatenateShape(shapesOf(getInputs()), getDimension(), error);
  return checkInferred(*this, shape, error, getType().getElementType());
}

OpFoldResult ConcatenateOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

void PadOp::build(OpBuilder &builder, OperationState &state, Value operand,
                  Value paddingValue, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, ArrayRef<int64_t> interior) {
  std::string error;
  auto shape = inferPadShape(tensorType(operand).getShape(), low, high,
                             interior, error);
  build(builder, state, inferredOr(shape, operand), operand, paddingValue, low,
        high, interior);
}

LogicalResult PadOp::verify() {
  auto value = tensorType(getPaddingValue());
  if (value.getRank() != 0)
    return emitOpError("padding_value must be a scalar, got shape ")
           << formatShape(value.getShape());
  if (failed(checkSameElementType(*this, getPaddingValue(), "padding_value",
                                  getOperand(), "operand")))
    return failure();
  std::string error;
  auto shape = inferPadShape(tensorType(getOperand()).getShape(),
                             getEdgePaddingLow(), getEdgePaddingHigh(),
                             getInteriorPadding(), error);
  return checkInferred(*this, shape, error,
                       tensorType(getOperand()).getElementType());
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  auto zero = [](ArrayRef<int64_t> v) {
    return llvm::all_of(v, [](int64_t x) { return x == 0; });
  };
  if (zero(getEdgePaddingLow()) && zero(getEdgePaddingHigh()) &&
      zero(getInteriorPadding()))
    return getOperand();
  return {};
}

LogicalResult ReverseOp::verify() {
  std::string error;
  if (failed(checkDimList(getDimensions(), getType().getRank(), "reversed",
                          error)))
    return emitOpError(error) << " (operand "
                              << formatShape(getType().getShape()) << ")";
  return success();
}

OpFoldResult ReverseOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(getDimensions(),
                   [&](int64_t d) { return getType().getDimSize(d) <= 1; }))
    return getOperand();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getOperand()))
    return splat;
  // reverse(reverse(x, d), d) == x.
  if (auto inner = getOperand().getDefiningOp<ReverseOp>()) {
    SmallVector<int64_t> a(getDimensions()), b(inner.getDimensions());
    llvm::sort(a);
    llvm::sort(b);
    if (a == b)
      return inner.getOperand();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
BroadcastInDimOp::getOperandDimMap(unsigned, unsigned) {
  ArrayRef<int64_t> in = tensorType(getOperand()).getShape();
  ArrayRef<int64_t> out = getType().getShape();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  SmallVector<int64_t> map;
  for (int64_t d = 0, e = in.size(); d < e; ++d)
    map.push_back(in[d] == out[dims[d]] ? dims[d] : -1);
  return map;
}

std::optional<SmallVector<int64_t>>
TransposeOp::getOperandDimMap(unsigned, unsigned) {
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<int64_t> map(perm.size());
  for (int64_t i = 0, e = perm.size(); i < e; ++i)
    map[perm[i]] = i;
  return map;
}

std::optional<SmallVector<int64_t>> SliceOp::getOperandDimMap(unsigned,
                                                              unsigned) {
  ArrayRef<int64_t> in = tensorType(getOperand()).getShape();
  return identityDimMapKeeping(in.size(), [&](int64_t d) {
    return getStartIndices()[d] == 0 && getLimitIndices()[d] == in[d] &&
           getStrides()[d] == 1;
  });
}

SmallVector<int64_t> SliceOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}

std::optional<SmallVector<int64_t>>
DynamicSliceOp::getOperandDimMap(unsigned operand, unsigned) {
  if (operand != 0)
    return std::nullopt; // A start index.
  ArrayRef<int64_t> in = tensorType(getOperand()).getShape();
  return identityDimMapKeeping(
      in.size(), [&](int64_t d) { return getSliceSizes()[d] == in[d]; });
}

SmallVector<int64_t> DynamicSliceOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}

std::optional<SmallVector<int64_t>>
DynamicUpdateSliceOp::getOperandDimMap(unsigned operand, unsigned) {
  if (operand > 1)
    return std::nullopt; // A start index.
  ArrayRef<int64_t> in = tensorType(getOperation()->getOperand(operand))
                             .getShape();
  ArrayRef<int64_t> out = getType().getShape();
  return identityDimMapKeeping(in.size(),
                               [&](int64_t d) { return in[d] == out[d]; });
}

SmallVector<int64_t> DynamicUpdateSliceOp::getBlockedResultDims(ShardingAttr) {
  // The dimensions the update does not cover whole.
  return unmappedDims(*getOperandDimMap(1, 0));
}

std::optional<SmallVector<int64_t>>
ConcatenateOp::getOperandDimMap(unsigned, unsigned) {
  int64_t dim = getDimension();
  return identityDimMapKeeping(getType().getRank(),
                               [&](int64_t d) { return d != dim; });
}

SmallVector<int64_t> ConcatenateOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}

std::optional<SmallVector<int64_t>> PadOp::getOperandDimMap(unsigned operand,
                                                            unsigned) {
  if (operand != 0)
    return std::nullopt; // The padding value.
  return identityDimMapKeeping(getType().getRank(), [&](int64_t d) {
    return getEdgePaddingLow()[d] == 0 && getEdgePaddingHigh()[d] == 0 &&
           getInteriorPadding()[d] == 0;
  });
}

SmallVector<int64_t> PadOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}

std::optional<SmallVector<int64_t>> ReverseOp::getOperandDimMap(unsigned,
                                                                unsigned) {
  ArrayRef<int64_t> dims = getDimensions();
  return identityDimMapKeeping(getType().getRank(), [&](int64_t d) {
    return !llvm::is_contained(dims, d);
  });
}

SmallVector<int64_t> ReverseOp::getBlockedResultDims(ShardingAttr) {
  return unmappedDims(*getOperandDimMap(0, 0));
}
