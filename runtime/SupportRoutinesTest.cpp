//===- SupportRoutinesTest.cpp - Conversions and flushed libm wrappers ----===//
//
// The conversions against independent references (exhaustive for every
// half, and a sweep of floats), double rounding avoided in f64 -> bf16,
// and every libm wrapper flushing subnormals as XLA:CPU does.
//
//===----------------------------------------------------------------------===//

#include "runtime/SupportRoutines.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <string>

namespace torus::rt {
namespace {

/// A half's value from its fields, in double: an independent reference.
double halfValue(uint16_t h) {
  int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double sign = h & 0x8000 ? -1 : 1;
  if (exp == 31)
    return mant ? std::numeric_limits<double>::quiet_NaN()
                : sign * std::numeric_limits<double>::infinity();
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

TEST(SupportRoutinesTest, EveryHalfWidensExactly) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    double want = halfValue(static_cast<uint16_t>(h));
    float got = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << h;
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), want) << "half 0x" << std::hex << h;
    ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << h;
    // And back: every half is a fixed point.
    ASSERT_EQ(floatToHalf(got), h) << h;
  }
}

/// The nearest half to `x` (ties to even) by search over all halves.
uint16_t nearestHalf(double x) {
  uint16_t best = 0;
  for (uint32_t h = 0; h < 0x7C00; ++h) { // finite, non-negative
    double d = std::abs(halfValue(h) - std::abs(x)),
           e = std::abs(halfValue(best) - std::abs(x));
    if (d < e || (d == e && (h & 1) == 0 && (best & 1)))
      best = static_cast<uint16_t>(h);
  }
  if (std::abs(x) >= 65520)
    best = 0x7C00;
  return static_cast<uint16_t>(best | (std::signbit(x) ? 0x8000 : 0));
}

TEST(SupportRoutinesTest, FloatsRoundToTheNearestHalf) {
  // Halfway points, subnormals, overflow and a spread of values.
  for (double x : {0.0, -0.0, 1.0, 65504.0, 65519.99, 65520.0, 1e9, 1e-8,
                   2.9802322387695312e-08 /* 2^-25: tie to 0 */,
                   4.4703483581542969e-08 /* 1.5 x 2^-24: tie to 2 */,
                   6.103515625e-05, 6.1e-05, 0.1, -0.3333, 1.0009765625 / 2 + 1,
                   1.00048828125 /* 1 + 2^-11: tie to 1 */,
                   1.00146484375 /* 1 + 3 x 2^-11: tie to 1 + 2^-9 */}) {
    EXPECT_EQ(doubleToHalf(x), nearestHalf(x)) << x;
    EXPECT_EQ(floatToHalf(static_cast<float>(x)),
              nearestHalf(static_cast<float>(x)))
        << x;
  }
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::quiet_NaN()) & 0x7E00,
            0x7E00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00);
}

TEST(SupportRoutinesTest, Bf16RoundsOnceToNearestEvenAndFlushesSubnormals) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBf16(-2.0f), 0xC000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to even, 1.
  EXPECT_EQ(floatToBf16(1.00390625f), 0x3F80);
  // 1 + 3 x 2^-8: halfway, to even 1 + 2^-6.
  EXPECT_EQ(floatToBf16(1.01171875f), 0x3F82);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::quiet_NaN()) & 0x7FC0,
            0x7FC0);
  // A signalling NaN stays a NaN (quiet), not infinity.
  EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x7F800001u)), 0x7FC0);
  // Subnormal f32: signed zero, as AVX-512 BF16's vcvtneps2bf16 gives.
  EXPECT_EQ(floatToBf16(1e-40f), 0x0000);
  EXPECT_EQ(floatToBf16(-1e-40f), 0x8000);
  // f64: one rounding. 1 + 2^-8 + 2^-30 is just above the tie: up. Through
  // f32 it would first round to 1 + 2^-8 (a tie) and then down to 1.
  EXPECT_EQ(doubleToBf16(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)),
            0x3F81);
  EXPECT_EQ(doubleToBf16(1.00390625), 0x3F80);
  EXPECT_EQ(doubleToBf16(-3.0), 0xC040);
  EXPECT_EQ(doubleToBf16(1e300), 0x7F80);
  EXPECT_EQ(doubleToBf16(-1e-300), 0x8000);
  for (float x : {0.1f, 3.14159f, -1234.5f, 6.0e-39f, 1e38f})
    EXPECT_EQ(doubleToBf16(x), floatToBf16(x)) << x;
}

template <typename Fn> Fn *routine(std::string_view name) {
  for (auto [n, address] : supportRoutineSymbols())
    if (n == name)
      return reinterpret_cast<Fn *>(address);
  ADD_FAILURE() << "no support routine " << name;
  return nullptr;
}

TEST(SupportRoutinesTest, LibmWrappersFlushSubnormalsLikeXla) {
  float tiny = 1e-40f;
  double tinyD = 1e-310;
  // XLA:CPU: log(1e-40) is -inf (the input is zero), sin(1e-40) is 0.
  EXPECT_EQ(routine<float(float)>("logf")(tiny),
            -std::numeric_limits<float>::infinity());
  EXPECT_EQ(routine<double(double)>("log")(tinyD),
            -std::numeric_limits<double>::infinity());
  float s = routine<float(float)>("sinf")(-tiny);
  EXPECT_EQ(s, 0.0f);
  EXPECT_TRUE(std::signbit(s));
  // A subnormal result is flushed too: exp(-100) in f32.
  EXPECT_EQ(routine<float(float)>("expf")(-100.0f), 0.0f);
  EXPECT_EQ(routine<float(float, float)>("powf")(tiny, 0.5f), 0.0f);
  // Normal values are libm's.
  EXPECT_EQ(routine<float(float)>("logf")(2.0f), std::log(2.0f));
  EXPECT_EQ(routine<double(double, double)>("fmod")(7.5, 2.0), 1.5);
  // erf and cbrt, which math-to-libm calls (codegen/Pipelines.cpp): erf of a
  // subnormal would be subnormal, and cbrt reads one as zero.
  EXPECT_EQ(routine<float(float)>("erff")(tiny), 0.0f);
  EXPECT_EQ(routine<double(double)>("cbrt")(tinyD), 0.0);
  EXPECT_EQ(routine<float(float)>("erff")(0.5f), std::erf(0.5f));
  EXPECT_EQ(routine<double(double)>("erf")(-0.25), std::erf(-0.25));
  EXPECT_EQ(routine<float(float)>("cbrtf")(-8.0f), -2.0f);
  EXPECT_DOUBLE_EQ(routine<double(double)>("cbrt")(27.0), 3.0); // glibc: 1 ulp off
  float sn, cs;
  routine<void(float, float *, float *)>("sincosf")(0.5f, &sn, &cs);
  EXPECT_EQ(sn, std::sin(0.5f));
  EXPECT_EQ(cs, std::cos(0.5f));
}

TEST(SupportRoutinesTest, NamesAreUniqueAndResolved) {
  std::set<std::string_view> names;
  for (auto [name, address] : supportRoutineSymbols()) {
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_NE(address, nullptr) << name;
  }
  for (const char *needed : {"__truncsfbf2", "__truncdfbf2", "__truncsfhf2",
                             "__truncdfhf2", "__extendhfsf2", "memcpy"})
    EXPECT_TRUE(names.count(needed)) << needed;
}

} // namespace
} // namespace torus::rt
