//===- ElementwiseOpsTest.cpp - Elementwise ops, run and checked naively --===//
//
// Every elementwise op traced, compiled and run on an emulated core, per
// dtype, against the C library (in double) or HLO's rules spelled out here.
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

using UnaryTensorFn = Tensor (*)(const Tensor &, Loc);

struct UnaryCase {
  const char *name;
  UnaryTensorFn op;
  double (*reference)(double);
};

double signOf(double x) {
  if (std::isnan(x) || x == 0)
    return x;
  return x > 0 ? 1 : -1;
}
double sigmoidOf(double x) { return 1 / (1 + std::exp(-x)); }
double rsqrtOf(double x) { return 1 / std::sqrt(x); }
double negateOf(double x) { return -x; }
double roundEven(double x) { return std::nearbyint(x); }

const UnaryCase kUnary[] = {
    {"abs", abs, [](double x) { return std::abs(x); }},
    {"negate", negate, negateOf},
    {"sign", sign, signOf},
    {"exp", exp, [](double x) { return std::exp(x); }},
    {"expm1", expm1, [](double x) { return std::expm1(x); }},
    {"log", log, [](double x) { return std::log(x); }},
    {"log1p", log1p, [](double x) { return std::log1p(x); }},
    {"sqrt", sqrt, [](double x) { return std::sqrt(x); }},
    {"rsqrt", rsqrt, rsqrtOf},
    {"tanh", tanh, [](double x) { return std::tanh(x); }},
    {"sigmoid", sigmoid, sigmoidOf},
    {"sin", sin, [](double x) { return std::sin(x); }},
    {"cos", cos, [](double x) { return std::cos(x); }},
    {"tan", tan, [](double x) { return std::tan(x); }},
    {"floor", floor, [](double x) { return std::floor(x); }},
    {"ceil", ceil, [](double x) { return std::ceil(x); }},
    {"round", round, roundEven},
    {"roundAwayFromZero", roundAwayFromZero,
     [](double x) { return std::round(x); }},
    {"cbrt", cbrt, [](double x) { return std::cbrt(x); }},
    {"erf", erf, [](double x) { return std::erf(x); }},
};

