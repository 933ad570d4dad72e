//===- ElementwiseOps.cpp - Elementwise ops: folders and verifiers --------===//
//
// Constant folding evaluates each op per element with the semantics its
// lowering has (the ops' ScalarBody in ir/TorusOps.td): IEEE arithmetic
// in the element type, transcendental functions in double then rounded,
// XLA's integer division rules. Identity folds are the ones XLA's algebraic
// simplifier makes (x+0, x-0, x*1, x/1, and with all ones, or with zero).
//
//===----------------------------------------------------------------------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;
using namespace mlir::torus;

namespace {

const APInt &intOf(const Scalar &s) { return std::get<APInt>(s); }
const APFloat &floatOf(const Scalar &s) { return std::get<APFloat>(s); }
bool isFloat(const Scalar &s) { return std::holds_alternative<APFloat>(s); }

APFloat fromDouble(double v, const llvm::fltSemantics &sem) {
  APFloat f(v);
  bool lost;
  f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  return f;
}

/// A float function evaluated in double and rounded to the operand's type.
std::optional<Scalar> viaDouble(const Scalar &x, double (*fn)(double)) {
  if (!isFloat(x))
    return std::nullopt;
  const APFloat &f = floatOf(x);
  return Scalar(fromDouble(fn(f.convertToDouble()), f.getSemantics()));
}

std::optional<Scalar> viaDouble2(const Scalar &x, const Scalar &y,
                                 double (*fn)(double, double)) {
  if (!isFloat(x))
    return std::nullopt;
  return Scalar(fromDouble(
      fn(floatOf(x).convertToDouble(), floatOf(y).convertToDouble()),
      floatOf(x).getSemantics()));
}

std::optional<Scalar> roundTo(const Scalar &x, APFloat::roundingMode mode) {
  if (!isFloat(x))
    return std::nullopt;
  APFloat f = floatOf(x);
  f.roundToIntegral(mode);
  return Scalar(f);
}

/// Whether `op`'s first operand has one of HLO's unsigned integer types.
bool readsUnsigned(Operation *op) {
  return getElementTypeOrSelf(op->getOperand(0).getType()).isUnsignedInteger();
}

/// Integer `base ^ exponent` by squaring (wrapping); XLA's rule for a
/// negative signed exponent: 1 for base 1, ±1 for base -1, else 0.
APInt integerPower(APInt base, APInt exponent, bool isUnsigned) {
  unsigned width = base.getBitWidth();
  if (!isUnsigned && exponent.isNegative()) {
    if (base.isOne())
      return base;
    if (base.isAllOnes())
      return exponent[0] ? base : APInt(width, 1);
    return APInt(width, 0);
  }
  APInt result(width, 1);
  while (!exponent.isZero()) {
    if (exponent[0])
      result *= base;
    base *= base;
    exponent.lshrInPlace(1);
  }
  return result;
}

/// XLA's integer division: x / 0 = -1 (all ones), INT_MIN / -1 = INT_MIN.
APInt integerDivide(const APInt &x, const APInt &y, bool isUnsigned) {
  if (y.isZero())
    return APInt::getAllOnes(x.getBitWidth());
  if (isUnsigned)
    return x.udiv(y);
  if (x.isMinSignedValue() && y.isAllOnes())
    return x;
  return x.sdiv(y);
}

/// XLA's integer remainder: x % 0 = x, INT_MIN % -1 = 0.
APInt integerRemainder(const APInt &x, const APInt &y, bool isUnsigned) {
  if (y.isZero())
    return x;
  if (isUnsigned)
    return x.urem(y);
  if (x.isMinSignedValue() && y.isAllOnes())
    return APInt(x.getBitWidth(), 0);
  return x.srem(y);
}


template <typename Op>
OpFoldResult foldWith(Op op, ArrayRef<Attribute> operands, ScalarFn fn) {
  return foldElementwise(operands,
                         cast<RankedTensorType>(op.getResult().getType()), fn);
}

} // namespace

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (readsUnsigned(*this))
    return getOperand();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(abs(floatOf(x[0])));
                    return Scalar(intOf(x[0]).abs());
                  });
}

OpFoldResult NegateOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NegateOp>())
    return inner.getOperand();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(neg(floatOf(x[0])));
                    return Scalar(-intOf(x[0]));
                  });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  bool u = readsUnsigned(*this);
  return foldWith(
      *this, adaptor.getOperands(),
      [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
        if (isFloat(x[0])) {
          const APFloat &f = floatOf(x[0]);
          if (f.isNaN() || f.isZero())
            return x[0];
          return Scalar(fromDouble(f.isNegative() ? -1.0 : 1.0,
                                   f.getSemantics()));
        }
        const APInt &i = intOf(x[0]);
        unsigned w = i.getBitWidth();
        return Scalar(!u && i.isNegative() ? APInt::getAllOnes(w)
                                           : APInt(w, i.isZero() ? 0 : 1));
      });
}

