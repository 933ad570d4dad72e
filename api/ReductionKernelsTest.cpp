//===- ReductionKernelsTest.cpp - Vectorized reductions vs loops ----------===//
//
// torus-vectorize-reductions (docs/codegen.md) runs reductions along the
// innermost axis with vector accumulators, a horizontal reduction per row
// and a peeled scalar tail. These tests compile such reductions at lengths
// around every boundary (shorter than a vector, one vector, a vector plus
// one, whole main-loop chunks plus leftovers, long rows) and compare each
// result with a plain C++ loop in double.
//
// Tolerance: a float sum is reassociated, so it is not bit-identical to the
// sequential loop; each element must be within rtol * sum_k |x_k| of the
// exact sum, rtol = 1e-5 for f32 (n <= 5000 terms; any summation order is
// within (n - 1) * eps * sum |x_k|, and the vector order's error grows
// with about n / 64 + 64 steps, not n). min and max are exact; integer
// sums are exact.
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

/// Row lengths around the 16-lane (f32, AVX-512) and 8-lane (f64, or f32
/// with AVX2) vector boundaries and the 4-accumulator chunk.
const std::vector<int64_t> kLengths = {1,  7,  8,  15, 16, 17,  31,  33,
                                       64, 65, 97, 100, 127, 1000, 4099};

/// Reference row reductions of x[rows, n] along the last axis.
std::vector<double> rowSums(const std::vector<double> &x, int64_t rows,
                            int64_t n, std::vector<double> *absSums) {
  std::vector<double> out(rows, 0.0);
  if (absSums)
    absSums->assign(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < n; ++k) {
      out[r] += x[r * n + k];
      if (absSums)
        (*absSums)[r] += std::abs(x[r * n + k]);
    }
  return out;
}

TEST(ReductionKernelsTest, RowSumsAtEveryBoundary) {
  for (DType dtype : {DType::F32, DType::F64})
    for (int64_t n : kLengths) {
      const int64_t rows = 3;
      auto x = roundTo(dtype, randomDoubles(rows * n, 7 + n, -2, 3));
      std::vector<double> scale;
      auto want = rowSums(x, rows, n, &scale);
      auto out = run([](Tensor a) { return sum(a, {-1}); },
                     {fromDoubles(dtype, {rows, n}, x)});
      ASSERT_EQ(out.size(), 1u);
      expectWithinScale(out[0], want, scale,
                        dtype == DType::F64 ? 1e-13 : 1e-5,
                        "sum n=" + std::to_string(n));
    }
}

TEST(ReductionKernelsTest, FusedProductSumsRowByRow) {
  // sum(x * y, -1): the multiply fuses into the reduction and runs on
  // vectors with it.
  for (int64_t n : {17, 100, 1000}) {
    const int64_t rows = 5;
    auto x = roundTo(DType::F32, randomDoubles(rows * n, 1, -1, 1));
    auto y = roundTo(DType::F32, randomDoubles(rows * n, 2, -1, 1));
    std::vector<double> p(x.size()), scale(rows, 0.0);
    for (size_t i = 0; i < x.size(); ++i)
      p[i] = x[i] * y[i];
    auto want = rowSums(p, rows, n, &scale);
    auto out = run([](Tensor a, Tensor b) { return sum(a * b, {-1}); },
                   {fromDoubles(DType::F32, {rows, n}, x),
                    fromDoubles(DType::F32, {rows, n}, y)});
    ASSERT_EQ(out.size(), 1u);
    expectWithinScale(out[0], want, scale, 1e-5,
                      "sum(x*y) n=" + std::to_string(n));
  }
}

TEST(ReductionKernelsTest, MaxAndMinAreExactAndPropagateNaN) {
  for (int64_t n : kLengths) {
    const int64_t rows = 4;
    auto x = roundTo(DType::F32, randomDoubles(rows * n, 11 + n, -5, 5));
    // Row 1's extreme sits in the scalar tail, row 2 holds a NaN, row 3
    // is all -0.0 and +0.0.
    x[1 * n + n - 1] = 100;
    x[2 * n + n / 2] = kNaN;
    for (int64_t k = 0; k < n; ++k)
      x[3 * n + k] = (k % 2) ? -0.0 : 0.0;
    std::vector<double> mx(rows), mn(rows);
    for (int64_t r = 0; r < rows; ++r) {
      mx[r] = -kInf;
      mn[r] = kInf;
      for (int64_t k = 0; k < n; ++k) {
        double v = x[r * n + k];
        mx[r] = std::isnan(v) || std::isnan(mx[r]) ? kNaN : std::max(mx[r], v);
        mn[r] = std::isnan(v) || std::isnan(mn[r]) ? kNaN : std::min(mn[r], v);
      }
    }
    auto out = run(
        [](Tensor a) {
          return std::vector<Tensor>{max(a, {-1}), min(a, {-1})};
        },
        {fromDoubles(DType::F32, {rows, n}, x)});
    ASSERT_EQ(out.size(), 2u);
    expectClose(out[0], mx, 0, 0, "max n=" + std::to_string(n));
    expectClose(out[1], mn, 0, 0, "min n=" + std::to_string(n));
  }
}

TEST(ReductionKernelsTest, IntegerSumsAreExact) {
  for (int64_t n : kLengths) {
    const int64_t rows = 2;
    auto x = randomInts(rows * n, 5 + n, -1000, 1000);
    auto want = rowSums(x, rows, n, nullptr);
    auto out = run([](Tensor a) { return sum(a, {-1}); },
                   {fromDoubles(DType::I32, {rows, n}, x)});
    ASSERT_EQ(out.size(), 1u);
    expectClose(out[0], want, 0, 0, "i32 sum n=" + std::to_string(n));
  }
}

TEST(ReductionKernelsTest, FullSumOfAMatrix) {
  // Every axis reduced: rows one after another into one scalar.
  const int64_t rows = 37, n = 129;
  auto x = roundTo(DType::F32, randomDoubles(rows * n, 3, -1, 2));
  double want = 0, scale = 0;
  for (double v : x) {
    want += v;
    scale += std::abs(v);
  }
  auto out = run([](Tensor a) { return sum(a); },
                 {fromDoubles(DType::F32, {rows, n}, x)});
  ASSERT_EQ(out.size(), 1u);
  expectWithinScale(out[0], {want}, {scale}, 1e-5, "sum of all");
}

TEST(ReductionKernelsTest, SoftmaxRowsSumToOne) {
  // softmax = exp(x - max) / sum(exp(x - max)): a max and a fused exp-sum
  // per row, both vectorized.
  const int64_t rows = 6, n = 300;
  auto x = roundTo(DType::F32, randomDoubles(rows * n, 9, -20, 20));
  std::vector<double> want(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double m = -kInf, s = 0;
    for (int64_t k = 0; k < n; ++k)
      m = std::max(m, x[r * n + k]);
    for (int64_t k = 0; k < n; ++k)
      s += std::exp(x[r * n + k] - m);
    for (int64_t k = 0; k < n; ++k)
      want[r * n + k] = std::exp(x[r * n + k] - m) / s;
  }
  auto out = run([](Tensor a) { return softmax(a, -1); },
                 {fromDoubles(DType::F32, {rows, n}, x)});
  ASSERT_EQ(out.size(), 1u);
  expectClose(out[0], want, 1e-5, 1e-9, "softmax");
}

} // namespace