/// Inputs that exercise the edges: zeros of both signs, tiny values (where
/// expm1/log1p/tanh must stay accurate), halves for rounding, large and
/// negative values, infinities and NaN.
std::vector<double> edgeInputs() {
  std::vector<double> v = {0.0,   -0.0,  1e-7,  -1e-7, 1e-3,  -2.5e-4, 0.5,
                           -0.5,  1.5,   2.5,   -2.5,  3.7,   -3.7,    10.0,
                           -20.0, 30.0,  88.0,  -0.99, 1e10,  kInf,    -kInf,
                           kNaN,  2.0,   -1.0,  0.25,  100.0, -100.0,  7.25};
  auto r = randomDoubles(28, 7, -5, 5);
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

void checkUnary(DType dtype, double rtol) {
  std::vector<double> in = roundTo(dtype, edgeInputs());
  int64_t n = static_cast<int64_t>(in.size());
  Shape shape = {n / 7, 7};
  auto out = run(
      [](Tensor x) {
        std::vector<Tensor> r;
        for (const UnaryCase &c : kUnary)
          r.push_back(c.op(x, Loc::current()));
        return r;
      },
      {fromDoubles(dtype, shape, in)});
  ASSERT_EQ(out.size(), std::size(kUnary));
  for (size_t k = 0; k < std::size(kUnary); ++k) {
    std::vector<double> want;
    for (double x : in)
      want.push_back(kUnary[k].reference(x));
    want = roundTo(dtype, want);
    expectClose(out[k], want, rtol, 0,
                std::string(kUnary[k].name) + " " + std::string(dtypeName(dtype)));
  }
}

TEST(ElementwiseOpsTest, UnaryF32) { checkUnary(DType::F32, 4e-7); }
TEST(ElementwiseOpsTest, UnaryF64) { checkUnary(DType::F64, 1e-13); }
TEST(ElementwiseOpsTest, UnaryF16) { checkUnary(DType::F16, 1e-3); }
TEST(ElementwiseOpsTest, UnaryBF16) { checkUnary(DType::BF16, 8e-3); }

TEST(ElementwiseOpsTest, ExpandedFunctionsStayAccurateNearZero) {
  // expm1, log1p and tanh for tiny arguments: the naive formulas lose all
  // relative precision here.
  std::vector<double> in = {1e-30, -1e-30, 1e-12, -3e-9, 4e-6};
  auto out = run([](Tensor x) { return std::make_tuple(expm1(x), log1p(x), tanh(x)); },
                 {fromDoubles(DType::F32, {5}, in)});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> e, l, t;
  for (double x : roundTo(DType::F32, in)) {
    e.push_back(std::expm1(x));
    l.push_back(std::log1p(x));
    t.push_back(std::tanh(x));
  }
  expectClose(out[0], e, 1e-6);
  expectClose(out[1], l, 1e-6);
  expectClose(out[2], t, 1e-6);
}

TEST(ElementwiseOpsTest, SubnormalsAreFlushedAsInXla) {
  // XLA:CPU computes with subnormal inputs and results flushed to zero
  // (docs/codegen.md, "Subnormals"): log(1e-40) is -inf and sign(1e-40) 0,
  // where IEEE arithmetic gives -92.1 and 1. So does Torus, at every ISA
  // level (libm's functions included) and in f32 and f64 alike.
  std::vector<double> in = {1e-40, -1e-40, 1e-30, 2.0};
  auto out = run(
      [](Tensor x) {
        return std::make_tuple(log(x), sign(x), x * 1e-10, sin(x),
                               astype(x, DType::BF16), astype(x, DType::F64),
                               exp(x - 200.0));
      },
      {fromDoubles(DType::F32, {4}, in)});
  ASSERT_EQ(out.size(), 7u);
  double tiny = roundTo(DType::F32, {1e-30})[0];
  expectClose(out[0], {-kInf, -kInf, std::log(tiny), std::log(2.0)}, 1e-6);
  expectClose(out[1], {0, 0, 1, 1}, 0);
  expectClose(out[2], {0, 0, 0, roundTo(DType::F32, {2e-10})[0]}, 1e-6);
  expectClose(out[3], {0, 0, tiny, std::sin(2.0)}, 1e-6);
  expectClose(out[4], {0, 0, roundTo(DType::BF16, {tiny})[0], 2}, 0);
  expectClose(out[5], {0, 0, tiny, 2}, 0);
  // exp(-200) is 1.4e-87: below f32's range, zero either way; exp(-198)
  // too. Nothing subnormal survives.
  for (double v : toDoubles(out[6]))
    EXPECT_EQ(v, 0.0);
  auto f64 = run([](Tensor x) { return std::make_tuple(log(x), sign(x)); },
                 {fromDoubles(DType::F64, {2}, {1e-310, 1e-300})});
  expectClose(f64[0], {-kInf, std::log(1e-300)}, 1e-13);
  expectClose(f64[1], {0, 1}, 0);
}

TEST(ElementwiseOpsTest, F32ExpIsWithinOneUlpOverItsRange) {
  // f32 exp is computed inline (torus-expand-exp), vectorized: checked
  // against the C library in double over its whole finite range, densely,
  // at the edges (ln(FLT_MAX), ln(FLT_MIN)) and at the specials.
  std::vector<float> in;
  for (int k = 0; k <= 200000; ++k)
    in.push_back(-88.0f + 176.8f * static_cast<float>(k) / 200000.0f);
  const float last = std::bit_cast<float>(0x42B17217u); // exp finite
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-8f, 0.34657359f,
                  -0.34657359f, last, std::nextafter(last, 100.0f),
                  -87.33654f, -87.3366f, -103.9f, -200.0f,
                  std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    in.push_back(v);
  std::vector<double> din(in.begin(), in.end());
  auto out = run([](Tensor x) { return exp(x); },
                 {fromDoubles(DType::F32, {static_cast<int64_t>(in.size())},
                              din)});
  std::vector<double> got = toDoubles(out[0]);
  ASSERT_EQ(got.size(), in.size());
  const double flt_min = std::numeric_limits<float>::min();
  for (size_t k = 0; k < in.size(); ++k) {
    double exact = std::exp(static_cast<double>(in[k]));
    SCOPED_TRACE(::testing::Message() << "exp(" << in[k] << ")");
    if (std::isnan(in[k])) {
      EXPECT_TRUE(std::isnan(got[k]));
      continue;
    }
    if (exact > std::numeric_limits<float>::max()) {
      EXPECT_EQ(got[k], std::numeric_limits<double>::infinity());
      continue;
    }
    if (exact < flt_min) { // subnormal or zero in f32: flushed, as XLA's
      EXPECT_EQ(got[k], 0.0);
      continue;
    }
    // One ulp of the f32 result (a result one ulp above FLT_MIN may flush).
    float f = static_cast<float>(exact);
    double ulp = std::nextafter(f, std::numeric_limits<float>::infinity()) - f;
    if (got[k] == 0.0 && exact < 2 * flt_min)
      continue;
    EXPECT_LE(std::abs(got[k] - exact), ulp) << "exact " << exact;
  }
}

TEST(ElementwiseOpsTest, IsFiniteAndNot) {
  auto out = run(
      [](Tensor x, Tensor i, Tensor b) {
        return std::make_tuple(isFinite(x), bitwiseNot(i), bitwiseNot(b),
                               logicalNot(i), !b);
      },
      {fromDoubles(DType::F64, {4}, {1.0, kInf, -kInf, kNaN}),
       fromDoubles(DType::I32, {4}, {0, 1, -1, 12345}),
       fromDoubles(DType::I1, {4}, {0, 1, 1, 0})});
  ASSERT_EQ(out.size(), 5u);
  expectClose(out[0], {1, 0, 0, 0});
  expectClose(out[1], {-1, -2, 0, ~12345});
  expectClose(out[2], {1, 0, 0, 1});
  expectClose(out[3], {1, 0, 0, 0});
  expectClose(out[4], {1, 0, 0, 1});
}

/// Binary float ops with broadcasting [3,1,4] x [5,1] -> [3,5,4].
void checkBinaryFloat(DType dtype, double rtol) {
  Shape sa = {3, 1, 4}, sb = {5, 1}, so = {3, 5, 4};
  auto a = roundTo(dtype, randomDoubles(12, 11, -3, 3));
  auto b = roundTo(dtype, randomDoubles(5, 12, 0.5, 2));
  a[0] = kNaN; // NaN propagates through maximum/minimum
  b[1] = -b[1];
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::vector<Tensor>{x + y,          x - y,
                                   x * y,          x / y,
                                   x % y,          power(abs(x), y),
                                   maximum(x, y),  minimum(x, y),
                                   atan2(x, y)};
      },
      {fromDoubles(dtype, sa, a), fromDoubles(dtype, sb, b)});
  ASSERT_EQ(out.size(), 9u);
  std::vector<std::vector<double>> want(9);
  forEachIndex(so, [&](const std::vector<int64_t> &i) {
    double x = a[i[0] * 4 + i[2]], y = b[i[1]];
    double mx = std::isnan(x) || std::isnan(y) ? kNaN : std::max(x, y);
    double mn = std::isnan(x) || std::isnan(y) ? kNaN : std::min(x, y);
    double r[] = {x + y,        x - y, x * y,           x / y,
                  std::fmod(x, y), std::pow(std::abs(x), y), mx, mn,
                  std::atan2(x, y)};
    for (int k = 0; k < 9; ++k)
      want[k].push_back(r[k]);
  });
  const char *names[] = {"add", "subtract", "multiply", "divide", "remainder",
                         "power", "maximum", "minimum", "atan2"};
  for (int k = 0; k < 9; ++k)
    expectClose(out[k], roundTo(dtype, want[k]), rtol, 0, names[k]);
}

