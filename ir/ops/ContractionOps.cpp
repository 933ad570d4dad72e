//===- ContractionOps.cpp - dot_general and convolution -------------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::torus;

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

void DotGeneralOp::build(OpBuilder &builder, OperationState &state, Value lhs,
                         Value rhs, ArrayRef<int64_t> lhsBatch,
                         ArrayRef<int64_t> rhsBatch,
                         ArrayRef<int64_t> lhsContracting,
                         ArrayRef<int64_t> rhsContracting) {
  auto lt = tensorType(lhs);
  std::string error;
  auto shape = inferDotGeneralShape(lt.getShape(), tensorType(rhs).getShape(),
                                    lhsBatch, rhsBatch, lhsContracting,
                                    rhsContracting, error);
  Type result = succeeded(shape)
                    ? RankedTensorType::get(*shape, lt.getElementType())
                    : Type(lt);
  build(builder, state, result, lhs, rhs, lhsBatch, rhsBatch, lhsContracting,
        rhsContracting);
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

namespace {
/// transpose(dot_general(a, b)) -> dot_general(b, a) when the permutation
/// keeps the batch dimensions and swaps the block of a's free dimensions
/// with b's: the product's result is [batch, a free, b free], the swapped
/// product's [batch, b free, a free].
struct TransposeOfDotGeneral : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto dot = op.getOperand().getDefiningOp<DotGeneralOp>();
    if (!dot || !dot->hasOneUse())
      return failure();
    int64_t batch = dot.getLhsBatchingDimensions().size();
    int64_t contracted = dot.getLhsContractingDimensions().size();
    int64_t lhsFree = tensorType(dot.getLhs()).getRank() - batch - contracted;
    int64_t rhsFree = tensorType(dot.getRhs()).getRank() - batch - contracted;
    SmallVector<int64_t> swap;
    for (int64_t d = 0; d < batch; ++d)
      swap.push_back(d);
    for (int64_t d = 0; d < rhsFree; ++d)
      swap.push_back(batch + lhsFree + d);
    for (int64_t d = 0; d < lhsFree; ++d)
      swap.push_back(batch + d);
    if (!llvm::equal(op.getPermutation(), swap))
      return failure();
    rewriter.replaceOpWithNewOp<DotGeneralOp>(
        op, op.getType(), dot.getRhs(), dot.getLhs(),
        dot.getRhsBatchingDimensions(), dot.getLhsBatchingDimensions(),
        dot.getRhsContractingDimensions(), dot.getLhsContractingDimensions());
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                              MLIRContext *context) {
  patterns.add<TransposeOfDotGeneral>(context);
}

//===----------------------------------------------------------------------===//
// convolution
//===----------------------------------------------------------------------===//

namespace {
SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            size_t count) {
  if (values && !values->empty())
    return SmallVector<int64_t>(*values);
  return SmallVector<int64_t>(count, 1);
}
} // namespace

SmallVector<int64_t> ConvolutionOp::getStrides() {
  return orOnes(getWindowStrides(),
                getDimensionNumbers().getInputSpatialDimensions().size());
}
SmallVector<int64_t> ConvolutionOp::getLhsDilationOr1() {
  return orOnes(getLhsDilation(),
                getDimensionNumbers().getInputSpatialDimensions().size());
}
SmallVector<int64_t> ConvolutionOp::getRhsDilationOr1() {
  return orOnes(getRhsDilation(),
                getDimensionNumbers().getInputSpatialDimensions().size());
}
SmallVector<std::pair<int64_t, int64_t>> ConvolutionOp::getPaddingPairs() {
  auto pairs = paddingPairs(getPaddingAttr());
  if (pairs.empty())
    pairs.assign(getDimensionNumbers().getInputSpatialDimensions().size(),
                 {0, 0});
  return pairs;
}

