//===- ElementwiseOps.cpp - Creating tensors and elementwise operations ---===//
//
// Each function checks its operands the way NumPy or HLO would, records the
// first failure in the trace, and otherwise emits torus ops at the trace's
// insertion point with the caller's source location. Binary operations
// promote (promoteTypes) and broadcast their operands first.
//
//===----------------------------------------------------------------------===//

#include "ir/trace/TraceOps.h"

#include <limits>

namespace torus {

using namespace impl;

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

DType Tensor::dtype() const {
  return valid() ? ctx_->spec(id_).dtype : DType::F32;
}
Shape Tensor::shape() const { return valid() ? ctx_->spec(id_).shape : Shape(); }
int64_t Tensor::dim(int64_t axis) const {
  Shape s = shape();
  int64_t r = static_cast<int64_t>(s.size());
  if (axis < 0)
    axis += r;
  return axis >= 0 && axis < r ? s[axis] : -1;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Tensor constant(const HostTensor &value, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  auto type = typeOf(ctx, value.dtype(), value.shape());
  llvm::ArrayRef<char> raw(static_cast<const char *>(value.rawData()),
                           value.sizeInBytes());
  mlir::DenseElementsAttr attr;
  if (value.dtype() == DType::I1) {
    auto bytes = llvm::ArrayRef<uint8_t>(
        static_cast<const uint8_t *>(value.rawData()), value.numElements());
    llvm::SmallVector<bool> bits(bytes.begin(), bytes.end());
    attr = mlir::DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
  } else {
    attr = mlir::DenseElementsAttr::getFromRawBuffer(type, raw);
  }
  return emit<t::ConstantOp>(ctx, loc, type,
                             mlir::cast<mlir::ElementsAttr>(attr));
}

Tensor full(const Shape &shape, double value, DType dtype, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  for (int64_t d : shape)
    if (d < 0)
      return ctx->fail(loc, "full",
                       "negative dimension in shape " + shapeToString(shape));
  return filled(ctx, loc, shape, value, dtype);
}

Tensor scalar(double value, DType dtype, Loc loc) {
  return full({}, value, dtype, loc);
}
Tensor zeros(const Shape &shape, DType dtype, Loc loc) {
  return full(shape, 0, dtype, loc);
}
Tensor ones(const Shape &shape, DType dtype, Loc loc) {
  return full(shape, 1, dtype, loc);
}
Tensor fullLike(const Tensor &t, double value, Loc loc) {
  TraceContext *ctx = traceOf({&t});
  if (!checkOperands(ctx, loc, "full_like", {&t}))
    return Tensor();
  return filled(ctx, loc, t.shape(), value, t.dtype());
}
Tensor zerosLike(const Tensor &t, Loc loc) { return fullLike(t, 0, loc); }
Tensor onesLike(const Tensor &t, Loc loc) { return fullLike(t, 1, loc); }

Tensor iota(const Shape &shape, int64_t axis, DType dtype, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < 0)
    axis += rank;
  std::string error;
  if (mlir::failed(t::checkIota(shape, axis, error)))
    return ctx->fail(loc, "iota", error);
  return emit<t::IotaOp>(ctx, loc, typeOf(ctx, dtype, shape), axis);
}

Tensor arange(int64_t n, DType dtype, Loc loc) {
  return iota({n}, 0, dtype, loc);
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

namespace {
enum class Domain { Numeric, Float, Integer, Int };

/// Emits unary `OpTy` on `a`: float functions promote integers and i1 to
/// f32; numeric ones reject i1; integer ones reject floats, and Int ones
/// floats and i1.
template <typename OpTy>
Tensor unary(const Tensor &a, const Loc &loc, const char *opName,
             Domain domain) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, opName, {&a}))
    return Tensor();
  Tensor x = a;
  if (domain == Domain::Float)
    x = toFloat(ctx, loc, a);
  else if (domain == Domain::Numeric && a.dtype() == DType::I1)
    x = convertTo(ctx, loc, a, DType::I32);
  else if (domain == Domain::Integer && isFloat(a.dtype()))
    return ctx->fail(loc, opName,
                     "needs integer or i1 elements, got " + specString(a));
  else if (domain == Domain::Int && (isFloat(a.dtype()) || a.dtype() == DType::I1))
    return ctx->fail(loc, opName, "needs integer elements, got " + specString(a));
  return emit<OpTy>(ctx, loc, ctx->value(x));
}
} // namespace

