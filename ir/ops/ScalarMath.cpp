//===- ScalarMath.cpp - HLO semantics on one element --------------------===//
//
// The arith/math code of one element of HLO's elementwise ops, shared by
// the ops' ScalarBody definitions and code generation. Functions the LLVM
// math lowering lacks or computes inaccurately (expm1, log1p, tanh, atan2;
// tanh of f32 as XLA computes it, a rational function)
// are spelled out from exp, log and arithmetic, so the generated code needs
// nothing beyond what `convert-math-to-llvm` handles; erf and cbrt, which
// libm computes accurately, become libm calls (`convert-math-to-libm`).
//
//===----------------------------------------------------------------------===//

#include "ir/ops/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

namespace mlir::torus {

using arith::CmpFPredicate;
using arith::CmpIPredicate;

namespace scalar {
Value cst(OpBuilder &b, Location loc, Type t, double v) {
  return scalarConstant(b, loc, t, v);
}
Value cmpf(OpBuilder &b, Location loc, CmpFPredicate p, Value x, Value y) {
  return b.create<arith::CmpFOp>(loc, p, x, y);
}
Value cmpi(OpBuilder &b, Location loc, CmpIPredicate p, Value x, Value y) {
  return b.create<arith::CmpIOp>(loc, p, x, y);
}
Value select(OpBuilder &b, Location loc, Value c, Value x, Value y) {
  return b.create<arith::SelectOp>(loc, c, x, y);
}
Value intConstant(OpBuilder &b, Location loc, Type t, const APInt &v) {
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, v));
}

} // namespace scalar

using namespace scalar;

Value scalarConstant(OpBuilder &b, Location loc, Type t, double value) {
  if (auto ct = dyn_cast<ComplexType>(t)) {
    Type part = ct.getElementType();
    return b.create<complex::ConstantOp>(
        loc, ct,
        b.getArrayAttr({b.getFloatAttr(part, value), b.getFloatAttr(part, 0)}));
  }
  if (auto ft = dyn_cast<FloatType>(t))
    return b.create<arith::ConstantOp>(loc, b.getFloatAttr(ft, value));
  if (t.isInteger(1))
    return b.create<arith::ConstantOp>(loc,
                                       b.getIntegerAttr(t, value != 0 ? 1 : 0));
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(t, static_cast<int64_t>(value)));
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

Value widenHalf(OpBuilder &b, Location loc, Value x) {
  if (!isHalfFloat(x.getType()))
    return x;
  if (isFloat8(x.getType()))
    return extendFloat8ToF32(b, loc, x);
  return b.create<arith::ExtFOp>(loc, b.getF32Type(), x);
}

Value narrowTo(OpBuilder &b, Location loc, Value x, Type t) {
  if (!isHalfFloat(t) || !x.getType().isF32())
    return x;
  if (isFloat8(t))
    return truncateF32ToFloat8(b, loc, x, t);
  return b.create<arith::TruncFOp>(loc, t, x);
}

Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y) {
  Type t = x.getType();
  bool isF = isFloatType(t), isB = isBool(t);
  if (isComplexType(t)) {
    // Complex numbers add and multiply; they have no order (the verifiers
    // reject max and min of them).
    if (kind == ReduceKind::sum)
      return b.create<complex::AddOp>(loc, x, y);
    if (kind == ReduceKind::product)
      return b.create<complex::MulOp>(loc, x, y);
    llvm_unreachable("complex numbers combine by sum or product only");
  }
  switch (kind) {
  case ReduceKind::sum:
    if (isF)
      return b.create<arith::AddFOp>(loc, x, y);
    return isB ? b.create<arith::OrIOp>(loc, x, y).getResult()
               : b.create<arith::AddIOp>(loc, x, y).getResult();
  case ReduceKind::product:
    if (isF)
      return b.create<arith::MulFOp>(loc, x, y);
    return isB ? b.create<arith::AndIOp>(loc, x, y).getResult()
               : b.create<arith::MulIOp>(loc, x, y).getResult();
  case ReduceKind::max:
    if (isF)
      return b.create<arith::MaximumFOp>(loc, x, y);
    if (isB)
      return b.create<arith::OrIOp>(loc, x, y);
    return isUnsignedInt(t) ? b.create<arith::MaxUIOp>(loc, x, y).getResult()
                            : b.create<arith::MaxSIOp>(loc, x, y).getResult();
  case ReduceKind::min:
    if (isF)
      return b.create<arith::MinimumFOp>(loc, x, y);
    if (isB)
      return b.create<arith::AndIOp>(loc, x, y);
    return isUnsignedInt(t) ? b.create<arith::MinUIOp>(loc, x, y).getResult()
                            : b.create<arith::MinSIOp>(loc, x, y).getResult();
  case ReduceKind::And:
    return b.create<arith::AndIOp>(loc, x, y);
  case ReduceKind::Or:
    return b.create<arith::OrIOp>(loc, x, y);
  }
  llvm_unreachable("unknown reduce kind");
}