// exp, log, sqrt, tanh ... fold through their FoldsViaDouble trait (ODS).
Attribute mlir::torus::foldUnaryViaDouble(ArrayRef<Attribute> operands,
                                          Type resultType,
                                          double (*fn)(double)) {
  return foldElementwise(operands, cast<RankedTensorType>(resultType),
                         [fn](ArrayRef<Scalar> x) { return viaDouble(x[0], fn); });
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(), [](ArrayRef<Scalar> x) {
    return roundTo(x[0], APFloat::rmTowardNegative);
  });
}
OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(), [](ArrayRef<Scalar> x) {
    return roundTo(x[0], APFloat::rmTowardPositive);
  });
}
OpFoldResult RoundNearestEvenOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(), [](ArrayRef<Scalar> x) {
    return roundTo(x[0], APFloat::rmNearestTiesToEven);
  });
}

OpFoldResult RoundNearestAfzOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(), [](ArrayRef<Scalar> x) {
    return roundTo(x[0], APFloat::rmNearestTiesToAway);
  });
}

OpFoldResult PopcntOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    const APInt &i = intOf(x[0]);
                    return Scalar(APInt(i.getBitWidth(), i.popcount()));
                  });
}

OpFoldResult CountLeadingZerosOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    const APInt &i = intOf(x[0]);
                    return Scalar(APInt(i.getBitWidth(), i.countl_zero()));
                  });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getOperand().getDefiningOp<NotOp>())
    return inner.getOperand();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return Scalar(~intOf(x[0]));
                  });
}

void IsFiniteOp::build(OpBuilder &builder, OperationState &state,
                       Value operand) {
  auto type = tensorType(operand);
  build(builder, state,
        RankedTensorType::get(type.getShape(), builder.getI1Type()), operand);
}

LogicalResult IsFiniteOp::verify() {
  if (getType().getShape() != tensorType(getOperand()).getShape())
    return emitOpError("result shape ")
           << formatShape(getType().getShape()) << " should be "
           << formatShape(tensorType(getOperand()).getShape());
  return success();
}

OpFoldResult IsFiniteOp::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return Scalar(APInt(1, floatOf(x[0]).isFinite()));
                  });
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  if (isSplatOf(getLhs(), 0.0))
    return getRhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(floatOf(x[0]) + floatOf(x[1]));
                    const APInt &a = intOf(x[0]), &b = intOf(x[1]);
                    return Scalar(a.getBitWidth() == 1 ? (a | b) : a + b);
                  });
}

OpFoldResult SubtractOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(floatOf(x[0]) - floatOf(x[1]));
                    return Scalar(intOf(x[0]) - intOf(x[1]));
                  });
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 1.0))
    return getLhs();
  if (isSplatOf(getLhs(), 1.0))
    return getRhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(floatOf(x[0]) * floatOf(x[1]));
                    return Scalar(intOf(x[0]) * intOf(x[1]));
                  });
}

OpFoldResult DivideOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 1.0))
    return getLhs();
  bool u = readsUnsigned(*this);
  return foldWith(*this, adaptor.getOperands(),
                  [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(floatOf(x[0]) / floatOf(x[1]));
                    return Scalar(integerDivide(intOf(x[0]), intOf(x[1]), u));
                  });
}

OpFoldResult RemainderOp::fold(FoldAdaptor adaptor) {
  bool u = readsUnsigned(*this);
  return foldWith(*this, adaptor.getOperands(),
                  [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0])) {
                      APFloat r = floatOf(x[0]);
                      r.mod(floatOf(x[1]));
                      return Scalar(r);
                    }
                    return Scalar(
                        integerRemainder(intOf(x[0]), intOf(x[1]), u));
                  });
}

OpFoldResult PowerOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 1.0))
    return getLhs();
  bool u = readsUnsigned(*this);
  return foldWith(*this, adaptor.getOperands(),
                  [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return viaDouble2(
                          x[0], x[1],
                          static_cast<double (*)(double, double)>(std::pow));
                    return Scalar(integerPower(intOf(x[0]), intOf(x[1]), u));
                  });
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  bool u = readsUnsigned(*this);
  return foldWith(*this, adaptor.getOperands(),
                  [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(maximum(floatOf(x[0]), floatOf(x[1])));
                    const APInt &a = intOf(x[0]), &b = intOf(x[1]);
                    return Scalar(u || a.getBitWidth() == 1
                                      ? llvm::APIntOps::umax(a, b)
                                      : llvm::APIntOps::smax(a, b));
                  });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  bool u = readsUnsigned(*this);
  return foldWith(*this, adaptor.getOperands(),
                  [u](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    if (isFloat(x[0]))
                      return Scalar(minimum(floatOf(x[0]), floatOf(x[1])));
                    const APInt &a = intOf(x[0]), &b = intOf(x[1]);
                    return Scalar(u || a.getBitWidth() == 1
                                      ? llvm::APIntOps::umin(a, b)
                                      : llvm::APIntOps::smin(a, b));
                  });
}