void ConvolutionOp::build(OpBuilder &builder, OperationState &state, Value lhs,
                          Value rhs, ConvDimensionNumbersAttr dimensionNumbers,
                          ArrayRef<int64_t> strides,
                          ArrayRef<std::pair<int64_t, int64_t>> padding,
                          ArrayRef<int64_t> lhsDilation,
                          ArrayRef<int64_t> rhsDilation,
                          int64_t featureGroupCount, int64_t batchGroupCount) {
  auto lt = tensorType(lhs);
  std::string error;
  auto shape = inferConvolutionShape(
      lt.getShape(), tensorType(rhs).getShape(), toConvDims(dimensionNumbers),
      strides, padding, lhsDilation, rhsDilation, featureGroupCount,
      batchGroupCount, error);
  Type result = succeeded(shape)
                    ? RankedTensorType::get(*shape, lt.getElementType())
                    : Type(lt);
  auto optional = [&](ArrayRef<int64_t> v) {
    return v.empty() ? DenseI64ArrayAttr() : builder.getDenseI64ArrayAttr(v);
  };
  build(builder, state, result, lhs, rhs, dimensionNumbers, optional(strides),
        paddingAttr(builder.getContext(), padding), optional(lhsDilation),
        optional(rhsDilation), builder.getI64IntegerAttr(featureGroupCount),
        builder.getI64IntegerAttr(batchGroupCount));
}

LogicalResult ConvolutionOp::verify() {
  auto lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("input and kernel element types differ: ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  if (auto padding = getPaddingAttr()) {
    auto t = padding.getShapedType();
    if (t.getRank() != 2 || t.getDimSize(1) != 2)
      return emitOpError("padding must be a [spatial rank, 2] tensor of "
                         "(low, high) pairs, got shape ")
             << formatShape(t.getShape());
  }
  std::string error;
  auto shape = inferConvolutionShape(
      lhs.getShape(), rhs.getShape(), toConvDims(getDimensionNumbers()),
      getWindowStrides().value_or(ArrayRef<int64_t>()),
      paddingPairs(getPaddingAttr()),
      getLhsDilation().value_or(ArrayRef<int64_t>()),
      getRhsDilation().value_or(ArrayRef<int64_t>()), getFeatureGroupCount(),
      getBatchGroupCount(), error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, lhs.getElementType());
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
DotGeneralOp::getOperandDimMap(unsigned operand, unsigned) {
  // Result dimensions: batch, lhs free, rhs free.
  bool lhs = operand == 0;
  ArrayRef<int64_t> batch =
      lhs ? getLhsBatchingDimensions() : getRhsBatchingDimensions();
  ArrayRef<int64_t> contract =
      lhs ? getLhsContractingDimensions() : getRhsContractingDimensions();
  int64_t nb = batch.size();
  int64_t lhsFree = tensorType(getLhs()).getRank() - nb -
                    static_cast<int64_t>(getLhsContractingDimensions().size());
  int64_t rank = tensorType(getOperation()->getOperand(operand)).getRank();
  int64_t next = lhs ? nb : nb + lhsFree;
  SmallVector<int64_t> map(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (const int64_t *it = llvm::find(batch, d); it != batch.end())
      map[d] = it - batch.begin();
    else if (llvm::is_contained(contract, d))
      map[d] = -1;
    else
      map[d] = next++;
  }
  return map;
}

std::optional<SmallVector<int64_t>>
ConvolutionOp::getOperandDimMap(unsigned operand, unsigned) {
  // The input's batch (unless batch-grouped) and spatial dimensions, and
  // the kernel's output feature (unless grouped); the contracted feature
  // dimensions map nowhere.
  ConvDims dims = toConvDims(getDimensionNumbers());
  SmallVector<int64_t> map(
      tensorType(getOperation()->getOperand(operand)).getRank(), -1);
  if (operand == 0) {
    if (getBatchGroupCount() == 1)
      map[dims.inputBatch] = dims.outputBatch;
    for (size_t i = 0; i < dims.inputSpatial.size(); ++i)
      map[dims.inputSpatial[i]] = dims.outputSpatial[i];
  } else if (getFeatureGroupCount() == 1 && getBatchGroupCount() == 1) {
    map[dims.kernelOutputFeature] = dims.outputFeature;
  }
  return map;
}
