//===- ShapeOpsTest.cpp - Shape ops and indexing, run and checked naively -===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

/// `count` consecutive values starting at `start` (exact in every dtype we
/// use them with).
std::vector<double> counting(int64_t count, double start = 0) {
  std::vector<double> v(count);
  for (int64_t i = 0; i < count; ++i)
    v[i] = start + static_cast<double>(i);
  return v;
}

TEST(ShapeOpsTest, BroadcastReshapeTranspose) {
  auto x = counting(6);
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(broadcastTo(reshape(a, {2, 1, 3}), {2, 4, 3}),
                               broadcastInDim(reshape(a, {2, 3}), {3, 2, 4},
                                              {1, 0}),
                               transpose(reshape(a, {1, 2, 3}), {2, 0, 1}),
                               reshape(a, {3, -1}));
      },
      {fromDoubles(DType::I64, {6}, x)});
  ASSERT_EQ(out.size(), 4u);
  std::vector<double> b0, b1, t, r = x;
  forEachIndex({2, 4, 3}, [&](auto i) { b0.push_back(x[i[0] * 3 + i[2]]); });
  // dims = [1, 0]: operand dim 0 (size 2) -> result dim 1, dim 1 (size 3)
  // -> result dim 0.
  forEachIndex({3, 2, 4}, [&](auto i) { b1.push_back(x[i[1] * 3 + i[0]]); });
  forEachIndex({3, 1, 2}, [&](auto i) { t.push_back(x[i[2] * 3 + i[0]]); });
  expectClose(out[0], b0, 0);
  expectClose(out[1], b1, 0);
  EXPECT_EQ(out[2].shape(), (Shape{3, 1, 2}));
  expectClose(out[2], t, 0);
  EXPECT_EQ(out[3].shape(), (Shape{3, 2}));
  expectClose(out[3], r, 0);
}

TEST(ShapeOpsTest, StridedSlice) {
  auto x = counting(7 * 9);
  auto out = run(
      [](Tensor a) { return slice(a, {1, 2}, {7, 9}, {2, 3}); },
      {fromDoubles(DType::F64, {7, 9}, x)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (Shape{3, 3}));
  std::vector<double> want;
  for (int i = 1; i < 7; i += 2)
    for (int j = 2; j < 9; j += 3)
      want.push_back(x[i * 9 + j]);
  expectClose(out[0], want, 0);
}

/// NumPy's basic indexing of one axis, for the reference.
std::vector<int64_t> numpyIndices(int64_t n, std::optional<int64_t> start,
                                  std::optional<int64_t> stop, int64_t step) {
  std::vector<int64_t> idx;
  auto norm = [&](int64_t v, int64_t lo, int64_t hi) {
    if (v < 0)
      v += n;
    return std::clamp(v, lo, hi);
  };
  if (step > 0) {
    int64_t b = start ? norm(*start, 0, n) : 0, e = stop ? norm(*stop, 0, n) : n;
    for (int64_t i = b; i < e; i += step)
      idx.push_back(i);
  } else {
    int64_t b = start ? norm(*start, -1, n - 1) : n - 1;
    int64_t e = stop ? norm(*stop, -1, n - 1) : -1;
    for (int64_t i = b; i > e; i += step)
      idx.push_back(i);
  }
  return idx;
}

TEST(ShapeOpsTest, NumpyIndexingMatchesNumpy) {
  auto x = counting(5 * 6 * 4);
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(
            a[{Slice(std::nullopt, std::nullopt, -2), -1}],
            a[{2, Slice(-4, std::nullopt, 2), newAxis}],
            a[{ellipsis, Slice(3, 0, -1)}],
            a[{Slice(1, 100), Slice(5, 1, -3), 0}]);
      },
      {fromDoubles(DType::I32, {5, 6, 4}, x)});
  ASSERT_EQ(out.size(), 4u);
  auto at = [&](int64_t i, int64_t j, int64_t k) { return x[(i * 6 + j) * 4 + k]; };
  std::vector<double> w0, w1, w2, w3;
  for (int64_t i : numpyIndices(5, std::nullopt, std::nullopt, -2))
    for (int64_t k = 0; k < 4; ++k)
      w0.push_back(at(i, 5, k));
  for (int64_t j : numpyIndices(6, -4, std::nullopt, 2))
    for (int64_t k = 0; k < 4; ++k)
      w1.push_back(at(2, j, k));
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 6; ++j)
      for (int64_t k : numpyIndices(4, 3, 0, -1))
        w2.push_back(at(i, j, k));
  for (int64_t i : numpyIndices(5, 1, 100, 1))
    for (int64_t j : numpyIndices(6, 5, 1, -3))
      w3.push_back(at(i, j, 0));
  EXPECT_EQ(out[0].shape(), (Shape{3, 4}));
  expectClose(out[0], w0, 0);
  EXPECT_EQ(out[1].shape(), (Shape{2, 1, 4}));
  expectClose(out[1], w1, 0);
  EXPECT_EQ(out[2].shape(), (Shape{5, 6, 3}));
  expectClose(out[2], w2, 0);
  EXPECT_EQ(out[3].shape(), (Shape{4, 2}));
  expectClose(out[3], w3, 0);
}