#define TORUS_UNARY(function, Op, domain)                                      \
  Tensor function(const Tensor &a, Loc loc) {                                  \
    return unary<t::Op>(a, loc, #function, Domain::domain);                    \
  }
#include "torus/UnaryOps.def"

Tensor isFinite(const Tensor &a, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "is_finite", {&a}))
    return Tensor();
  if (!isFloat(a.dtype()))
    return filled(ctx, loc, a.shape(), 1, DType::I1);
  return emit<t::IsFiniteOp>(ctx, loc, ctx->value(a));
}

Tensor logicalNot(const Tensor &a, Loc loc) {
  return torus::equal(a, false, loc);
}
Tensor square(const Tensor &a, Loc loc) { return multiply(a, a, loc); }
Tensor reciprocal(const Tensor &a, Loc loc) { return divide(1.0, a, loc); }
Tensor relu(const Tensor &a, Loc loc) { return maximum(a, 0, loc); }

Tensor astype(const Tensor &a, DType dtype, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "astype", {&a}))
    return Tensor();
  return convertTo(ctx, loc, a, dtype);
}

Tensor bitcastConvert(const Tensor &a, DType dtype, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "bitcast_convert", {&a}))
    return Tensor();
  auto type = typeOf(ctx, dtype, a.shape());
  mlir::Type from = ctx->value(a).getType();
  if (mlir::cast<mlir::RankedTensorType>(from).getElementTypeBitWidth() !=
      type.getElementTypeBitWidth())
    return ctx->fail(loc, "bitcast_convert",
                     "needs a dtype of the same bit width, got " +
                         specString(a) + " to " +
                         std::string(dtypeName(dtype)));
  return emit<t::BitcastConvertOp>(ctx, loc, type, ctx->value(a));
}

