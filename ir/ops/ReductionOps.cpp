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

// The window attributes with their defaults, for both window ops.
#define TORUS_WINDOW_ACCESSORS(Op)                                             \
  SmallVector<int64_t> Op::getStrides() {                                      \
    return orOnes(getWindowStrides(), getWindowDimensions().size());           \
  }                                                                            \
  SmallVector<int64_t> Op::getBaseDilationsOr1() {                             \
    return orOnes(getBaseDilations(), getWindowDimensions().size());           \
  }                                                                            \
  SmallVector<int64_t> Op::getWindowDilationsOr1() {                           \
    return orOnes(getWindowDilations(), getWindowDimensions().size());         \
  }                                                                            \
  SmallVector<std::pair<int64_t, int64_t>> Op::getPaddingPairs() {             \
    auto pairs = paddingPairs(getPaddingAttr());                               \
    if (pairs.empty())                                                         \
      pairs.assign(getWindowDimensions().size(), {0, 0});                      \
    return pairs;                                                              \
  }
TORUS_WINDOW_ACCESSORS(ReduceWindowOp)
TORUS_WINDOW_ACCESSORS(ReduceWindowGeneralOp)
#undef TORUS_WINDOW_ACCESSORS

namespace {
/// The result shape of a window op on `operand` (and the padding's form),
/// or an error on `op`.
template <typename Op>
FailureOr<ShapeVec> verifiedWindowShape(Op op, ArrayRef<int64_t> operand) {
  if (auto padding = op.getPaddingAttr()) {
    auto t = padding.getShapedType();
    if (t.getRank() != 2 || t.getDimSize(1) != 2)
      return op.emitOpError("padding must be a [rank, 2] tensor of (low, "
                            "high) pairs, got shape ")
             << formatShape(t.getShape());
  }
  std::string error;
  auto pairs = paddingPairs(op.getPaddingAttr());
  auto shape = inferReduceWindowShape(
      operand, op.getWindowDimensions(),
      op.getWindowStrides().value_or(ArrayRef<int64_t>()),
      op.getBaseDilations().value_or(ArrayRef<int64_t>()),
      op.getWindowDilations().value_or(ArrayRef<int64_t>()), pairs, error);
  if (failed(shape))
    return op.emitOpError(error);
  return shape;
}

/// Verifies the inputs, init values, results and body of a reduction with
/// a reducer computation (reduce_general, reduce_window_general), given
/// the result shape `shape` or a failure already reported.
LogicalResult verifyGeneralReduction(Operation *op, ValueRange inputs,
                                     ValueRange inits, ResultRange results,
                                     Region &body,
                                     function_ref<FailureOr<ShapeVec>(
                                         ArrayRef<int64_t>)> resultShape) {
  if (inputs.empty())
    return op->emitOpError("needs at least one input");
  if (results.size() != inputs.size())
    return op->emitOpError("has ")
           << inputs.size() << " inputs but " << results.size() << " results";
  auto first = tensorType(inputs[0]);
  auto shape = resultShape(first.getShape());
  if (failed(shape))
    return failure();
  SmallVector<Type> accs, elements;
  for (auto [i, in] : llvm::enumerate(inputs)) {
    auto t = tensorType(in);
    if (t.getShape() != first.getShape())
      return op->emitOpError("inputs must have one shape: input ")
             << i << " is " << formatShape(t.getShape()) << ", input 0 "
             << formatShape(first.getShape());
    auto init = tensorType(inits[i]);
    if (init.getRank() != 0 || init.getElementType() != t.getElementType())
      return op->emitOpError("init value ")
             << i << " must be " << RankedTensorType::get({}, t.getElementType())
             << ", not " << init;
    if (failed(checkResult(op, tensorType(results[i]), *shape,
                           t.getElementType())))
      return failure();
    accs.push_back(t.getElementType());
  }
  SmallVector<Type> args(accs);
  args.append(accs);
  return verifyScalarComputation(op, body, "body", args, accs);
}
} // namespace

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
  auto shape = verifiedWindowShape(*this, in.getShape());
  if (failed(shape) || failed(checkKind(*this, getKind(), in.getElementType())))
    return failure();
  return checkResult(*this, getType(), *shape, in.getElementType());
}

