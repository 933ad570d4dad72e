//===- LinearAlgebraOpsTest.cpp - triangularSolve and fft, naively ------===//
//
// triangularSolve is checked by its residual: op(a) x (or x op(a)) is
// multiplied out here, in double, from the triangle the options name, and
// must give b back. fft is checked against the defining sums, computed here
// in long double one axis at a time.
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <complex>

using namespace torus;
using namespace torus::testing;

namespace {

using CD = std::complex<double>;

//===--- triangularSolve --------------------------------------------------===//

/// op(a) for one [m, m] matrix `a`: the triangle read, the diagonal ones
/// under unit_diagonal, transposed (and conjugated) as asked.
std::vector<CD> effectiveMatrix(const std::vector<CD> &a, int64_t m,
                                const TriangularSolveOptions &o) {
  std::vector<CD> t(m * m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) {
      bool inside = o.lower ? j <= i : j >= i;
      CD v = i == j && o.unitDiagonal ? 1.0 : inside ? a[i * m + j] : 0.0;
      t[i * m + j] = v;
    }
  if (o.transposeA == TransposeA::None)
    return t;
  std::vector<CD> r(m * m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j)
      r[i * m + j] = o.transposeA == TransposeA::Adjoint
                         ? std::conj(t[j * m + i])
                         : t[j * m + i];
  return r;
}

/// op(a) x (left side) or x op(a), per batch: what b must be.
std::vector<CD> multiplyOut(const std::vector<CD> &a, const std::vector<CD> &x,
                            int64_t batch, int64_t m, int64_t n,
                            const TriangularSolveOptions &o) {
  std::vector<CD> out(x.size());
  for (int64_t p = 0; p < batch; ++p) {
    std::vector<CD> ap(a.begin() + p * m * m, a.begin() + (p + 1) * m * m);
    std::vector<CD> op = effectiveMatrix(ap, m, o);
    const CD *xp = x.data() + p * m * n;
    CD *bp = out.data() + p * m * n;
    if (o.leftSide) // [m, m] x [m, n]
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          CD s = 0;
          for (int64_t k = 0; k < m; ++k)
            s += op[i * m + k] * xp[k * n + j];
          bp[i * n + j] = s;
        }
    else // [n, m] x [m, m]
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j) {
          CD s = 0;
          for (int64_t k = 0; k < m; ++k)
            s += xp[i * m + k] * op[k * m + j];
          bp[i * m + j] = s;
        }
  }
  return out;
}

/// A batch of [m, m] matrices that are well conditioned in either
/// triangle: off-diagonal entries in [-0.5, 0.5], diagonal in [2, 3] (or
/// anything under unit_diagonal, which must not read it: NaN then).
std::vector<double> wellConditioned(int64_t batch, int64_t m, unsigned seed,
                                    bool unitDiagonal) {
  std::vector<double> a = randomDoubles(batch * m * m, seed, -0.5, 0.5);
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      a[(p * m + i) * m + i] =
          unitDiagonal ? kNaN : 2.5 + a[(p * m + i) * m + i];
  return a;
}

std::vector<CD> toComplex(const std::vector<double> &v) {
  return std::vector<CD>(v.begin(), v.end());
}

TEST(LinearAlgebraOpsTest, TriangularSolveEveryOptionBatched) {
  const int64_t batch = 2, m = 4, n = 3;
  for (DType d : {DType::F64, DType::F32})
    for (int mask = 0; mask < 16; ++mask) {
      TriangularSolveOptions o;
      o.leftSide = mask & 1;
      o.lower = mask & 2;
      o.unitDiagonal = mask & 4;
      o.transposeA = mask & 8 ? TransposeA::Transpose : TransposeA::None;
      SCOPED_TRACE(::testing::Message()
                   << dtypeName(d) << " left_side=" << o.leftSide
                   << " lower=" << o.lower << " unit=" << o.unitDiagonal
                   << " transposed=" << bool(mask & 8));
      auto a = roundTo(d, wellConditioned(batch, m, 3 + mask, o.unitDiagonal));
      auto b = roundTo(d, randomDoubles(batch * m * n, 40 + mask));
      Shape bShape = o.leftSide ? Shape{batch, m, n} : Shape{batch, n, m};
      auto out =
          run([&](Tensor a, Tensor b) { return triangularSolve(a, b, o); },
              {fromDoubles(d, {batch, m, m}, a), fromDoubles(d, bShape, b)});
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].dtype(), d);
      EXPECT_EQ(out[0].shape(), bShape);
      std::vector<CD> back = multiplyOut(
          toComplex(a), toComplex(toDoubles(out[0])), batch, m, n, o);
      std::vector<double> got;
      for (CD v : back)
        got.push_back(v.real());
      expectClose(fromDoubles(DType::F64, {batch * m * n}, got), b,
                  d == DType::F64 ? 1e-13 : 5e-6);
    }
}