TEST(ElementwiseOpsTest, BinaryBroadcastF32) { checkBinaryFloat(DType::F32, 4e-7); }
TEST(ElementwiseOpsTest, BinaryBroadcastF64) { checkBinaryFloat(DType::F64, 1e-14); }
TEST(ElementwiseOpsTest, BinaryBroadcastBF16) { checkBinaryFloat(DType::BF16, 8e-3); }
TEST(ElementwiseOpsTest, BinaryBroadcastF16) { checkBinaryFloat(DType::F16, 1e-3); }

TEST(ElementwiseOpsTest, Atan2SpecialCases) {
  std::vector<double> ys = {0.0, -0.0, 0.0, -0.0, 1.0, -1.0, kInf, -kInf,
                            kInf, 2.0, -3.0, kNaN, 1.0, 0.0};
  std::vector<double> xs = {0.0, 0.0, -0.0, -0.0, 0.0, -0.0, kInf, kInf,
                            -kInf, -kInf, kInf, 1.0, -1e-300, -5.0};
  auto out = run([](Tensor y, Tensor x) { return atan2(y, x); },
                 {fromDoubles(DType::F64, {14}, ys),
                  fromDoubles(DType::F64, {14}, xs)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> want, got = toDoubles(out[0]);
  for (size_t i = 0; i < ys.size(); ++i) {
    want.push_back(std::atan2(ys[i], xs[i]));
    if (!std::isnan(want[i]))
      EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << "element " << i;
  }
  expectClose(out[0], want, 1e-15);
}

TEST(ElementwiseOpsTest, IntegerArithmeticFollowsXla) {
  const double kMin = -2147483648.0;
  std::vector<double> a = {7, -7, 7, -7, 5, kMin, kMin, 0, 3, -3, 2, -1, 1, 2};
  std::vector<double> b = {2, 2, -2, -2, 0, -1, 1, 3, 0, 4, 31, 3, -5, -1};
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::vector<Tensor>{x / y,        x % y,       x + y,
                                   x - y,        x * y,       maximum(x, y),
                                   minimum(x, y), abs(x),     -x,
                                   sign(x),      x & y,       x | y,
                                   x ^ y,        power(x, y)};
      },
      {fromDoubles(DType::I32, {14}, a), fromDoubles(DType::I32, {14}, b)});
  ASSERT_EQ(out.size(), 14u);
  std::vector<std::vector<double>> want(14);
  for (size_t i = 0; i < a.size(); ++i) {
    int32_t x = static_cast<int32_t>(a[i]), y = static_cast<int32_t>(b[i]);
    auto wrap = [](int64_t v) { return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(v))); };
    int32_t q = y == 0 ? -1 : (x == INT32_MIN && y == -1) ? x : x / y;
    int32_t r = y == 0 ? x : (x == INT32_MIN && y == -1) ? 0 : x % y;
    // Integer power by XLA's rule.
    int64_t p;
    if (y < 0)
      p = x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : 0;
    else {
      uint32_t acc = 1, base = static_cast<uint32_t>(x);
      for (int32_t e = y; e > 0; e >>= 1) {
        if (e & 1)
          acc *= base;
        base *= base;
      }
      p = static_cast<int32_t>(acc);
    }
    double values[] = {static_cast<double>(q),
                       static_cast<double>(r),
                       wrap(int64_t(x) + y),
                       wrap(int64_t(x) - y),
                       wrap(int64_t(x) * y),
                       static_cast<double>(std::max(x, y)),
                       static_cast<double>(std::min(x, y)),
                       wrap(x < 0 ? -int64_t(x) : x),
                       wrap(-int64_t(x)),
                       static_cast<double>((x > 0) - (x < 0)),
                       static_cast<double>(x & y),
                       static_cast<double>(x | y),
                       static_cast<double>(x ^ y),
                       static_cast<double>(p)};
    for (int k = 0; k < 14; ++k)
      want[k].push_back(values[k]);
  }
  const char *names[] = {"divide", "remainder", "add", "subtract", "multiply",
                         "maximum", "minimum", "abs", "negate", "sign",
                         "and", "or", "xor", "power"};
  for (int k = 0; k < 14; ++k)
    expectClose(out[k], want[k], 0, 0, names[k]);
}

