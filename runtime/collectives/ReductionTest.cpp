//===- ReductionTest.cpp - Tests for element-wise peer reduction ----------===//

#include "runtime/collectives/Reduction.h"

#include "runtime/collectives/HalfFloat.h"

#include "torus/HostTensor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

namespace torus::rt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename T>
std::vector<std::vector<T>>
reduceAll(ReduceKind kind, std::vector<std::vector<T>> ins, size_t numOutputs) {
  std::vector<const void *> inPtrs;
  for (auto &v : ins)
    inPtrs.push_back(v.data());
  std::vector<std::vector<T>> outs(numOutputs,
                                   std::vector<T>(ins[0].size(), T(-7)));
  std::vector<void *> outPtrs;
  for (auto &v : outs)
    outPtrs.push_back(v.data());
  reduceRange(kind, dtypeOf<T>(), inPtrs, outPtrs, 0,
              static_cast<int64_t>(ins[0].size()));
  return outs;
}

TEST(ReductionTest, AllKindsAllTypes) {
  auto sum = reduceAll<int32_t>(ReduceKind::Sum, {{1, 2, 3}, {10, 20, 30}}, 2);
  EXPECT_THAT(sum[0], ElementsAre(11, 22, 33));
  EXPECT_THAT(sum[1], ElementsAre(11, 22, 33));
  EXPECT_THAT(reduceAll<int64_t>(ReduceKind::Product, {{2, 3}, {4, -5}}, 1)[0],
              ElementsAre(8, -15));
  EXPECT_THAT(reduceAll<float>(ReduceKind::Max, {{1, 5}, {4, 2}, {3, 3}}, 1)[0],
              ElementsAre(4, 5));
  EXPECT_THAT(
      reduceAll<double>(ReduceKind::Min, {{1, 5}, {4, 2}, {3, 3}}, 1)[0],
      ElementsAre(1, 2));
}

TEST(ReductionTest, CombinesInParticipantOrder) {
  // (1e20 + 1) - 1e20 == 0 but 1e20 - 1e20 + 1 == 1 in float: the order is
  // observable, and must be left to right.
  auto r = reduceAll<float>(ReduceKind::Sum, {{1e20f}, {1.0f}, {-1e20f}}, 1);
  EXPECT_EQ(r[0][0], 0.0f);
  auto r2 = reduceAll<float>(ReduceKind::Sum, {{1e20f}, {-1e20f}, {1.0f}}, 1);
  EXPECT_EQ(r2[0][0], 1.0f);
}

TEST(ReductionTest, IntegersWrapAround) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_THAT(reduceAll<int32_t>(ReduceKind::Sum, {{kMax}, {1}}, 1)[0],
              ElementsAre(std::numeric_limits<int32_t>::min()));
  EXPECT_THAT(reduceAll<int32_t>(ReduceKind::Product, {{65536}, {65536}}, 1)[0],
              ElementsAre(0));
}

TEST(ReductionTest, MaxAndMinPropagateNaN) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto mx = reduceAll<float>(ReduceKind::Max, {{nan, 1}, {1, nan}}, 1)[0];
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  auto mn = reduceAll<float>(ReduceKind::Min, {{nan, 1}, {1, nan}}, 1)[0];
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_TRUE(std::isnan(mn[1]));
}

TEST(ReductionTest, InPlaceAndSubrangeAcrossBlocks) {
  // Larger than one internal block, reduced in place, only [begin, end).
  const int64_t n = 5000;
  std::vector<double> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<double>(i);
    b[i] = static_cast<double>(2 * i);
  }
  std::vector<const void *> ins = {a.data(), b.data()};
  std::vector<void *> outs = {a.data(), b.data()};
  const int64_t begin = 17, end = 4999;
  reduceRange(ReduceKind::Sum, DType::F64, ins, outs, begin, end);
  for (int64_t i = 0; i < n; ++i) {
    bool inside = i >= begin && i < end;
    ASSERT_EQ(a[i], inside ? 3.0 * i : 1.0 * i) << i;
    ASSERT_EQ(b[i], inside ? 3.0 * i : 2.0 * i) << i;
  }
}

TEST(ReductionTest, SingleInputCopies) {
  auto r = reduceAll<int64_t>(ReduceKind::Max, {{4, 5, 6}}, 3);
  for (auto &out : r)
    EXPECT_THAT(out, ElementsAre(4, 5, 6));
}

