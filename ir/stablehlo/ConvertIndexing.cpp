//===- ConvertIndexing.cpp - stablehlo gather and scatter -----------------===//
//
// gather's and scatter's dimension-number attributes become the torus ops'
// attributes one by one; scatter's update computation becomes its kind
// (`replace` for a body returning the update, else the reducer's kind).
// Batching dimensions (JAX's take_along_axis) are rewritten away as XLA's
// BatchedGatherScatterNormalizer does: each pair becomes one more index,
// an iota along the indices' batching dimension, into the operand's
// batching dimension, which joins the collapsed (inserted) window
// dimensions. Multi-input scatters are rejected.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

/// `indices` with an iota along each of `batchingDims` appended along
/// `indexVectorDim` (which becomes a real dimension if it was the implicit
/// trailing one).
Value appendBatchIotas(OpBuilder &b, Location loc, Value indices,
                       int64_t &indexVectorDim,
                       ArrayRef<int64_t> batchingDims) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) {
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(1);
    type = RankedTensorType::get(shape, type.getElementType());
    indices = b.create<ReshapeOp>(loc, type, indices);
  }
  SmallVector<int64_t> iotaShape(type.getShape());
  iotaShape[indexVectorDim] = 1;
  auto iotaType = RankedTensorType::get(iotaShape, type.getElementType());
  SmallVector<Value> parts{indices};
  for (int64_t d : batchingDims)
    parts.push_back(b.create<IotaOp>(loc, iotaType, d));
  return b.create<ConcatenateOp>(loc, parts, indexVectorDim);
}

SmallVector<int64_t> sortedUnion(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  SmallVector<int64_t> out(a);
  out.append(b.begin(), b.end());
  llvm::sort(out);
  return out;
}

SmallVector<int64_t> concat(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  SmallVector<int64_t> out(a);
  out.append(b.begin(), b.end());
  return out;
}

struct GatherPattern : OpConversionPattern<shlo::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    shlo::GatherDimensionNumbersAttr d = op.getDimensionNumbers();
    if (d.getOperandBatchingDims().size() !=
        d.getStartIndicesBatchingDims().size())
      return op.emitError("'stablehlo.gather' needs as many operand as "
                          "start-indices batching dimensions");
    Value indices = adaptor.getStartIndices();
    int64_t indexVectorDim = d.getIndexVectorDim();
    if (!d.getOperandBatchingDims().empty())
      indices = appendBatchIotas(rewriter, op.getLoc(), indices,
                                 indexVectorDim,
                                 d.getStartIndicesBatchingDims());
    rewriter.replaceOpWithNewOp<GatherOp>(
        op, op.getType(), adaptor.getOperand(), indices,
        rewriter.getDenseI64ArrayAttr(d.getOffsetDims()),
        rewriter.getDenseI64ArrayAttr(sortedUnion(
            d.getCollapsedSliceDims(), d.getOperandBatchingDims())),
        rewriter.getDenseI64ArrayAttr(
            concat(d.getStartIndexMap(), d.getOperandBatchingDims())),
        rewriter.getI64IntegerAttr(indexVectorDim),
        op.getSliceSizesAttr(),
        op.getIndicesAreSorted() ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct ScatterPattern : OpConversionPattern<shlo::ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getInputs().size() != 1)
      return op.emitError() << "'stablehlo.scatter' of "
                            << op.getInputs().size()
                            << " inputs is not supported: only one";
    shlo::ScatterDimensionNumbersAttr d = op.getScatterDimensionNumbers();
    if (d.getInputBatchingDims().size() !=
        d.getScatterIndicesBatchingDims().size())
      return op.emitError("'stablehlo.scatter' needs as many input as "
                          "scatter-indices batching dimensions");
    bool replace = false;
    std::optional<ReduceKind> kind =
        reducerKind(op.getUpdateComputation(), &replace);
    std::optional<ScatterKind> scatterKind;
    if (replace)
      scatterKind = ScatterKind::replace;
    else if (kind)
      switch (*kind) {
      case ReduceKind::sum:
        scatterKind = ScatterKind::sum;
        break;
      case ReduceKind::product:
        scatterKind = ScatterKind::product;
        break;
      case ReduceKind::max:
        scatterKind = ScatterKind::max;
        break;
      case ReduceKind::min:
        scatterKind = ScatterKind::min;
        break;
      default:
        break;
      }
    if (!scatterKind)
      return op.emitError(
          "'stablehlo.scatter' with this update computation is not "
          "supported: torus reads one that returns the update or applies "
          "add, multiply, maximum or minimum");
    Value indices = adaptor.getScatterIndices();
    int64_t indexVectorDim = d.getIndexVectorDim();
    if (!d.getInputBatchingDims().empty())
      indices = appendBatchIotas(rewriter, op.getLoc(), indices,
                                 indexVectorDim,
                                 d.getScatterIndicesBatchingDims());
    rewriter.replaceOpWithNewOp<ScatterOp>(
        op, op->getResult(0).getType(),
        ScatterKindAttr::get(getContext(), *scatterKind),
        adaptor.getInputs()[0], indices, adaptor.getUpdates()[0],
        rewriter.getDenseI64ArrayAttr(d.getUpdateWindowDims()),
        rewriter.getDenseI64ArrayAttr(sortedUnion(
            d.getInsertedWindowDims(), d.getInputBatchingDims())),
        rewriter.getDenseI64ArrayAttr(concat(d.getScatterDimsToOperandDims(),
                                             d.getInputBatchingDims())),
        rewriter.getI64IntegerAttr(indexVectorDim),
        op.getIndicesAreSorted() ? rewriter.getUnitAttr() : UnitAttr(),
        op.getUniqueIndices() ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

} // namespace

void populateIndexingPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherPattern, ScatterPattern>(patterns.getContext(),
                                              /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
