//===- ReductionTest.cpp - Tests for element-wise peer reduction ----------===//

#include "runtime/collectives/Reduction.h"

#include "torus/HostTensor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
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
  for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64})
    EXPECT_TRUE(checkReducible(d, ReduceKind::Sum).ok());
  absl::Status s = checkReducible(DType::BF16, ReduceKind::Max);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(s.message()), HasSubstr("max reduction of bf16"));
  EXPECT_EQ(checkReducible(DType::F16, ReduceKind::Sum).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(checkReducible(DType::I1, ReduceKind::Sum).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(checkReducible(DType::F32, static_cast<ReduceKind>(42)).code(),
            absl::StatusCode::kInvalidArgument);
}

} // namespace
} // namespace torus::rt
