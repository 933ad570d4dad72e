//===- ReductionOpsTest.cpp - Reductions, softmax, pooling vs naive loops -===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

/// Naive reduction of `x` (shape `shape`) over `axes` with `combine`,
/// starting from `init`; the result in row-major order of the kept axes.
std::vector<double> naiveReduce(const std::vector<double> &x,
                                const Shape &shape,
                                const std::vector<int64_t> &axes, double init,
                                const std::function<double(double, double)>
                                    &combine) {
  Shape kept;
  for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end())
      kept.push_back(shape[d]);
  std::vector<double> out(std::max<int64_t>(1, numElements(kept)), init);
  forEachIndex(shape, [&](const std::vector<int64_t> &i) {
    std::vector<int64_t> k;
    for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
      if (std::find(axes.begin(), axes.end(), d) == axes.end())
        k.push_back(i[d]);
    double &o = out[flatIndex(kept, k)];
    o = combine(o, x[flatIndex(shape, i)]);
  });
  return out;
}

double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b);
}
double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b);
}

TEST(ReductionOpsTest, SumProdMaxMinOverAxesF64) {
  Shape s = {3, 4, 5};
  auto x = randomDoubles(60, 21, -2, 2);
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(sum(a, {0, 2}), prod(a, {1}), max(a, {-1}),
                               min(a), mean(a, {1}, true), sum(a, {}, true));
      },
      {fromDoubles(DType::F64, s, x)});
  ASSERT_EQ(out.size(), 6u);
  auto add = [](double a, double b) { return a + b; };
  expectClose(out[0], naiveReduce(x, s, {0, 2}, 0, add), 1e-13);
  expectClose(out[1],
              naiveReduce(x, s, {1}, 1, [](double a, double b) { return a * b; }),
              1e-13);
  expectClose(out[2], naiveReduce(x, s, {2}, -kInf, nanMax), 0);
  expectClose(out[3], naiveReduce(x, s, {0, 1, 2}, kInf, nanMin), 0);
  auto m = naiveReduce(x, s, {1}, 0, add);
  for (double &v : m)
    v /= 4;
  EXPECT_EQ(out[4].shape(), (Shape{3, 1, 5}));
  expectClose(out[4], m, 1e-13);
  EXPECT_EQ(out[5].shape(), (Shape{1, 1, 1}));
  expectClose(out[5], naiveReduce(x, s, {0, 1, 2}, 0, add), 1e-13);
}

TEST(ReductionOpsTest, IntegerAndBooleanReductions) {
  Shape s = {4, 6};
  auto x = randomInts(24, 5, -9, 9);
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(sum(a, {1}), prod(a, {0}), max(a, {0}),
                               min(a, {1}), any(a > 7, {1}), all(a > -9, {0}),
                               sum(a > 0), mean(a, {1}));
      },
      {fromDoubles(DType::I32, s, x)});
  ASSERT_EQ(out.size(), 8u);
  auto add = [](double a, double b) { return a + b; };
  expectClose(out[0], naiveReduce(x, s, {1}, 0, add), 0);
  auto p = naiveReduce(x, s, {0}, 1, [](double a, double b) { return a * b; });
  expectClose(out[1], p, 0);
  expectClose(out[2], naiveReduce(x, s, {0}, -1e9, nanMax), 0);
  expectClose(out[3], naiveReduce(x, s, {1}, 1e9, nanMin), 0);
  std::vector<double> big, notMin;
  for (double v : x) {
    big.push_back(v > 7);
    notMin.push_back(v > -9);
  }
  auto orr = [](double a, double b) { return double(a || b); };
  auto andd = [](double a, double b) { return double(a && b); };
  expectClose(out[4], naiveReduce(big, s, {1}, 0, orr), 0);
  expectClose(out[5], naiveReduce(notMin, s, {0}, 1, andd), 0);
  EXPECT_EQ(out[6].dtype(), DType::I32);
  double positives = 0;
  for (double v : x)
    positives += v > 0;
  expectClose(out[6], {positives}, 0);
  EXPECT_EQ(out[7].dtype(), DType::F32);
  auto m = naiveReduce(x, s, {1}, 0, add);
  for (double &v : m)
    v /= 6;
  expectClose(out[7], m);
}