TEST(ElementwiseOpsTest, ShiftsCountAndBitcastFollowXla) {
  // The amount is read as unsigned: -1 and 32 shift every bit out.
  std::vector<double> a = {1, -8, -8, 0x40000000, -1, 5, 7, -2147483648.0};
  std::vector<double> n = {3, 1, 31, 1, 32, -1, 0, 33};
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::make_tuple(shiftLeft(x, y), shiftRightArithmetic(x, y),
                               shiftRightLogical(x, y), populationCount(x),
                               countLeadingZeros(x));
      },
      {fromDoubles(DType::I32, {8}, a), fromDoubles(DType::I32, {8}, n)});
  ASSERT_EQ(out.size(), 5u);
  // By hand: -8 is 0xFFFFFFF8; 0x40000000 << 1 is INT_MIN.
  expectClose(out[0], {8, -16, 0, -2147483648.0, 0, 0, 7, 0}, 0, 0,
              "shift_left");
  expectClose(out[1], {0, -4, -1, 0x20000000, -1, 0, 7, -1}, 0, 0,
              "shift_right_arithmetic");
  expectClose(out[2], {0, 0x7FFFFFFC, 1, 0x20000000, 0, 0, 7, 0}, 0, 0,
              "shift_right_logical");
  expectClose(out[3], {1, 29, 29, 1, 32, 2, 3, 1}, 0, 0, "popcnt");
  expectClose(out[4], {31, 0, 0, 1, 0, 29, 29, 0}, 0, 0,
              "count_leading_zeros");
}

TEST(ElementwiseOpsTest, ShiftsAndCountsInI64) {
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::make_tuple(shiftLeft(x, y), shiftRightArithmetic(x, y),
                               shiftRightLogical(x, y), populationCount(x),
                               countLeadingZeros(x));
      },
      {fromDoubles(DType::I64, {4}, {1, -1, 6, 0}),
       fromDoubles(DType::I64, {4}, {40, 63, 64, 5})});
  ASSERT_EQ(out.size(), 5u);
  auto got = [&](int k) { return out[k].toVector<int64_t>(); };
  EXPECT_EQ(got(0), (std::vector<int64_t>{int64_t(1) << 40, INT64_MIN, 0, 0}));
  EXPECT_EQ(got(1), (std::vector<int64_t>{0, -1, 0, 0}));
  EXPECT_EQ(got(2), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(got(3), (std::vector<int64_t>{1, 64, 2, 0}));
  EXPECT_EQ(got(4), (std::vector<int64_t>{63, 0, 61, 64}));
}

