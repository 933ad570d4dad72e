//===- Float8Conversions.cpp - f8 <-> f32 on the bits ---------------------===//
//
// Integer code on the bits of the f8 and f32 values (see the header for the
// semantics). Every step is a select, shift, add or bitcast, so a vector of
// elements converts with the same code, at any ISA level.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/Float8Conversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cassert>

namespace mlir::torus {
namespace {

/// The layout of one f8 type.
struct Float8Format {
  unsigned mantissaBits;
  int bias;
  bool hasInfinity;
  /// The quiet NaN without sign: S.1111.111 for e4m3fn, S.11111.10 for
  /// e5m2.
  uint32_t nan;
  /// The f32 bits of the smallest |x| that no longer rounds to the largest
  /// finite value (e4m3fn: above it; e5m2: at or above it, ties to even
  /// reach infinity).
  uint32_t overflowBits;
  /// The f32 bits of the smallest normal value, 2^(1 - bias).
  uint32_t minNormalBits() const { return uint32_t(127 + 1 - bias) << 23; }
};

Float8Format formatOf(Type t) {
  if (isa<Float8E4M3FNType>(t))
    // 464 = 448 + half an ulp: ties round to 448 (even), above is NaN.
    return {3, 7, false, 0x7f, 0x43e80000};
  assert(isa<Float8E5M2Type>(t) && "not an f8 type");
  // 61440 = 57344 + half an ulp: ties round to even, which is infinity.
  return {2, 15, true, 0x7e, 0x47700000};
}

Type elementOf(Type t) { return getElementTypeOrSelf(t); }

/// `t`'s shape (scalar or vector) with element type `element`.
Type sameShape(Type t, Type element) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.clone(element);
  return element;
}

struct Bits {
  OpBuilder &b;
  Location loc;
  Type type; // i32 or i8, scalar or vector

  Value c(int64_t v) {
    Type element = elementOf(type);
    Attribute value = b.getIntegerAttr(
        element, APInt(64, v).trunc(element.getIntOrFloatBitWidth()));
    if (auto vt = dyn_cast<VectorType>(type))
      value = DenseElementsAttr::get(vt, ArrayRef<Attribute>{value});
    return b.create<arith::ConstantOp>(loc, type, cast<TypedAttr>(value));
  }
  Value and_(Value x, int64_t m) { return b.create<arith::AndIOp>(loc, x, c(m)); }
  Value or_(Value x, Value y) { return b.create<arith::OrIOp>(loc, x, y); }
  Value shl(Value x, int64_t n) { return b.create<arith::ShLIOp>(loc, x, c(n)); }
  Value shr(Value x, int64_t n) { return b.create<arith::ShRUIOp>(loc, x, c(n)); }
  Value add(Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubIOp>(loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, int64_t v) {
    return b.create<arith::CmpIOp>(loc, p, x, c(v));
  }
  Value select(Value cond, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, cond, x, y);
  }
};

} // namespace

bool isFloat8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

