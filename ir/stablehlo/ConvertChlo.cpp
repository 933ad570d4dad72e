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
//   lgamma, digamma: Lanczos's approximation with reflection (below)
//   erf_inv, erfc: XLA's polynomials (below; erfc f32 and narrower only)
//
// cosh, sinh, lgamma, digamma, erf_inv and erfc compute f16 and bf16 in
// f32, as the decomposition does.
// Real floats only: complex operands are an error naming the op.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ChloOps.h"
#include "ir/stablehlo/ConvertToTorus.h"

#include <cmath>
#include <iterator>
#include <limits>

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
  Value floor(Value a) { return b_.create<FloorOp>(loc_, type_, a); }
  Value sin(Value a) { return b_.create<SinOp>(loc_, type_, a); }
  Value cos(Value a) { return b_.create<CosOp>(loc_, type_, a); }
  Value isFinite(Value a) {
    return b_.create<IsFiniteOp>(loc_, type_.clone(b_.getI1Type()), a);
  }
  Value andI1(Value a, Value c) {
    return b_.create<AndOp>(loc_, a.getType(), a, c);
  }
  bool isF64() { return ft_.isF64(); }
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

// Lanczos's approximation as XLA writes it (g = 7, n = 9).
constexpr double kLanczosGamma = 7;
constexpr double kBaseLanczosCoeff = 0.99999999999980993227684700473478;
constexpr double kLanczosCoefficients[] = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};

/// z = x < 1/2 ? -x : x - 1 (the reflection's argument or x - 1), and
/// log(t) for t = z + g + 1/2, written log1p(z / (g + 1/2)) + log(g + 1/2).
struct LanczosArgs {
  Value reflect, z, logT;
};
LanczosArgs lanczosArgs(Expander &e, Value x) {
  Value one = e.cst(1);
  LanczosArgs a;
  a.reflect = e.cmp(Dir::LT, x, e.cst(0.5));
  a.z = e.select(a.reflect, e.neg(x), e.sub(x, one));
  double gh = kLanczosGamma + 0.5;
  a.logT = e.add(e.log1p(e.div(a.z, e.cst(gh))), e.cst(std::log(gh)));
  return a;
}

/// base + sum_i c_i / (z + i + 1), summed in XLA's order.
Value lanczosSum(Expander &e, Value z) {
  Value acc;
  for (int i = 0; i < 8; ++i) {
    Value term =
        e.div(e.cst(kLanczosCoefficients[i]), e.add(z, e.cst(i + 1)));
    acc = i == 0 ? e.add(term, e.cst(kBaseLanczosCoeff)) : e.add(acc, term);
  }
  return acc;
}

//   lgamma(x) = log(sqrt(2 pi)) + (z + 1/2 - t / log t) log t + log A(z)
// for x >= 1/2 (z = x - 1), and by reflection,
//   lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x),
// below (z = -x); +inf at +-inf.
Value lgamma(Expander &e, Value x) {
  LanczosArgs a = lanczosArgs(e, x);
  Value t = e.add(a.z, e.cst(kLanczosGamma + 0.5));
  Value logY = e.add(
      e.mul(e.sub(e.add(a.z, e.cst(0.5)), e.div(t, a.logT)), a.logT),
      e.cst(0.5 * std::log(2 * M_PI)));
  logY = e.add(logY, e.log(lanczosSum(e, a.z)));
  Value absX = e.abs(x);
  Value frac = e.sub(absX, e.floor(absX));
  Value reduced =
      e.select(e.cmp(Dir::LT, e.cst(0.5), frac), e.sub(e.cst(1), frac), frac);
  Value logSin = e.log(e.sin(e.mul(reduced, e.cst(M_PI))));
  Value reflection = e.select(e.isFinite(logSin),
                              e.sub(e.sub(e.cst(std::log(M_PI)), logSin), logY),
                              e.neg(logSin));
  Value r = e.select(a.reflect, reflection, logY);
  Value inf = e.cst(std::numeric_limits<double>::infinity());
  return e.select(e.cmp(Dir::EQ, absX, inf), inf, r);
}

