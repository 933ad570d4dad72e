//===- ConvertIndexing.cpp - stablehlo gather and scatter -----------------===//
//
// gather's and scatter's dimension-number attributes become the torus ops'
// attributes one by one; scatter's update computation becomes its kind
// (`replace` for a body returning the update, else the reducer's kind).
// Batching dimensions and multi-input scatters are rejected.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

struct GatherPattern : OpConversionPattern<shlo::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    shlo::GatherDimensionNumbersAttr d = op.getDimensionNumbers();
    if (!d.getOperandBatchingDims().empty() ||
        !d.getStartIndicesBatchingDims().empty())
      return op.emitError(
          "'stablehlo.gather' with batching dimensions is not supported");
    rewriter.replaceOpWithNewOp<GatherOp>(
        op, op.getType(), adaptor.getOperand(), adaptor.getStartIndices(),
        rewriter.getDenseI64ArrayAttr(d.getOffsetDims()),
        rewriter.getDenseI64ArrayAttr(d.getCollapsedSliceDims()),
        rewriter.getDenseI64ArrayAttr(d.getStartIndexMap()),
        rewriter.getI64IntegerAttr(d.getIndexVectorDim()),
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
    if (!d.getInputBatchingDims().empty() ||
        !d.getScatterIndicesBatchingDims().empty())
      return op.emitError(
          "'stablehlo.scatter' with batching dimensions is not supported");
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
    rewriter.replaceOpWithNewOp<ScatterOp>(
        op, op->getResult(0).getType(),
        ScatterKindAttr::get(getContext(), *scatterKind),
        adaptor.getInputs()[0], adaptor.getScatterIndices(),
        adaptor.getUpdates()[0],
        rewriter.getDenseI64ArrayAttr(d.getUpdateWindowDims()),
        rewriter.getDenseI64ArrayAttr(d.getInsertedWindowDims()),
        rewriter.getDenseI64ArrayAttr(d.getScatterDimsToOperandDims()),
        rewriter.getI64IntegerAttr(d.getIndexVectorDim()),
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
