//===- ReductionOps.cpp - reduce, argmax/argmin, reduce_window ------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

namespace {
/// Checks that `kind` applies to `elementType`: sum/product not on i1,
/// and/or only on integers and i1.
LogicalResult checkKind(Operation *op, ReduceKind kind, Type elementType) {
  bool isBool = elementType.isInteger(1);
  bool isFloat = isa<FloatType>(elementType);
  if (isBool && (kind == ReduceKind::sum || kind == ReduceKind::product))
    return op->emitOpError("cannot ")
           << stringifyReduceKind(kind)
           << "-reduce an i1 tensor; convert it to an integer first";
  if (isa<ComplexType>(elementType) && kind != ReduceKind::sum &&
      kind != ReduceKind::product)
    return op->emitOpError("cannot ")
           << stringifyReduceKind(kind) << "-reduce complex numbers ("
           << elementType << "): they reduce by sum and product only";
  if (isFloat && (kind == ReduceKind::And || kind == ReduceKind::Or))
    return op->emitOpError("'")
           << stringifyReduceKind(kind) << "' needs integer or i1 elements, got "
           << elementType;
  return success();
}

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t rank) {
  if (values && !values->empty())
    return SmallVector<int64_t>(*values);
  return SmallVector<int64_t>(rank, 1);
}
} // namespace

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

void ReduceOp::build(OpBuilder &builder, OperationState &state,
                     ReduceKind kind, Value operand,
                     ArrayRef<int64_t> dimensions) {
  auto type = tensorType(operand);
  std::string error;
  auto shape = inferReduceShape(type.getShape(), dimensions, error);
  Type result = succeeded(shape)
                    ? RankedTensorType::get(*shape, type.getElementType())
                    : Type(type);
  build(builder, state, result, kind, operand, dimensions);
}

LogicalResult ReduceOp::verify() {
  auto in = tensorType(getOperand());
  std::string error;
  auto shape = inferReduceShape(in.getShape(), getDimensions(), error);
  if (failed(shape))
    return emitOpError(error);
  if (failed(checkKind(*this, getKind(), in.getElementType())))
    return failure();
  return checkResult(*this, getType(), *shape, in.getElementType());
}

//===----------------------------------------------------------------------===//
// argmax, argmin
//===----------------------------------------------------------------------===//

namespace {
void buildArgReduce(OpBuilder &builder, OperationState &state, Value operand,
                    int64_t dimension, Type indexType) {
  auto type = tensorType(operand);
  std::string error;
  auto shape = inferReduceShape(type.getShape(), {dimension}, error);
  ShapeVec s = succeeded(shape) ? *shape : ShapeVec(type.getShape());
  state.addOperands(operand);
  state.addAttribute("dimension", builder.getI64IntegerAttr(dimension));
  state.addTypes({RankedTensorType::get(s, type.getElementType()),
                  RankedTensorType::get(s, indexType)});
}

template <typename Op> LogicalResult verifyArgReduce(Op op) {
  auto in = tensorType(op.getOperand());
  std::string error;
  auto shape = inferReduceShape(in.getShape(), {static_cast<int64_t>(op.getDimension())}, error);
  if (failed(shape))
    return op.emitOpError(error);
  if (failed(checkResult(op, tensorType(op.getValues()), *shape,
                         in.getElementType())))
    return failure();
  if (tensorType(op.getIndices()).getShape() != ArrayRef<int64_t>(*shape))
    return op.emitOpError("indices shape ")
           << formatShape(tensorType(op.getIndices()).getShape())
           << " should be " << formatShape(*shape);
  return success();
}
} // namespace

void ArgMaxOp::build(OpBuilder &builder, OperationState &state, Value operand,
                     int64_t dimension, Type indexType) {
  buildArgReduce(builder, state, operand, dimension, indexType);
}
void ArgMinOp::build(OpBuilder &builder, OperationState &state, Value operand,
                     int64_t dimension, Type indexType) {
  buildArgReduce(builder, state, operand, dimension, indexType);
}
LogicalResult ArgMaxOp::verify() { return verifyArgReduce(*this); }
LogicalResult ArgMinOp::verify() { return verifyArgReduce(*this); }

//===----------------------------------------------------------------------===//
// reduce_window
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ReduceWindowOp::getStrides() {
  return orOnes(getWindowStrides(), getWindowDimensions().size());
}
SmallVector<int64_t> ReduceWindowOp::getBaseDilationsOr1() {
  return orOnes(getBaseDilations(), getWindowDimensions().size());
}
SmallVector<int64_t> ReduceWindowOp::getWindowDilationsOr1() {
  return orOnes(getWindowDilations(), getWindowDimensions().size());
}
SmallVector<std::pair<int64_t, int64_t>> ReduceWindowOp::getPaddingPairs() {
  auto pairs = paddingPairs(getPaddingAttr());
  if (pairs.empty())
    pairs.assign(getWindowDimensions().size(), {0, 0});
  return pairs;
}