Tensor reducePrecision(const Tensor &a, int exponentBits, int mantissaBits,
                       Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reduce_precision", {&a}))
    return Tensor();
  if (!isFloat(a.dtype()))
    return ctx->fail(loc, "reduce_precision",
                     "needs float elements, got " + specString(a));
  if (exponentBits < 1 || mantissaBits < 0)
    return ctx->fail(loc, "reduce_precision",
                     "needs exponent_bits >= 1 and mantissa_bits >= 0, got " +
                         std::to_string(exponentBits) + " and " +
                         std::to_string(mantissaBits));
  mlir::Value x = ctx->value(a);
  return emit<t::ReducePrecisionOp>(ctx, loc, x.getType(), x,
                                    static_cast<int32_t>(exponentBits),
                                    static_cast<int32_t>(mantissaBits));
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

namespace {
/// Emits binary `OpTy` on promoted, broadcast operands. `domain` restricts
/// the promoted dtype: Numeric turns i1 into i32, Float turns integers into
/// f32, Integer rejects floats.
template <typename OpTy>
Tensor binary(const TensorLike &a, const TensorLike &b, const Loc &loc,
              const char *opName, Domain domain = Domain::Numeric,
              bool allowBool = false) {
  DType dtype = resultDType({&a, &b});
  std::optional<DType> force;
  if (domain == Domain::Float && !isFloat(dtype) && !isComplex(dtype))
    force = DType::F32;
  else if (domain == Domain::Numeric && dtype == DType::I1 && !allowBool)
    force = DType::I32;
  auto ops = prepareOperands(loc, opName, {&a, &b}, force);
  if (!ops)
    return Tensor();
  if (domain == Domain::Integer && isFloat(ops->dtype))
    return ops->ctx->fail(loc, opName,
                          "needs integer or i1 operands, got " +
                              specsString(ops->values));
  if (domain == Domain::Int && (isFloat(ops->dtype) || ops->dtype == DType::I1))
    return ops->ctx->fail(loc, opName,
                          "needs integer operands, got " +
                              specsString(ops->values));
  return emit<OpTy>(ops->ctx, loc, ops->ctx->value(ops->values[0]),
                    ops->ctx->value(ops->values[1]));
}

Tensor compare(const TensorLike &a, const TensorLike &b, const Loc &loc,
               const char *opName, t::ComparisonDirection dir) {
  auto ops = prepareOperands(loc, opName, {&a, &b});
  if (!ops)
    return Tensor();
  TraceContext *ctx = ops->ctx;
  return emit<t::CompareOp>(ctx, loc, dir, ctx->value(ops->values[0]),
                            ctx->value(ops->values[1]));
}

/// `x != 0` as i1 (identity for i1).
Tensor truth(TraceContext *ctx, const Loc &loc, const Tensor &x) {
  return convertTo(ctx, loc, x, DType::I1);
}

template <typename OpTy>
Tensor logical(const TensorLike &a, const TensorLike &b, const Loc &loc,
               const char *opName) {
  auto ops = prepareOperands(loc, opName, {&a, &b});
  if (!ops)
    return Tensor();
  TraceContext *ctx = ops->ctx;
  return emit<OpTy>(ctx, loc, ctx->value(truth(ctx, loc, ops->values[0])),
                    ctx->value(truth(ctx, loc, ops->values[1])));
}
} // namespace

Tensor add(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::AddOp>(a, b, loc, "add", Domain::Numeric,
                          /*allowBool=*/true);
}
Tensor subtract(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::SubtractOp>(a, b, loc, "subtract");
}
Tensor multiply(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::MultiplyOp>(a, b, loc, "multiply", Domain::Numeric,
                               /*allowBool=*/true);
}
Tensor divide(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::DivideOp>(a, b, loc, "divide");
}
Tensor remainder(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::RemainderOp>(a, b, loc, "remainder");
}
Tensor power(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::PowerOp>(a, b, loc, "power");
}
Tensor maximum(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::MaximumOp>(a, b, loc, "maximum", Domain::Numeric,
                              /*allowBool=*/true);
}
Tensor minimum(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::MinimumOp>(a, b, loc, "minimum", Domain::Numeric,
                              /*allowBool=*/true);
}
Tensor atan2(const TensorLike &y, const TensorLike &x, Loc loc) {
  return binary<t::Atan2Op>(y, x, loc, "atan2", Domain::Float);
}
Tensor nextafter(const TensorLike &a, const TensorLike &b, Loc loc) {
  DType joined = resultDType({&a, &b});
  std::optional<DType> force;
  if (!isFloat(joined))
    force = DType::F32;
  auto ops = prepareOperands(loc, "nextafter", {&a, &b}, force);
  if (!ops)
    return Tensor();
  TraceContext *ctx = ops->ctx;
  DType f = ops->dtype;
  if (f != DType::F32 && f != DType::F64)
    return ctx->fail(loc, "nextafter",
                     "needs f32 or f64 operands (16-bit floats need 16-bit "
                     "integers), got " + specsString(ops->values));
  // As XLA expands chlo.next_after: step the bits of x by one toward y.
  DType it = f == DType::F32 ? DType::I32 : DType::I64;
  auto type = typeOf(ctx, it, ops->shape);
  auto v = [&](const Tensor &t) { return ctx->value(t); };
  auto cst = [&](double value) {
    return filled(ctx, loc, ops->shape, value, it);
  };
  auto bin = [&](auto tag, const Tensor &l, const Tensor &r) {
    using OpTy = decltype(tag);
    return emit<OpTy>(ctx, loc, v(l), v(r));
  };
  auto cmp = [&](t::ComparisonDirection d, const Tensor &l, const Tensor &r) {
    return emit<t::CompareOp>(ctx, loc, d, v(l), v(r));
  };
  auto sel = [&](const Tensor &p, const Tensor &l, const Tensor &r) {
    return emit<t::SelectOp>(ctx, loc, v(p), v(l), v(r));
  };
  using Dir = t::ComparisonDirection;
  const Tensor &x = ops->values[0], &y = ops->values[1];
  Tensor xi = emit<t::BitcastConvertOp>(ctx, loc, type, v(x));
  Tensor yi = emit<t::BitcastConvertOp>(ctx, loc, type, v(y));
  // The sign bit: -2^31 or -2^63, exact in a double.
  Tensor signMask = cst(f == DType::F32 ? -0x1p31 : -0x1p63);
  Tensor absMask = emit<t::NotOp>(ctx, loc, v(signMask));
  Tensor xAbs = bin(t::AndOp(), xi, absMask), yAbs = bin(t::AndOp(), yi, absMask);
  Tensor xSign = bin(t::AndOp(), xi, signMask);
  Tensor ySign = bin(t::AndOp(), yi, signMask);
  Tensor zero = cst(0), one = cst(1), minusOne = cst(-1);
  // Toward zero (-1 on the bits) when |x| > |y| or the signs differ.
  Tensor smaller = bin(t::OrOp(), cmp(Dir::GT, xAbs, yAbs),
                       cmp(Dir::NE, xSign, ySign));
  Tensor r = bin(t::AddOp(), xi, sel(smaller, minusOne, one));
  // From ±0: the smallest subnormal with y's sign, or y if it is ±0 too.
  Tensor fromZero = sel(cmp(Dir::EQ, yAbs, zero), yi,
                        bin(t::OrOp(), ySign, one));
  r = sel(cmp(Dir::EQ, xAbs, zero), fromZero, r);
  r = sel(cmp(Dir::EQ, x, y), yi, r);
  Tensor result = emit<t::BitcastConvertOp>(ctx, loc, v(x).getType(), v(r));
  Tensor nan = bin(t::OrOp(), cmp(Dir::NE, x, x), cmp(Dir::NE, y, y));
  return sel(nan, filled(ctx, loc, ops->shape,
                         std::numeric_limits<double>::quiet_NaN(), f),
             result);
}

Tensor complex(const TensorLike &re, const TensorLike &im, Loc loc) {
  DType dtype = resultDType({&re, &im});
  if (isComplex(dtype)) {
    TraceContext *ctx = TraceContext::current();
    return ctx ? ctx->fail(loc, "complex",
                           "needs real operands, got " +
                               std::string(dtypeName(dtype)))
               : Tensor();
  }
  auto ops = prepareOperands(loc, "complex", {&re, &im},
                             dtype == DType::F64 ? DType::F64 : DType::F32);
  if (!ops)
    return Tensor();
  return emit<t::ComplexOp>(ops->ctx, loc, ops->ctx->value(ops->values[0]),
                            ops->ctx->value(ops->values[1]));
}
Tensor bitwiseAnd(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::AndOp>(a, b, loc, "bitwise_and", Domain::Integer);
}
Tensor bitwiseOr(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::OrOp>(a, b, loc, "bitwise_or", Domain::Integer);
}
Tensor bitwiseXor(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::XorOp>(a, b, loc, "bitwise_xor", Domain::Integer);
}
Tensor shiftLeft(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::ShiftLeftOp>(a, b, loc, "shift_left", Domain::Int);
}
Tensor shiftRightArithmetic(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::ShiftRightArithmeticOp>(a, b, loc, "shift_right_arithmetic",
                                           Domain::Int);
}
Tensor shiftRightLogical(const TensorLike &a, const TensorLike &b, Loc loc) {
  return binary<t::ShiftRightLogicalOp>(a, b, loc, "shift_right_logical",
                                        Domain::Int);
}
Tensor logicalAnd(const TensorLike &a, const TensorLike &b, Loc loc) {
  return logical<t::AndOp>(a, b, loc, "logical_and");
}
Tensor logicalOr(const TensorLike &a, const TensorLike &b, Loc loc) {
  return logical<t::OrOp>(a, b, loc, "logical_or");
}
Tensor logicalXor(const TensorLike &a, const TensorLike &b, Loc loc) {
  return logical<t::XorOp>(a, b, loc, "logical_xor");
}

Tensor equal(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "equal", t::ComparisonDirection::EQ);
}
Tensor notEqual(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "not_equal", t::ComparisonDirection::NE);
}
Tensor less(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "less", t::ComparisonDirection::LT);
}
Tensor lessEqual(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "less_equal", t::ComparisonDirection::LE);
}
Tensor greater(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "greater", t::ComparisonDirection::GT);
}
Tensor greaterEqual(const TensorLike &a, const TensorLike &b, Loc loc) {
  return compare(a, b, loc, "greater_equal", t::ComparisonDirection::GE);
}

