//===- ConvertElementwise.cpp - elementwise stablehlo and chlo ops --------===//
//
// The elementwise ops the generic pattern (ConvertToTorus.cpp) cannot
// create alone: constant (a value, not an operand), compare (its enums),
// bitcast_convert across 32 and 64 bits (the HLO importer's integer-op
// expansion; other widths are rejected, naming the types), and chlo:
// tan, erf and top_k have torus ops; the other chlo functions are errors
// naming the op (torus has no lgamma, digamma, erf_inv, ... yet), except
// next_after, expanded into integer ops on the bits as XLA does.
// rng_bit_generator is here too: an elementwise generator of bits.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h" // Importer.h needs WindowDim
#include "ir/hlo/Importer.h"
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
    if (from.getShape() != to.getShape()) {
      if (Value r = hlo::bitcastAcrossWidths(rewriter, op.getLoc(),
                                             adaptor.getOperand(), to)) {
        rewriter.replaceOp(op, r);
        return success();
      }
      return op.emitError() << "'stablehlo.bitcast_convert' from " << from
                            << " to " << to
                            << " is not supported: only element types of one "
                               "bit width, or of 32 and 64 bits";
    }
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

/// chlo.next_after as XLA expands it (and as the tracer's nextafter does,
/// ir/trace/ElementwiseOps.cpp): step the bits of x by one toward y, from
/// ±0 to the smallest subnormal with y's sign, y itself when x == y, NaN
/// when either is NaN.
struct NextAfterPattern : OpConversionPattern<chlo::NextAfterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(chlo::NextAfterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto ft = dyn_cast<FloatType>(type.getElementType());
    if (!ft || adaptor.getLhs().getType() != type ||
        adaptor.getRhs().getType() != type)
      return op.emitError("'chlo.next_after' needs float operands of the "
                          "result's type");
    Location loc = op.getLoc();
    unsigned width = ft.getWidth();
    auto it = type.clone(rewriter.getIntegerType(width));
    auto pt = type.clone(rewriter.getI1Type());
    auto cst = [&](APInt v) -> Value {
      return rewriter.create<ConstantOp>(loc, DenseElementsAttr::get(it, v));
    };
    auto cmp = [&](ComparisonDirection d, Value a, Value b) -> Value {
      return rewriter.create<CompareOp>(
          loc, pt, ComparisonDirectionAttr::get(getContext(), d), a, b,
          UnitAttr());
    };
    auto sel = [&](Value p, Value a, Value b) -> Value {
      return rewriter.create<SelectOp>(loc, a.getType(), p, a, b);
    };
    auto band = [&](Value a, Value b) -> Value {
      return rewriter.create<AndOp>(loc, a.getType(), a, b);
    };
    auto bor = [&](Value a, Value b) -> Value {
      return rewriter.create<OrOp>(loc, a.getType(), a, b);
    };
    using Dir = ComparisonDirection;
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    Value xi = rewriter.create<BitcastConvertOp>(loc, it, x);
    Value yi = rewriter.create<BitcastConvertOp>(loc, it, y);
    Value signMask = cst(APInt::getSignedMinValue(width));
    Value absMask = cst(APInt::getSignedMaxValue(width));
    Value xAbs = band(xi, absMask), yAbs = band(yi, absMask);
    Value xSign = band(xi, signMask), ySign = band(yi, signMask);
    Value zero = cst(APInt(width, 0)), one = cst(APInt(width, 1)),
          minusOne = cst(APInt::getAllOnes(width));
    // Toward zero (-1 on the bits) when |x| > |y| or the signs differ.
    Value smaller =
        bor(cmp(Dir::GT, xAbs, yAbs), cmp(Dir::NE, xSign, ySign));
    Value r = rewriter.create<AddOp>(loc, it, xi, sel(smaller, minusOne, one));
    Value fromZero = sel(cmp(Dir::EQ, yAbs, zero), yi, bor(ySign, one));
    r = sel(cmp(Dir::EQ, xAbs, zero), fromZero, r);
    r = sel(cmp(Dir::EQ, x, y), yi, r);
    Value result = rewriter.create<BitcastConvertOp>(loc, type, r);
    Value nan = bor(cmp(Dir::NE, x, x), cmp(Dir::NE, y, y));
    Value nans = rewriter.create<ConstantOp>(
        loc, DenseElementsAttr::get(type, APFloat::getQNaN(ft.getFloatSemantics())));
    rewriter.replaceOp(op, sel(nan, nans, result));
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
    if (!isa<chlo::CHLODialect>(op->getDialect()) || hasChloExpansion(op))
      return failure();
    return op->emitError() << "'" << op->getName()
                           << "' has no torus equivalent yet";
  }
};

} // namespace

void populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantPattern, ComparePattern, BitcastConvertPattern,
               RngBitGeneratorPattern, TopKPattern, NextAfterPattern,
               ChloUnaryPattern<chlo::TanOp, TanOp>,
               ChloUnaryPattern<chlo::ErfOp, ErfOp>>(ctx, /*benefit=*/1);
  patterns.add<UnsupportedChloPattern>(ctx);
}

} // namespace mlir::torus::stablehlo