namespace {
/// atan(x) for x >= 0 (or NaN/inf) in f64: Cephes' atan.c, range reduction
/// to |z| <= 0.66 and a rational approximation accurate to double.
Value atanNonNegative(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  const double kT3P8 = 2.41421356237309504880, kMoreBits = 6.123233995736765886130E-17;
  const double kPio2 = 1.57079632679489661923, kPio4 = 0.78539816339744830962;
  const double P[] = {-8.750608600031904122785E-1, -1.615753718733365076637E1,
                      -7.500855792314704667340E1, -1.228866684490136173410E2,
                      -6.485021904942025371773E1};
  const double Q[] = {2.485846490142306297962E1, 1.650270098316988542046E2,
                      4.328810604912902668951E2, 4.853903996359136964868E2,
                      1.945506571482613964425E2};
  Value one = cst(b, loc, t, 1.0);
  Value big = cmpf(b, loc, CmpFPredicate::OGT, x, cst(b, loc, t, kT3P8));
  Value mid = cmpf(b, loc, CmpFPredicate::OGT, x, cst(b, loc, t, 0.66));
  Value recip = b.create<arith::NegFOp>(loc, b.create<arith::DivFOp>(loc, one, x));
  Value shifted = b.create<arith::DivFOp>(
      loc, b.create<arith::SubFOp>(loc, x, one),
      b.create<arith::AddFOp>(loc, x, one));
  Value z = select(b, loc, big, recip, select(b, loc, mid, shifted, x));
  Value y0 = select(b, loc, big, cst(b, loc, t, kPio2),
                    select(b, loc, mid, cst(b, loc, t, kPio4), cst(b, loc, t, 0)));
  Value more = select(b, loc, big, cst(b, loc, t, kMoreBits),
                      select(b, loc, mid, cst(b, loc, t, 0.5 * kMoreBits),
                             cst(b, loc, t, 0)));
  Value zz = b.create<arith::MulFOp>(loc, z, z);
  Value p = cst(b, loc, t, P[0]);
  for (int i = 1; i < 5; ++i)
    p = b.create<arith::AddFOp>(loc, b.create<arith::MulFOp>(loc, p, zz),
                                cst(b, loc, t, P[i]));
  Value q = b.create<arith::AddFOp>(loc, zz, cst(b, loc, t, Q[0]));
  for (int i = 1; i < 5; ++i)
    q = b.create<arith::AddFOp>(loc, b.create<arith::MulFOp>(loc, q, zz),
                                cst(b, loc, t, Q[i]));
  Value r = b.create<arith::DivFOp>(
      loc, b.create<arith::MulFOp>(loc, b.create<arith::MulFOp>(loc, z, zz), p),
      q);
  r = b.create<arith::AddFOp>(loc, b.create<arith::AddFOp>(loc, r, z), more);
  return b.create<arith::AddFOp>(loc, y0, r);
}

/// f64 to f16/bf16/f8 with one rounding: to f32 rounding to odd (which
/// keeps the information the second rounding needs), then to `to` rounding
/// to nearest even. Also avoids the __truncdfbf2 libcall, which the JIT's
/// process may lack.
Value truncF64ToHalf(OpBuilder &b, Location loc, Value v, Type to) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = b.create<arith::TruncFOp>(loc, f32, v);
  Value back = b.create<arith::ExtFOp>(loc, b.getF64Type(), nearest);
  Value inexact = cmpf(b, loc, CmpFPredicate::UNE, back, v);
  Value awayFromZero = cmpf(b, loc, CmpFPredicate::OGT,
                            b.create<math::AbsFOp>(loc, back),
                            b.create<math::AbsFOp>(loc, v));
  Value bits = b.create<arith::BitcastOp>(loc, i32, nearest);
  Value one = cst(b, loc, i32, 1);
  Value towardZero = select(b, loc, awayFromZero,
                            b.create<arith::SubIOp>(loc, bits, one), bits);
  Value odd = select(b, loc, inexact,
                     b.create<arith::OrIOp>(loc, towardZero, one), bits);
  return narrowTo(b, loc, b.create<arith::BitcastOp>(loc, f32, odd), to);
}

} // namespace