TEST(ReductionOpsTest, SumsOfASharedMaskMatchOnEveryVectorWidth) {
  // The mask has three users, so it is stored as a buffer of i1 (a byte per
  // element) and read back by vectorized row reductions. Rows of 37
  // elements use whole vectors at every width, 128 to 512 bits; a vector
  // load that took the bytes as packed bits gave wrong sums.
  for (DType d : {DType::F32, DType::F64}) {
    SCOPED_TRACE(dtypeName(d));
    Shape s = {3, 37};
    auto x = randomDoubles(111, 3, -1, 1), y = randomDoubles(111, 4, -1, 1);
    auto out = run(
        [](Tensor a, Tensor b) {
          Tensor m = a > b;
          return std::make_tuple(sum(where(m, a, b), {1}),
                                 sum(where(m, b, a), {1}), m);
        },
        {fromDoubles(d, s, x), fromDoubles(d, s, y)});
    ASSERT_EQ(out.size(), 3u);
    auto xs = toDoubles(fromDoubles(d, s, x)), ys = toDoubles(fromDoubles(d, s, y));
    std::vector<double> big, small, mask;
    for (size_t i = 0; i < xs.size(); ++i) {
      big.push_back(std::max(xs[i], ys[i]));
      small.push_back(std::min(xs[i], ys[i]));
      mask.push_back(xs[i] > ys[i]);
    }
    auto add = [](double a, double b) { return a + b; };
    double tol = d == DType::F32 ? 1e-5 : 1e-13;
    expectClose(out[0], naiveReduce(big, s, {1}, 0, add), tol);
    expectClose(out[1], naiveReduce(small, s, {1}, 0, add), tol);
    expectClose(out[2], mask, 0);
  }
}

TEST(ReductionOpsTest, HalfPrecisionSumsAccumulateInF32) {
  // 1000 values of 0.1: accumulating in bf16 would stall far below 100.
  std::vector<double> x(1000, 0.1);
  auto out = run([](Tensor a) { return std::make_tuple(sum(a), mean(a)); },
                 {fromDoubles(DType::BF16, {1000}, x)});
  ASSERT_EQ(out.size(), 2u);
  double one = toDoubles(fromDoubles(DType::BF16, {1}, {0.1}))[0];
  expectClose(out[0], roundTo(DType::BF16, {one * 1000}), 0);
  expectClose(out[1], roundTo(DType::BF16, {one}), 0);
}

TEST(ReductionOpsTest, ArgmaxArgminTiesAndNaN) {
  // Rows: ties (first wins), a NaN (first NaN wins), all equal, negatives.
  std::vector<double> x = {1, 5, 5, 2,   3, kNaN, 7, kNaN,
                           4, 4, 4, 4,   -1, -3, -3, -2};
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(argmax(a, 1), argmin(a, -1), argmax(a, 0, true),
                               argmax(astype(a, DType::I64) , 1));
      },
      {fromDoubles(DType::F32, {4, 4}, x)});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].dtype(), DType::I32);
  expectClose(out[0], {1, 1, 0, 0}, 0);
  expectClose(out[1], {0, 1, 0, 1}, 0);
  EXPECT_EQ(out[2].shape(), (Shape{1, 4}));
  expectClose(out[2], {2, 1, 1, 1}, 0);
  // As integers the NaN row converts to (3, 0, 7, 0): max at index 2.
  expectClose(out[3], {1, 2, 0, 0}, 0);
}

