//===- ComplexOpsTest.cpp - c64 and c128 ops, against std::complex -------===//
//
// Every op that takes complex numbers traced, compiled and run on an
// emulated core, for c64 and c128, against std::complex computed in the
// element type (the C++ library's formulas, which XLA's agree with to a few
// ulps away from branch cuts; the inputs stay off the cuts).
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

#include <complex>

using namespace torus;
using namespace torus::testing;

namespace {

template <typename T> using C = std::complex<T>;

template <typename T> std::vector<C<T>> inputsA() {
  return {{1.5, -0.5}, {-2.0, 0.25}, {0.3, 0.7},   {-0.8, -1.2},
          {3.0, 2.0},  {0.1, -0.05}, {-0.4, 2.5},  {1.0, 0.0}};
}
template <typename T> std::vector<C<T>> inputsB() {
  return {{0.5, 1.0},  {1.25, -0.75}, {-1.5, 0.2}, {2.0, 2.0},
          {-0.3, 0.9}, {0.7, -1.1},   {1.0, 1.0},  {-2.0, 0.5}};
}

template <typename T>
void expectNear(const HostTensor &got, const std::vector<C<T>> &want,
                double rtol, const char *what) {
  ASSERT_EQ(got.dtype(), dtypeOf<C<T>>()) << what;
  auto g = got.toVector<C<T>>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (size_t i = 0; i < g.size(); ++i) {
    double scale = std::max<double>(1.0, std::abs(want[i]));
    EXPECT_NEAR(g[i].real(), want[i].real(), rtol * scale)
        << what << " element " << i << ": got " << g[i].real() << "+"
        << g[i].imag() << "i, want " << want[i].real() << "+"
        << want[i].imag() << "i";
    EXPECT_NEAR(g[i].imag(), want[i].imag(), rtol * scale)
        << what << " element " << i;
  }
}

template <typename T>
void expectNearReal(const HostTensor &got, const std::vector<T> &want,
                    double rtol, const char *what) {
  ASSERT_EQ(got.dtype(), dtypeOf<T>()) << what;
  auto g = got.toVector<T>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], want[i], rtol * std::max<double>(1.0, std::abs(want[i])))
        << what << " element " << i;
}

template <typename T> std::vector<C<T>> map1(C<T> (*f)(C<T>), DType) {
  std::vector<C<T>> out;
  for (C<T> x : inputsA<T>())
    out.push_back(f(x));
  return out;
}

template <typename T> void checkUnary(double rtol) {
  using CT = C<T>;
  auto a = HostTensor::fromVector(Shape{8}, inputsA<T>());
  auto out = run(
      [](Tensor x) {
        return std::vector<Tensor>{
            negate(x), exp(x),   expm1(x), log(x),  log1p(x), sqrt(x),
            rsqrt(x),  tanh(x),  sin(x),   cos(x),  tan(x),   sign(x),
            sigmoid(x), abs(x),  real(x),  imag(x)};
      },
      {a});
  ASSERT_EQ(out.size(), 16u);
  struct Row {
    const char *name;
    CT (*f)(CT);
  };
  const Row rows[] = {
      {"negate", [](CT x) { return -x; }},
      {"exp", [](CT x) { return std::exp(x); }},
      {"expm1", [](CT x) { return std::exp(x) - CT(1); }},
      {"log", [](CT x) { return std::log(x); }},
      {"log1p", [](CT x) { return std::log(CT(1) + x); }},
      {"sqrt", [](CT x) { return std::sqrt(x); }},
      {"rsqrt", [](CT x) { return CT(1) / std::sqrt(x); }},
      {"tanh", [](CT x) { return std::tanh(x); }},
      {"sin", [](CT x) { return std::sin(x); }},
      {"cos", [](CT x) { return std::cos(x); }},
      {"tan", [](CT x) { return std::tan(x); }},
      {"sign", [](CT x) { return x == CT(0) ? x : x / std::abs(x); }},
      {"sigmoid", [](CT x) { return CT(1) / (CT(1) + std::exp(-x)); }},
  };
  for (size_t k = 0; k < std::size(rows); ++k) {
    std::vector<CT> want;
    for (CT x : inputsA<T>())
      want.push_back(rows[k].f(x));
    expectNear<T>(out[k], want, rtol, rows[k].name);
  }
  std::vector<T> absW, reW, imW;
  for (CT x : inputsA<T>()) {
    absW.push_back(std::abs(x));
    reW.push_back(x.real());
    imW.push_back(x.imag());
  }
  expectNearReal<T>(out[13], absW, rtol, "abs");
  expectNearReal<T>(out[14], reW, 0, "real");
  expectNearReal<T>(out[15], imW, 0, "imag");
}

template <typename T> void checkBinary(double rtol) {
  using CT = C<T>;
  auto a = HostTensor::fromVector(Shape{8}, inputsA<T>());
  auto b = HostTensor::fromVector(Shape{8}, inputsB<T>());
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::vector<Tensor>{add(x, y),      subtract(x, y),
                                   multiply(x, y), divide(x, y),
                                   power(x, y),    equal(x, y),
                                   notEqual(x, x), where(equal(x, y), x, y),
                                   complex(real(x), imag(y))};
      },
      {a, b});
  ASSERT_EQ(out.size(), 9u);
  std::vector<CT> sum, diff, prod, quot, pw, sel, mixed;
  auto A = inputsA<T>(), B = inputsB<T>();
  for (size_t i = 0; i < A.size(); ++i) {
    sum.push_back(A[i] + B[i]);
    diff.push_back(A[i] - B[i]);
    prod.push_back(A[i] * B[i]);
    quot.push_back(A[i] / B[i]);
    pw.push_back(std::pow(A[i], B[i]));
    sel.push_back(B[i]); // never equal
    mixed.push_back({A[i].real(), B[i].imag()});
  }
  expectNear<T>(out[0], sum, rtol, "add");
  expectNear<T>(out[1], diff, rtol, "subtract");
  expectNear<T>(out[2], prod, rtol, "multiply");
  expectNear<T>(out[3], quot, rtol, "divide");
  expectNear<T>(out[4], pw, 50 * rtol, "power");
  expectClose(out[5], std::vector<double>(8, 0), 0);
  expectClose(out[6], std::vector<double>(8, 0), 0);
  expectNear<T>(out[7], sel, 0, "where");
  expectNear<T>(out[8], mixed, 0, "complex");
}