/// e^x - 1 by Kahan's method: (u - 1) * x / log(u) with u = e^x corrects
/// the cancellation of u - 1 near zero.
Value expm1Of(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value u = b.create<math::ExpOp>(loc, x);
  Value one = cst(b, loc, t, 1.0), minusOne = cst(b, loc, t, -1.0);
  Value um1 = b.create<arith::SubFOp>(loc, u, one);
  Value log = b.create<math::LogOp>(loc, u);
  // (u - 1) * (x / log(u)): x / log(u) is near 1, so no overflow for large x.
  Value scaled = b.create<arith::MulFOp>(
      loc, um1, b.create<arith::DivFOp>(loc, x, log));
  Value inf = cst(b, loc, t, std::numeric_limits<double>::infinity());
  Value r = select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, u, inf), u, scaled);
  r = select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, um1, minusOne), minusOne,
             r);
  return select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, u, one), x, r);
}

/// log(1 + x) by Goldberg's method: log(u) * x / (u - 1) with u = 1 + x.
Value log1pOf(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value one = cst(b, loc, t, 1.0);
  Value u = b.create<arith::AddFOp>(loc, one, x);
  Value log = b.create<math::LogOp>(loc, u);
  Value scaled = b.create<arith::DivFOp>(
      loc, b.create<arith::MulFOp>(loc, log, x),
      b.create<arith::SubFOp>(loc, u, one));
  Value inf = cst(b, loc, t, std::numeric_limits<double>::infinity());
  Value r = select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, u, inf), u, scaled);
  return select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, u, one), x, r);
}

/// tanh of f32 as XLA's CPU backend computes it (Eigen's ptanh_float): on
/// x clamped to +-7.99881172, x P(x^2) / Q(x^2) with P of degree 6 and Q of
/// degree 3 in x^2, each Horner step one fused multiply-add; x itself for
/// |x| < 4e-4 and +-1 for |x| >= 20. Within 3 ULPs of exact, and XLA's bits.
static Value tanhF32(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  // The coefficients as f32 bit patterns, highest degree first.
  static constexpr uint32_t kP[] = {0xA59F25C0, 0x2A61337E, 0xAEBD37FF,
                                    0x335C0041, 0x3779434A, 0x3A270DED,
                                    0x3BA059DC};
  static constexpr uint32_t kQ[] = {0x35A0D3D8, 0x38F895D6, 0x3B14AA05,
                                    0x3BA059DD};
  constexpr uint32_t kClamp = 0x40FFF644;
  auto bitsCst = [&](uint32_t bits) {
    return b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(t, APFloat(APFloat::IEEEsingle(),
                                       APInt(32, bits))));
  };
  auto horner = [&](Value w, ArrayRef<uint32_t> coeffs) {
    Value p = bitsCst(coeffs[0]);
    for (uint32_t c : coeffs.drop_front())
      p = b.create<math::FmaOp>(loc, w, p, bitsCst(c));
    return p;
  };
  Value hi = bitsCst(kClamp);
  Value lo = b.create<arith::NegFOp>(loc, hi);
  // Selects, not min/max, so that NaN passes through as XLA's does.
  Value c = select(b, loc, cmpf(b, loc, CmpFPredicate::OLT, x, lo), lo, x);
  c = select(b, loc, cmpf(b, loc, CmpFPredicate::OGT, c, hi), hi, c);
  Value c2 = b.create<arith::MulFOp>(loc, c, c);
  Value num = b.create<arith::MulFOp>(loc, c, horner(c2, kP));
  Value r = b.create<arith::DivFOp>(loc, num, horner(c2, kQ));
  Value ax = b.create<math::AbsFOp>(loc, x);
  r = select(b, loc, cmpf(b, loc, CmpFPredicate::OLT, ax, cst(b, loc, t, 4e-4)),
             x, r);
  Value one = b.create<math::CopySignOp>(loc, cst(b, loc, t, 1.0), x);
  return select(b, loc, cmpf(b, loc, CmpFPredicate::OGE, ax, cst(b, loc, t, 20)),
                one, r);
}