Tensor where(const TensorLike &cond, const TensorLike &a, const TensorLike &b,
             Loc loc) {
  DType dtype = resultDType({&a, &b});
  auto c = prepareOperands(loc, "where", {&cond}, DType::I1);
  if (!c)
    return Tensor();
  // Promote the branches together, then broadcast all three.
  auto ops = prepareOperands(loc, "where", {&a, &b}, dtype);
  if (!ops)
    return Tensor();
  TraceContext *ctx = ops->ctx;
  auto all = broadcastTensors(ctx, loc, "where",
                              {c->values[0], ops->values[0], ops->values[1]});
  if (!all)
    return Tensor();
  return emit<t::SelectOp>(ctx, loc, ctx->value((*all)[0]),
                           ctx->value((*all)[1]), ctx->value((*all)[2]));
}

Tensor clamp(const Tensor &x, const TensorLike &lo, const TensorLike &hi,
             Loc loc) {
  TraceContext *ctx = traceOf({&x});
  if (!checkOperands(ctx, loc, "clamp", {&x}))
    return Tensor();
  DType dtype = x.dtype() == DType::I1 ? DType::I32 : x.dtype();
  TensorLike xl(x, loc);
  auto ops = prepareOperands(loc, "clamp", {&lo, &xl, &hi}, dtype);
  if (!ops)
    return Tensor();
  return emit<t::ClampOp>(ctx, loc, ctx->value(ops->values[1]).getType(),
                          ctx->value(ops->values[0]),
                          ctx->value(ops->values[1]),
                          ctx->value(ops->values[2]));
}

