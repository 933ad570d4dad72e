//===- SortOpsTest.cpp - sort, argsort, topK, maxPoolGrad vs hand values --===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

TEST(SortOpsTest, FloatsInTotalOrder) {
  // -NaN < -inf < -1 < -0 < +0 < 2 < 3 < NaN
  std::vector<double> x = {3, kNaN, -1, -kInf, 0, -0.0, 2, -kNaN};
  for (DType d : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
    auto out = run([](Tensor a) { return sort(a); },
                   {fromDoubles(d, {8}, x)});
    ASSERT_EQ(out.size(), 1u);
    std::vector<double> got = toDoubles(out[0]);
    expectClose(out[0], {kNaN, -kInf, -1, 0, 0, 2, 3, kNaN}, 0);
    EXPECT_TRUE(std::signbit(got[0])) << "-NaN first";
    EXPECT_TRUE(std::signbit(got[3])) << "-0 before +0";
    EXPECT_FALSE(std::signbit(got[4]));
    EXPECT_FALSE(std::signbit(got[7])) << "+NaN last";
  }
}

TEST(SortOpsTest, RowsAlongEitherAxis) {
  Shape s = {3, 4};
  std::vector<double> x = {3, 1, 2, 5, 0, 4, 9, -1, 7, -3, 8, 2};
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(sort(a, 0), sort(a, 1), sort(a, -1, true));
      },
      {fromDoubles(DType::I32, s, x)});
  ASSERT_EQ(out.size(), 3u);
  expectClose(out[0], {0, -3, 2, -1, 3, 1, 8, 2, 7, 4, 9, 5}, 0);
  expectClose(out[1], {1, 2, 3, 5, -1, 0, 4, 9, -3, 2, 7, 8}, 0);
  expectClose(out[2], {5, 3, 2, 1, 9, 4, 0, -1, 8, 7, 2, -3}, 0);
}

TEST(SortOpsTest, StableWithPayloadsAndSeveralKeys) {
  std::vector<double> keys = {2, 1, 2, 1, 0}, vals = {0, 1, 2, 3, 4};
  auto out = run(
      [](Tensor k, Tensor v) {
        TensorList up = sort({k, v});
        TensorList down = sort({k, v}, 0, 1, /*descending=*/true);
        return std::make_tuple(up[0], up[1], down[1]);
      },
      {fromDoubles(DType::F32, {5}, keys), fromDoubles(DType::I32, {5}, vals)});
  ASSERT_EQ(out.size(), 3u);
  expectClose(out[0], {0, 1, 1, 2, 2}, 0);
  expectClose(out[1], {4, 1, 3, 0, 2}, 0);
  expectClose(out[2], {0, 2, 1, 3, 4}, 0);

  // Lexicographic on (k1, k2), ties on both keep the order.
  auto lex = run(
      [](Tensor k1, Tensor k2, Tensor v) { return sort({k1, k2, v}, 0, 2)[2]; },
      {fromDoubles(DType::I64, {5}, {1, 0, 1, 0, 1}),
       fromDoubles(DType::F64, {5}, {5, 7, 3, 7, 3}),
       fromDoubles(DType::I32, {5}, {0, 1, 2, 3, 4})});
  ASSERT_EQ(lex.size(), 1u);
  expectClose(lex[0], {1, 3, 2, 4, 0}, 0);
}

TEST(SortOpsTest, ArgsortAndBooleans) {
  auto out = run(
      [](Tensor a, Tensor p) {
        return std::make_tuple(argsort(a), sort(p), argsort(a, -1, true));
      },
      {fromDoubles(DType::F32, {6}, {0.5, -2, 0.5, 7, -2, 1}),
       fromDoubles(DType::I1, {4}, {1, 0, 1, 0})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].dtype(), DType::I32);
  expectClose(out[0], {1, 4, 0, 2, 5, 3}, 0);
  expectClose(out[1], {0, 0, 1, 1}, 0);
  expectClose(out[2], {3, 5, 0, 2, 1, 4}, 0);
}