TEST(LinearAlgebraOpsTest, TriangularSolveHalfFloatsInF32) {
  // Computed in f32 and rounded once: within half an ulp of the f32 solution
  // plus the error of that.
  const int64_t m = 5, n = 2;
  TriangularSolveOptions o; // left, lower
  auto a = wellConditioned(1, m, 7, false);
  auto b = randomDoubles(m * n, 8);
  for (DType d : {DType::F16, DType::BF16}) {
    auto ad = roundTo(d, a), bd = roundTo(d, b);
    auto out = run([&](Tensor a, Tensor b) { return triangularSolve(a, b, o); },
                   {fromDoubles(d, {m, m}, ad), fromDoubles(d, {m, n}, bd)});
    auto ref = run([&](Tensor a, Tensor b) { return triangularSolve(a, b, o); },
                   {fromDoubles(DType::F64, {m, m}, ad),
                    fromDoubles(DType::F64, {m, n}, bd)});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(ref.size(), 1u);
    EXPECT_EQ(out[0].dtype(), d);
    expectClose(out[0], roundTo(d, toDoubles(ref[0])),
                d == DType::F16 ? 1e-3 : 8e-3);
  }
}

TEST(LinearAlgebraOpsTest, TriangularSolveComplexAdjoint) {
  const int64_t m = 3, n = 2;
  auto re = wellConditioned(1, m, 21, false);
  auto im = randomDoubles(m * m, 22, -0.5, 0.5);
  std::vector<std::complex<double>> a(m * m), b(m * n);
  for (int64_t i = 0; i < m * m; ++i)
    a[i] = {re[i], im[i]};
  auto br = randomDoubles(m * n, 23), bi = randomDoubles(m * n, 24);
  for (int64_t i = 0; i < m * n; ++i)
    b[i] = {br[i], bi[i]};
  for (bool lower : {true, false}) {
    TriangularSolveOptions o;
    o.lower = lower;
    o.transposeA = TransposeA::Adjoint;
    auto out = run([&](Tensor a, Tensor b) { return triangularSolve(a, b, o); },
                   {HostTensor::fromVector(Shape{m, m}, a),
                    HostTensor::fromVector(Shape{m, n}, b)});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0].dtype(), DType::C128);
    auto x = out[0].toVector<std::complex<double>>();
    auto back = multiplyOut(a, x, 1, m, n, o);
    for (int64_t i = 0; i < m * n; ++i)
      EXPECT_LT(std::abs(back[i] - b[i]), 1e-13) << "element " << i;
  }
}

//===--- fft --------------------------------------------------------------===//

using CL = std::complex<long double>;

/// The DFT of `x` (row-major `shape`) along `axis`, in long double:
/// X[f] = sum_t x[t] exp(sign 2 pi i f t / n) * scale.
std::vector<CL> dftAxis(const std::vector<CL> &x, const Shape &shape,
                        int64_t axis, int sign, long double scale) {
  int64_t n = shape[axis], inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t outer = static_cast<int64_t>(x.size()) / (n * inner);
  const long double twoPi = 6.283185307179586476925286766559005768L;
  std::vector<CL> out(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in)
      for (int64_t f = 0; f < n; ++f) {
        CL s = 0;
        for (int64_t t = 0; t < n; ++t) {
          long double angle = sign * twoPi * ((f * t) % n) / n;
          s += x[(o * n + t) * inner + in] *
               CL(std::cos(angle), std::sin(angle));
        }
        out[(o * n + f) * inner + in] = s * scale;
      }
  return out;
}

std::vector<CL> dftLastAxes(std::vector<CL> x, const Shape &shape, int64_t k,
                            bool inverse) {
  for (int64_t axis = shape.size() - k; axis < (int64_t)shape.size(); ++axis)
    x = dftAxis(x, shape, axis, inverse ? 1 : -1,
                inverse ? 1.0L / shape[axis] : 1.0L);
  return x;
}