//===----------------------------------------------------------------------===//
// reduce_general, reduce_window_general
//===----------------------------------------------------------------------===//

LogicalResult ReduceGeneralOp::verify() {
  return verifyGeneralReduction(
      *this, getInputs(), getInitValues(), getResults(), getBody(),
      [&](ArrayRef<int64_t> in) -> FailureOr<ShapeVec> {
        std::string error;
        auto shape = inferReduceShape(in, getDimensions(), error);
        if (failed(shape))
          return emitOpError(error);
        return shape;
      });
}

LogicalResult ReduceWindowGeneralOp::verify() {
  return verifyGeneralReduction(
      *this, getInputs(), getInitValues(), getResults(), getBody(),
      [&](ArrayRef<int64_t> in) { return verifiedWindowShape(*this, in); });
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

namespace {
/// A window op's rule: a dimension passes when its windows are its
/// elements one by one.
template <typename Op> SmallVector<int64_t> windowDimMap(Op op) {
  SmallVector<int64_t> strides = op.getStrides();
  SmallVector<int64_t> base = op.getBaseDilationsOr1();
  SmallVector<int64_t> dil = op.getWindowDilationsOr1();
  auto pads = op.getPaddingPairs();
  ArrayRef<int64_t> window = op.getWindowDimensions();
  return identityDimMapKeeping(window.size(), [&](int64_t d) {
    bool noPad = pads.empty() || (pads[d].first == 0 && pads[d].second == 0);
    return noPad && base[d] == 1 && dil[d] == 1 && window[d] == strides[d];
  });
}

/// A window op's blocked result dimensions, for the tiling `result` wants
/// of the result, given the operand's shape `in`.
template <typename Op>
SmallVector<int64_t> windowBlockedDims(Op op, ArrayRef<int64_t> in,
                                       ShardingAttr result) {
  SmallVector<int64_t> map = windowDimMap(op);
  SmallVector<int64_t> blocked = unmappedDims(map);
  // A window tiles hold whole: the tile must be a multiple of the stride.
  SmallVector<int64_t> strides = op.getStrides();
  ArrayRef<int64_t> tiles =
      result ? result.getDataTileDims() : ArrayRef<int64_t>();
  for (int64_t d = 0, e = map.size(); d < e; ++d) {
    int64_t t = d < static_cast<int64_t>(tiles.size()) ? tiles[d] : 1;
    if (map[d] >= 0 && strides[d] != 1 && in[d] % (t * strides[d]) != 0)
      blocked.push_back(d);
  }
  return blocked;
}
} // namespace

std::optional<SmallVector<int64_t>>
ReduceWindowOp::getOperandDimMap(unsigned, unsigned) {
  return windowDimMap(*this);
}

SmallVector<int64_t> ReduceWindowOp::getBlockedResultDims(ShardingAttr result) {
  return windowBlockedDims(*this, tensorType(getOperand()).getShape(), result);
}

std::optional<SmallVector<int64_t>>
ReduceGeneralOp::getOperandDimMap(unsigned operand, unsigned) {
  // Init values are scalars no tiling passes through.
  if (operand >= getInputs().size())
    return std::nullopt;
  ArrayRef<int64_t> dims = getDimensions();
  return reductionDimMap(tensorType(getInputs()[0]).getRank(), [&](int64_t d) {
    return llvm::is_contained(dims, d);
  });
}

std::optional<SmallVector<int64_t>>
ReduceWindowGeneralOp::getOperandDimMap(unsigned operand, unsigned) {
  if (operand >= getInputs().size())
    return std::nullopt;
  return windowDimMap(*this);
}

SmallVector<int64_t>
ReduceWindowGeneralOp::getBlockedResultDims(ShardingAttr result) {
  return windowBlockedDims(*this, tensorType(getInputs()[0]).getShape(),
                           result);
}