/// tanh(x) = sign(x) * -expm1(-2|x|) / (2 + expm1(-2|x|)); f32 as XLA
/// computes it (tanhF32).
Value tanhOf(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  if (t.isF32())
    return tanhF32(b, loc, x);
  Value ax = b.create<math::AbsFOp>(loc, x);
  Value e = expm1Of(b, loc, b.create<arith::MulFOp>(loc, ax, cst(b, loc, t, -2.0)));
  Value r = b.create<arith::DivFOp>(
      loc, b.create<arith::NegFOp>(loc, e),
      b.create<arith::AddFOp>(loc, cst(b, loc, t, 2.0), e));
  return b.create<math::CopySignOp>(loc, r, x);
}

/// log1p of a complex number as XLA expands it (JAX's HLO export writes
/// the same steps):
///   Re = max(|x|, |y|) > sqrt(largest) / 100 ? log(mx) + log1p((mn/mx)^2)/2
///      : |x + 1| + |y| < 0.2 ? log((x + 1)^2 + y^2) / 2
///      : log1p(2x + x^2 + y^2) / 2, that sum in double-double (Dekker's
///        split of x and y, compensated additions);
///   Im = atan2(y, x + 1).
Value complexLog1pOf(OpBuilder &b, Location loc, Value z) {
  auto ct = cast<ComplexType>(z.getType());
  auto ft = cast<FloatType>(ct.getElementType());
  Value x = realPart(b, loc, z), y = imagPart(b, loc, z);
  auto add = [&](Value p, Value q) {
    return b.create<arith::AddFOp>(loc, p, q).getResult();
  };
  auto sub = [&](Value p, Value q) {
    return b.create<arith::SubFOp>(loc, p, q).getResult();
  };
  auto mul = [&](Value p, Value q) {
    return b.create<arith::MulFOp>(loc, p, q).getResult();
  };
  auto c = [&](double v) { return cst(b, loc, ft, v); };
  Value half = c(0.5), one = c(1);
  Value ax = b.create<math::AbsFOp>(loc, x), ay = b.create<math::AbsFOp>(loc, y);
  Value mx = b.create<arith::MaximumFOp>(loc, ax, ay);
  Value mn = b.create<arith::MinimumFOp>(loc, ax, ay);
  double largest = APFloat::getLargest(ft.getFloatSemantics()).convertToDouble();
  Value isLarge =
      cmpf(b, loc, CmpFPredicate::OGT, mx, c(std::sqrt(largest) * 0.01));
  Value ratio = b.create<arith::DivFOp>(loc, mn, mx);
  Value r2 = select(b, loc, cmpf(b, loc, CmpFPredicate::OEQ, mn, mx), one,
                    mul(ratio, ratio));
  Value large = add(b.create<math::LogOp>(loc, mx),
                    mul(log1pOf(b, loc, r2), half));
  Value xp1 = add(x, one);
  Value isSmall = cmpf(b, loc, CmpFPredicate::OLT,
                       add(b.create<math::AbsFOp>(loc, xp1), ay), c(0.2));
  Value yy = mul(y, y), xx = mul(x, x);
  Value small = mul(b.create<math::LogOp>(loc, add(mul(xp1, xp1), yy)), half);
  // Dekker: the rounding error of v * v, with the split constant
  // 2^ceil(p/2) + 1.
  unsigned precision = APFloat::semanticsPrecision(ft.getFloatSemantics());
  Value split = c(std::ldexp(1.0, (precision + 1) / 2) + 1);
  auto squareError = [&](Value v, Value vv) {
    Value vs = mul(v, split);
    Value hi = add(vs, sub(v, vs));
    Value lo = sub(v, hi);
    Value hl = mul(hi, lo);
    return add(add(add(add(b.create<arith::NegFOp>(loc, vv), mul(hi, hi)), hl),
                   hl),
               mul(lo, lo));
  };
  // The rounding error of s = p + q (Knuth's two-sum).
  auto twoSumError = [&](Value s, Value p, Value q) {
    Value d = sub(s, p);
    return add(sub(p, sub(s, d)), sub(q, d));
  };
  Value x2 = add(x, x);
  Value s1 = add(x2, yy);
  Value s2 = add(s1, xx);
  Value ey = squareError(y, yy);
  Value s3 = add(s2, ey);
  Value ex = squareError(x, xx);
  Value s4 = add(s3, ex);
  Value err = add(add(add(twoSumError(s1, x2, yy), twoSumError(s2, s1, xx)),
                      twoSumError(s3, s2, ey)),
                  twoSumError(s4, s3, ex));
  Value moderate = mul(log1pOf(b, loc, add(s4, err)), half);
  Value re = select(b, loc, isLarge, large,
                    select(b, loc, isSmall, small, moderate));
  Value im = atan2Of(b, loc, y, xp1);
  return b.create<complex::CreateOp>(loc, ct, re, im);
}

