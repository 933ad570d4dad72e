//===- ConvertChlo.cpp - chlo functions as torus ops ----------------------===//
//
// The chlo functions with no torus op, written with torus ops the way
// StableHLO's CHLO decomposition writes them (so results follow XLA's):
//
//   cosh(x)  = exp(x + log(1/2)) + exp(log(1/2) - x)
//   sinh(x)  = |x| < 1 ? (e + e / (e + 1)) / 2 with e = expm1(x)
//                      : exp(x + log(1/2)) - exp(log(1/2) - x)
//   asinh(x) = sign(x) * (|x| >= sqrt(max) ? log|x| + log 2
//                         : log1p(|x| + x^2 / (sqrt(x^2 + 1) + 1)))
//   acosh(x) = x >= max / 2 ? log x + log 2
//                           : log1p(sqrt(x - 1) * (sqrt(x + 1) + sqrt(x - 1)))
//   atanh(x) = |x| > 1 ? NaN : (log1p(x) - log1p(-x)) / 2
//   atan(x)  = atan2(x, 1)
//   asin(x)  = 2 * atan2(x, 1 + sqrt((1 - x) * (1 + x)))
//
// cosh and sinh compute f16 and bf16 in f32, as the decomposition does.
// Real floats only: complex operands are an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ChloOps.h"
#include "ir/stablehlo/ConvertToTorus.h"

#include <cmath>

namespace mlir::torus::stablehlo {

namespace chlo = ::mlir::chlo;

namespace {

/// Builds the expansion of one chlo function on a float tensor.
class Expander {
public:
  Expander(OpBuilder &b, Location loc, RankedTensorType type)
      : b_(b), loc_(loc), type_(type),
        ft_(cast<FloatType>(type.getElementType())) {}

