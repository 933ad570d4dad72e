//===- RandomOps.cpp - Counter-based random numbers -----------------------===//
//
// Everything derives from rng_bit_generator THREE_FRY, whose bits are XLA's
// (Threefry-2x32): uniform floats are JAX's (jax.random.uniform's _uniform)
// made from those bits, normals use Box-Muller, dropout compares a uniform
// with the rate.
//
//===----------------------------------------------------------------------===//

#include "ir/trace/TraceOps.h"

#include <cmath>

namespace torus {

using namespace impl;

namespace {
bool checkKey(TraceContext *ctx, const Loc &loc, const char *opName,
              const Tensor &key) {
  if (key.dtype() == DType::I64 && key.shape() == Shape{2})
    return true;
  ctx->fail(loc, opName,
            "a random key is an i64[2] tensor (randomKey, randomSplit), got " +
                specString(key));
  return false;
}
} // namespace

std::pair<Tensor, Tensor> rngBitGenerator(const Tensor &state,
                                          const Shape &shape, DType dtype,
                                          Loc loc) {
  TraceContext *ctx = traceOf({&state});
  if (!checkOperands(ctx, loc, "rng_bit_generator", {&state}) ||
      !checkKey(ctx, loc, "rng_bit_generator", state))
    return {};
  if (isFloat(dtype) || dtype == DType::I1) {
    ctx->fail(loc, "rng_bit_generator",
              fmt::format("produces integer bits (i8..i64, u8..u64), not {}",
                          dtypeName(dtype)));
    return {};
  }
  for (int64_t d : shape)
    if (d < 0) {
      ctx->fail(loc, "rng_bit_generator",
                "negative dimension in shape " + shapeToString(shape));
      return {};
    }
  auto op = create<t::RngBitGeneratorOp>(
      ctx, loc, ctx->value(state).getType(), typeOf(ctx, dtype, shape),
      t::RngAlgorithm::THREE_FRY, ctx->value(state));
  return {ctx->wrap(op.getOutputState()), ctx->wrap(op.getOutput())};
}

Tensor randomKey(int64_t seed, Loc loc) {
  TraceContext *ctx = TraceContext::current();
  if (!ctx)
    return Tensor();
  return constant(HostTensor::fromVector<int64_t>({2}, {seed, 0}), loc);
}

Tensor randomSplit(const Tensor &key, int64_t n, Loc loc) {
  TraceContext *ctx = traceOf({&key});
  if (!checkOperands(ctx, loc, "random_split", {&key}))
    return Tensor();
  if (n < 1)
    return ctx->fail(loc, "random_split",
                     fmt::format("needs at least one key, asked for {}", n));
  return rngBitGenerator(key, {n, 2}, DType::I64, loc).second;
}

Tensor randomBits(const Tensor &key, const Shape &shape, DType dtype,
                  Loc loc) {
  return rngBitGenerator(key, shape, dtype, loc).second;
}

Tensor randomUniform(const Tensor &key, const Shape &shape, DType dtype,
                     double minval, double maxval, Loc loc) {
  TraceContext *ctx = traceOf({&key});
  if (!checkOperands(ctx, loc, "random_uniform", {&key}))
    return Tensor();
  if (!isFloat(dtype))
    return ctx->fail(loc, "random_uniform",
                     fmt::format("needs a float dtype, not {}",
                                 dtypeName(dtype)));
  // JAX's _uniform on XLA's bits: the top mantissa-width bits of an
  // unsigned word as wide as the dtype (8 bits for bf16, whose mantissa is
  // shorter than 8), as the mantissa of a float in [1, 2), minus 1. That is
  // exactly (bits >> (width - mantissa)) * 2^-mantissa, computed here, so
  // the result is never 1; then scaled, and kept >= minval.
  int mantissa = dtype == DType::F64        ? 52
                 : dtype == DType::F32      ? 23
                 : dtype == DType::F16      ? 10
                 : dtype == DType::F8E4M3FN ? 3
                 : dtype == DType::F8E5M2   ? 2
                                            : 7;
  DType bitsType = dtype == DType::F64   ? DType::U64
                   : dtype == DType::F32 ? DType::U32
                   : dtype == DType::F16 ? DType::U16
                                         : DType::U8;
  int width = static_cast<int>(byteWidth(bitsType)) * 8;
  Tensor bits = randomBits(key, shape, bitsType, loc);
  // An unsigned division is the logical shift.
  Tensor top = divide(
      bits, full({}, std::ldexp(1.0, width - mantissa), bitsType, loc), loc);
  Tensor unit = multiply(astype(top, dtype, loc),
                         full({}, std::ldexp(1.0, -mantissa), dtype, loc), loc);
  if (minval == 0 && maxval == 1)
    return unit;
  Tensor low = full({}, minval, dtype, loc);
  return maximum(
      low,
      add(multiply(unit,
                   subtract(full({}, maxval, dtype, loc), low, loc), loc),
          low, loc),
      loc);
}

Tensor randomNormal(const Tensor &key, const Shape &shape, DType dtype,
                    Loc loc) {
  TraceContext *ctx = traceOf({&key});
  if (!checkOperands(ctx, loc, "random_normal", {&key}))
    return Tensor();
  if (!isFloat(dtype))
    return ctx->fail(loc, "random_normal",
                     fmt::format("needs a float dtype, not {}",
                                 dtypeName(dtype)));
  // Box-Muller in f32 (f64 for f64): sqrt(-2 log(1 - u1)) cos(2 pi u2).
  DType work = dtype == DType::F64 ? DType::F64 : DType::F32;
  Shape two = shape;
  two.insert(two.begin(), 2);
  Tensor u = randomUniform(key, two, work, 0, 1, loc);
  Tensor u1 = index(u, {Index(0, loc)}, loc), u2 = index(u, {Index(1, loc)}, loc);
  Tensor radius = sqrt(multiply(-2.0, log(subtract(1.0, u1, loc), loc), loc), loc);
  Tensor z = multiply(radius, cos(multiply(2 * M_PI, u2, loc), loc), loc);
  return astype(z, dtype, loc);
}

Tensor dropout(const Tensor &key, const Tensor &x, double rate, Loc loc) {
  TraceContext *ctx = traceOf({&key, &x});
  if (!checkOperands(ctx, loc, "dropout", {&key, &x}))
    return Tensor();
  if (!(rate >= 0 && rate < 1))
    return ctx->fail(loc, "dropout",
                     fmt::format("rate {} is not in [0, 1)", rate));
  if (rate == 0)
    return x;
  Tensor xf = toFloat(ctx, loc, x);
  Tensor keep = greaterEqual(randomUniform(key, x.shape(), xf.dtype(), 0, 1, loc),
                             rate, loc);
  return where(keep, divide(xf, 1.0 - rate, loc), 0.0, loc);
}

} // namespace torus
