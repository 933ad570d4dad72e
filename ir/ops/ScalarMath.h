//===- ScalarMath.h - HLO semantics on one element --------------*- C++ -*-===//
//
// Builders of the arith/math code that computes one element of an HLO op:
// what the ops' ScalarBody definitions (ir/TorusOps.td) are written with,
// and what code generation uses for reductions and contractions.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_OPS_SCALARMATH_H
#define TORUS_IR_OPS_SCALARMATH_H

#include "ir/TorusOps.h"
#include "ir/ops/Float8Conversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/Builders.h"

namespace mlir::torus {

inline bool isFloatType(Type t) { return isa<FloatType>(t); }
/// HLO's c64 and c128 (`complex<f32>`, `complex<f64>`), computed with the
/// `complex` dialect (lowered by complex-to-standard in codegen).
inline bool isComplexType(Type t) { return isa<ComplexType>(t); }
inline bool isBool(Type t) { return t.isInteger(1); }
/// HLO's unsigned integers (`ui8`..`ui64`), which compare, divide, convert
/// and take max/min as unsigned. (Before torus-to-linalg makes them
/// signless, arith code is built on these types so that it can tell.)
inline bool isUnsignedInt(Type t) { return t.isUnsignedInteger(); }
/// The floats narrower than f32, which are computed in f32 (as XLA's CPU
/// backend does): f16, bf16 and the 8-bit storage floats f8E4M3FN and
/// f8E5M2 (ir/ops/Float8Conversions.h).
inline bool isHalfFloat(Type t) {
  return t.isF16() || t.isBF16() || isFloat8(t);
}

/// A scalar constant of type `t` (float, integer, or complex with imaginary
/// part 0).
Value scalarConstant(OpBuilder &b, Location loc, Type t, double value);
Value indexConstant(OpBuilder &b, Location loc, int64_t value);

/// `x` extended to f32 if it is f16/bf16/f8, else `x`.
Value widenHalf(OpBuilder &b, Location loc, Value x);
/// `x` rounded to `t` (to nearest even; f8 by the rules of
/// Float8Conversions.h) if `t` is f16/bf16/f8 and `x` is f32, else `x`.
Value narrowTo(OpBuilder &b, Location loc, Value x, Type t);

/// Scalar combiner of `kind` (HLO semantics: float max/min propagate NaN;
/// for i1, sum is or and product is and).
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y);

/// e^x - 1, accurate near zero (Kahan's method).
Value expm1Of(OpBuilder &b, Location loc, Value x);
/// log(1 + x), accurate near zero (Goldberg's method).
Value log1pOf(OpBuilder &b, Location loc, Value x);
/// log1p of a complex number as XLA expands it (the real part's sum in
/// double-double).
Value complexLog1pOf(OpBuilder &b, Location loc, Value z);
/// tanh(x) from expm1, accurate near zero and saturating for large |x|.
Value tanhOf(OpBuilder &b, Location loc, Value x);
/// C atan2(y, x), computed in f64, with C's special cases for zeros and
/// infinities.
Value atan2Of(OpBuilder &b, Location loc, Value y, Value x);
/// XLA's integer division: x / 0 = -1 (all ones, also when unsigned),
/// INT_MIN / -1 = INT_MIN (no trap). With `remainder`, x % 0 = x and
/// INT_MIN % -1 = 0.
Value integerDivide(OpBuilder &b, Location loc, Value x, Value y,
                    bool remainder);
/// Integer power by squaring (wrapping), XLA's rule for negative exponents.
Value integerPower(OpBuilder &b, Location loc, Value x, Value y);
/// HLO `convert` of one element to `to`: floats to integers round toward
/// zero and saturate (NaN to 0), anything to i1 is `x != 0`, f64 to
/// f16/bf16/f8 rounds once, integers extend by their source's sign; f8
/// converts through f32 (exact one way, one rounding the other).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to);
/// HLO `reduce-precision` of one float element, on its own bits (XLA's
/// algorithm): the mantissa rounded to `mantissaBits` (nearest, ties to
/// even), then, with fewer than the type's exponent bits, overflow to
/// infinity and underflow (subnormals included) to zero; NaN kept.
Value reducePrecision(OpBuilder &b, Location loc, Value x,
                      unsigned exponentBits, unsigned mantissaBits);
/// HLO `compare`: floats ordered except NE, integers by their sign, i1
/// unsigned. `totalOrder` compares floats in IEEE total order (HLO
/// TOTALORDER).
Value compareScalar(OpBuilder &b, Location loc, ComparisonDirection dir,
                    Value x, Value y, bool totalOrder = false);
/// A float's IEEE total order as a signed integer of its width: -NaN <
/// -inf < ... < -0 < +0 < ... < inf < NaN (HLO's TOTALORDER compare).
Value totalOrderKey(OpBuilder &b, Location loc, Value x);

/// The real and imaginary parts of a complex scalar; for a float `x`, `x`
/// and 0 (HLO `real` and `imag` of a float operand).
Value realPart(OpBuilder &b, Location loc, Value x);
Value imagPart(OpBuilder &b, Location loc, Value x);
/// `1 / (1 + e^-x)` for a complex `x`.
Value complexLogistic(OpBuilder &b, Location loc, Value x);

/// Short builders for ScalarBody code.
namespace scalar {
Value cst(OpBuilder &b, Location loc, Type t, double v);
Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate p, Value x,
           Value y);
Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
           Value y);
Value select(OpBuilder &b, Location loc, Value c, Value x, Value y);
Value intConstant(OpBuilder &b, Location loc, Type t, const APInt &v);
} // namespace scalar

} // namespace mlir::torus

#endif // TORUS_IR_OPS_SCALARMATH_H
