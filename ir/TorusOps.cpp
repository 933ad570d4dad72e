//===- TorusOps.cpp - torus dialect operations ----------------------------===//

#include "ir/TorusOps.h"
#include "ir/ShapeRules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::torus;

#include "ir/TorusDialect.cpp.inc"
#include "ir/TorusEnums.cpp.inc"

#define GET_OP_CLASSES
#include "ir/TorusOps.cpp.inc"

void TorusDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/TorusOps.cpp.inc"
      >();
}

Operation *TorusDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements);
}

namespace {
RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// True if `v` is a constant whose every element equals `value`.
bool isSplatOf(Value v, double value) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type et = attr.getElementType();
  if (isa<FloatType>(et))
    return attr.getSplatValue<APFloat>().convertToDouble() == value;
  if (et.isInteger(1))
    return attr.getSplatValue<bool>() == (value != 0);
  if (isa<IntegerType>(et))
    return attr.getSplatValue<APInt>().getSExtValue() ==
           static_cast<int64_t>(value);
  return false;
}
} // namespace

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  if (isSplatOf(getLhs(), 0.0))
    return getRhs();
  return {};
}

OpFoldResult MultiplyOp::fold(FoldAdaptor) {
  if (isSplatOf(getRhs(), 1.0))
    return getLhs();
  if (isSplatOf(getLhs(), 1.0))
    return getRhs();
  return {};
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  return {};
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // A broadcast of a splat constant is a splat constant of the result type.
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getOperand()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
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

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  if (llvm::equal(getPermutation(),
                  llvm::seq<int64_t>(0, getPermutation().size())))
    return getOperand();
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
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  if (tensorType(getOperand()).getElementType() != getType().getElementType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from operand's "
           << tensorType(getOperand()).getElementType();
  std::string error;
  if (failed(checkBroadcastInDim(tensorType(getOperand()).getShape(),
                                 getType().getShape(),
                                 getBroadcastDimensions(), error)))
    return emitOpError(error);
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = tensorType(getOperand());
  if (in.getElementType() != getType().getElementType())
    return emitOpError("result element type ")
           << getType().getElementType() << " differs from operand's "
           << in.getElementType();
  if (in.getNumElements() != getType().getNumElements())
    return emitOpError("cannot reshape ")
           << formatShape(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << formatShape(getType().getShape()) << " ("
           << getType().getNumElements() << " elements)";
  return success();
}

namespace {
/// Checks that `op`'s result has `expected` shape and `elementType`.
LogicalResult checkResult(Operation *op, RankedTensorType result,
                          llvm::ArrayRef<int64_t> expected, Type elementType) {
  if (result.getElementType() != elementType)
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from operand element type "
           << elementType;
  if (result.getShape() != expected)
    return op->emitOpError("result shape ")
           << formatShape(result.getShape()) << " should be "
           << formatShape(expected);
  return success();
}
} // namespace

LogicalResult TransposeOp::verify() {
  std::string error;
  auto shape = inferTransposeShape(tensorType(getOperand()).getShape(),
                                   getPermutation(), error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape,
                     tensorType(getOperand()).getElementType());
}

LogicalResult DotGeneralOp::verify() {
  auto lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("operand element types differ: ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  std::string error;
  auto shape = inferDotGeneralShape(
      lhs.getShape(), rhs.getShape(), getLhsBatchingDimensions(),
      getRhsBatchingDimensions(), getLhsContractingDimensions(),
      getRhsContractingDimensions(), error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, lhs.getElementType());
}

LogicalResult ReduceOp::verify() {
  auto in = tensorType(getOperand());
  std::string error;
  auto shape = inferReduceShape(in.getShape(), getDimensions(), error);
  if (failed(shape))
    return emitOpError(error);
  if (in.getElementType().isInteger(1) &&
      (getKind() == ReduceKind::sum || getKind() == ReduceKind::product))
    return emitOpError("cannot ")
           << stringifyReduceKind(getKind()) << "-reduce an i1 tensor";
  return checkResult(*this, getType(), *shape, in.getElementType());
}

LogicalResult AllReduceOp::verify() {
  if (getType().getElementType().isInteger(1))
    return emitOpError("cannot all-reduce an i1 tensor");
  auto groups = getReplicaGroupsAttr();
  if (!groups)
    return success();
  auto type = groups.getShapedType();
  if (type.getRank() != 2)
    return emitOpError("replica_groups must be a 2-D tensor (one row per "
                       "group), got rank ")
           << type.getRank();
  if (type.getNumElements() == 0)
    return success();
  llvm::SmallVector<int64_t> flat(groups.getValues<int64_t>());
  std::string error;
  if (failed(checkReplicaGroups(flat, type.getDimSize(1), error)))
    return emitOpError(error);
  return success();
}