TEST(ReductionOpsTest, SoftmaxLogSoftmaxLogsumexp) {
  Shape s = {3, 5};
  auto x = randomDoubles(15, 9, -30, 30);
  x[5] = 700; // large values must not overflow
  x[10] = x[11] = x[12] = x[13] = x[14] = -kInf;
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(softmax(a), logSoftmax(a, 0), logsumexp(a, {1}),
                               logsumexp(a, {0, 1}, true));
      },
      {fromDoubles(DType::F64, s, x)});
  ASSERT_EQ(out.size(), 4u);
  std::vector<double> sm(15), ls(15), lse(3);
  for (int i = 0; i < 3; ++i) {
    double m = -kInf;
    for (int j = 0; j < 5; ++j)
      m = std::max(m, x[i * 5 + j]);
    double z = 0;
    for (int j = 0; j < 5; ++j)
      z += std::exp(x[i * 5 + j] - m);
    for (int j = 0; j < 5; ++j)
      sm[i * 5 + j] = std::exp(x[i * 5 + j] - m) / z;
    lse[i] = std::isinf(m) ? m : m + std::log(z);
  }
  for (int j = 0; j < 5; ++j) {
    double m = -kInf;
    for (int i = 0; i < 3; ++i)
      m = std::max(m, x[i * 5 + j]);
    double z = 0;
    for (int i = 0; i < 3; ++i)
      z += std::exp(x[i * 5 + j] - m);
    for (int i = 0; i < 3; ++i)
      ls[i * 5 + j] = x[i * 5 + j] - m - std::log(z);
  }
  // The all -inf row: softmax is 0/0 (NaN), as in JAX.
  for (int j = 10; j < 15; ++j)
    sm[j] = kNaN;
  expectClose(out[0], sm, 1e-12);
  expectClose(out[1], ls, 1e-12);
  expectClose(out[2], lse, 1e-12);
  double all = -kInf;
  for (double v : x)
    all = std::max(all, v);
  double z = 0;
  for (double v : x)
    z += std::exp(v - all);
  expectClose(out[3], {all + std::log(z)}, 1e-12);
}

/// Naive HLO reduce_window with identity padding.
std::vector<double> naiveWindow(const std::vector<double> &x, const Shape &s,
                                const std::vector<int64_t> &window,
                                const std::vector<int64_t> &strides,
                                const std::vector<std::pair<int64_t, int64_t>>
                                    &padding,
                                double init,
                                const std::function<double(double, double)> &f,
                                Shape &outShape) {
  outShape.clear();
  for (size_t d = 0; d < s.size(); ++d) {
    int64_t padded = s[d] + padding[d].first + padding[d].second;
    outShape.push_back(padded < window[d]
                           ? 0
                           : (padded - window[d]) / strides[d] + 1);
  }
  std::vector<double> out;
  forEachIndex(outShape, [&](const std::vector<int64_t> &o) {
    double acc = init;
    forEachIndex(Shape(window.begin(), window.end()),
                 [&](const std::vector<int64_t> &w) {
                   std::vector<int64_t> in(s.size());
                   for (size_t d = 0; d < s.size(); ++d) {
                     in[d] = o[d] * strides[d] + w[d] - padding[d].first;
                     if (in[d] < 0 || in[d] >= s[d])
                       return;
                   }
                   acc = f(acc, x[flatIndex(s, in)]);
                 });
    out.push_back(acc);
  });
  return out;
}

