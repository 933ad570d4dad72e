//===- ConvertContraction.cpp - stablehlo dot, convolution, linear algebra ===//
//
// Both map one to one; as the HLO importer does, operands of another
// element type than the result (mixed precision) are converted to it first,
// since torus contracts in the result type. Reversed convolution windows
// are rejected. fft and triangular_solve map one to one (their enums by
// name); cholesky has no torus op yet: an error naming it (empty results
// excepted).
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

/// fft: its type, by name, and lengths.
struct FftPattern : OpConversionPattern<shlo::FftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::FftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<FftType> type =
        symbolizeFftType(shlo::stringifyFftType(op.getFftType()));
    if (!type)
      return op.emitError() << "'stablehlo.fft' of an unknown type";
    rewriter.replaceOpWithNewOp<FftOp>(
        op, op.getType(), adaptor.getOperand(),
        FftTypeAttr::get(getContext(), *type), op.getFftLengthAttr());
    return success();
  }
};

/// triangular_solve: the options one to one, transpose_a by name.
struct TriangularSolvePattern
    : OpConversionPattern<shlo::TriangularSolveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::TriangularSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<TransposeKind> transpose = symbolizeTransposeKind(
        shlo::stringifyTranspose(op.getTransposeA()));
    if (!transpose)
      return op.emitError()
             << "'stablehlo.triangular_solve' with transpose_a = "
             << shlo::stringifyTranspose(op.getTransposeA());
    rewriter.replaceOpWithNewOp<TriangularSolveOp>(
        op, op.getType(), adaptor.getA(), adaptor.getB(),
        op.getLeftSideAttr(), op.getLowerAttr(), op.getUnitDiagonalAttr(),
        TransposeKindAttr::get(getContext(), *transpose));
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
  patterns.add<DotGeneralPattern, ConvolutionPattern, FftPattern,
               TriangularSolvePattern, NoTorusOpPattern<shlo::CholeskyOp>>(
      patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
