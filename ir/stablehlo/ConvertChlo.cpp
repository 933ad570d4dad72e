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
//   erf_inv, erfc: XLA's polynomials (below; Cephes' for erfc of f64)
//   bessel_i1e: Cephes' Chebyshev series, as XLA writes it
//
// cosh, sinh, lgamma, digamma, erf_inv, erfc and bessel_i1e compute f16 and
// bf16 in f32, as the decomposition does.
// cosh, sinh, asinh, acosh, atanh, atan and asin of complex operands are
// expanded on the real and imaginary parts as the decomposition writes them
// (below: Hull et al.'s algorithm for asin/acosh/asinh); the other
// functions take real floats only, complex operands are an error naming
// the op.
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
  Value max(Value a, Value c) {
    return b_.create<MaximumOp>(loc_, type_, a, c);
  }
  Value min(Value a, Value c) {
    return b_.create<MinimumOp>(loc_, type_, a, c);
  }
  Value orI1(Value a, Value c) {
    return b_.create<OrOp>(loc_, a.getType(), a, c);
  }
  Value notI1(Value a) { return b_.create<NotOp>(loc_, a.getType(), a); }
  /// The parts of a complex tensor whose part type is this expander's type.
  Value real(Value z) { return b_.create<RealOp>(loc_, type_, z); }
  Value imag(Value z) { return b_.create<ImagOp>(loc_, type_, z); }
  Value complex(Value re, Value im) {
    return b_.create<ComplexOp>(loc_, re, im);
  }
  /// The smallest positive normal value of the element type.
  double smallestNormal() {
    return APFloat::getSmallestNormalized(ft_.getFloatSemantics())
        .convertToDouble();
  }
  /// The machine epsilon of the element type (the gap above 1).
  double epsilon() {
    return std::ldexp(1.0,
                      1 - int(APFloat::semanticsPrecision(
                              ft_.getFloatSemantics())));
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

// Complex operands. The formulas are those of StableHLO's CHLO
// decomposition (functional_algorithms, after Hull et al., "Implementing the
// complex arcsine and arccosine functions using exception handling", 1997),
// step by step in the same order so that results follow XLA's roundings.

/// hypot(a, b) of |a|, b >= 0 as the decomposition writes it: mx * sqrt(1 +
/// r^2) with r = mn / mx, mx + mx r^2 / 2 when that sqrt rounds to 1, and
/// mx sqrt(2) when a == b.
Value hypotKernel(Expander &e, Value a, Value b) {
  Value one = e.cst(1);
  Value mx = e.max(a, b), mn = e.min(a, b);
  Value r = e.div(mn, mx);
  Value r2 = e.mul(r, r);
  Value sq = e.sqrt(e.add(r2, one));
  Value tiny = e.andI1(e.cmp(Dir::EQ, sq, one), e.cmp(Dir::GT, r2, e.cst(0)));
  Value general = e.select(tiny, e.add(mx, e.div(e.mul(mx, r2), e.cst(2))),
                           e.mul(mx, sq));
  return e.select(e.cmp(Dir::EQ, mx, mn), e.mul(mx, e.cst(std::sqrt(2.0))),
                  general);
}

/// The two real quantities of asin(x + iy) for ax = |x|, ay = |y|: the
/// denominator d with Re asin = atan2(x, d) and the magnitude m with
/// |Im asin| = m (= Re acosh, with Im acosh = +-atan2(d, x)).
struct AsinKernel {
  Value den, mag;
};
AsinKernel asinKernel(Expander &e, Value ax, Value ay) {
  Value one = e.cst(1), half = e.cst(0.5);
  double safeMax = std::sqrt(e.maxValue()) / 8;
  double safeMin = std::sqrt(e.smallestNormal()) * 4;
  Value xp1 = e.add(ax, one);
  Value r = hypotKernel(e, e.abs(xp1), ay);
  Value xm1 = e.sub(ax, one);
  Value s = hypotKernel(e, e.abs(xm1), ay);
  Value a = e.mul(e.add(r, s), half);
  Value halfApx = e.mul(e.add(a, ax), half);
  Value yy = e.mul(ay, ay);
  Value rpxp1 = e.add(r, xp1);
  Value smxm1 = e.sub(s, xm1);
  Value spxm1 = e.add(s, xm1);
  AsinKernel k;
  Value inside = e.sqrt(e.mul(halfApx, e.add(e.div(yy, rpxp1), smxm1)));
  Value outside = e.mul(
      ay, e.sqrt(e.add(e.div(halfApx, rpxp1), e.div(halfApx, spxm1))));
  k.den = e.select(e.cmp(Dir::GE, e.max(ax, ay), e.cst(safeMax)), ay,
                   e.select(e.cmp(Dir::LE, ax, one), inside, outside));

  Value safeMaxOpt =
      e.select(e.cmp(Dir::LT, ax, e.cst(safeMax * 1e12)),
               e.cst(safeMax * 1e-6), e.cst(safeMax * 1e2));
  Value yBig = e.cmp(Dir::GE, ay, safeMaxOpt);
  Value mx = e.select(yBig, ay, ax);
  Value huge = e.cmp(Dir::GE, mx, e.select(yBig, safeMaxOpt, e.cst(safeMax)));
  Value inf = e.cst(std::numeric_limits<double>::infinity());
  Value xoy = e.select(e.andI1(yBig, e.notI1(e.cmp(Dir::EQ, ay, inf))),
                       e.div(ax, ay), e.cst(0));
  Value hugeMag = e.add(e.add(e.log(mx), e.cst(std::log(2.0))),
                        e.mul(e.log1p(e.mul(xoy, xoy)), half));
  Value tiny = e.andI1(e.cmp(Dir::LT, ay, e.cst(safeMin)),
                       e.cmp(Dir::LT, ax, one));
  Value ap1 = e.add(a, one);
  Value halfYy = e.mul(yy, half);
  Value yyOverRpxp1 = e.div(halfYy, rpxp1);
  Value am1 = e.select(
      tiny, e.neg(e.div(e.mul(xp1, xm1), ap1)),
      e.select(e.cmp(Dir::GE, ax, one),
               e.add(yyOverRpxp1, e.mul(spxm1, half)),
               e.select(e.cmp(Dir::LE, a, e.cst(1.5)),
                        e.add(yyOverRpxp1, e.div(halfYy, smxm1)),
                        e.sub(a, one))));
  Value sq = e.sqrt(e.mul(am1, ap1));
  k.mag = e.select(huge, hugeMag,
                   e.select(tiny, e.div(ay, sq), e.log1p(e.add(am1, sq))));
  return k;
}

/// v negated where `negative`.
Value negateWhere(Expander &e, Value negative, Value v) {
  return e.select(negative, e.neg(v), v);
}

//   asin(x + iy) = atan2(x, d) + i sign(y) m
Value complexAsin(Expander &e, Value z) {
  Value x = e.real(z), y = e.imag(z);
  AsinKernel k = asinKernel(e, e.abs(x), e.abs(y));
  return e.complex(e.atan2(x, k.den),
                   negateWhere(e, e.cmp(Dir::LT, y, e.cst(0)), k.mag));
}

//   asinh(z) = -i asin(iz): asin's kernel at (|y|, |x|).
Value complexAsinh(Expander &e, Value z) {
  Value x = e.real(z), y = e.imag(z);
  AsinKernel k = asinKernel(e, e.abs(y), e.abs(x));
  return e.complex(negateWhere(e, e.cmp(Dir::LT, x, e.cst(0)), k.mag),
                   e.atan2(y, k.den));
}

//   acosh(x + iy) = m + i sign(y) atan2(d, x)
Value complexAcosh(Expander &e, Value z) {
  Value x = e.real(z), y = e.imag(z);
  AsinKernel k = asinKernel(e, e.abs(x), e.abs(y));
  return e.complex(k.mag, negateWhere(e, e.cmp(Dir::LT, y, e.cst(0)),
                                      e.atan2(k.den, x)));
}

/// atanh(x + iy) as (real, imag):
///   Re = sign(x) log1p(4 |x| / ((1 - |x|)^2 + y^2)) / 4
///   Im = atan2(2y, (1 - |x|)(1 + |x|) - y^2) / 2
/// with the decomposition's forms for |x| or |y| >= 4 / eps^2.
std::pair<Value, Value> atanhParts(Expander &e, Value x, Value y) {
  Value one = e.cst(1), zero = e.cst(0);
  Value inf = e.cst(std::numeric_limits<double>::infinity());
  double eps = e.epsilon();
  Value ax = e.abs(x), ay = e.abs(y);
  Value big = e.cst(4 / (eps * eps));
  Value inRange = e.andI1(e.cmp(Dir::LT, ax, big), e.cmp(Dir::LT, ay, big));
  Value oneMinusAx = e.sub(one, ax);
  Value yy = e.mul(y, y);
  Value signX = e.select(e.cmp(Dir::GE, x, zero), one, e.cst(-1));
  Value moderate =
      e.div(ax, e.add(e.mul(oneMinusAx, oneMinusAx), yy));
  auto isInf = [&](Value v) {
    return e.orI1(e.cmp(Dir::EQ, v, inf), e.cmp(Dir::EQ, v, e.neg(inf)));
  };
  Value anyInf = e.orI1(isInf(x), isInf(y));
  Value mixed = e.div(e.div(one, e.add(e.div(ax, y), e.div(y, ax))), y);
  Value large = e.select(
      e.cmp(Dir::LT, e.mul(ay, e.cst(2 / eps + 2)), ax), e.div(one, ax),
      e.select(anyInf, zero, mixed));
  Value q = e.select(inRange, moderate, large);
  Value re = e.mul(e.mul(signX, e.log1p(e.mul(q, e.cst(4)))), e.cst(0.25));
  Value angle = e.atan2(e.add(y, y),
                        e.sub(e.mul(oneMinusAx, e.add(ax, one)), yy));
  Value signY = e.select(e.cmp(Dir::GE, y, zero), one, e.cst(-1));
  Value im = e.mul(e.select(inRange, angle, e.mul(signY, e.cst(M_PI))),
                   e.cst(0.5));
  return {re, im};
}

Value complexAtanh(Expander &e, Value z) {
  auto [re, im] = atanhParts(e, e.real(z), e.imag(z));
  return e.complex(re, im);
}

//   atan(z) = -i atanh(iz)
Value complexAtan(Expander &e, Value z) {
  auto [re, im] = atanhParts(e, e.neg(e.imag(z)), e.real(z));
  return e.complex(im, e.neg(re));
}

/// exp(x + iy) as the decomposition writes it: e^x (cos y, sin y), through
/// e^(x/2) twice where e^x overflows, and an imaginary part 0 when y == 0.
std::pair<Value, Value> complexExpParts(Expander &e, Value x, Value y) {
  Value ex = e.exp(x);
  Value overflow =
      e.cmp(Dir::EQ, ex, e.cst(std::numeric_limits<double>::infinity()));
  Value halfEx = e.exp(e.mul(x, e.cst(0.5)));
  auto scale = [&](Value t) {
    return e.select(overflow, e.mul(e.mul(halfEx, t), halfEx), e.mul(ex, t));
  };
  Value re = scale(e.cos(y));
  Value im = e.select(e.cmp(Dir::EQ, y, e.cst(0)), e.cst(0), scale(e.sin(y)));
  return {re, im};
}

/// cosh and sinh: exp(z + log(1/2)) +- exp(log(1/2) - z), complex.
Value complexCoshOrSinh(Expander &e, Value z, bool sinh) {
  Value x = e.real(z), y = e.imag(z);
  Value c = e.cst(std::log(0.5));
  auto [re1, im1] = complexExpParts(e, e.add(x, c), e.add(y, e.cst(0)));
  auto [re2, im2] = complexExpParts(e, e.sub(c, x), e.sub(e.cst(0), y));
  if (sinh)
    return e.complex(e.sub(re1, re2), e.sub(im1, im2));
  return e.complex(e.add(re1, re2), e.add(im1, im2));
}
Value complexCosh(Expander &e, Value z) {
  return complexCoshOrSinh(e, z, false);
}
Value complexSinh(Expander &e, Value z) {
  return complexCoshOrSinh(e, z, true);
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

// erfc of f64 (Cephes' ndtr.c as XLA writes it): 1 - x T(x^2) / U(x^2)
// for |x| < 1, else exp(-x^2) P(|x|) / Q(|x|) below 8 and exp(-x^2) R(|x|)
// / S(|x|) above, 0 when -x^2 < -maxlog, reflected (2 - y) for x < 0.
Value erfc64(Expander &e, Value x) {
  static constexpr double erfT[] = {
      9.60497373987051638749E0, 9.00260197203842689217E1,
      2.23200534594684319226E3, 7.00332514112805075473E3,
      5.55923013010394962768E4};
  static constexpr double erfU[] = {
      1.0,                      3.35617141647503099647E1,
      5.21357949780152679795E2, 4.59432382970980127987E3,
      2.26290000613890934246E4, 4.92673942608635921086E4};
  static constexpr double erfcP[] = {
      2.46196981473530512524E-10, 5.64189564831068821977E-1,
      7.46321056442269912687E0,   4.86371970985681366614E1,
      1.96520832956077098242E2,   5.26445194995477358631E2,
      9.34528527171957607540E2,   1.02755188689515710272E3,
      5.57535335369399327526E2};
  static constexpr double erfcQ[] = {
      1.0,                      1.32281951154744992508E1,
      8.67072140885989742329E1, 3.54937778887819891062E2,
      9.75708501743205489753E2, 1.82390916687909736289E3,
      2.24633760818710981792E3, 1.65666309194161350182E3,
      5.57535340817727675546E2};
  static constexpr double erfcR[] = {
      5.64189583547755073984E-1, 1.27536670759978104416E0,
      5.01905042251180477414E0,  6.16021097993053585195E0,
      7.40974269950448939160E0,  2.97886665372100240670E0};
  static constexpr double erfcS[] = {
      1.0,                      2.26052863220117276590E0,
      9.39603524938001434673E0, 1.20489539808096656605E1,
      1.70814450747565897222E1, 9.60896809063285878198E0,
      3.36907645100081516050E0};
  constexpr double kMaxLog = 7.09782712893383996843E2;
  Value one = e.cst(1);
  Value x2 = e.mul(x, x);
  Value small = e.sub(one, e.div(e.mul(x, horner(e, x2, erfT)),
                                 horner(e, x2, erfU)));
  Value z = e.neg(e.mul(x, x));
  Value absX = e.abs(x);
  Value ez = e.exp(z);
  Value near =
      e.div(e.mul(ez, horner(e, absX, erfcP)), horner(e, absX, erfcQ));
  Value far =
      e.div(e.mul(ez, horner(e, absX, erfcR)), horner(e, absX, erfcS));
  Value y = e.select(e.cmp(Dir::LT, absX, e.cst(8)), near, far);
  y = e.select(e.cmp(Dir::LT, z, e.cst(-kMaxLog)), e.cst(0), y);
  Value large =
      e.select(e.cmp(Dir::LT, x, e.cst(0)), e.sub(e.cst(2), y), y);
  return e.select(e.cmp(Dir::LT, absX, one), small, large);
}

Value erfcAny(Expander &e, Value x) {
  return e.isF64() ? erfc64(e, x) : erfc(e, x);
}

/// Cephes' chbevl as XLA writes it: b0 = x b1 - b2 + c over the
/// coefficients (from b0 = b1 = b2 = 0; the first steps' zero terms left
/// out as XLA's simplifier leaves them), then (b0 - b2) / 2.
Value chebyshev(Expander &e, Value x, ArrayRef<double> coeffs) {
  Value b0, b1, b2;
  for (double c : coeffs) {
    b2 = b1;
    b1 = b0;
    Value t = e.mul(x, b1 ? b1 : e.cst(0));
    if (b2)
      t = e.sub(t, b2);
    b0 = e.add(t, e.cst(c));
  }
  return e.mul(e.sub(b0, b2), e.cst(0.5));
}

// bessel_i1e (Cephes' i1e, as XLA writes it): |x| A(|x|/2 - 2) for |x| <= 8,
// B(32/|x| - 2) / sqrt|x| above (Chebyshev series), times sign(x). f32 (and
// f16/bf16, computed in f32) take the last 17 and 7 coefficients, f64 all.
Value besselI1e(Expander &e, Value x) {
  static constexpr double a[] = {
      2.77791411276104639959E-18, -2.11142121435816608115E-17,
      1.55363195773620046921E-16, -1.10559694773538630805E-15,
      7.60068429473540693410E-15, -5.04218550472791168711E-14,
      3.22379336594557470981E-13, -1.98397439776494371520E-12,
      1.17361862988909016308E-11, -6.66348972350202774223E-11,
      3.62559028155211703701E-10, -1.88724975172282928790E-9,
      9.38153738649577178388E-9,  -4.44505912879632808065E-8,
      2.00329475355213526229E-7,  -8.56872026469545474066E-7,
      3.47025130813767847674E-6,  -1.32731636560394358279E-5,
      4.78156510755005422638E-5,  -1.61760815825896745588E-4,
      5.12285956168575772895E-4,  -1.51357245063125314899E-3,
      4.15642294431288815669E-3,  -1.05640848946261981558E-2,
      2.47264490306265168283E-2,  -5.29459812080949914269E-2,
      1.02643658689847095384E-1,  -1.76416518357834055153E-1,
      2.52587186443633654823E-1};
  static constexpr double b[] = {
      7.51729631084210481353E-18,  4.41434832307170791151E-18,
      -4.65030536848935832153E-17, -3.20952592199342395980E-17,
      2.96262899764595013876E-16,  3.30820231092092828324E-16,
      -1.88035477551078244854E-15, -3.81440307243700780478E-15,
      1.04202769841288027642E-14,  4.27244001671195135429E-14,
      -2.10154184277266431302E-14, -4.08355111109219731823E-13,
      -7.19855177624590851209E-13, 2.03562854414708950722E-12,
      1.41258074366137813316E-11,  3.25260358301548823856E-11,
      -1.89749581235054123450E-11, -5.58974346219658380687E-10,
      -3.83538038596423702205E-9,  -2.63146884688951950684E-8,
      -2.51223623787020892529E-7,  -3.88256480887769039346E-6,
      -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
      7.78576235018280120474E-1};
  ArrayRef<double> ca(a), cb(b);
  if (!e.isF64()) {
    ca = ca.take_back(17);
    cb = cb.take_back(7);
  }
  Value z = e.abs(x);
  Value inner =
      e.mul(z, chebyshev(e, e.sub(e.mul(z, e.cst(0.5)), e.cst(2)), ca));
  Value outer = e.div(
      chebyshev(e, e.sub(e.div(e.cst(32), z), e.cst(2)), cb), e.sqrt(z));
  return e.mul(e.sign(x),
               e.select(e.cmp(Dir::LE, z, e.cst(8)), inner, outer));
}

/// A chlo function on real floats, expanded by `expand` (in f32 for f16
/// and bf16 when `upcast`).
template <typename OpTy>
struct ExpandPattern : OpConversionPattern<OpTy> {
  using Fn = Value (*)(Expander &, Value);
  ExpandPattern(MLIRContext *ctx, Fn expand, bool upcast,
                Fn expandComplex = nullptr)
      : OpConversionPattern<OpTy>(ctx, /*benefit=*/1), expand_(expand),
        expandComplex_(expandComplex), upcast_(upcast) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto ct = dyn_cast<ComplexType>(type.getElementType());
    if (ct && expandComplex_) {
      // Expanded on the parts, a tensor of the complex type's float type.
      Expander e(rewriter, op.getLoc(), type.clone(ct.getElementType()));
      rewriter.replaceOp(op, expandComplex_(e, adaptor.getOperand()));
      return success();
    }
    auto ft = dyn_cast<FloatType>(type.getElementType());
    if (!ft)
      return op.emitError() << "'" << op->getName() << "' of "
                            << type.getElementType() << " is not supported: "
                            << (expandComplex_ ? "only floats and complex"
                                               : "only real floats");
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
  Fn expand_, expandComplex_;
  bool upcast_;
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
             chlo::LgammaOp, chlo::DigammaOp, chlo::ErfInvOp, chlo::ErfcOp,
             chlo::BesselI1eOp>(op);
}

void populateChloPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SquarePattern>(ctx);
  patterns.add<ExpandPattern<chlo::CoshOp>>(ctx, cosh, /*upcast=*/true,
      /*expandComplex=*/complexCosh);
  patterns.add<ExpandPattern<chlo::SinhOp>>(ctx, sinh, /*upcast=*/true,
      /*expandComplex=*/complexSinh);
  patterns.add<ExpandPattern<chlo::AsinhOp>>(ctx, asinh, /*upcast=*/false,
      /*expandComplex=*/complexAsinh);
  patterns.add<ExpandPattern<chlo::AcoshOp>>(ctx, acosh, /*upcast=*/false,
      /*expandComplex=*/complexAcosh);
  patterns.add<ExpandPattern<chlo::AtanhOp>>(ctx, atanh, /*upcast=*/false,
      /*expandComplex=*/complexAtanh);
  patterns.add<ExpandPattern<chlo::AtanOp>>(ctx, atan, /*upcast=*/false,
      /*expandComplex=*/complexAtan);
  patterns.add<ExpandPattern<chlo::AsinOp>>(ctx, asin, /*upcast=*/false,
      /*expandComplex=*/complexAsin);
  patterns.add<ExpandPattern<chlo::LgammaOp>>(ctx, lgamma, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::DigammaOp>>(ctx, digamma, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::ErfInvOp>>(ctx, erfInvAny,
                                              /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::ErfcOp>>(ctx, erfcAny, /*upcast=*/true);
  patterns.add<ExpandPattern<chlo::BesselI1eOp>>(ctx, besselI1e,
                                                 /*upcast=*/true);
}

} // namespace mlir::torus::stablehlo