/// C atan2(y, x), computed in f64, with C's special cases for zeros and
/// infinities.
Value atan2Of(OpBuilder &b, Location loc, Value y, Value x) {
  Type t = y.getType();
  Type f64 = b.getF64Type();
  if (t != f64) {
    y = b.create<arith::ExtFOp>(loc, f64, y);
    x = b.create<arith::ExtFOp>(loc, f64, x);
  }
  Value ax = b.create<math::AbsFOp>(loc, x), ay = b.create<math::AbsFOp>(loc, y);
  Value inf = cst(b, loc, f64, std::numeric_limits<double>::infinity());
  Value zero = cst(b, loc, f64, 0.0);
  Value bothInf = b.create<arith::AndIOp>(
      loc, cmpf(b, loc, CmpFPredicate::OEQ, ax, inf),
      cmpf(b, loc, CmpFPredicate::OEQ, ay, inf));
  Value bothZero = b.create<arith::AndIOp>(
      loc, cmpf(b, loc, CmpFPredicate::OEQ, ax, zero),
      cmpf(b, loc, CmpFPredicate::OEQ, ay, zero));
  Value angle = atanNonNegative(b, loc, b.create<arith::DivFOp>(loc, ay, ax));
  angle = select(b, loc, bothInf, cst(b, loc, f64, M_PI / 4), angle);
  angle = select(b, loc, bothZero, zero, angle);
  Value bits = b.create<arith::BitcastOp>(loc, b.getI64Type(), x);
  Value xNegative = cmpi(b, loc, CmpIPredicate::slt, bits,
                         cst(b, loc, b.getI64Type(), 0));
  angle = select(b, loc, xNegative,
                 b.create<arith::SubFOp>(loc, cst(b, loc, f64, M_PI), angle),
                 angle);
  Value r = b.create<math::CopySignOp>(loc, angle, y);
  return t == f64 ? r : b.create<arith::TruncFOp>(loc, t, r).getResult();
}

Value integerDivide(OpBuilder &b, Location loc, Value x, Value y,
                    bool remainder) {
  Type t = x.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  Value zero = cst(b, loc, t, 0), one = cst(b, loc, t, 1);
  Value minusOne = intConstant(b, loc, t, APInt::getAllOnes(w));
  Value yZero = cmpi(b, loc, CmpIPredicate::eq, y, zero);
  if (isUnsignedInt(t)) {
    Value safeY = select(b, loc, yZero, one, y);
    if (remainder)
      return select(b, loc, yZero, x,
                    b.create<arith::RemUIOp>(loc, x, safeY));
    return select(b, loc, yZero, minusOne,
                  b.create<arith::DivUIOp>(loc, x, safeY));
  }
  Value overflow = b.create<arith::AndIOp>(
      loc,
      cmpi(b, loc, CmpIPredicate::eq, x,
           intConstant(b, loc, t, APInt::getSignedMinValue(w))),
      cmpi(b, loc, CmpIPredicate::eq, y, minusOne));
  Value safeY = select(b, loc, b.create<arith::OrIOp>(loc, yZero, overflow),
                       one, y);
  if (remainder) {
    Value r = b.create<arith::RemSIOp>(loc, x, safeY);
    return select(b, loc, yZero, x, select(b, loc, overflow, zero, r));
  }
  Value q = b.create<arith::DivSIOp>(loc, x, safeY);
  return select(b, loc, yZero, minusOne, select(b, loc, overflow, x, q));
}