TEST(ComplexOpsTest, UnaryC64) { checkUnary<float>(2e-6); }
TEST(ComplexOpsTest, UnaryC128) { checkUnary<double>(1e-14); }
TEST(ComplexOpsTest, BinaryC64) { checkBinary<float>(2e-6); }
TEST(ComplexOpsTest, BinaryC128) { checkBinary<double>(1e-14); }

TEST(ComplexOpsTest, ConvertSetsImagZeroAndTakesTheRealPart) {
  auto x = HostTensor::fromVector(Shape{3}, std::vector<float>{1.5, -2, 0});
  auto z = HostTensor::fromVector(
      Shape{3}, std::vector<C<double>>{{1.5, 2}, {-3.25, -1}, {0, 4}});
  auto out = run(
      [](Tensor x, Tensor z) {
        return std::vector<Tensor>{astype(x, DType::C64),
                                   astype(z, DType::F32),
                                   astype(z, DType::C64),
                                   astype(z, DType::I1)};
      },
      {x, z});
  ASSERT_EQ(out.size(), 4u);
  expectNear<float>(out[0], {{1.5, 0}, {-2, 0}, {0, 0}}, 0, "f32 -> c64");
  expectNearReal<float>(out[1], {1.5, -3.25, 0}, 0, "c128 -> f32");
  expectNear<float>(out[2], {{1.5, 2}, {-3.25, -1}, {0, 4}}, 0,
                    "c128 -> c64");
  expectClose(out[3], {1, 1, 1}, 0);
}

TEST(ComplexOpsTest, DotAndReductions) {
  using CT = C<float>;
  std::vector<CT> a = {{1, 2}, {3, -1}, {0.5, 0.5}, {-1, 0},
                       {2, 2}, {0, -3}};                 // 2x3
  std::vector<CT> b = {{1, 0}, {0, 1}, {2, -1}, {1, 1},
                       {-1, 2}, {0.5, 0}};               // 3x2
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::vector<Tensor>{matmul(x, y), sum(x, {1}), prod(x, {0})};
      },
      {HostTensor::fromVector(Shape{2, 3}, a),
       HostTensor::fromVector(Shape{3, 2}, b)});
  ASSERT_EQ(out.size(), 3u);
  std::vector<CT> mm(4), s(2), p(3, CT(1));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        mm[i * 2 + j] += a[i * 3 + k] * b[k * 2 + j];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k) {
      s[i] += a[i * 3 + k];
      p[k] *= a[i * 3 + k];
    }
  expectNear<float>(out[0], mm, 1e-6, "matmul");
  expectNear<float>(out[1], s, 1e-6, "sum");
  expectNear<float>(out[2], p, 1e-6, "prod");
}

TEST(ComplexOpsTest, OrderingComplexNumbersIsAnError) {
  auto z = HostTensor::fromVector(Shape{2}, std::vector<C<float>>{{1, 2}, {3, 4}});
  std::vector<TensorSpec> specs = {z.spec()};
  auto traced = trace("f", specs, [](Tensor x) { return maximum(x, x); });
  EXPECT_FALSE(traced.ok());
}

TEST(ComplexOpsTest, GradientsThroughPartsFollowJax) {
  // sum(real(z * z)) with z = x + iy is sum(x^2 - y^2): d/dx = 2x,
  // d/dy = -2y, through JAX's rules for complex, real and multiply.
  std::vector<double> x = {0.5, -1.5, 2.0}, y = {1.0, 0.25, -3.0};
  auto out = run(
      [](Tensor a, Tensor b) {
        return grad([](const std::vector<Tensor> &in) {
          Tensor z = complex(in[0], in[1]);
          return std::vector<Tensor>{sum(real(z * z))};
        })({a, b});
      },
      {fromDoubles(DType::F64, {3}, x), fromDoubles(DType::F64, {3}, y)});
  ASSERT_EQ(out.size(), 2u);
  expectClose(out[0], {1.0, -3.0, 4.0}, 1e-15);
  expectClose(out[1], {-2.0, -0.5, 6.0}, 1e-15);
}

TEST(ComplexOpsTest, GradientsOfOtherComplexOpsAreRefused) {
  std::vector<TensorSpec> specs = {{DType::F32, {2}}};
  auto traced = trace("f", specs, [](Tensor x) {
    return grad([](const std::vector<Tensor> &in) {
      return std::vector<Tensor>{sum(real(exp(complex(in[0], in[0]))))};
    })({x});
  });
  std::string text = traced.ok() ? traced->toString()
                                 : std::string(traced.status().message());
  // Either tracing or compiling reports it; it must not give a gradient.
  if (traced.ok()) {
    auto exe = compile(*traced, {});
    ASSERT_FALSE(exe.ok()) << text;
    text = std::string(exe.status().message());
  }
  EXPECT_NE(text.find("cannot be differentiated on complex numbers"),
            std::string::npos)
      << text;
}

} // namespace