TEST(ElementwiseOpsTest, BitcastConvertKeepsTheBits) {
  auto out = run(
      [](Tensor f, Tensor i, Tensor d, Tensor h) {
        return std::make_tuple(bitcastConvert(f, DType::I32),
                               bitcastConvert(i, DType::F32),
                               bitcastConvert(d, DType::I64),
                               bitcastConvert(h, DType::BF16));
      },
      {fromDoubles(DType::F32, {3}, {1.0, -2.0, 0.0}),
       fromDoubles(DType::I32, {2}, {0x3F800000, 0x7F800000}),
       fromDoubles(DType::F64, {1}, {1.0}),
       fromDoubles(DType::F16, {1}, {1.0})});
  ASSERT_EQ(out.size(), 4u);
  // IEEE encodings, by hand: 1.0f = 0x3F800000, -2.0f = 0xC0000000.
  expectClose(out[0], {0x3F800000, -1073741824.0, 0}, 0);
  expectClose(out[1], {1.0, kInf}, 0);
  EXPECT_EQ(out[2].toVector<int64_t>(),
            (std::vector<int64_t>{0x3FF0000000000000}));
  // f16 1.0 is 0x3C00, which as bf16 is 2^(0x78 - 127) = 2^-7.
  expectClose(out[3], {0.0078125}, 0);
}

TEST(ElementwiseOpsTest, ReducePrecisionRoundsToTheFormat) {
  // To f16's format (5 exponent, 10 mantissa bits) and to bf16's (8, 7),
  // in f32 and f64. Values by hand: 1 + 2^-11 is a tie (to even: 1);
  // 1 + 3 * 2^-11 a tie between 1 + 2^-10 and 1 + 2^-9 (to 1 + 2^-9);
  // 65520 rounds up to 2^16, beyond f16's range; 1e-5 is below f16's
  // smallest normal (2^-14): zero, as there are no subnormals.
  std::vector<double> in = {1 + 0x1p-11, 1 + 3 * 0x1p-11, 65520, 1e-5,
                            -1e-5, -kInf, kNaN, 1 + 0x1p-10};
  std::vector<double> f16 = {1, 1 + 0x1p-9, kInf, 0, -0.0, -kInf, kNaN,
                             1 + 0x1p-10};
  // With 8 exponent bits the range is f32's: only the mantissa rounds.
  std::vector<double> bf16 = {1, 1, 65536, 1.0013580322265625e-05,
                              -1.0013580322265625e-05, -kInf, kNaN, 1};
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::make_tuple(reducePrecision(x, 5, 10),
                               reducePrecision(x, 8, 7),
                               reducePrecision(y, 5, 10));
      },
      {fromDoubles(DType::F32, {8}, in), fromDoubles(DType::F64, {8}, in)});
  ASSERT_EQ(out.size(), 3u);
  expectClose(out[0], f16, 0, 0, "f32 to (5, 10)");
  expectClose(out[1], bf16, 0, 0, "f32 to (8, 7)");
  expectClose(out[2], f16, 0, 0, "f64 to (5, 10)");
}

TEST(ElementwiseOpsTest, NextafterFollowsC) {
  const double kMax32 = std::numeric_limits<float>::max();
  std::vector<double> x = {1,   1,    -1, 0,    -0.0, 0,   2.5,  kInf,
                           kMax32, kNaN, 1, -kInf, 1e30, -3, 0.1};
  std::vector<double> y = {2,   0,    1,  1,    -1,   -0.0, 2.5, 0,
                           kInf, 1,   kNaN, 0,   -1e30, -4, 0.2};
  auto out = run([](Tensor a, Tensor b) { return nextafter(a, b); },
                 {fromDoubles(DType::F32, {15}, x),
                  fromDoubles(DType::F64, {15}, y)});
  // f32 and f64 join to f64.
  auto out32 = run([](Tensor a, Tensor b) { return nextafter(a, b); },
                   {fromDoubles(DType::F32, {15}, x),
                    fromDoubles(DType::F32, {15}, y)});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out32.size(), 1u);
  std::vector<double> want64, want32;
  for (size_t i = 0; i < x.size(); ++i) {
    want64.push_back(std::nextafter(static_cast<double>(static_cast<float>(x[i])),
                                    y[i]));
    want32.push_back(std::nextafterf(static_cast<float>(x[i]),
                                     static_cast<float>(y[i])));
  }
  expectClose(out[0], want64, 0, 0, "nextafter f64");
  expectClose(out32[0], want32, 0, 0, "nextafter f32");
  // From zero: the smallest subnormal, with y's sign (bits, not flushed).
  std::vector<double> got = toDoubles(out32[0]);
  EXPECT_EQ(got[3], 0x1p-149);
  EXPECT_EQ(got[4], -0x1p-149);
  EXPECT_TRUE(std::signbit(got[5])); // nextafter(0, -0) is -0
}