TEST(ReductionTest, CheckReducible) {
  for (DType d : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I32,
                  DType::I64})
    EXPECT_TRUE(checkReducible(d, ReduceKind::Sum).ok());
  absl::Status s = checkReducible(DType::I1, ReduceKind::Max);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(s.message()), HasSubstr("max reduction of i1"));
  // The 8-bit floats are refused by name (no reduction computes in them).
  for (DType d : {DType::F8E4M3FN, DType::F8E5M2}) {
    absl::Status f8 = checkReducible(d, ReduceKind::Sum);
    EXPECT_EQ(f8.code(), absl::StatusCode::kUnimplemented);
    EXPECT_THAT(std::string(f8.message()),
                HasSubstr(std::string("sum reduction of ") +
                          std::string(dtypeName(d)) +
                          " elements is not supported (convert to bf16 or "
                          "f32 before reducing across replicas)"));
  }
  EXPECT_EQ(checkReducible(DType::F32, static_cast<ReduceKind>(42)).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ReductionTest, ComplexNumbersSumAndMultiply) {
  using C = std::complex<float>;
  auto sum = reduceAll<C>(ReduceKind::Sum, {{{1, 2}, {0, -1}}, {{3, -4}, {2, 2}}},
                          1);
  EXPECT_THAT(sum[0], ElementsAre(C(4, -2), C(2, 1)));
  using Z = std::complex<double>;
  auto prod = reduceAll<Z>(ReduceKind::Product, {{{1, 2}}, {{3, -4}}, {{0, 1}}},
                           1);
  EXPECT_THAT(prod[0], ElementsAre(Z(1, 2) * Z(3, -4) * Z(0, 1)));
  EXPECT_TRUE(checkReducible(DType::C64, ReduceKind::Sum).ok());
  EXPECT_TRUE(checkReducible(DType::C128, ReduceKind::Product).ok());
  absl::Status s = checkReducible(DType::C64, ReduceKind::Max);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("complex numbers have no order"));
}

TEST(ReductionTest, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  // 1 + 2^-8 is halfway between bf16 1.0 and 1 + 2^-7: ties go to even.
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
  EXPECT_EQ(floatToBf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_TRUE(std::isnan(bf16ToFloat(
      floatToBf16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(floatToF16(1.0f), 0x3c00);
  EXPECT_EQ(f16ToFloat(0x3c00), 1.0f);
  EXPECT_EQ(floatToF16(65504.0f), 0x7bff);
  EXPECT_EQ(floatToF16(1.0f + 0x1p-11f), 0x3c00); // tie to even
}

TEST(ReductionTest, HalfTypesRoundEveryStep) {
  // bf16 has 8 significand bits: 256 + 1 rounds back to 256 at each step,
  // so left to right 256 + 1 + 1 stays 256, while 1 + 1 + 256 is 258.
  auto bf = [](float v) { return floatToBf16(v); };
  std::vector<uint16_t> a = {bf(256), bf(1)}, b = {bf(1), bf(1)},
                        c = {bf(1), bf(256)};
  std::vector<uint16_t> out(2);
  std::vector<const void *> ins = {a.data(), b.data(), c.data()};
  std::vector<void *> outs = {out.data()};
  reduceRange(ReduceKind::Sum, DType::BF16, ins, outs, 0, 2);
  EXPECT_EQ(bf16ToFloat(out[0]), 256.0f);
  EXPECT_EQ(bf16ToFloat(out[1]), 258.0f);
  // f16: 2048 + 1 is a tie, rounds to even 2048.
  auto h = [](float v) { return floatToF16(v); };
  std::vector<uint16_t> x = {h(2048), h(3)}, y = {h(1), h(0.5f)};
  std::vector<const void *> hin = {x.data(), y.data()};
  reduceRange(ReduceKind::Sum, DType::F16, hin, outs, 0, 2);
  EXPECT_EQ(f16ToFloat(out[0]), 2048.0f);
  EXPECT_EQ(f16ToFloat(out[1]), 3.5f);
  reduceRange(ReduceKind::Max, DType::F16, hin, outs, 0, 2);
  EXPECT_EQ(f16ToFloat(out[0]), 2048.0f);
  EXPECT_EQ(f16ToFloat(out[1]), 3.0f);
}

TEST(ReductionTest, RangeToAnotherOffset) {
  // Elements 4..6 of the inputs, reduced into elements 1..3 of the output
  // (reduce-scatter's rows); the rest of the output is untouched.
  std::vector<int32_t> a = {0, 1, 2, 3, 4, 5, 6, 7},
                       b = {0, 10, 20, 30, 40, 50, 60, 70};
  std::vector<int32_t> out(5, -1);
  std::vector<const void *> ins = {a.data(), b.data()};
  std::vector<void *> outs = {out.data()};
  reduceRangeTo(ReduceKind::Sum, DType::I32, ins, 4, 7, outs, 1);
  EXPECT_EQ(out, (std::vector<int32_t>{-1, 44, 55, 66, -1}));
}

} // namespace
} // namespace torus::rt