TEST(ShapeOpsTest, DynamicSliceClampsStarts) {
  auto x = counting(5 * 6);
  // Starts (1, 4) fit; (-2, 9) are clamped to (0, 6 - 3).
  auto out = run(
      [](Tensor a, Tensor i, Tensor j) {
        return std::make_tuple(dynamicSlice(a, {i, j}, {2, 3}),
                               dynamicSlice(a, {i - 3, j + 5}, {2, 3}),
                               dynamicSlice(a, {4, 0}, {1, 6}));
      },
      {fromDoubles(DType::F32, {5, 6}, x), fromDoubles(DType::I32, {}, {1}),
       fromDoubles(DType::I64, {}, {4})});
  ASSERT_EQ(out.size(), 3u);
  auto block = [&](int64_t r, int64_t c, int64_t h, int64_t w) {
    std::vector<double> v;
    for (int64_t i = r; i < r + h; ++i)
      for (int64_t j = c; j < c + w; ++j)
        v.push_back(x[i * 6 + j]);
    return v;
  };
  expectClose(out[0], block(1, 3, 2, 3), 0); // j = 4 clamps to 3
  expectClose(out[1], block(0, 3, 2, 3), 0);
  expectClose(out[2], block(4, 0, 1, 6), 0);
}

TEST(ShapeOpsTest, DynamicUpdateSliceClampsStarts) {
  auto x = counting(4 * 5);
  auto out = run(
      [](Tensor a, Tensor u, Tensor i) {
        return std::make_tuple(dynamicUpdateSlice(a, u, {i, i}),
                               dynamicUpdateSlice(a, u, {i * 10, 0}));
      },
      {fromDoubles(DType::F64, {4, 5}, x),
       fromDoubles(DType::F64, {2, 3}, {-1, -2, -3, -4, -5, -6}),
       fromDoubles(DType::I32, {}, {1})});
  ASSERT_EQ(out.size(), 2u);
  auto written = [&](int64_t r, int64_t c) {
    std::vector<double> v = x;
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        v[(r + i) * 5 + c + j] = -(i * 3 + j + 1);
    return v;
  };
  expectClose(out[0], written(1, 1), 0);
  expectClose(out[1], written(2, 0), 0); // row 10 clamps to 4 - 2
}