//   digamma(x) = log t + A'(z) / A(z) - g / t for x >= 1/2, and
//   digamma(x) - pi cot(pi x) below; NaN at the poles (integers <= 0).
Value digamma(Expander &e, Value x) {
  LanczosArgs a = lanczosArgs(e, x);
  Value num = e.cst(0);
  for (int i = 0; i < 8; ++i) {
    Value zi = e.add(a.z, e.cst(i + 1));
    num = e.sub(num, e.div(e.cst(kLanczosCoefficients[i]), e.mul(zi, zi)));
  }
  Value denom = lanczosSum(e, a.z);
  Value y = e.sub(e.add(a.logT, e.div(num, denom)),
                  e.div(e.cst(kLanczosGamma),
                        e.add(a.z, e.cst(kLanczosGamma + 0.5))));
  Value reduced = e.add(x, e.abs(e.floor(e.add(x, e.cst(0.5)))));
  Value angle = e.mul(reduced, e.cst(M_PI));
  Value reflected =
      e.sub(y, e.div(e.mul(e.cos(angle), e.cst(M_PI)), e.sin(angle)));
  Value r = e.select(a.reflect, reflected, y);
  Value pole = e.andI1(e.cmp(Dir::LE, x, e.cst(0)),
                       e.cmp(Dir::EQ, x, e.floor(x)));
  return e.select(pole, e.cst(std::nan("")), r);
}

/// Horner's rule as XLA writes it: p = c0, then p = p * w + c_i.
Value horner(Expander &e, Value w, ArrayRef<double> coeffs) {
  Value p = e.cst(coeffs[0]);
  for (double c : coeffs.drop_front())
    p = e.add(e.mul(p, w), e.cst(c));
  return p;
}

// erf_inv (f32; Giles, "Approximating the erfinv function"):
//   w = -log1p(-x^2); w < 5 ? P(w - 2.5) : Q(sqrt(w) - 3), times x;
//   +-inf at +-1.
Value erfInv(Expander &e, Value x) {
  static constexpr double small[] = {
      2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
      -4.39150654e-06, 0.00021858087,  -0.00125372503,
      -0.00417768164,  0.246640727,    1.50140941};
  static constexpr double large[] = {
      -0.000200214257, 0.000100950558, 0.00134934322,
      -0.00367342844,  0.00573950773,  -0.0076224613,
      0.00943887047,   1.00167406,     2.83297682};
  Value w = e.neg(e.log1p(e.mul(x, e.neg(x))));
  Value isSmall = e.cmp(Dir::LT, w, e.cst(5));
  Value arg = e.select(isSmall, e.sub(w, e.cst(2.5)),
                       e.sub(e.sqrt(w), e.cst(3)));
  // One Horner chain over coefficients chosen per element, as XLA does.
  Value p = e.select(isSmall, e.cst(small[0]), e.cst(large[0]));
  for (size_t i = 1; i < std::size(small); ++i)
    p = e.add(e.select(isSmall, e.cst(small[i]), e.cst(large[i])),
              e.mul(p, arg));
  Value r = e.mul(p, x);
  Value inf = e.cst(std::numeric_limits<double>::infinity());
  return e.select(e.cmp(Dir::EQ, e.abs(x), e.cst(1)), e.mul(x, inf), r);
}