/// Integer power by squaring (wrapping), XLA's rule for negative exponents.
Value integerPower(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  unsigned w = t.getIntOrFloatBitWidth();
  Value zero = cst(b, loc, t, 0), one = cst(b, loc, t, 1);
  Value minusOne = intConstant(b, loc, t, APInt::getAllOnes(w));
  auto loop = b.create<scf::ForOp>(
      loc, indexConstant(b, loc, 0), indexConstant(b, loc, w),
      indexConstant(b, loc, 1), ValueRange{one, x, y},
      [&](OpBuilder &nb, Location nl, Value, ValueRange acc) {
        Value bit = cmpi(nb, nl, CmpIPredicate::ne,
                         nb.create<arith::AndIOp>(nl, acc[2], one), zero);
        Value product = nb.create<arith::MulIOp>(nl, acc[0], acc[1]);
        Value result = select(nb, nl, bit, product, acc[0]);
        Value square = nb.create<arith::MulIOp>(nl, acc[1], acc[1]);
        Value rest = nb.create<arith::ShRUIOp>(nl, acc[2], one);
        nb.create<scf::YieldOp>(nl, ValueRange{result, square, rest});
      });
  Value odd = cmpi(b, loc, CmpIPredicate::ne,
                   b.create<arith::AndIOp>(loc, y, one), zero);
  Value negative =
      select(b, loc, cmpi(b, loc, CmpIPredicate::eq, x, one), one,
             select(b, loc, cmpi(b, loc, CmpIPredicate::eq, x, minusOne),
                    select(b, loc, odd, minusOne, one), zero));
  if (isUnsignedInt(t)) // never negative
    return loop.getResult(0);
  return select(b, loc, cmpi(b, loc, CmpIPredicate::slt, y, zero), negative,
                loop.getResult(0));
}