TEST(ShapeOpsTest, ConcatenateStackUnevenAndPromoting) {
  auto a = counting(2 * 3), b = counting(2 * 5, 100), c = counting(2, 50);
  auto out = run(
      [](Tensor x, Tensor y, Tensor z) {
        return std::make_tuple(concatenate({x, y, reshape(z, {2, 1})}, 1),
                               stack({x, x * 2}, 1));
      },
      {fromDoubles(DType::I32, {2, 3}, a), fromDoubles(DType::F32, {2, 5}, b),
       fromDoubles(DType::I64, {2}, c)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].dtype(), DType::F32);
  EXPECT_EQ(out[0].shape(), (Shape{2, 9}));
  std::vector<double> w0, w1;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j)
      w0.push_back(a[i * 3 + j]);
    for (int j = 0; j < 5; ++j)
      w0.push_back(b[i * 5 + j]);
    w0.push_back(c[i]);
  }
  for (int i = 0; i < 2; ++i)
    for (int s = 0; s < 2; ++s)
      for (int j = 0; j < 3; ++j)
        w1.push_back(a[i * 3 + j] * (s + 1));
  expectClose(out[0], w0, 0);
  EXPECT_EQ(out[1].shape(), (Shape{2, 2, 3}));
  expectClose(out[1], w1, 0);
}

TEST(ShapeOpsTest, PadWithInteriorAndNegativeEdges) {
  auto x = counting(3 * 4, 1);
  std::vector<int64_t> low = {2, -1}, high = {-1, 3}, interior = {1, 2};
  auto out = run(
      [&](Tensor a) {
        return std::make_tuple(pad(a, -7.5, low, high, interior),
                               pad(a, {{1, 1}, {0, 2}}));
      },
      {fromDoubles(DType::F32, {3, 4}, x)});
  ASSERT_EQ(out.size(), 2u);
  // Reference: place element (i, j) at (low + i * (interior + 1)) per axis.
  auto reference = [&](std::vector<int64_t> lo, std::vector<int64_t> hi,
                       std::vector<int64_t> in, double value) {
    Shape s = {lo[0] + 3 + 2 * in[0] + hi[0], lo[1] + 4 + 3 * in[1] + hi[1]};
    std::vector<double> v(numElements(s), value);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t r = lo[0] + i * (in[0] + 1), c = lo[1] + j * (in[1] + 1);
        if (r >= 0 && r < s[0] && c >= 0 && c < s[1])
          v[r * s[1] + c] = x[i * 4 + j];
      }
    return std::make_pair(s, v);
  };
  auto [s0, w0] = reference(low, high, interior, -7.5);
  auto [s1, w1] = reference({1, 0}, {1, 2}, {0, 0}, 0);
  EXPECT_EQ(out[0].shape(), s0);
  expectClose(out[0], w0, 0);
  EXPECT_EQ(out[1].shape(), s1);
  expectClose(out[1], w1, 0);
}

TEST(ShapeOpsTest, ReverseSqueezeExpand) {
  auto x = counting(2 * 3 * 4);
  auto out = run(
      [](Tensor a) {
        return std::make_tuple(reverse(a, {0, -1}),
                               squeeze(expandDims(a, 1), {1}),
                               expandDims(a, -1));
      },
      {fromDoubles(DType::BF16, {2, 3, 4}, x)});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> r;
  forEachIndex({2, 3, 4}, [&](auto i) {
    r.push_back(x[((1 - i[0]) * 3 + i[1]) * 4 + (3 - i[2])]);
  });
  expectClose(out[0], r, 0);
  expectClose(out[1], x, 0);
  EXPECT_EQ(out[2].shape(), (Shape{2, 3, 4, 1}));
}

TEST(ShapeOpsTest, IotaInEveryDType) {
  auto out = run(
      [](Tensor) {
        return std::make_tuple(iota({3, 4}, 0, DType::BF16),
                               iota({3, 4}, 1, DType::F16),
                               iota({2, 3}, 1, DType::I64),
                               iota({4}, 0, DType::F64));
      },
      {fromDoubles(DType::F32, {1}, {0})});
  ASSERT_EQ(out.size(), 4u);
  std::vector<double> r0, r1;
  forEachIndex({3, 4}, [&](auto i) {
    r0.push_back(static_cast<double>(i[0]));
    r1.push_back(static_cast<double>(i[1]));
  });
  expectClose(out[0], r0, 0);
  expectClose(out[1], r1, 0);
  expectClose(out[2], {0, 1, 2, 0, 1, 2}, 0);
  expectClose(out[3], {0, 1, 2, 3}, 0);
}

} // namespace
