//===- IndexingOps.cpp - gather and scatter -------------------------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

namespace {
GatherDims gatherDims(ArrayRef<int64_t> offsetDims,
                      ArrayRef<int64_t> collapsedSliceDims,
                      ArrayRef<int64_t> startIndexMap, int64_t indexVectorDim) {
  GatherDims d;
  d.offsetDims.assign(offsetDims.begin(), offsetDims.end());
  d.collapsedSliceDims.assign(collapsedSliceDims.begin(),
                              collapsedSliceDims.end());
  d.startIndexMap.assign(startIndexMap.begin(), startIndexMap.end());
  d.indexVectorDim = indexVectorDim;
  return d;
}
} // namespace

void GatherOp::build(OpBuilder &builder, OperationState &state, Value operand,
                     Value startIndices, ArrayRef<int64_t> offsetDims,
                     ArrayRef<int64_t> collapsedSliceDims,
                     ArrayRef<int64_t> startIndexMap, int64_t indexVectorDim,
                     ArrayRef<int64_t> sliceSizes) {
  auto type = tensorType(operand);
  std::string error;
  auto shape = inferGatherShape(
      type.getShape(), tensorType(startIndices).getShape(),
      gatherDims(offsetDims, collapsedSliceDims, startIndexMap, indexVectorDim),
      sliceSizes, error);
  Type result = succeeded(shape)
                    ? RankedTensorType::get(*shape, type.getElementType())
                    : Type(type);
  build(builder, state, result, operand, startIndices, offsetDims,
        collapsedSliceDims, startIndexMap, indexVectorDim, sliceSizes,
        /*indices_are_sorted=*/false);
}

LogicalResult GatherOp::verify() {
  auto type = tensorType(getOperand());
  std::string error;
  auto shape = inferGatherShape(
      type.getShape(), tensorType(getStartIndices()).getShape(),
      gatherDims(getOffsetDims(), getCollapsedSliceDims(), getStartIndexMap(),
                 getIndexVectorDim()),
      getSliceSizes(), error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, type.getElementType());
}

LogicalResult ScatterOp::verify() {
  if (failed(checkSameElementType(*this, getUpdates(), "updates", getOperand(),
                                  "operand")))
    return failure();
  Type et = getType().getElementType();
  if (isa<ComplexType>(et) &&
      (getKind() == ScatterKind::max || getKind() == ScatterKind::min))
    return emitOpError("cannot scatter-")
           << stringifyScatterKind(getKind())
           << " complex numbers: they have no order";
  if (et.isInteger(1) &&
      (getKind() == ScatterKind::sum || getKind() == ScatterKind::product))
    return emitOpError("cannot scatter-")
           << stringifyScatterKind(getKind()) << " into an i1 tensor";
  ScatterDims d;
  d.updateWindowDims.assign(getUpdateWindowDims().begin(),
                            getUpdateWindowDims().end());
  d.insertedWindowDims.assign(getInsertedWindowDims().begin(),
                              getInsertedWindowDims().end());
  d.scatterDimsToOperandDims.assign(getScatterDimsToOperandDims().begin(),
                                    getScatterDimsToOperandDims().end());
  d.indexVectorDim = getIndexVectorDim();
  std::string error;
  if (failed(checkScatter(tensorType(getOperand()).getShape(),
                          tensorType(getScatterIndices()).getShape(),
                          tensorType(getUpdates()).getShape(), d, error)))
    return emitOpError(error);
  return success();
}