TEST(ElementwiseOpsTest, I64Arithmetic) {
  std::vector<double> a = {1e15, -3, 9007199254740991.0, 6};
  std::vector<double> b = {3, 7, 2, -4};
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::make_tuple(x * y, x / y, x % y, power(y, 3), x - y);
      },
      {fromDoubles(DType::I64, {4}, a), fromDoubles(DType::I64, {4}, b)});
  ASSERT_EQ(out.size(), 5u);
  auto got = [&](int k) { return out[k].toVector<int64_t>(); };
  std::vector<int64_t> x = {1000000000000000, -3, 9007199254740991, 6};
  std::vector<int64_t> y = {3, 7, 2, -4};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(got(0)[i], x[i] * y[i]);
    EXPECT_EQ(got(1)[i], x[i] / y[i]);
    EXPECT_EQ(got(2)[i], x[i] % y[i]);
    EXPECT_EQ(got(3)[i], y[i] * y[i] * y[i]);
    EXPECT_EQ(got(4)[i], x[i] - y[i]);
  }
}

/// Every integer op on T, against C++ with HLO's rules spelled out: wrapping
/// arithmetic, x / 0 = -1 (all ones), x % 0 = x, MIN / -1 = MIN, unsigned
/// compares and max/min for unsigned T, conversions extending by T's sign,
/// float to T truncating and saturating (NaN to 0).
template <typename T> void checkIntegerType() {
  using Lim = std::numeric_limits<T>;
  using W = WrappingUnsigned<T>;
  DType dtype = dtypeOf<T>();
  SCOPED_TRACE(std::string(dtypeName(dtype)));
  std::vector<T> a = {7, T(-7), Lim::max(), Lim::min(), 5, Lim::min(), 0,
                      3, T(Lim::max() - 1), 1, 100, 2};
  std::vector<T> b = {2, 2, 3, T(-1), 0, 1, 3, T(-3), Lim::max(), 0, 7, 9};
  const size_t n = a.size();
  HostTensor ta(dtype, {static_cast<int64_t>(n)}), tb = ta;
  std::copy(a.begin(), a.end(), ta.data<T>().begin());
  std::copy(b.begin(), b.end(), tb.data<T>().begin());
  std::vector<double> f = {1.9, -1.9, 1e20, -1e20, kNaN, 300.7, -0.5, 65535.5};
  std::vector<HostTensor> out = run(
      [dtype](Tensor x, Tensor y, Tensor g) {
        return std::vector<Tensor>{
            x / y, x % y, x + y, x - y, x * y, maximum(x, y), minimum(x, y),
            sign(x), abs(x), astype(x < y, DType::I32),
            astype(x >= y, DType::I32), astype(x, DType::F64),
            astype(x, DType::I64), astype(g, dtype), max(x), min(x), sum(x),
            power(x, y % 4)};
      },
      {ta, tb, fromDoubles(DType::F64, {8}, f)});
  ASSERT_EQ(out.size(), 18u);
  auto wrap = [](W v) { return static_cast<T>(v); };
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "x = " << +a[i] << ", y = " << +b[i]);
    T x = a[i], y = b[i];
    bool overflow = Lim::is_signed && x == Lim::min() && y == T(-1);
    T q = y == 0 ? T(-1) : overflow ? x : static_cast<T>(x / y);
    T r = y == 0 ? x : overflow ? T(0) : static_cast<T>(x % y);
    T e = static_cast<T>(y % 4), p = 1;
    if (Lim::is_signed && e < 0)
      p = x == 1 ? 1 : x == T(-1) ? ((-e) % 2 ? T(-1) : T(1)) : T(0);
    else
      for (T k = 0; k < e; ++k)
        p = wrap(W(p) * W(x));
    EXPECT_EQ(out[0].data<T>()[i], q) << "divide";
    EXPECT_EQ(out[1].data<T>()[i], r) << "remainder";
    EXPECT_EQ(out[2].data<T>()[i], wrap(W(x) + W(y))) << "add";
    EXPECT_EQ(out[3].data<T>()[i], wrap(W(x) - W(y))) << "subtract";
    EXPECT_EQ(out[4].data<T>()[i], wrap(W(x) * W(y))) << "multiply";
    EXPECT_EQ(out[5].data<T>()[i], std::max(x, y)) << "maximum";
    EXPECT_EQ(out[6].data<T>()[i], std::min(x, y)) << "minimum";
    EXPECT_EQ(out[7].data<T>()[i], T((x > 0) - (x < 0))) << "sign";
    EXPECT_EQ(out[8].data<T>()[i], x < 0 ? wrap(W(0) - W(x)) : x) << "abs";
    EXPECT_EQ(out[9].data<int32_t>()[i], x < y) << "compare LT";
    EXPECT_EQ(out[10].data<int32_t>()[i], x >= y) << "compare GE";
    EXPECT_EQ(out[11].data<double>()[i], static_cast<double>(x)) << "to f64";
    EXPECT_EQ(out[12].data<int64_t>()[i], static_cast<int64_t>(x)) << "to i64";
    EXPECT_EQ(out[17].data<T>()[i], p) << "power";
  }
  for (size_t i = 0; i < f.size(); ++i) {
    double t = std::trunc(f[i]);
    T want = std::isnan(f[i])                        ? T(0)
             : t <= static_cast<double>(Lim::min()) ? Lim::min()
             : t >= static_cast<double>(Lim::max()) ? Lim::max()
                                                     : static_cast<T>(t);
    EXPECT_EQ(out[13].data<T>()[i], want) << "from f64 " << f[i];
  }
  W total = 0;
  for (T x : a)
    total += W(x);
  EXPECT_EQ(out[14].data<T>()[0], *std::max_element(a.begin(), a.end()));
  EXPECT_EQ(out[15].data<T>()[0], *std::min_element(a.begin(), a.end()));
  EXPECT_EQ(out[16].data<T>()[0], wrap(total)) << "sum";
}

