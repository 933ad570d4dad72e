//===- ConvertElementwise.cpp - elementwise stablehlo and chlo ops --------===//
//
// The elementwise ops the generic pattern (ConvertToTorus.cpp) cannot
// create alone: constant (a value, not an operand), compare (its enums),
// bitcast_convert across widths (rejected, naming the types), and chlo:
// tan, erf and top_k have torus ops; the other chlo functions are errors
// naming the op (torus has no lgamma, digamma, erf_inv, ... yet).
// rng_bit_generator is here too: an elementwise generator of bits.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ChloOps.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;
namespace chlo = ::mlir::chlo;

namespace {

struct ConstantPattern : OpConversionPattern<shlo::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ConstantOp>(op, op.getType(), op.getValue());
    return success();
  }
};

struct ComparePattern : OpConversionPattern<shlo::CompareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::CompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dir = symbolizeComparisonDirection(
        shlo::stringifyComparisonDirection(op.getComparisonDirection()));
    if (!dir)
      return op.emitError("unsupported comparison direction");
    Type et = cast<RankedTensorType>(op.getLhs().getType()).getElementType();
    bool totalOrder = op.getCompareType() &&
                      *op.getCompareType() == shlo::ComparisonType::TOTALORDER &&
                      isa<FloatType>(et);
    rewriter.replaceOpWithNewOp<CompareOp>(
        op, op.getType(), ComparisonDirectionAttr::get(getContext(), *dir),
        adaptor.getLhs(), adaptor.getRhs(),
        totalOrder ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct BitcastConvertPattern : OpConversionPattern<shlo::BitcastConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::BitcastConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<RankedTensorType>(op.getOperand().getType());
    auto to = cast<RankedTensorType>(op.getType());
    if (from.getShape() != to.getShape())
      return op.emitError() << "'stablehlo.bitcast_convert' from " << from
                            << " to " << to
                            << " is not supported: only element types of one "
                               "bit width";
    rewriter.replaceOpWithNewOp<BitcastConvertOp>(op, to, adaptor.getOperand());
    return success();
  }
};

struct RngBitGeneratorPattern : OpConversionPattern<shlo::RngBitGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::RngBitGeneratorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto algorithm = symbolizeRngAlgorithm(
        shlo::stringifyRngAlgorithm(op.getRngAlgorithm()));
    if (!algorithm)
      return op.emitError("unsupported rng algorithm");
    auto newOp = rewriter.create<RngBitGeneratorOp>(
        op.getLoc(), op.getOutputState().getType(), op.getOutput().getType(),
        RngAlgorithmAttr::get(getContext(), *algorithm),
        adaptor.getInitialState());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

/// A chlo op that is one torus op.
template <typename From, typename To>
struct ChloUnaryPattern : OpConversionPattern<From> {
  using OpConversionPattern<From>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(From op, typename From::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<To>(op, op.getType(), adaptor.getOperand());
    return success();
  }
};

struct TopKPattern : OpConversionPattern<chlo::TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(chlo::TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = rewriter.create<TopKOp>(
        op.getLoc(), op.getValues().getType(), op.getIndices().getType(),
        adaptor.getOperand(), op.getKAttr(), rewriter.getBoolAttr(true));
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

/// The chlo ops without a torus equivalent: an error naming the op.
struct UnsupportedChloPattern : ConversionPattern {
  UnsupportedChloPattern(MLIRContext *ctx)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &) const override {
    if (!isa<chlo::CHLODialect>(op->getDialect()))
      return failure();
    return op->emitError() << "'" << op->getName()
                           << "' has no torus equivalent yet";
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantPattern, ComparePattern, BitcastConvertPattern,
               RngBitGeneratorPattern, TopKPattern,
               ChloUnaryPattern<chlo::TanOp, TanOp>,
               ChloUnaryPattern<chlo::ErfOp, ErfOp>>(ctx, /*benefit=*/1);
  patterns.add<UnsupportedChloPattern>(ctx);
}

} // namespace mlir::torus::stablehlo
