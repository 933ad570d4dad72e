//===- Float8Conversions.h - f8 <-> f32 on the bits -------------*- C++ -*-===//
//
// XLA's 8-bit floats (`f8E4M3FN`, `f8E5M2`) are storage types: LLVM has no
// arithmetic or conversions for them (they lower to i8), so Torus computes
// them in f32 and converts with integer operations on the bits, inline and
// vectorizable, with XLA's semantics (ml_dtypes' from f32 and narrower; from
// f64, ScalarMath's convertScalar rounds once, as XLA:CPU does, where
// ml_dtypes rounds through f32):
//
//   f8E4M3FN  1 sign, 4 exponent (bias 7), 3 mantissa bits; subnormals; no
//             infinities; NaN is S.1111.111; largest finite 448. Rounding
//             is to nearest, ties to even; a value that rounds beyond 448
//             (|x| > 464), and +-inf, become NaN with x's sign.
//   f8E5M2    1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-like:
//             subnormals, +-inf, NaN; rounding to nearest even, overflow
//             (|x| >= 61440) to +-inf.
//
// NaN converts to the quiet NaN of the other type with the same sign
// (0x7fc00000 in f32; 0x7f or 0x7e in f8), payloads dropped.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_OPS_FLOAT8CONVERSIONS_H
#define TORUS_IR_OPS_FLOAT8CONVERSIONS_H

#include "mlir/IR/Builders.h"

namespace mlir::torus {

/// f8E4M3FN or f8E5M2: the 8-bit floats Torus supports.
bool isFloat8(Type t);
/// `x` (an f8 scalar or vector of them) extended exactly to f32.
Value extendFloat8ToF32(OpBuilder &b, Location loc, Value x);
/// `x` (f32, or a vector of f32) rounded to nearest even to the f8 type
/// `to` (or a vector of it), with the overflow rules above.
Value truncateF32ToFloat8(OpBuilder &b, Location loc, Value x, Type to);

} // namespace mlir::torus

#endif // TORUS_IR_OPS_FLOAT8CONVERSIONS_H