// erf_inv of f64 (Giles' double-precision approximation, as XLA's
// ErfInv64 writes it): w = -log1p(-x^2) picks one of three polynomials
// (w < 6.25, w < 16, else) in w - 3.125, sqrt(w) - 3.25 or sqrt(w) - 5,
// evaluated in one Horner chain whose later steps apply only to the longer
// polynomials; times x, and +-inf at +-1.
Value erfInv64(Expander &e, Value x) {
  static constexpr double c1[] = {
      -3.6444120640178196996e-21, -1.685059138182016589e-19,
      1.2858480715256400167e-18,  1.115787767802518096e-17,
      -1.333171662854620906e-16,  2.0972767875968561637e-17,
      6.6376381343583238325e-15,  -4.0545662729752068639e-14,
      -8.1519341976054721522e-14, 2.6335093153082322977e-12,
      -1.2975133253453532498e-11, -5.4154120542946279317e-11,
      1.051212273321532285e-09,   -4.1126339803469836976e-09,
      -2.9070369957882005086e-08, 4.2347877827932403518e-07,
      -1.3654692000834678645e-06, -1.3882523362786468719e-05,
      0.0001867342080340571352,   -0.00074070253416626697512,
      -0.0060336708714301490533,  0.24015818242558961693,
      1.6536545626831027356};
  static constexpr double c2[] = {
      2.2137376921775787049e-09,  9.0756561938885390979e-08,
      -2.7517406297064545428e-07, 1.8239629214389227755e-08,
      1.5027403968909827627e-06,  -4.013867526981545969e-06,
      2.9234449089955446044e-06,  1.2475304481671778723e-05,
      -4.7318229009055733981e-05, 6.8284851459573175448e-05,
      2.4031110387097893999e-05,  -0.0003550375203628474796,
      0.00095328937973738049703,  -0.0016882755560235047313,
      0.0024914420961078508066,   -0.0037512085075692412107,
      0.005370914553590063617,    1.0052589676941592334,
      3.0838856104922207635};
  static constexpr double c3[] = {
      -2.7109920616438573243e-11, -2.5556418169965252055e-10,
      1.5076572693500548083e-09,  -3.7894654401267369937e-09,
      7.6157012080783393804e-09,  -1.4960026627149240478e-08,
      2.9147953450901080826e-08,  -6.7711997758452339498e-08,
      2.2900482228026654717e-07,  -9.9298272942317002539e-07,
      4.5260625972231537039e-06,  -1.9681778105531670567e-05,
      7.5995277030017761139e-05,  -0.00021503011930044477347,
      -0.00013871931833623122026, 1.0103004648645343977,
      4.8499064014085844221};
  Value w = e.neg(e.log1p(e.mul(x, e.neg(x))));
  Value lt625 = e.cmp(Dir::LT, w, e.cst(6.25));
  Value lt16 = e.cmp(Dir::LT, w, e.cst(16));
  Value arg = e.select(
      lt625, e.sub(w, e.cst(3.125)),
      e.sub(e.sqrt(w), e.select(lt16, e.cst(3.25), e.cst(5))));
  auto coeff = [&](int i) {
    return e.select(lt16, e.select(lt625, e.cst(c1[i]), e.cst(c2[i])),
                    e.cst(c3[i]));
  };
  Value p = coeff(0);
  for (int i = 1; i < 17; ++i)
    p = e.add(coeff(i), e.mul(p, arg));
  for (int i = 17; i < 19; ++i)
    p = e.select(lt16,
                 e.add(e.select(lt625, e.cst(c1[i]), e.cst(c2[i])),
                       e.mul(p, arg)),
                 p);
  for (int i = 19; i < 23; ++i)
    p = e.select(lt625, e.add(e.mul(p, arg), e.cst(c1[i])), p);
  Value r = e.mul(p, x);
  Value inf = e.cst(std::numeric_limits<double>::infinity());
  return e.select(e.cmp(Dir::EQ, e.abs(x), e.cst(1)), e.mul(x, inf), r);
}

Value erfInvAny(Expander &e, Value x) {
  return e.isF64() ? erfInv64(e, x) : erfInv(e, x);
}