//===----------------------------------------------------------------------===//
// Operators: the source line is the one where the operand was converted.
//===----------------------------------------------------------------------===//

Tensor operator+(const TensorLike &a, const TensorLike &b) {
  return add(a, b, a.loc());
}
Tensor operator-(const TensorLike &a, const TensorLike &b) {
  return subtract(a, b, a.loc());
}
Tensor operator*(const TensorLike &a, const TensorLike &b) {
  return multiply(a, b, a.loc());
}
Tensor operator/(const TensorLike &a, const TensorLike &b) {
  return divide(a, b, a.loc());
}
Tensor operator%(const TensorLike &a, const TensorLike &b) {
  return remainder(a, b, a.loc());
}
Tensor operator&(const TensorLike &a, const TensorLike &b) {
  return bitwiseAnd(a, b, a.loc());
}
Tensor operator|(const TensorLike &a, const TensorLike &b) {
  return bitwiseOr(a, b, a.loc());
}
Tensor operator^(const TensorLike &a, const TensorLike &b) {
  return bitwiseXor(a, b, a.loc());
}
Tensor operator<(const TensorLike &a, const TensorLike &b) {
  return less(a, b, a.loc());
}
Tensor operator<=(const TensorLike &a, const TensorLike &b) {
  return lessEqual(a, b, a.loc());
}
Tensor operator>(const TensorLike &a, const TensorLike &b) {
  return greater(a, b, a.loc());
}
Tensor operator>=(const TensorLike &a, const TensorLike &b) {
  return greaterEqual(a, b, a.loc());
}
namespace {
/// The tensor of a unary operator's operand (a number becomes a scalar).
Tensor asTensor(const TensorLike &a, const char *opName) {
  auto ops = prepareOperands(a.loc(), opName, {&a});
  return ops ? ops->values[0] : Tensor();
}
} // namespace

Tensor operator-(const TensorLike &a) {
  return negate(asTensor(a, "negate"), a.loc());
}
Tensor operator~(const TensorLike &a) {
  return bitwiseNot(asTensor(a, "bitwise_not"), a.loc());
}
Tensor operator!(const TensorLike &a) {
  return logicalNot(asTensor(a, "logical_not"), a.loc());
}

} // namespace torus