  Value cst(double v) {
    return b_.create<ConstantOp>(
        loc_, DenseElementsAttr::get(type_, FloatAttr::get(ft_, v)));
  }
  /// The largest finite value of the element type.
  double maxValue() {
    return APFloat::getLargest(ft_.getFloatSemantics()).convertToDouble();
  }
  Value add(Value a, Value c) { return b_.create<AddOp>(loc_, type_, a, c); }
  Value sub(Value a, Value c) {
    return b_.create<SubtractOp>(loc_, type_, a, c);
  }
  Value mul(Value a, Value c) {
    return b_.create<MultiplyOp>(loc_, type_, a, c);
  }
  Value div(Value a, Value c) { return b_.create<DivideOp>(loc_, type_, a, c); }
  Value exp(Value a) { return b_.create<ExpOp>(loc_, type_, a); }
  Value expm1(Value a) { return b_.create<Expm1Op>(loc_, type_, a); }
  Value log(Value a) { return b_.create<LogOp>(loc_, type_, a); }
  Value log1p(Value a) { return b_.create<Log1pOp>(loc_, type_, a); }
  Value sqrt(Value a) { return b_.create<SqrtOp>(loc_, type_, a); }
  Value abs(Value a) { return b_.create<AbsOp>(loc_, type_, a); }
  Value sign(Value a) { return b_.create<SignOp>(loc_, type_, a); }
  Value neg(Value a) { return b_.create<NegateOp>(loc_, type_, a); }
  Value atan2(Value y, Value x) {
    return b_.create<Atan2Op>(loc_, type_, y, x);
  }
  Value cmp(ComparisonDirection d, Value a, Value c) {
    return b_.create<CompareOp>(
        loc_, type_.clone(b_.getI1Type()),
        ComparisonDirectionAttr::get(b_.getContext(), d), a, c, UnitAttr());
  }
  Value select(Value p, Value a, Value c) {
    return b_.create<SelectOp>(loc_, type_, p, a, c);
  }

private:
  OpBuilder &b_;
  Location loc_;
  RankedTensorType type_;
  FloatType ft_;
};

using Dir = ComparisonDirection;

Value cosh(Expander &e, Value x) {
  Value c = e.cst(std::log(0.5));
  return e.add(e.exp(e.add(x, c)), e.exp(e.sub(c, x)));
}

Value sinh(Expander &e, Value x) {
  Value one = e.cst(1);
  Value em1 = e.expm1(x);
  Value small = e.mul(e.add(em1, e.div(em1, e.add(em1, one))), e.cst(0.5));
  Value c = e.cst(std::log(0.5));
  Value large = e.sub(e.exp(e.add(x, c)), e.exp(e.sub(c, x)));
  return e.select(e.cmp(Dir::LT, e.abs(x), one), small, large);
}

Value asinh(Expander &e, Value x) {
  Value a = e.abs(x);
  Value one = e.cst(1);
  Value a2 = e.mul(a, a);
  Value moderate =
      e.log1p(e.add(a, e.div(a2, e.add(e.sqrt(e.add(a2, one)), one))));
  Value huge = e.add(e.log(a), e.cst(std::log(2.0)));
  Value big = e.cmp(Dir::GE, a, e.cst(std::sqrt(e.maxValue())));
  return e.mul(e.sign(x), e.select(big, huge, moderate));
}

Value acosh(Expander &e, Value x) {
  Value one = e.cst(1);
  Value below = e.sqrt(e.sub(x, one));
  Value moderate = e.log1p(e.mul(below, e.add(e.sqrt(e.add(x, one)), below)));
  Value huge = e.add(e.log(x), e.cst(std::log(2.0)));
  Value big = e.cmp(Dir::GE, x, e.cst(e.maxValue() / 2));
  return e.select(big, huge, moderate);
}

Value atanh(Expander &e, Value x) {
  Value value =
      e.mul(e.sub(e.log1p(x), e.log1p(e.neg(x))), e.cst(0.5));
  return e.select(e.cmp(Dir::GT, e.abs(x), e.cst(1)),
                  e.cst(std::nan("")), value);
}

Value atan(Expander &e, Value x) { return e.atan2(x, e.cst(1)); }

Value asin(Expander &e, Value x) {
  Value one = e.cst(1);
  Value root = e.sqrt(e.mul(e.sub(one, x), e.add(x, one)));
  Value half = e.atan2(x, e.add(root, one));
  return e.add(half, half);
}

/// A chlo function on real floats, expanded by `expand` (in f32 for f16
/// and bf16 when `upcast`).
template <typename OpTy>
struct ExpandPattern : OpConversionPattern<OpTy> {
  using Fn = Value (*)(Expander &, Value);
  ExpandPattern(MLIRContext *ctx, Fn expand, bool upcast)
      : OpConversionPattern<OpTy>(ctx, /*benefit=*/1), expand_(expand),
        upcast_(upcast) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto ft = dyn_cast<FloatType>(type.getElementType());
    if (!ft)
      return op.emitError() << "'" << op->getName() << "' of "
                            << type.getElementType()
                            << " is not supported: only real floats";
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    RankedTensorType work = type;
    if (upcast_ && ft.getWidth() < 32) {
      work = type.clone(rewriter.getF32Type());
      x = rewriter.create<ConvertOp>(loc, work, x);
    }
    Expander e(rewriter, loc, work);
    Value r = expand_(e, x);
    if (work != type)
      r = rewriter.create<ConvertOp>(loc, type, r);
    rewriter.replaceOp(op, r);
    return success();
  }

private:
  Fn expand_;
  bool upcast_;
};

} // namespace

void populateChloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ExpandPattern<chlo::CoshOp>>(ctx, cosh, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::SinhOp>>(ctx, sinh, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::AsinhOp>>(ctx, asinh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AcoshOp>>(ctx, acosh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AtanhOp>>(ctx, atanh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AtanOp>>(ctx, atan, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AsinOp>>(ctx, asin, /*upcast=*/false);
}

} // namespace mlir::torus::stablehlo