Value extendFloat8ToF32(OpBuilder &b, Location loc, Value x) {
  using P = arith::CmpIPredicate;
  Type xt = x.getType();
  Float8Format f = formatOf(elementOf(xt));
  unsigned m = f.mantissaBits, e = 7 - m;
  Type i32 = sameShape(xt, b.getI32Type()), f32 = sameShape(xt, b.getF32Type());
  Bits i(b, loc, i32);
  Value byte = b.create<arith::BitcastOp>(loc, sameShape(xt, b.getI8Type()), x);
  Value bits = b.create<arith::ExtUIOp>(loc, i32, byte);
  Value sign = i.shl(i.and_(bits, 0x80), 24);
  Value magnitude = i.and_(bits, 0x7f);
  Value exponent = i.shr(magnitude, m);
  // Normal: rebias the exponent, widen the mantissa.
  Value normal = i.add(i.shl(magnitude, 23 - m), i.c(int64_t(127 - f.bias) << 23));
  // Subnormal (and zero): mantissa x 2^(1 - bias - m), exact in f32.
  Value mantissa = i.and_(magnitude, (1 << m) - 1);
  Value subnormal = b.create<arith::BitcastOp>(
      loc, i32,
      b.create<arith::MulFOp>(
          loc, b.create<arith::UIToFPOp>(loc, f32, mantissa),
          b.create<arith::BitcastOp>(
              loc, f32, Bits{b, loc, i32}.c(int64_t(127 + 1 - f.bias - m) << 23))));
  Value r = i.select(i.cmp(P::eq, exponent, 0), subnormal, normal);
  int64_t maxExponent = (1 << e) - 1;
  if (f.hasInfinity) {
    // All-ones exponent: inf (mantissa 0) or NaN.
    Value special = i.select(i.cmp(P::eq, mantissa, 0), i.c(0x7f800000),
                             i.c(0x7fc00000));
    r = i.select(i.cmp(P::eq, exponent, maxExponent), special, r);
  } else {
    r = i.select(i.cmp(P::eq, magnitude, 0x7f), i.c(0x7fc00000), r);
  }
  return b.create<arith::BitcastOp>(loc, f32, i.or_(r, sign));
}

Value truncateF32ToFloat8(OpBuilder &b, Location loc, Value x, Type to) {
  using P = arith::CmpIPredicate;
  Type xt = x.getType();
  assert(elementOf(xt).isF32() && "f8 conversions start from f32");
  Float8Format f = formatOf(elementOf(to));
  unsigned m = f.mantissaBits;
  Type i32 = sameShape(xt, b.getI32Type()), f32 = xt;
  Bits i(b, loc, i32);
  Value bits = b.create<arith::BitcastOp>(loc, i32, x);
  Value sign = i.shr(i.and_(bits, 0x80000000), 24);
  Value magnitude = i.and_(bits, 0x7fffffff);

  // Below the smallest normal: adding the power of two whose f32 ulp is the
  // f8's smallest subnormal, 2^(1 - bias - m), rounds |x| to a multiple of
  // it (to nearest even, by the f32 addition), and the low bits of the sum
  // count them.
  int64_t magicBits = int64_t(127 - f.bias + 23 - m + 1) << 23;
  Value magic = b.create<arith::BitcastOp>(loc, f32, i.c(magicBits));
  Value absolute = b.create<arith::BitcastOp>(loc, f32, magnitude);
  Value subnormal = i.sub(
      b.create<arith::BitcastOp>(
          loc, i32, b.create<arith::AddFOp>(loc, absolute, magic)),
      i.c(magicBits));

  // Normal: rebias, then round the mantissa to m bits to nearest even by
  // adding half an ulp minus one plus the last kept bit; a carry into the
  // exponent is right.
  unsigned dropped = 23 - m;
  Value lastKept = i.and_(i.shr(magnitude, dropped), 1);
  Value rounded = i.add(
      i.add(magnitude,
            i.c((int64_t(f.bias - 127) << 23) + (int64_t(1) << (dropped - 1)) - 1)),
      lastKept);
  Value normal = i.shr(rounded, dropped);

  Value r = i.select(i.cmp(P::ult, magnitude, f.minNormalBits()), subnormal,
                     normal);
  // Too large: e4m3fn has no infinity and gives NaN; e5m2 gives inf. NaN
  // (bits above infinity's) gives NaN.
  Value overflow = f.hasInfinity ? i.cmp(P::uge, magnitude, f.overflowBits)
                                 : i.cmp(P::ugt, magnitude, f.overflowBits);
  r = i.select(overflow, i.c(f.hasInfinity ? 0x7c : 0x7f), r);
  r = i.select(i.cmp(P::ugt, magnitude, 0x7f800000), i.c(f.nan), r);
  Value byte = b.create<arith::TruncIOp>(loc, sameShape(xt, b.getI8Type()),
                                         i.or_(r, sign));
  return b.create<arith::BitcastOp>(loc, sameShape(xt, elementOf(to)), byte);
}

} // namespace mlir::torus