TEST(ElementwiseOpsTest, NarrowAndUnsignedIntegersFollowXla) {
  checkIntegerType<int8_t>();
  checkIntegerType<int16_t>();
  checkIntegerType<uint8_t>();
  checkIntegerType<uint16_t>();
  checkIntegerType<uint32_t>();
  checkIntegerType<uint64_t>();
}

TEST(ElementwiseOpsTest, UnsignedPromotionFollowsJax) {
  // JAX's lattice: u8 + i8 -> i16, u32 + i32 -> i64, u64 + i64 -> f32 (the
  // default float), u8 + weak int stays u8.
  EXPECT_EQ(promoteTypes(DType::U8, DType::I8), DType::I16);
  EXPECT_EQ(promoteTypes(DType::U32, DType::I32), DType::I64);
  EXPECT_EQ(promoteTypes(DType::U64, DType::I64), DType::F32);
  EXPECT_EQ(promoteTypes(DType::U8, DType::U16), DType::U16);
  EXPECT_EQ(promoteTypes(DType::I1, DType::U8), DType::U8);
  EXPECT_EQ(promoteTypes(DType::U16, DType::BF16), DType::BF16);
}

TEST(ElementwiseOpsTest, BooleanOps) {
  std::vector<double> a = {0, 0, 1, 1}, b = {0, 1, 0, 1};
  auto out = run(
      [](Tensor p, Tensor q) {
        return std::vector<Tensor>{p + q,          p * q,
                                   maximum(p, q),  minimum(p, q),
                                   p & q,          p | q,
                                   p ^ q,          logicalAnd(p, q),
                                   logicalOr(p, q), logicalXor(p, q),
                                   p < q,          p >= q};
      },
      {fromDoubles(DType::I1, {4}, a), fromDoubles(DType::I1, {4}, b)});
  ASSERT_EQ(out.size(), 12u);
  // HLO: add on pred is or, multiply is and.
  std::vector<std::vector<double>> want = {
      {0, 1, 1, 1}, {0, 0, 0, 1}, {0, 1, 1, 1}, {0, 0, 0, 1},
      {0, 0, 0, 1}, {0, 1, 1, 1}, {0, 1, 1, 0}, {0, 0, 0, 1},
      {0, 1, 1, 1}, {0, 1, 1, 0}, {0, 1, 0, 0}, {1, 0, 1, 1}};
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(out[k].dtype(), DType::I1) << k;
    expectClose(out[k], want[k], 0, 0, "case " + std::to_string(k));
  }
}

TEST(ElementwiseOpsTest, ComparisonsWithNaN) {
  std::vector<double> a = {1, 2, 3, kNaN, kNaN, -0.0};
  std::vector<double> b = {2, 2, 1, 1, kNaN, 0.0};
  auto out = run(
      [](Tensor x, Tensor y) {
        return std::vector<Tensor>{equal(x, y), notEqual(x, y), x < y,
                                   x <= y,      x > y,          x >= y};
      },
      {fromDoubles(DType::F32, {6}, a), fromDoubles(DType::F32, {6}, b)});
  ASSERT_EQ(out.size(), 6u);
  for (size_t i = 0; i < a.size(); ++i) {
    double x = a[i], y = b[i];
    bool want[] = {x == y, x != y, x < y, x <= y, x > y, x >= y};
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(toDoubles(out[k])[i], want[k] ? 1 : 0)
          << "comparison " << k << " at " << i;
  }
}