// erfc (f32, Cephes' erfcf as XLA writes it): 1 - x P(x^2) for |x| < 1,
// else exp(-x^2) / |x| * (|x| < 2 ? R(1/x^2) : S(1/x^2)), 0 when -x^2
// underflows, reflected (2 - y) for x < 0.
Value erfc(Expander &e, Value x) {
  static constexpr double erfP[] = {7.85386146e-05, -0.000801019371,
                                    0.00518832775,  -0.0268538129,
                                    0.112835854,    -0.37612626,
                                    1.12837911};
  static constexpr double erfcR[] = {
      0.0232682,    -0.138703942, 0.368742466,  -0.582473278, 0.621000469,
      -0.494451523, 0.340488,     -0.274112701, 0.563825965};
  static constexpr double erfcS[] = {-10.477664,   12.9772,
                                     -7.49551868,  2.92101908,
                                     -1.01526523,  0.42184633,
                                     -0.282076746, 0.564189494};
  Value one = e.cst(1), two = e.cst(2);
  Value x2 = e.mul(x, x);
  Value small = e.sub(one, e.mul(x, horner(e, x2, erfP)));
  Value z = e.neg(x2);
  Value absX = e.abs(x);
  Value q = e.mul(e.exp(z), e.div(one, absX));
  Value w = e.div(one, x2);
  Value p = e.select(e.cmp(Dir::LT, absX, two), horner(e, w, erfcR),
                     horner(e, w, erfcS));
  Value y = e.select(e.cmp(Dir::LT, z, e.cst(-88.7228394)), e.cst(0),
                     e.mul(q, p));
  Value large = e.select(e.cmp(Dir::LT, x, e.cst(0)), e.sub(two, y), y);
  return e.select(e.cmp(Dir::LT, absX, one), small, large);
}

/// A chlo function on real floats, expanded by `expand` (in f32 for f16
/// and bf16 when `upcast`).
template <typename OpTy>
struct ExpandPattern : OpConversionPattern<OpTy> {
  using Fn = Value (*)(Expander &, Value);
  ExpandPattern(MLIRContext *ctx, Fn expand, bool upcast, bool noF64 = false)
      : OpConversionPattern<OpTy>(ctx, /*benefit=*/1), expand_(expand),
        upcast_(upcast), noF64_(noF64) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto ft = dyn_cast<FloatType>(type.getElementType());
    if (!ft)
      return op.emitError() << "'" << op->getName() << "' of "
                            << type.getElementType()
                            << " is not supported: only real floats";
    if (noF64_ && ft.isF64())
      return op.emitError() << "'" << op->getName()
                            << "' of f64 is not supported: only f32 and "
                               "narrower (XLA's f64 approximation differs)";
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
  bool upcast_, noF64_;
};

/// chlo.square: x * x, for every element type (XLA's expansion).
struct SquarePattern : OpConversionPattern<chlo::SquareOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(chlo::SquareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<MultiplyOp>(
        op, op.getType(), adaptor.getOperand(), adaptor.getOperand());
    return success();
  }
};

} // namespace

bool hasChloExpansion(Operation *op) {
  return isa<chlo::SquareOp, chlo::CoshOp, chlo::SinhOp, chlo::AsinhOp,
             chlo::AcoshOp, chlo::AtanhOp, chlo::AtanOp, chlo::AsinOp,
             chlo::LgammaOp, chlo::DigammaOp, chlo::ErfInvOp, chlo::ErfcOp>(op);
}

void populateChloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SquarePattern>(ctx);
  patterns.add<ExpandPattern<chlo::CoshOp>>(ctx, cosh, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::SinhOp>>(ctx, sinh, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::AsinhOp>>(ctx, asinh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AcoshOp>>(ctx, acosh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AtanhOp>>(ctx, atanh, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AtanOp>>(ctx, atan, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::AsinOp>>(ctx, asin, /*upcast=*/false);
  patterns.add<ExpandPattern<chlo::LgammaOp>>(ctx, lgamma, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::DigammaOp>>(ctx, digamma, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::ErfInvOp>>(ctx, erfInvAny,
                                              /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::ErfcOp>>(ctx, erfc, /*upcast=*/true,
                                            /*noF64=*/true);
}

} // namespace mlir::torus::stablehlo
