//===- CorpusJudgeTest.cpp - The StableHLO corpus's judging rules ---------===//
//
// Each rule of CorpusJudge.h on both sides of its tolerance.
//
//===----------------------------------------------------------------------===//

#include "tests/stablehlo/CorpusJudge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <complex>
#include <limits>

using namespace torus;
using namespace torus::stablehlo;
using ::testing::HasSubstr;

namespace {

template <typename T>
NpyArray array(std::string descr, const std::vector<T> &values,
               Shape shape = {}) {
  NpyArray a;
  a.descr = descr;
  a.kind = descr[1];
  a.width = sizeof(T);
  a.shape = shape.empty() ? Shape{static_cast<int64_t>(values.size())} : shape;
  a.data.assign(reinterpret_cast<const char *>(values.data()),
                values.size() * sizeof(T));
  return a;
}

NpyArray f32(const std::vector<float> &v) { return array("<f4", v); }

Check kind(std::string k, bool narrow = false) {
  return {std::move(k), narrow};
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(CorpusJudgeTest, IntegersExactly) {
  auto a = array<int32_t>("<i4", {1, 2, 3}, {3});
  EXPECT_EQ(judge(a, a, {}), std::nullopt);
  auto wrong = judge(a, array<int32_t>("<i4", {1, 2, 4}), {});
  ASSERT_TRUE(wrong);
  EXPECT_EQ(*wrong, "1 of 3 elements differ, first at index [2] (got 3, "
                    "expected 4)");
  // The index is multi-dimensional.
  auto m = judge(array<int64_t>("<i8", {0, 0, 0, 5}, {2, 2}),
                 array<int64_t>("<i8", {0, 0, 0, 6}, {2, 2}), {});
  ASSERT_TRUE(m);
  EXPECT_THAT(*m, HasSubstr("index [1,1]"));
  auto b = array<uint8_t>("|b1", {1, 0});
  EXPECT_EQ(judge(b, b, {}), std::nullopt);
  EXPECT_TRUE(judge(b, array<uint8_t>("|b1", {1, 1}), {}));
}

TEST(CorpusJudgeTest, SameWidthIntegersByBitsOthersByValue) {
  // A u32 result Torus holds as signless i32.
  EXPECT_EQ(
      judge(array<int32_t>("<i4", {-1}), array<uint32_t>("<u4", {~0u}), {}),
      std::nullopt);
  EXPECT_EQ(judge(array<int32_t>("<i4", {-1}), array<int64_t>("<i8", {-1}), {}),
            std::nullopt);
  auto wrong = judge(array<int32_t>("<i4", {-1}),
                     array<uint64_t>("<u8", {0xffffffffu}), {});
  ASSERT_TRUE(wrong);
  EXPECT_THAT(*wrong, HasSubstr("got -1, expected 4294967295"));
  // An integer against a float compares values.
  EXPECT_EQ(judge(array<int32_t>("<i4", {2}), f32({2.f}), {}), std::nullopt);
  EXPECT_TRUE(judge(array<int32_t>("<i4", {2}), f32({2.5f}), {}));
}

TEST(CorpusJudgeTest, ExpectEqIsRelativeAndAbsolute) {
  EXPECT_EQ(
      judge(f32({1.f + 9e-6f, 0.f}), f32({1.f, 9e-7f}), kind("expect_eq")),
      std::nullopt);
  auto wrong =
      judge(f32({1.f + 2e-5f, 0.f}), f32({1.f, 0.f}), kind("expect_eq"));
  ASSERT_TRUE(wrong);
  EXPECT_THAT(*wrong, HasSubstr("1 of 2 elements differ: max abs error "));
  EXPECT_THAT(*wrong, HasSubstr("at index [0]"));
  EXPECT_TRUE(judge(f32({0.f}), f32({2e-6f}), kind("expect_eq")));
}

TEST(CorpusJudgeTest, ComplexPartsEachAsTheirFloatType) {
  using C = std::complex<float>;
  auto c64 = [](const std::vector<C> &v) {
    NpyArray a = array("<c8", v);
    return a;
  };
  EXPECT_EQ(judge(c64({{1.f + 9e-6f, -2.f}}), c64({{1.f, -2.f}}),
                  kind("expect_eq")),
            std::nullopt);
  auto imag = judge(c64({{1.f, -2.f - 1e-4f}}), c64({{1.f, -2.f}}),
                    kind("expect_eq"));
  ASSERT_TRUE(imag);
  EXPECT_THAT(*imag, HasSubstr("imaginary part: 1 of 1 elements differ"));
  auto real = judge(c64({{1.1f, -2.f}}), c64({{1.f, -2.f}}),
                    kind("expect_eq"));
  ASSERT_TRUE(real);
  EXPECT_THAT(*real, HasSubstr("real part: "));
}

TEST(CorpusJudgeTest, ExpectAlmostEqIsAbsolute) {
  EXPECT_EQ(judge(f32({100.0009f}), f32({100.f}), kind("expect_almost_eq")),
            std::nullopt);
  EXPECT_TRUE(judge(f32({100.002f}), f32({100.f}), kind("expect_almost_eq")));
}

TEST(CorpusJudgeTest, ExpectCloseIsThreeUlpsOfTheResultType) {
  float one = 1.f, up3 = one, up4;
  for (int i = 0; i < 3; ++i)
    up3 = std::nextafter(up3, 2.f);
  up4 = std::nextafter(up3, 2.f);
  EXPECT_EQ(judge(f32({up3}), f32({one}), kind("expect_close")), std::nullopt);
  EXPECT_TRUE(judge(f32({up4}), f32({one}), kind("expect_close")));
  // f64: ULPs of double, far finer.
  double d = 1.0,
         d3 = std::nextafter(std::nextafter(std::nextafter(d, 2.), 2.), 2.);
  EXPECT_EQ(judge(array<double>("<f8", {d3}), array<double>("<f8", {d}),
                  kind("expect_close")),
            std::nullopt);
  EXPECT_TRUE(judge(array<double>("<f8", {static_cast<double>(up3)}),
                    array<double>("<f8", {d}), kind("expect_close")));
}

TEST(CorpusJudgeTest, NarrowFloatsWithinOnePercent) {
  // A bf16 result widened to f32: the check's types say so.
  EXPECT_EQ(judge(f32({1.009f}), f32({1.f}), kind("expect_close", true)),
            std::nullopt);
  EXPECT_TRUE(judge(f32({1.03f}), f32({1.f}), kind("expect_close", true)));
  // An f16 result (1.0078125, 0x3c08) and a bf16 one (1.0078125, 0x3f81).
  EXPECT_EQ(judge(array<uint16_t>("<f2", {0x3c08}), f32({1.f}), {}),
            std::nullopt);
  EXPECT_EQ(judge(array<uint16_t>("<V2", {0x3f81}), f32({1.f}), {}),
            std::nullopt);
  auto wrong = judge(array<uint16_t>("<V2", {0x4000}), f32({1.f}), {});
  ASSERT_TRUE(wrong);
  EXPECT_THAT(*wrong, HasSubstr("(got 2, expected 1)"));
}

TEST(CorpusJudgeTest, AllcloseTakesTheChecksTolerance) {
  Check check{"allclose", false, /*rtol=*/1e-2, /*atol=*/0.5};
  // 0.5 + 1e-2 * 100 = 1.5 around 100.
  EXPECT_EQ(judge(f32({101.25f}), f32({100}), check), std::nullopt);
  EXPECT_TRUE(judge(f32({101.75f}), f32({100}), check));
  // Narrow floats take the check's tolerance too, not the 1% rule.
  Check exact{"allclose", true, 0, 0};
  EXPECT_TRUE(judge(f32({1.001f}), f32({1}), exact));
  EXPECT_EQ(judge(f32({1}), f32({1}), exact), std::nullopt);
}

TEST(CorpusJudgeTest, NonFiniteValuesExactlyAnyNaNMatchesNaN) {
  EXPECT_EQ(judge(f32({kNaN, kInf, -kInf}), f32({-kNaN, kInf, -kInf}),
                  kind("expect_eq")),
            std::nullopt);
  EXPECT_TRUE(judge(f32({kNaN}), f32({1.f}), {}));
  EXPECT_TRUE(judge(f32({1.f}), f32({kNaN}), {}));
  EXPECT_TRUE(judge(f32({kInf}), f32({-kInf}), {}));
  auto wrong = judge(f32({kInf}), f32({3.f}), kind("expect_almost_eq"));
  ASSERT_TRUE(wrong);
  EXPECT_THAT(*wrong, HasSubstr("max abs error inf"));
  auto nan = judge(f32({kNaN}), f32({kInf}), {});
  ASSERT_TRUE(nan);
  EXPECT_THAT(*nan, HasSubstr("non-finite values at index [0] (got nan, "
                              "expected inf)"));
}

TEST(CorpusJudgeTest, ShapesAndTypesMustCompare) {
  auto shape = judge(array<float>("<f4", {1, 2}, {1, 2}),
                     array<float>("<f4", {1, 2}, {2, 1}), {});
  ASSERT_TRUE(shape);
  EXPECT_EQ(*shape, "shape <f4 [1,2], expected [2,1]");
  auto complex = judge(f32({1.f, 0.f}), array<float>("<c8", {1.f, 0.f}), {});
  ASSERT_TRUE(complex);
  EXPECT_THAT(*complex, HasSubstr("cannot compare a <f4 result with <c8"));
}

} // namespace