OpFoldResult Atan2Op::fold(FoldAdaptor adaptor) {
  return foldWith(*this, adaptor.getOperands(), [](ArrayRef<Scalar> x) {
    return viaDouble2(x[0], x[1],
                      static_cast<double (*)(double, double)>(std::atan2));
  });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isAllOnes(getRhs()))
    return getLhs();
  if (isAllOnes(getLhs()))
    return getRhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return Scalar(intOf(x[0]) & intOf(x[1]));
                  });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatOf(getRhs(), 0.0))
    return getLhs();
  if (isSplatOf(getLhs(), 0.0))
    return getRhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return Scalar(intOf(x[0]) | intOf(x[1]));
                  });
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  if (isSplatOf(getLhs(), 0.0))
    return getRhs();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return Scalar(intOf(x[0]) ^ intOf(x[1]));
                  });
}

namespace {
/// HLO's shifts: the amount is unsigned, and `width` or more shifts every
/// bit out (`outOfRange` gives the result then).
template <typename Op>
OpFoldResult foldShift(Op op, ArrayRef<Attribute> operands,
                       APInt (*shift)(const APInt &, unsigned),
                       APInt (*outOfRange)(const APInt &)) {
  return foldWith(op, operands,
                  [=](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    const APInt &a = intOf(x[0]), &n = intOf(x[1]);
                    if (n.uge(a.getBitWidth()))
                      return Scalar(outOfRange(a));
                    return Scalar(shift(a, static_cast<unsigned>(n.getZExtValue())));
                  });
}
APInt zeroLike(const APInt &a) { return APInt(a.getBitWidth(), 0); }
} // namespace

OpFoldResult ShiftLeftOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  return foldShift(
      *this, adaptor.getOperands(),
      [](const APInt &a, unsigned n) { return a.shl(n); }, zeroLike);
}

OpFoldResult ShiftRightArithmeticOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  return foldShift(
      *this, adaptor.getOperands(),
      [](const APInt &a, unsigned n) { return a.ashr(n); },
      [](const APInt &a) { return a.ashr(a.getBitWidth() - 1); });
}

OpFoldResult ShiftRightLogicalOp::fold(FoldAdaptor adaptor) {
  if (isSplatOf(getRhs(), 0.0))
    return getLhs();
  return foldShift(
      *this, adaptor.getOperands(),
      [](const APInt &a, unsigned n) { return a.lshr(n); }, zeroLike);
}

//===----------------------------------------------------------------------===//
// Compare, select, clamp, convert
//===----------------------------------------------------------------------===//

void CompareOp::build(OpBuilder &builder, OperationState &state,
                      ComparisonDirection direction, Value lhs, Value rhs) {
  auto type = RankedTensorType::get(tensorType(lhs).getShape(),
                                    builder.getI1Type());
  build(builder, state, type, direction, lhs, rhs);
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  ComparisonDirection dir = getComparisonDirection();
  bool isUnsigned = readsUnsigned(*this);
  bool totalOrder = getTotalOrder();
  return foldWith(
      *this, adaptor.getOperands(),
      [dir, isUnsigned, totalOrder](ArrayRef<Scalar> x) -> std::optional<Scalar> {
        bool lt, eq, gt;
        if (isFloat(x[0]) && totalOrder) {
          // IEEE total order: the bits as signed, negatives' magnitudes
          // flipped (totalOrderKey in ScalarMath).
          auto key = [](const APFloat &f) {
            APInt bits = f.bitcastToAPInt();
            if (bits.isNegative())
              bits ^= APInt::getSignedMaxValue(bits.getBitWidth());
            return bits;
          };
          APInt a = key(floatOf(x[0])), b = key(floatOf(x[1]));
          lt = a.slt(b);
          eq = a == b;
          gt = a.sgt(b);
        } else if (isFloat(x[0])) {
          APFloat::cmpResult c = floatOf(x[0]).compare(floatOf(x[1]));
          lt = c == APFloat::cmpLessThan;
          eq = c == APFloat::cmpEqual;
          gt = c == APFloat::cmpGreaterThan;
        } else {
          const APInt &a = intOf(x[0]), &b = intOf(x[1]);
          bool u = isUnsigned || a.getBitWidth() == 1;
          lt = u ? a.ult(b) : a.slt(b);
          eq = a == b;
          gt = u ? a.ugt(b) : a.sgt(b);
        }
        bool r = false;
        switch (dir) {
        case ComparisonDirection::EQ:
          r = eq;
          break;
        case ComparisonDirection::NE:
          r = !eq; // unordered counts as not equal
          break;
        case ComparisonDirection::LT:
          r = lt;
          break;
        case ComparisonDirection::LE:
          r = lt || eq;
          break;
        case ComparisonDirection::GT:
          r = gt;
          break;
        case ComparisonDirection::GE:
          r = gt || eq;
          break;
        }
        return Scalar(APInt(1, r));
      });
}