Value convertScalar(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  // Complex, as XLA: to complex converts the real part and sets the
  // imaginary part 0 (or converts both parts); from complex takes the real
  // part, except that to pred is `x != 0`.
  if (auto ct = dyn_cast<ComplexType>(to)) {
    Type part = ct.getElementType();
    if (isComplexType(from))
      return b.create<complex::CreateOp>(
          loc, ct, convertScalar(b, loc, realPart(b, loc, v), part),
          convertScalar(b, loc, imagPart(b, loc, v), part));
    return b.create<complex::CreateOp>(loc, ct, convertScalar(b, loc, v, part),
                                       cst(b, loc, part, 0.0));
  }
  if (isComplexType(from)) {
    if (isBool(to))
      return b.create<arith::OrIOp>(
          loc, convertScalar(b, loc, realPart(b, loc, v), to),
          convertScalar(b, loc, imagPart(b, loc, v), to));
    return convertScalar(b, loc, realPart(b, loc, v), to);
  }
  if (isBool(to)) { // HLO: convert to pred is `x != 0`.
    if (isFloatType(from)) {
      v = widenHalf(b, loc, v);
      return cmpf(b, loc, CmpFPredicate::UNE, v, cst(b, loc, v.getType(), 0.0));
    }
    return cmpi(b, loc, CmpIPredicate::ne, v, cst(b, loc, from, 0));
  }
  if (isFloatType(from) && isFloatType(to)) {
    if (from.isF64() && isHalfFloat(to))
      return truncF64ToHalf(b, loc, v, to);
    // f16/bf16/f8 to anything goes through f32 (exact), so only the
    // conversions LLVM lowers inline are used; from f32 (or f16/bf16, exact
    // in f32) to f8 rounds once.
    v = widenHalf(b, loc, v);
    if (v.getType() == to)
      return v;
    if (isFloat8(to))
      return narrowTo(b, loc, v, to);
    unsigned fromWidth = v.getType().getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    return fromWidth < toWidth
               ? b.create<arith::ExtFOp>(loc, to, v).getResult()
               : b.create<arith::TruncFOp>(loc, to, v).getResult();
  }
  if (isFloatType(to)) {
    bool fromUnsigned = isBool(from) || isUnsignedInt(from);
    auto intToFloat = [&](Type ft) -> Value {
      if (fromUnsigned)
        return b.create<arith::UIToFPOp>(loc, ft, v);
      return b.create<arith::SIToFPOp>(loc, ft, v);
    };
    if (!isHalfFloat(to))
      return intToFloat(to);
    if (from.getIntOrFloatBitWidth() <= 16) // exact in f32
      return narrowTo(b, loc, intToFloat(b.getF32Type()), to);
    // Wider integers to f16/bf16: exactly to f64 (for |x| < 2^53), then
    // one rounding.
    return truncF64ToHalf(b, loc, intToFloat(b.getF64Type()), to);
  }
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (isFloatType(from)) {
    // Saturating, NaN to 0 (XLA): fptosi/fptoui alone are poison out of
    // range. An unsigned result's range is [0, 2^w).
    bool toUnsigned = isUnsignedInt(to);
    v = widenHalf(b, loc, v);
    Type ft = v.getType();
    double high = std::ldexp(1.0, toUnsigned ? toWidth : toWidth - 1);
    double low = toUnsigned ? 0.0 : -high;
    Value tooBig = cmpf(b, loc, CmpFPredicate::OGE, v, cst(b, loc, ft, high));
    Value tooSmall = cmpf(b, loc, CmpFPredicate::OLT, v, cst(b, loc, ft, low));
    Value isNaN = cmpf(b, loc, CmpFPredicate::UNO, v, v);
    Value safe = select(b, loc,
                        b.create<arith::OrIOp>(
                            loc, b.create<arith::OrIOp>(loc, tooBig, tooSmall),
                            isNaN),
                        cst(b, loc, ft, 0.0), v);
    Value r = toUnsigned ? b.create<arith::FPToUIOp>(loc, to, safe).getResult()
                         : b.create<arith::FPToSIOp>(loc, to, safe).getResult();
    APInt max = toUnsigned ? APInt::getMaxValue(toWidth)
                           : APInt::getSignedMaxValue(toWidth);
    APInt min = toUnsigned ? APInt::getMinValue(toWidth)
                           : APInt::getSignedMinValue(toWidth);
    r = select(b, loc, tooBig, intConstant(b, loc, to, max), r);
    return select(b, loc, tooSmall, intConstant(b, loc, to, min), r);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  if (fromWidth < toWidth)
    return isBool(from) || isUnsignedInt(from)
               ? b.create<arith::ExtUIOp>(loc, to, v).getResult()
               : b.create<arith::ExtSIOp>(loc, to, v).getResult();
  if (fromWidth == toWidth) // only the sign's reading changes
    return b.create<arith::BitcastOp>(loc, to, v);
  return b.create<arith::TruncIOp>(loc, to, v);
}

Value totalOrderKey(OpBuilder &b, Location loc, Value x) {
  // The bits as a signed integer order the non-negative floats; flipping
  // the magnitude bits of the negative ones reverses their order.
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Type it = b.getIntegerType(width);
  Value bits = b.create<arith::BitcastOp>(loc, it, x);
  Value sign = b.create<arith::ShRSIOp>(
      loc, bits, b.create<arith::ConstantIntOp>(loc, width - 1, it));
  Value magnitude = b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(it, APInt::getSignedMaxValue(width)));
  return b.create<arith::XOrIOp>(
      loc, bits, b.create<arith::AndIOp>(loc, sign, magnitude));
}

