//===- SupportRoutines.cpp - What generated code may call besides the ABI -===//
//
// Why this list is complete: LLVM emits a libcall for an IR operation the
// target cannot do in instructions. The operations Torus's lowering emits
// are integer and floating-point arithmetic on i1..i64, f16, bf16, f32 and
// f64 (no i128, no complex), conversions between them, the math intrinsics
// of MLIR's math-to-llvm conversion, the libm calls math-to-libm makes of
// the math ops left without one (erf, cbrt), `frem`, and memory
// intrinsics. On
// x86-64-v2 and up, the libcalls among those are: the f16/bf16 conversions
// (no F16C on v2, no AVX-512 BF16 below Sapphire Rapids-class CPUs, no
// f64 -> f16/bf16 instruction anywhere), libm for the transcendental
// intrinsics and `frem`, `sincos` when LLVM merges a sin and a cos of one
// value, rounding functions (only below SSE4.1), and memcpy/memmove/memset;
// with planBuffers off, malloc and free (memref.alloc). The JIT resolves
// nothing else, and the op tests run at every ISA level
// (torus_test_at_isa_levels): a missing entry fails them by name.
//
//===----------------------------------------------------------------------===//

#include "runtime/SupportRoutines.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace torus::rt {

namespace {

//===--- Subnormals flushed, as XLA:CPU does ------------------------------===//

// On bits, not by comparison: with DAZ on, a subnormal compares equal to 0.
float flush(float x) {
  uint32_t b = std::bit_cast<uint32_t>(x);
  return (b & 0x7F800000u) == 0 ? std::bit_cast<float>(b & 0x80000000u) : x;
}
double flush(double x) {
  uint64_t b = std::bit_cast<uint64_t>(x);
  return (b & 0x7FF0000000000000ull) == 0
             ? std::bit_cast<double>(b & 0x8000000000000000ull)
             : x;
}

template <auto F, typename T> T unary(T x) { return flush(F(flush(x))); }
template <auto F, typename T> T binary(T x, T y) {
  return flush(F(flush(x), flush(y)));
}
template <auto F, typename T> T ternary(T x, T y, T z) {
  return flush(F(flush(x), flush(y), flush(z)));
}

void sincosFlushed(float x, float *s, float *c) {
  x = flush(x);
  *s = flush(std::sin(x));
  *c = flush(std::cos(x));
}
void sincosFlushed(double x, double *s, double *c) {
  x = flush(x);
  *s = flush(std::sin(x));
  *c = flush(std::cos(x));
}
float ldexpFlushed(float x, int e) { return flush(std::ldexp(flush(x), e)); }
double ldexpFlushed(double x, int e) { return flush(std::ldexp(flush(x), e)); }

//===--- The compiler runtime's conversions, under LLVM's names -----------===//

// f16 and bf16 travel in XMM registers (the x86-64 psABI), as _Float16 and
// __bf16 do in clang.
__bf16 truncsfbf2(float x) { return std::bit_cast<__bf16>(floatToBf16(x)); }
__bf16 truncdfbf2(double x) { return std::bit_cast<__bf16>(doubleToBf16(x)); }
_Float16 truncsfhf2(float x) {
  return std::bit_cast<_Float16>(floatToHalf(x));
}
_Float16 truncdfhf2(double x) {
  return std::bit_cast<_Float16>(doubleToHalf(x));
}
float extendhfsf2(_Float16 h) {
  return halfToFloat(std::bit_cast<uint16_t>(h));
}
// The older GNU names, with the half in an integer register.
uint16_t gnuF2h(float x) { return floatToHalf(x); }
float gnuH2f(uint16_t h) { return halfToFloat(h); }

template <typename F> void *address(F *f) { return reinterpret_cast<void *>(f); }

} // namespace

uint16_t floatToBf16(float x) {
  uint32_t b = std::bit_cast<uint32_t>(x);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep the sign, make it quiet
    return static_cast<uint16_t>((b >> 16) | 0x40);
  if ((b & 0x7F800000u) == 0) // zero or subnormal: signed zero
    return static_cast<uint16_t>((b >> 16) & 0x8000);
  b += 0x7FFFu + ((b >> 16) & 1); // round to nearest even
  return static_cast<uint16_t>(b >> 16);
}