std::vector<std::complex<double>> randomComplex(int64_t n, unsigned seed) {
  auto re = randomDoubles(n, seed), im = randomDoubles(n, seed + 1);
  std::vector<std::complex<double>> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = {re[i], im[i]};
  return v;
}

/// Expects |got - want| <= tol * (sum of |x|) for each element, the bound
/// of any order of summing the terms.
template <typename T>
void expectSpectrum(const std::vector<std::complex<T>> &got,
                    const std::vector<CL> &want, double tol,
                    const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < got.size() && failures < 8; ++i) {
    CL d = CL(got[i].real(), got[i].imag()) - want[i];
    if (!(std::abs(d) <= tol)) {
      ++failures;
      ADD_FAILURE() << what << " element " << i << ": got " << got[i]
                    << ", want (" << (double)want[i].real() << ","
                    << (double)want[i].imag() << ")";
    }
  }
}

template <typename T> void checkComplexFft(double eps) {
  using C = std::complex<T>;
  struct Case {
    Shape shape;
    std::vector<int64_t> lengths;
  };
  // Odd, even, prime and power-of-two lengths; 1 to 3 axes.
  for (const Case &c :
       {Case{{3, 8}, {8}}, Case{{2, 7}, {7}}, Case{{2, 3, 5}, {3, 5}},
        Case{{4, 6, 2}, {4, 6, 2}}, Case{{1}, {1}}}) {
    int64_t count = numElements(c.shape), total = 1;
    for (int64_t n : c.lengths)
      total *= n;
    auto x = randomComplex(count, 5 + count);
    std::vector<C> xt(x.begin(), x.end());
    std::vector<CL> xl(xt.begin(), xt.end());
    auto out = run(
        [&](Tensor a) {
          return std::vector<Tensor>{fft(a, FftType::FFT, c.lengths),
                                     fft(a, FftType::IFFT, c.lengths)};
        },
        {HostTensor::fromVector(c.shape, xt)});
    ASSERT_EQ(out.size(), 2u);
    int64_t k = c.lengths.size();
    std::string what = fmt::format("[{}] over {}", fmt::join(c.shape, ","), k);
    // |x| <= sqrt(2): the sum of |terms| is at most sqrt(2) * total.
    expectSpectrum(out[0].template toVector<C>(),
                   dftLastAxes(xl, c.shape, k, false), eps * 4 * total,
                   "FFT " + what);
    expectSpectrum(out[1].template toVector<C>(),
                   dftLastAxes(xl, c.shape, k, true), eps * 4, "IFFT " + what);
  }
}

TEST(LinearAlgebraOpsTest, FftAndIfftC64) { checkComplexFft<float>(1.2e-7); }
TEST(LinearAlgebraOpsTest, FftAndIfftC128) { checkComplexFft<double>(2.3e-16); }

TEST(LinearAlgebraOpsTest, RfftAndIrfft) {
  struct Case {
    Shape shape;
    std::vector<int64_t> lengths;
  };
  for (const Case &c : {Case{{3, 8}, {8}}, Case{{2, 9}, {9}},
                        Case{{2, 4, 6}, {4, 6}}, Case{{3, 2, 5}, {3, 2, 5}}}) {
    for (DType d : {DType::F64, DType::F32}) {
      double eps = d == DType::F64 ? 2.3e-16 : 1.2e-7;
      int64_t count = numElements(c.shape), total = 1, k = c.lengths.size();
      for (int64_t n : c.lengths)
        total *= n;
      std::string what = fmt::format("{} [{}] over {}", dtypeName(d),
                                     fmt::join(c.shape, ","), k);
      auto x = roundTo(d, randomDoubles(count, 9 + count));
      auto out = run(
          [&](Tensor a) {
            Tensor f = fft(a, FftType::RFFT, c.lengths);
            return std::vector<Tensor>{f, fft(f, FftType::IRFFT, c.lengths)};
          },
          {fromDoubles(d, c.shape, x)});
      ASSERT_EQ(out.size(), 2u);
      // The full transform, then the first n/2 + 1 of the last axis.
      std::vector<CL> full =
          dftLastAxes(std::vector<CL>(x.begin(), x.end()), c.shape, k, false);
      int64_t n = c.shape.back(), half = n / 2 + 1;
      std::vector<CL> kept;
      for (size_t i = 0; i < full.size(); ++i)
        if (static_cast<int64_t>(i % n) < half)
          kept.push_back(full[i]);
      Shape halfShape = c.shape;
      halfShape.back() = half;
      EXPECT_EQ(out[0].shape(), halfShape) << what;
      std::vector<CL> back(x.begin(), x.end());
      if (d == DType::F64) {
        expectSpectrum(out[0].toVector<std::complex<double>>(), kept,
                       eps * 2 * total, "RFFT " + what);
        expectSpectrum(toComplex(toDoubles(out[1])), back, eps * 16,
                       "IRFFT(RFFT) " + what);
      } else {
        expectSpectrum(out[0].toVector<std::complex<float>>(), kept,
                       eps * 2 * total, "RFFT " + what);
        expectSpectrum(toComplex(toDoubles(out[1])), back, eps * 16,
                       "IRFFT(RFFT) " + what);
      }
    }
  }
}