void ReduceWindowOp::build(OpBuilder &builder, OperationState &state,
                           ReduceKind kind, Value operand,
                           ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> baseDilations,
                           ArrayRef<int64_t> windowDilations,
                           ArrayRef<std::pair<int64_t, int64_t>> padding) {
  auto type = tensorType(operand);
  std::string error;
  auto shape = inferReduceWindowShape(type.getShape(), window, strides,
                                      baseDilations, windowDilations, padding,
                                      error);
  Type result = succeeded(shape)
                    ? RankedTensorType::get(*shape, type.getElementType())
                    : Type(type);
  auto optional = [&](ArrayRef<int64_t> v) {
    return v.empty() ? DenseI64ArrayAttr() : builder.getDenseI64ArrayAttr(v);
  };
  build(builder, state, result, kind, operand,
        builder.getDenseI64ArrayAttr(window), optional(strides),
        optional(baseDilations), optional(windowDilations),
        paddingAttr(builder.getContext(), padding));
}

LogicalResult ReduceWindowOp::verify() {
  auto in = tensorType(getOperand());
  if (auto padding = getPaddingAttr()) {
    auto t = padding.getShapedType();
    if (t.getRank() != 2 || t.getDimSize(1) != 2)
      return emitOpError("padding must be a [rank, 2] tensor of (low, high) "
                         "pairs, got shape ")
             << formatShape(t.getShape());
  }
  if (failed(checkKind(*this, getKind(), in.getElementType())))
    return failure();
  std::string error;
  auto pairs = paddingPairs(getPaddingAttr());
  auto shape = inferReduceWindowShape(
      in.getShape(), getWindowDimensions(),
      getWindowStrides().value_or(ArrayRef<int64_t>()),
      getBaseDilations().value_or(ArrayRef<int64_t>()),
      getWindowDilations().value_or(ArrayRef<int64_t>()), pairs, error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, in.getElementType());
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

namespace {
/// The rule of a reduction over `reduced`: the kept dimensions in order.
SmallVector<int64_t> reductionDimMap(int64_t rank,
                                     function_ref<bool(int64_t)> reduced) {
  SmallVector<int64_t> map;
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    map.push_back(reduced(d) ? -1 : next++);
  return map;
}
} // namespace

std::optional<SmallVector<int64_t>> ReduceOp::getOperandDimMap(unsigned,
                                                               unsigned) {
  ArrayRef<int64_t> dims = getDimensions();
  return reductionDimMap(tensorType(getOperand()).getRank(), [&](int64_t d) {
    return llvm::is_contained(dims, d);
  });
}

std::optional<SmallVector<int64_t>> ArgMaxOp::getOperandDimMap(unsigned,
                                                               unsigned) {
  int64_t dim = getDimension();
  return reductionDimMap(tensorType(getOperand()).getRank(),
                         [&](int64_t d) { return d == dim; });
}

std::optional<SmallVector<int64_t>> ArgMinOp::getOperandDimMap(unsigned,
                                                               unsigned) {
  int64_t dim = getDimension();
  return reductionDimMap(tensorType(getOperand()).getRank(),
                         [&](int64_t d) { return d == dim; });
}

std::optional<SmallVector<int64_t>>
ReduceWindowOp::getOperandDimMap(unsigned, unsigned) {
  // A dimension passes when its windows are its elements one by one.
  SmallVector<int64_t> strides = getStrides();
  SmallVector<int64_t> base = getBaseDilationsOr1();
  SmallVector<int64_t> dil = getWindowDilationsOr1();
  auto pads = getPaddingPairs();
  ArrayRef<int64_t> window = getWindowDimensions();
  return identityDimMapKeeping(window.size(), [&](int64_t d) {
    bool noPad = pads.empty() || (pads[d].first == 0 && pads[d].second == 0);
    return noPad && base[d] == 1 && dil[d] == 1 && window[d] == strides[d];
  });
}

SmallVector<int64_t> ReduceWindowOp::getBlockedResultDims(ShardingAttr result) {
  SmallVector<int64_t> map = *getOperandDimMap(0, 0);
  SmallVector<int64_t> blocked = unmappedDims(map);
  // A window tiles hold whole: the tile must be a multiple of the stride.
  SmallVector<int64_t> strides = getStrides();
  ArrayRef<int64_t> in = tensorType(getOperand()).getShape();
  ArrayRef<int64_t> tiles =
      result ? result.getDataTileDims() : ArrayRef<int64_t>();
  for (int64_t d = 0, e = map.size(); d < e; ++d) {
    int64_t t = d < static_cast<int64_t>(tiles.size()) ? tiles[d] : 1;
    if (map[d] >= 0 && strides[d] != 1 && in[d] % (t * strides[d]) != 0)
      blocked.push_back(d);
  }
  return blocked;
}