TEST(SortOpsTest, LongRowsMatchStdStableSort) {
  // 1000 elements with many ties: the merge passes of several widths.
  auto x = randomInts(3 * 1000, 7, -20, 20);
  auto out = run([](Tensor a) { return argsort(a); },
                 {fromDoubles(DType::I32, {3, 1000}, x)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> want;
  for (int r = 0; r < 3; ++r) {
    std::vector<int> idx(1000);
    for (int i = 0; i < 1000; ++i)
      idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
      return x[r * 1000 + a] < x[r * 1000 + b];
    });
    want.insert(want.end(), idx.begin(), idx.end());
  }
  expectClose(out[0], want, 0);
}

TEST(SortOpsTest, TopK) {
  auto out = run([](Tensor a) { return topK(a, 2); },
                 {fromDoubles(DType::F32, {2, 4},
                              {1, 5, 3, 5, -kInf, 2, kNaN, 0})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (Shape{2, 2}));
  EXPECT_EQ(out[1].dtype(), DType::I32);
  // NaN is the largest; equal values in index order.
  expectClose(out[0], {5, 5, kNaN, 2}, 0);
  expectClose(out[1], {1, 3, 2, 1}, 0);
}

TEST(SortOpsTest, MaxPoolGradGoesToTheFirstMaximum) {
  std::vector<double> x = {1, 3, 2, 2, 3, 0, 1, 0, 0, 0, 5, 6, 0, 0, 6, 5};
  auto out = run(
      [](Tensor x, Tensor dy) { return maxPoolGrad(x, dy, {2, 2}, {2, 2}); },
      {fromDoubles(DType::F32, {4, 4}, x),
       fromDoubles(DType::F32, {2, 2}, {10, 20, 30, 40})});
  ASSERT_EQ(out.size(), 1u);
  expectClose(out[0], {0, 10, 20, 0, 0, 0, 0, 0, 30, 0, 0, 40, 0, 0, 0, 0}, 0);
}

TEST(SortOpsTest, MaxPoolGradOverlappingAndPadded) {
  // Overlapping windows add up; padding is never selected, even when every
  // element is below zero.
  auto out = run(
      [](Tensor a, Tensor da, Tensor b, Tensor db) {
        return std::make_tuple(maxPoolGrad(a, da, {2}, {1}),
                               maxPoolGrad(b, db, {2}, {1}, {{1, 1}}));
      },
      {fromDoubles(DType::F64, {3}, {1, 3, 2}),
       fromDoubles(DType::F64, {2}, {1, 2}),
       fromDoubles(DType::I32, {2}, {-1, -2}),
       fromDoubles(DType::I32, {3}, {1, 2, 4})});
  ASSERT_EQ(out.size(), 2u);
  expectClose(out[0], {0, 3, 0}, 0);
  expectClose(out[1], {3, 4}, 0);
}

TEST(SortOpsTest, BadArgumentsAreTraceErrors) {
  auto traced = trace("f", {spec(DType::F32, {4}), spec(DType::F32, {5})},
                      [](Tensor a, Tensor b) {
                        TensorList r = sort({a, b});
                        EXPECT_TRUE(r.empty());
                        return r.empty() ? Tensor() : r[0];
                      });
  ASSERT_FALSE(traced.ok());
  EXPECT_THAT(traced.status().message(),
              ::testing::HasSubstr("needs operands of one shape"));
  auto topk = trace("f", {spec(DType::F32, {4})},
                    [](Tensor a) {
                      TensorList r = topK(a, 5);
                      return r.empty() ? Tensor() : r[0];
                    });
  ASSERT_FALSE(topk.ok());
  EXPECT_THAT(topk.status().message(), ::testing::HasSubstr("k = 5"));
}

} // namespace