TEST(ReductionOpsTest, ReduceWindowWithStridesAndPadding) {
  Shape s = {2, 7, 6, 3};
  auto x = randomDoubles(numElements(s), 31, -5, 5);
  std::vector<int64_t> window = {1, 3, 2, 1}, strides = {1, 2, 3, 1};
  std::vector<std::pair<int64_t, int64_t>> padding = {{0, 0}, {1, 2}, {0, 1},
                                                      {0, 0}};
  auto out = run(
      [&](Tensor a) {
        return std::make_tuple(
            reduceWindow(a, ReduceOp::Max, window, strides, padding),
            reduceWindow(a, ReduceOp::Sum, window, strides, padding),
            reduceWindow(a, ReduceOp::Min, {2, 2, 2, 2}));
      },
      {fromDoubles(DType::F32, s, roundTo(DType::F32, x))});
  ASSERT_EQ(out.size(), 3u);
  x = roundTo(DType::F32, x);
  Shape o0, o1, o2;
  auto w0 = naiveWindow(x, s, window, strides, padding, -kInf, nanMax, o0);
  auto w1 = naiveWindow(x, s, window, strides, padding, 0,
                        [](double a, double b) { return a + b; }, o1);
  auto w2 = naiveWindow(x, s, {2, 2, 2, 2}, {1, 1, 1, 1},
                        {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, kInf, nanMin, o2);
  EXPECT_EQ(out[0].shape(), o0);
  expectClose(out[0], w0, 0);
  expectClose(out[1], w1, 1e-6);
  EXPECT_EQ(out[2].shape(), o2);
  expectClose(out[2], w2, 0);
}

TEST(ReductionOpsTest, PoolingSameAndValid) {
  Shape s = {2, 5, 7, 3};
  auto x = roundTo(DType::F32, randomDoubles(numElements(s), 41, -3, 3));
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(maxPool2d(a, {2, 2}),
                               maxPool2d(a, {3, 3}, {2, 2}, Padding::same()),
                               avgPool2d(a, {3, 3}, {2, 2}, Padding::same()),
                               avgPool2d(a, {2, 3}, {1, 2}));
      },
      {fromDoubles(DType::F32, s, x)});
  ASSERT_EQ(out.size(), 4u);
  Shape o;
  auto v0 = naiveWindow(x, s, {1, 2, 2, 1}, {1, 2, 2, 1},
                        {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, -kInf, nanMax, o);
  EXPECT_EQ(out[0].shape(), o);
  expectClose(out[0], v0, 0);
  // SAME, window 3, stride 2: out = ceil(in / 2); total pad = max((out-1)*2
  // + 3 - in, 0), the odd one at the end. H: 5 -> 3, pad 2 = (1, 1).
  // W: 7 -> 4, pad 2 = (1, 1).
  std::vector<std::pair<int64_t, int64_t>> same = {{0, 0}, {1, 1}, {1, 1},
                                                   {0, 0}};
  auto v1 = naiveWindow(x, s, {1, 3, 3, 1}, {1, 2, 2, 1}, same, -kInf, nanMax, o);
  EXPECT_EQ(out[1].shape(), o);
  expectClose(out[1], v1, 0);
  // Average over the real elements only.
  std::vector<double> ones(x.size(), 1);
  auto sums = naiveWindow(x, s, {1, 3, 3, 1}, {1, 2, 2, 1}, same, 0,
                          [](double a, double b) { return a + b; }, o);
  auto counts = naiveWindow(ones, s, {1, 3, 3, 1}, {1, 2, 2, 1}, same, 0,
                            [](double a, double b) { return a + b; }, o);
  for (size_t i = 0; i < sums.size(); ++i)
    sums[i] /= counts[i];
  expectClose(out[2], sums, 1e-6);
  auto valid = naiveWindow(x, s, {1, 2, 3, 1}, {1, 1, 2, 1},
                           {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, 0,
                           [](double a, double b) { return a + b; }, o);
  for (double &v : valid)
    v /= 6;
  EXPECT_EQ(out[3].shape(), o);
  expectClose(out[3], valid, 1e-6);
}

// reduce() with a reducer of two results: argmax keeping the LAST of equal
// maxima (which argmax() does not do), against a naive loop.
TEST(ReductionOpsTest, ReduceWithAReducerComputation) {
  Shape s = {3, 6};
  auto x = randomInts(18, 41, 0, 3); // many ties
  auto out = run(
      [](Tensor a) {
        Tensor idx = iota({3, 6}, 1, DType::I32);
        TensorList r = reduce(
            {a, idx}, {scalar(-kInf), scalar(0, DType::I32)},
            [](const TensorList &acc, const TensorList &x) {
              Tensor take = x[0] >= acc[0];
              return TensorList{where(take, x[0], acc[0]),
                                where(take, x[1], acc[1])};
            },
            {1});
        return std::make_tuple(r[0], r[1]);
      },
      {fromDoubles(DType::F32, s, x)});
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> want, wantIndex;
  for (int r = 0; r < 3; ++r) {
    double best = -kInf;
    int at = 0;
    for (int c = 0; c < 6; ++c)
      if (x[r * 6 + c] >= best) {
        best = x[r * 6 + c];
        at = c;
      }
    want.push_back(best);
    wantIndex.push_back(at);
  }
  expectClose(out[0], want, 0);
  EXPECT_EQ(out[1].dtype(), DType::I32);
  expectClose(out[1], wantIndex, 0);
}

// reduceWindow() over two operands with a reducer that is not associative
// (a - b per operand) and padding that holds each operand's init value.
TEST(ReductionOpsTest, ReduceWindowWithAReducerComputation) {
  Shape s = {2, 5};
  auto x = randomInts(10, 43, -9, 9), y = randomInts(10, 44, -9, 9);
  std::vector<int64_t> window = {1, 3}, strides = {1, 2};
  std::vector<std::pair<int64_t, int64_t>> padding = {{0, 0}, {2, 1}};
  auto out = run(
      [&](Tensor a, Tensor b) {
        TensorList r = reduceWindow(
            {a, b}, {scalar(100, DType::F64), scalar(7, DType::I32)},
            [](const TensorList &acc, const TensorList &x) {
              return TensorList{acc[0] - x[0], acc[1] - x[1]};
            },
            window, strides, padding);
        return std::make_tuple(r[0], r[1]);
      },
      {fromDoubles(DType::F64, s, x), fromDoubles(DType::I32, s, y)});
  ASSERT_EQ(out.size(), 2u);
  // Padded row: [init, init, x0..x4, init]; windows of 3 every 2: 3 of them.
  auto naive = [&](const std::vector<double> &v, double init) {
    std::vector<double> r;
    for (int row = 0; row < 2; ++row) {
      std::vector<double> padded = {init, init};
      for (int c = 0; c < 5; ++c)
        padded.push_back(v[row * 5 + c]);
      padded.push_back(init);
      for (int start = 0; start + 3 <= 8; start += 2) {
        double acc = init;
        for (int k = 0; k < 3; ++k)
          acc -= padded[start + k];
        r.push_back(acc);
      }
    }
    return r;
  };
  EXPECT_EQ(out[0].shape(), (Shape{2, 3}));
  expectClose(out[0], naive(x, 100), 0);
  EXPECT_EQ(out[1].dtype(), DType::I32);
  expectClose(out[1], naive(y, 7), 0);
}

TEST(ReductionOpsTest, BadReducersAreTraceErrors) {
  auto wrongInit = trace("f", {spec(DType::F32, {4})}, [](Tensor a) {
    TensorList r = reduce({a}, {scalar(0, DType::I32)},
                          [](const TensorList &acc, const TensorList &) {
                            return acc;
                          });
    return r.empty() ? Tensor() : r[0];
  });
  ASSERT_FALSE(wrongInit.ok());
  EXPECT_THAT(wrongInit.status().message(),
              ::testing::HasSubstr("needs one 0-d init value per operand"));
  auto wrongResults = trace("f", {spec(DType::F32, {4})}, [](Tensor a) {
    TensorList r = reduce({a}, {scalar(0)},
                          [](const TensorList &acc, const TensorList &x) {
                            return TensorList{acc[0], x[0]};
                          });
    return r.empty() ? Tensor() : r[0];
  });
  ASSERT_FALSE(wrongResults.ok());
  EXPECT_THAT(wrongResults.status().message(),
              ::testing::HasSubstr("the reducer's results and its "
                                   "accumulators must match"));
  auto notElementwise = trace("f", {spec(DType::F32, {4})}, [](Tensor a) {
    TensorList r = reduce({a}, {scalar(0)},
                          [](const TensorList &acc, const TensorList &x) {
                            return TensorList{
                                sum(broadcastTo(acc[0] + x[0], {2}))};
                          });
    return r.empty() ? Tensor() : r[0];
  });
  ASSERT_FALSE(notElementwise.ok());
  EXPECT_THAT(notElementwise.status().message(),
              ::testing::HasSubstr("only elementwise functions and constants"));
}

} // namespace