TEST(LinearAlgebraOpsTest, IrfftReadsOnlyTheHermitianHalf) {
  // n = 6 from 4 frequencies; the imaginary parts of frequencies 0 and 3 are
  // ignored. Reference: the inverse DFT of the full spectrum with
  // X[6 - f] = conj(X[f]) and those imaginary parts dropped.
  std::vector<std::complex<double>> h = {
      {1.0, 9.0}, {0.5, -0.25}, {-1.0, 0.75}, {2.0, -9.0}};
  auto out = run([](Tensor a) { return fft(a, FftType::IRFFT, {6}); },
                 {HostTensor::fromVector(Shape{4}, h)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].dtype(), DType::F64);
  std::vector<CL> full(6);
  full[0] = h[0].real();
  full[3] = h[3].real();
  for (int f = 1; f < 3; ++f) {
    full[f] = CL(h[f].real(), h[f].imag());
    full[6 - f] = std::conj(full[f]);
  }
  std::vector<CL> want = dftLastAxes(full, Shape{6}, 1, true);
  expectSpectrum(toComplex(toDoubles(out[0])), want, 1e-15, "IRFFT");
}

TEST(LinearAlgebraOpsTest, RealOperandsOfComplexTransforms) {
  // FFT of a real f32 tensor is taken as c64; of an integer one, too.
  auto out = run(
      [](Tensor a, Tensor i) {
        return std::vector<Tensor>{fft(a, FftType::FFT, {4}),
                                   fft(i, FftType::RFFT, {4})};
      },
      {fromDoubles(DType::F32, {4}, {1, 2, 3, 4}),
       fromDoubles(DType::I32, {4}, {1, 2, 3, 4})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].dtype(), DType::C64);
  EXPECT_EQ(out[1].dtype(), DType::C64);
  using CF = std::complex<float>;
  EXPECT_THAT(
      out[0].toVector<CF>(),
      ::testing::ElementsAre(CF(10, 0), CF(-2, 2), CF(-2, 0), CF(-2, -2)));
  EXPECT_THAT(out[1].toVector<CF>(),
              ::testing::ElementsAre(CF(10, 0), CF(-2, 2), CF(-2, 0)));
}

TEST(LinearAlgebraOpsTest, BadArgumentsAreTraceErrors) {
  auto solve = trace("f", {spec(DType::F32, {4, 4}), spec(DType::F32, {3, 2})},
                     [](Tensor a, Tensor b) { return triangularSolve(a, b); });
  ASSERT_FALSE(solve.ok());
  EXPECT_THAT(solve.status().message(),
              ::testing::HasSubstr("b [3,2] must have 4 rows"));
  auto length = trace("f", {spec(DType::C64, {4, 8})},
                      [](Tensor a) { return fft(a, FftType::FFT, {4}); });
  ASSERT_FALSE(length.ok());
  EXPECT_THAT(length.status().message(),
              ::testing::HasSubstr("fft_length [4] needs 4"));
  auto rfft = trace("f", {spec(DType::C64, {8})},
                    [](Tensor a) { return fft(a, FftType::RFFT, {8}); });
  ASSERT_FALSE(rfft.ok());
  EXPECT_THAT(rfft.status().message(),
              ::testing::HasSubstr("RFFT needs a real operand"));
}

} // namespace