uint16_t doubleToBf16(double x) {
  // Round once, to bf16's 8 significant bits, not through f32 (which
  // would round twice): the f32 is truncated with a sticky bit.
  uint64_t b = std::bit_cast<uint64_t>(x);
  uint64_t sign = b >> 63;
  uint64_t mag = b & 0x7FFFFFFFFFFFFFFFull;
  if (mag > 0x7FF0000000000000ull)
    return static_cast<uint16_t>((sign << 15) | 0x7FC0);
  if (mag >= 0x47F0000000000000ull) // >= 2^128: beyond f32, inf in bf16
    return static_cast<uint16_t>((sign << 15) | 0x7F80);
  if (mag < 0x3810000000000000ull) // below f32's smallest normal: zero
    return static_cast<uint16_t>(sign << 15);
  // Exactly representable exponent range: truncate to f32 keeping a sticky
  // bit, then round that to bf16.
  int64_t exp = static_cast<int64_t>(mag >> 52) - 1023 + 127;
  uint64_t mant = mag & 0xFFFFFFFFFFFFFull; // 52 bits
  uint32_t f = static_cast<uint32_t>((exp << 23) | (mant >> 29));
  if (mant & ((1ull << 29) - 1))
    f |= 1; // sticky: below bf16's rounding bit, so it only breaks ties
  f += 0x7FFFu + ((f >> 16) & 1);
  return static_cast<uint16_t>((sign << 15) | (f >> 16));
}

namespace {
/// Rounds magnitude `mag` (an f64 bit pattern without sign) to binary16.
uint16_t magnitudeToHalf(uint64_t mag) {
  if (mag > 0x7FF0000000000000ull)
    return 0x7E00;
  if (mag >= 0x40EFFE0000000000ull) // >= 65520: rounds to infinity
    return 0x7C00;
  int64_t exp = static_cast<int64_t>(mag >> 52) - 1023;
  uint64_t mant = (mag & 0xFFFFFFFFFFFFFull) | (1ull << 52);
  if (exp < -25) // below half of the smallest subnormal (2^-24): zero
    return 0;
  // Shift so that the result's last kept bit is bit 0: normals keep 11
  // significant bits, subnormals fewer (units of 2^-24).
  int64_t shift = exp >= -14 ? 42 : 42 + (-14 - exp);
  uint64_t kept = mant >> shift;
  uint64_t rest = mant & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (exp >= -14)
    return static_cast<uint16_t>(((exp + 15) << 10) + (kept - (1ull << 10)));
  return static_cast<uint16_t>(kept); // may carry into the smallest normal
}
} // namespace

// Subnormal f32 and f64 inputs are far below half's smallest subnormal:
// they round to signed zero without a flush.
uint16_t floatToHalf(float x) { return doubleToHalf(x); }

uint16_t doubleToHalf(double x) {
  uint64_t b = std::bit_cast<uint64_t>(x);
  return static_cast<uint16_t>(((b >> 63) << 15) |
                               magnitudeToHalf(b & 0x7FFFFFFFFFFFFFFFull));
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7F800000u | (mant << 13) |
                                (mant ? 0x400000u : 0));
  if (exp == 0) {
    if (mant == 0)
      return std::bit_cast<float>(sign);
    // Subnormal half: normal in f32.
    int shift = std::countl_zero(static_cast<uint32_t>(mant)) - 21;
    mant = (mant << shift) & 0x3FF;
    return std::bit_cast<float>(
        sign | (static_cast<uint32_t>(127 - 15 + 1 - shift) << 23) |
        (mant << 13));
  }
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