Value reducePrecision(OpBuilder &b, Location loc, Value x,
                      unsigned exponentBits, unsigned mantissaBits) {
  using scalar::intConstant;
  auto ft = cast<FloatType>(x.getType());
  unsigned nbits = ft.getWidth();
  unsigned srcMantissa = ft.getFPMantissaWidth() - 1; // without the implicit bit
  unsigned srcExponent = nbits - 1 - srcMantissa;
  Type it = b.getIntegerType(nbits);
  auto c = [&](const APInt &v) { return intConstant(b, loc, it, v); };
  Value bits = b.create<arith::BitcastOp>(loc, it, x);
  if (mantissaBits < srcMantissa) {
    // Round to nearest even: add 0111...1 below the last kept bit, plus
    // that bit, then truncate. A carry into the exponent is right.
    unsigned dropped = srcMantissa - mantissaBits;
    APInt lastKept = APInt::getOneBitSet(nbits, dropped);
    Value lastBit = b.create<arith::ShRUIOp>(
        loc, b.create<arith::AndIOp>(loc, bits, c(lastKept)),
        c(APInt(nbits, dropped)));
    Value bias = b.create<arith::AddIOp>(loc, lastBit,
                                         c(lastKept.lshr(1) - 1));
    bits = b.create<arith::AddIOp>(loc, bits, bias);
    bits = b.create<arith::AndIOp>(loc, bits, c(~(lastKept - 1)));
  }
  if (exponentBits < srcExponent) {
    APInt signMask = APInt::getSignMask(nbits);
    APInt expMask = APInt::getBitsSet(nbits, srcMantissa, nbits - 1);
    APInt bias = APInt::getLowBitsSet(nbits, srcExponent - 1);
    APInt reducedBias = APInt::getLowBitsSet(nbits, exponentBits - 1);
    APInt maxExp = (bias + reducedBias).shl(srcMantissa);
    APInt minExp = (bias - reducedBias).shl(srcMantissa);
    Value exponent = b.create<arith::AndIOp>(loc, bits, c(expMask));
    Value overflows = scalar::cmpi(b, loc, CmpIPredicate::ugt, exponent, c(maxExp));
    Value underflows = scalar::cmpi(b, loc, CmpIPredicate::ule, exponent, c(minExp));
    Value signedZero = b.create<arith::AndIOp>(loc, bits, c(signMask));
    Value signedInf = b.create<arith::OrIOp>(loc, signedZero, c(expMask));
    bits = scalar::select(b, loc, overflows, signedInf, bits);
    bits = scalar::select(b, loc, underflows, signedZero, bits);
  }
  Value r = b.create<arith::BitcastOp>(loc, ft, bits);
  // The steps above may turn a NaN into an infinity or zero.
  Value isNaN = scalar::cmpf(b, loc, CmpFPredicate::UNO, x, x);
  Value nan = mantissaBits > 0
                  ? x
                  : scalarConstant(b, loc, ft,
                                   std::numeric_limits<double>::infinity());
  return scalar::select(b, loc, isNaN, nan, r);
}

Value compareScalar(OpBuilder &b, Location loc, ComparisonDirection dir,
                    Value x, Value y, bool totalOrder) {
  Type t = x.getType();
  if (totalOrder && isFloatType(t))
    return compareScalar(b, loc, dir, totalOrderKey(b, loc, x),
                         totalOrderKey(b, loc, y));
  if (isComplexType(t)) {
    // Only EQ and NE (the verifier rejects the orders): both parts equal.
    if (dir == ComparisonDirection::EQ)
      return b.create<complex::EqualOp>(loc, x, y);
    assert(dir == ComparisonDirection::NE && "complex numbers have no order");
    return b.create<complex::NotEqualOp>(loc, x, y);
  }
  if (isFloatType(t)) {
    static constexpr CmpFPredicate preds[] = {
        CmpFPredicate::OEQ, CmpFPredicate::UNE, CmpFPredicate::OLT,
        CmpFPredicate::OLE, CmpFPredicate::OGT, CmpFPredicate::OGE};
    return cmpf(b, loc, preds[static_cast<int>(dir)], x, y);
  }
  // i1 compares unsigned (false < true), as do HLO's unsigned types.
  bool u = isBool(t) || isUnsignedInt(t);
  CmpIPredicate preds[] = {CmpIPredicate::eq,
                           CmpIPredicate::ne,
                           u ? CmpIPredicate::ult : CmpIPredicate::slt,
                           u ? CmpIPredicate::ule : CmpIPredicate::sle,
                           u ? CmpIPredicate::ugt : CmpIPredicate::sgt,
                           u ? CmpIPredicate::uge : CmpIPredicate::sge};
  return cmpi(b, loc, preds[static_cast<int>(dir)], x, y);
}

//===----------------------------------------------------------------------===//
// Complex
//===----------------------------------------------------------------------===//

Value realPart(OpBuilder &b, Location loc, Value x) {
  if (!isComplexType(x.getType()))
    return x;
  return b.create<complex::ReOp>(loc, x);
}

Value imagPart(OpBuilder &b, Location loc, Value x) {
  if (!isComplexType(x.getType()))
    return cst(b, loc, x.getType(), 0.0);
  return b.create<complex::ImOp>(loc, x);
}

Value complexLogistic(OpBuilder &b, Location loc, Value x) {
  Value one = cst(b, loc, x.getType(), 1.0);
  Value e = b.create<complex::ExpOp>(loc, b.create<complex::NegOp>(loc, x));
  return b.create<complex::DivOp>(loc, one,
                                  b.create<complex::AddOp>(loc, one, e));
}

} // namespace mlir::torus