LogicalResult SelectOp::verify() {
  ArrayRef<int64_t> pred = tensorType(getPred()).getShape();
  if (!pred.empty() && pred != getType().getShape())
    return emitOpError("pred shape ")
           << formatShape(pred) << " must be [] or the result shape "
           << formatShape(getType().getShape());
  return success();
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse())
    return getOnTrue();
  if (auto pred = dyn_cast_if_present<DenseElementsAttr>(adaptor.getPred());
      pred && pred.isSplat())
    return pred.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
  return foldWith(*this, adaptor.getOperands(),
                  [](ArrayRef<Scalar> x) -> std::optional<Scalar> {
                    return intOf(x[0]).isOne() ? x[1] : x[2];
                  });
}

LogicalResult ClampOp::verify() {
  ArrayRef<int64_t> shape = getType().getShape();
  for (auto [name, v] :
       {std::pair<StringRef, Value>{"min", getMin()}, {"max", getMax()}}) {
    if (failed(checkSameElementType(*this, v, name, getOperand(), "operand")))
      return failure();
    ArrayRef<int64_t> s = tensorType(v).getShape();
    if (!s.empty() && s != shape)
      return emitOpError() << name << " shape " << formatShape(s)
                           << " must be [] or the operand shape "
                           << formatShape(shape);
  }
  return success();
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  Type to = getType().getElementType();
  Type from = tensorType(getOperand()).getElementType();
  return foldWith(
      *this, adaptor.getOperands(),
      [to, from](ArrayRef<Scalar> x) -> std::optional<Scalar> {
        if (to.isInteger(1)) {
          bool nonzero = isFloat(x[0]) ? !floatOf(x[0]).isZero()
                                       : !intOf(x[0]).isZero();
          return Scalar(APInt(1, nonzero));
        }
        if (auto ft = dyn_cast<FloatType>(to)) {
          const llvm::fltSemantics &sem = ft.getFloatSemantics();
          bool lost;
          if (isFloat(x[0])) {
            APFloat f = floatOf(x[0]);
            f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
            return Scalar(f);
          }
          APFloat f(sem);
          f.convertFromAPInt(intOf(x[0]),
                             /*IsSigned=*/!from.isInteger(1) &&
                                 !from.isUnsignedInteger(),
                             APFloat::rmNearestTiesToEven);
          return Scalar(f);
        }
        unsigned width = to.getIntOrFloatBitWidth();
        if (!isFloat(x[0])) {
          const APInt &i = intOf(x[0]);
          return Scalar(from.isInteger(1) || from.isUnsignedInteger()
                            ? i.zextOrTrunc(width)
                            : i.sextOrTrunc(width));
        }
        const APFloat &f = floatOf(x[0]);
        if (f.isNaN())
          return Scalar(APInt(width, 0));
        bool toUnsigned = to.isUnsignedInteger();
        APSInt result(width, toUnsigned);
        bool exact;
        if (f.convertToInteger(result, APFloat::rmTowardZero, &exact) ==
            APFloat::opInvalidOp) {
          if (toUnsigned)
            return Scalar(f.isNegative() ? APInt::getMinValue(width)
                                         : APInt::getMaxValue(width));
          return Scalar(f.isNegative() ? APInt::getSignedMinValue(width)
                                       : APInt::getSignedMaxValue(width));
        }
        return Scalar(APInt(result));
      });
}

//===----------------------------------------------------------------------===//
// Bitcast, reduce precision
//===----------------------------------------------------------------------===//

LogicalResult BitcastConvertOp::verify() {
  Type from = getOperand().getType().getElementType();
  Type to = getType().getElementType();
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError() << "needs element types of one bit width, got "
                         << from << " (" << from.getIntOrFloatBitWidth()
                         << " bits) and " << to << " ("
                         << to.getIntOrFloatBitWidth() << " bits)";
  return success();
}

OpFoldResult BitcastConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  if (!dense || getType().getElementType().isInteger(1))
    return {};
  return dense.bitcast(getType().getElementType());
}

LogicalResult ReducePrecisionOp::verify() {
  if (getExponentBits() < 1)
    return emitOpError() << "needs exponent_bits >= 1, got "
                         << getExponentBits();
  if (getMantissaBits() < 0)
    return emitOpError() << "needs mantissa_bits >= 0, got "
                         << getMantissaBits();
  return success();
}