const std::vector<std::pair<std::string_view, void *>> &
supportRoutineSymbols() {
  using F = float;
  using D = double;
  static const std::vector<std::pair<std::string_view, void *>> symbols = {
      // Conversions (compiler-rt's and libgcc's names).
      {"__truncsfbf2", address(&truncsfbf2)},
      {"__truncdfbf2", address(&truncdfbf2)},
      {"__truncsfhf2", address(&truncsfhf2)},
      {"__truncdfhf2", address(&truncdfhf2)},
      {"__extendhfsf2", address(&extendhfsf2)},
      {"__gnu_f2h_ieee", address(&gnuF2h)},
      {"__gnu_h2f_ieee", address(&gnuH2f)},
      // libm, subnormals flushed.
      {"expf", address(&unary<static_cast<F (*)(F)>(std::exp), F>)},
      {"exp", address(&unary<static_cast<D (*)(D)>(std::exp), D>)},
      {"exp2f", address(&unary<static_cast<F (*)(F)>(std::exp2), F>)},
      {"exp2", address(&unary<static_cast<D (*)(D)>(std::exp2), D>)},
      {"expm1f", address(&unary<static_cast<F (*)(F)>(std::expm1), F>)},
      {"expm1", address(&unary<static_cast<D (*)(D)>(std::expm1), D>)},
      {"logf", address(&unary<static_cast<F (*)(F)>(std::log), F>)},
      {"log", address(&unary<static_cast<D (*)(D)>(std::log), D>)},
      {"log2f", address(&unary<static_cast<F (*)(F)>(std::log2), F>)},
      {"log2", address(&unary<static_cast<D (*)(D)>(std::log2), D>)},
      {"log10f", address(&unary<static_cast<F (*)(F)>(std::log10), F>)},
      {"log10", address(&unary<static_cast<D (*)(D)>(std::log10), D>)},
      {"log1pf", address(&unary<static_cast<F (*)(F)>(std::log1p), F>)},
      {"log1p", address(&unary<static_cast<D (*)(D)>(std::log1p), D>)},
      {"sinf", address(&unary<static_cast<F (*)(F)>(std::sin), F>)},
      {"sin", address(&unary<static_cast<D (*)(D)>(std::sin), D>)},
      {"cosf", address(&unary<static_cast<F (*)(F)>(std::cos), F>)},
      {"cos", address(&unary<static_cast<D (*)(D)>(std::cos), D>)},
      {"tanf", address(&unary<static_cast<F (*)(F)>(std::tan), F>)},
      {"tan", address(&unary<static_cast<D (*)(D)>(std::tan), D>)},
      {"sincosf", address(static_cast<void (*)(F, F *, F *)>(sincosFlushed))},
      {"sincos", address(static_cast<void (*)(D, D *, D *)>(sincosFlushed))},
      {"asinf", address(&unary<static_cast<F (*)(F)>(std::asin), F>)},
      {"asin", address(&unary<static_cast<D (*)(D)>(std::asin), D>)},
      {"acosf", address(&unary<static_cast<F (*)(F)>(std::acos), F>)},
      {"acos", address(&unary<static_cast<D (*)(D)>(std::acos), D>)},
      {"atanf", address(&unary<static_cast<F (*)(F)>(std::atan), F>)},
      {"atan", address(&unary<static_cast<D (*)(D)>(std::atan), D>)},
      {"sinhf", address(&unary<static_cast<F (*)(F)>(std::sinh), F>)},
      {"sinh", address(&unary<static_cast<D (*)(D)>(std::sinh), D>)},
      {"coshf", address(&unary<static_cast<F (*)(F)>(std::cosh), F>)},
      {"cosh", address(&unary<static_cast<D (*)(D)>(std::cosh), D>)},
      {"tanhf", address(&unary<static_cast<F (*)(F)>(std::tanh), F>)},
      {"tanh", address(&unary<static_cast<D (*)(D)>(std::tanh), D>)},
      {"erff", address(&unary<static_cast<F (*)(F)>(std::erf), F>)},
      {"erf", address(&unary<static_cast<D (*)(D)>(std::erf), D>)},
      {"cbrtf", address(&unary<static_cast<F (*)(F)>(std::cbrt), F>)},
      {"cbrt", address(&unary<static_cast<D (*)(D)>(std::cbrt), D>)},
      {"atan2f", address(&binary<static_cast<F (*)(F, F)>(std::atan2), F>)},
      {"atan2", address(&binary<static_cast<D (*)(D, D)>(std::atan2), D>)},
      {"powf", address(&binary<static_cast<F (*)(F, F)>(std::pow), F>)},
      {"pow", address(&binary<static_cast<D (*)(D, D)>(std::pow), D>)},
      {"fmodf", address(&binary<static_cast<F (*)(F, F)>(std::fmod), F>)},
      {"fmod", address(&binary<static_cast<D (*)(D, D)>(std::fmod), D>)},
      {"fmaf", address(&ternary<static_cast<F (*)(F, F, F)>(std::fma), F>)},
      {"fma", address(&ternary<static_cast<D (*)(D, D, D)>(std::fma), D>)},
      {"ldexpf", address(static_cast<F (*)(F, int)>(ldexpFlushed))},
      {"ldexp", address(static_cast<D (*)(D, int)>(ldexpFlushed))},
      // Rounding (instructions from SSE4.1 on; exact, nothing to flush but
      // what the instructions would).
      {"floorf", address(&unary<static_cast<F (*)(F)>(std::floor), F>)},
      {"floor", address(&unary<static_cast<D (*)(D)>(std::floor), D>)},
      {"ceilf", address(&unary<static_cast<F (*)(F)>(std::ceil), F>)},
      {"ceil", address(&unary<static_cast<D (*)(D)>(std::ceil), D>)},
      {"truncf", address(&unary<static_cast<F (*)(F)>(std::trunc), F>)},
      {"trunc", address(&unary<static_cast<D (*)(D)>(std::trunc), D>)},
      {"roundf", address(&unary<static_cast<F (*)(F)>(std::round), F>)},
      {"round", address(&unary<static_cast<D (*)(D)>(std::round), D>)},
      {"rintf", address(&unary<static_cast<F (*)(F)>(std::rint), F>)},
      {"rint", address(&unary<static_cast<D (*)(D)>(std::rint), D>)},
      {"nearbyintf",
       address(&unary<static_cast<F (*)(F)>(std::nearbyint), F>)},
      {"nearbyint", address(&unary<static_cast<D (*)(D)>(std::nearbyint), D>)},
      {"roundevenf", address(&unary<::roundevenf, F>)},
      {"roundeven", address(&unary<::roundeven, D>)},
      // Memory.
      {"memcpy", address(&std::memcpy)},
      {"memmove", address(&std::memmove)},
      {"memset", address(&std::memset)},
      {"malloc", address(&std::malloc)},
      {"aligned_alloc", address(&std::aligned_alloc)},
      {"free", address(&std::free)},
  };
  return symbols;
}

} // namespace torus::rt