TEST(ElementwiseOpsTest, WhereAndClampBroadcast) {
  auto x = randomDoubles(12, 3, -4, 4);
  auto out = run(
      [](Tensor v, Tensor c) {
        return std::make_tuple(where(c, v, -1.0), clamp(v, -1.5, 2),
                               where(v > 0, v, 0), clamp(v, v * 0.5, 1.0));
      },
      {fromDoubles(DType::F64, {3, 4}, x),
       fromDoubles(DType::I1, {4}, {1, 0, 0, 1})});
  ASSERT_EQ(out.size(), 4u);
  std::vector<double> w0, w1, w2, w3;
  for (int i = 0; i < 12; ++i) {
    bool c = (i % 4 == 0) || (i % 4 == 3);
    w0.push_back(c ? x[i] : -1.0);
    w1.push_back(std::min(std::max(x[i], -1.5), 2.0));
    w2.push_back(x[i] > 0 ? x[i] : 0);
    w3.push_back(std::min(std::max(x[i], x[i] * 0.5), 1.0));
  }
  expectClose(out[0], w0);
  expectClose(out[1], w1);
  expectClose(out[2], w2);
  expectClose(out[3], w3);
}

TEST(ElementwiseOpsTest, ConvertFollowsXla) {
  std::vector<double> f = {1.9, -1.9, 3e9, -3e9, kNaN, kInf, -kInf, 0.5};
  auto out = run(
      [](Tensor x, Tensor i, Tensor h) {
        return std::make_tuple(astype(x, DType::I32), astype(x, DType::I1),
                               astype(x, DType::F16), astype(x, DType::BF16),
                               astype(i, DType::F32), astype(i, DType::I1),
                               astype(astype(i, DType::I1), DType::I64),
                               astype(h, DType::BF16), astype(x, DType::I64));
      },
      {fromDoubles(DType::F64, {8}, f),
       fromDoubles(DType::I32, {4}, {0, -3, 16777217, 1}),
       fromDoubles(DType::F16, {3}, {1.0009765625, 65504, -0.333})});
  ASSERT_EQ(out.size(), 9u);
  // Float to int: round toward zero, saturate, NaN to 0.
  expectClose(out[0], {1, -1, 2147483647, -2147483648.0, 0, 2147483647,
                       -2147483648.0, 0}, 0);
  expectClose(out[1], {1, 1, 1, 1, 1, 1, 1, 1}, 0);
  expectClose(out[2], roundTo(DType::F16, f), 0);
  expectClose(out[3], roundTo(DType::BF16, f), 0);
  expectClose(out[4], {0, -3, 16777216, 1}, 0);
  expectClose(out[5], {0, 1, 1, 1}, 0);
  expectClose(out[6], {0, 1, 1, 1}, 0);
  expectClose(out[7], roundTo(DType::BF16, {1.0009765625, 65504,
                                            halfToFloat(floatToHalf(-0.333f))}),
              0);
  std::vector<int64_t> i64 = out[8].toVector<int64_t>();
  EXPECT_EQ(i64[2], 3000000000);
  EXPECT_EQ(i64[3], -3000000000);
  EXPECT_EQ(i64[4], 0);
  EXPECT_EQ(i64[5], INT64_MAX);
  EXPECT_EQ(i64[6], INT64_MIN);
}

TEST(ElementwiseOpsTest, PromotionComputesInTheJoinedType) {
  auto out = run(
      [](Tensor i, Tensor h) {
        return std::make_tuple(i * 2.5, i + h, i / 2, h * 3, (i > 1) + 1);
      },
      {fromDoubles(DType::I32, {3}, {1, 2, -7}),
       fromDoubles(DType::F16, {3}, {0.5, 0.25, 2})});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].dtype(), DType::F32);
  expectClose(out[0], {2.5, 5, -17.5});
  EXPECT_EQ(out[1].dtype(), DType::F16);
  expectClose(out[1], {1.5, 2.25, -5});
  EXPECT_EQ(out[2].dtype(), DType::I32);
  expectClose(out[2], {0, 1, -3}, 0); // toward zero
  EXPECT_EQ(out[3].dtype(), DType::F16);
  expectClose(out[3], {1.5, 0.75, 6});
  EXPECT_EQ(out[4].dtype(), DType::I32);
  expectClose(out[4], {1, 2, 1}, 0);
}

TEST(ElementwiseOpsTest, ConstantsAndIota) {
  auto out = run(
      [](Tensor x) {
        return std::make_tuple(
            x + constant(HostTensor::fromVector<float>({3}, {1, 2, 3})),
            iota({2, 3}, 1, DType::F32), arange(4, DType::I64),
            full({2}, 7, DType::BF16), zerosLike(x), onesLike(x));
      },
      {fromDoubles(DType::F32, {3}, {10, 20, 30})});
  ASSERT_EQ(out.size(), 6u);
  expectClose(out[0], {11, 22, 33});
  expectClose(out[1], {0, 1, 2, 0, 1, 2});
  expectClose(out[2], {0, 1, 2, 3});
  expectClose(out[3], {7, 7});
  expectClose(out[4], {0, 0, 0});
  expectClose(out[5], {1, 1, 1});
}

} // namespace
