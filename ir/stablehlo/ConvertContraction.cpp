//===- ConvertContraction.cpp - stablehlo dot_general and convolution -----===//
//
// Both map one to one; as the HLO importer does, operands of another
// element type than the result (mixed precision) are converted to it first,
// since torus contracts in the result type. Reversed convolution windows
// are rejected. fft, triangular_solve and cholesky have no torus op yet:
// errors naming them (empty results excepted).
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

struct DotGeneralPattern : OpConversionPattern<shlo::DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Type et = type.getElementType();
    Location loc = op.getLoc();
    shlo::DotDimensionNumbersAttr d = op.getDotDimensionNumbers();
    rewriter.replaceOpWithNewOp<DotGeneralOp>(
        op, type, convertElementType(rewriter, loc, adaptor.getLhs(), et),
        convertElementType(rewriter, loc, adaptor.getRhs(), et),
        rewriter.getDenseI64ArrayAttr(d.getLhsBatchingDimensions()),
        rewriter.getDenseI64ArrayAttr(d.getRhsBatchingDimensions()),
        rewriter.getDenseI64ArrayAttr(d.getLhsContractingDimensions()),
        rewriter.getDenseI64ArrayAttr(d.getRhsContractingDimensions()));
    return success();
  }
};

struct ConvolutionPattern : OpConversionPattern<shlo::ConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto reversal = op.getWindowReversalAttr())
      if (llvm::is_contained(reversal.asArrayRef(), true))
        return op.emitError(
            "'stablehlo.convolution' with window reversal is not supported");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Type et = type.getElementType();
    Location loc = op.getLoc();
    shlo::ConvDimensionNumbersAttr d = op.getDimensionNumbers();
    auto dims = ConvDimensionNumbersAttr::get(
        getContext(), d.getInputBatchDimension(), d.getInputFeatureDimension(),
        d.getInputSpatialDimensions(), d.getKernelInputFeatureDimension(),
        d.getKernelOutputFeatureDimension(), d.getKernelSpatialDimensions(),
        d.getOutputBatchDimension(), d.getOutputFeatureDimension(),
        d.getOutputSpatialDimensions());
    rewriter.replaceOpWithNewOp<ConvolutionOp>(
        op, type, convertElementType(rewriter, loc, adaptor.getLhs(), et),
        convertElementType(rewriter, loc, adaptor.getRhs(), et), dims,
        op.getWindowStridesAttr(), op.getPaddingAttr(),
        op.getLhsDilationAttr(), op.getRhsDilationAttr(),
        op.getFeatureGroupCountAttr(), op.getBatchGroupCountAttr());
    return success();
  }
};

/// Ops torus has no equivalent of yet: an error naming the op, unless
/// its results are empty (a 0-sized batch), which are empty constants.
template <typename OpTy>
struct NoTorusOpPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> empty;
    for (Type t : op->getResultTypes()) {
      auto type = cast<RankedTensorType>(t);
      if (type.getNumElements() != 0)
        return op.emitError() << "'" << op->getName()
                              << "' has no torus equivalent yet";
      empty.push_back(rewriter.create<ConstantOp>(
          op.getLoc(), DenseElementsAttr::get(type, ArrayRef<Attribute>())));
    }
    rewriter.replaceOp(op, empty);
    return success();
  }
};

} // namespace

void populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<DotGeneralPattern, ConvolutionPattern,
               NoTorusOpPattern<shlo::FftOp>,
               NoTorusOpPattern<shlo::TriangularSolveOp>,
               NoTorusOpPattern<shlo::CholeskyOp>>(patterns.getContext(),
                                                   /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
