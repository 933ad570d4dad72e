//===- Float8OpsTest.cpp - f8e4m3fn and f8e5m2 end to end -------*- C++ -*-===//
//
// Conversions to and from XLA's 8-bit floats, exhaustively where the input
// has at most 16 bits, and f8 arithmetic and dots, compiled and run through
// the JIT, against reference files computed with ml_dtypes
// (tests/data/f8/generate.py). Registered at every ISA level.
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"
#include "support/Npy.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

using namespace torus;
using namespace torus::testing;

namespace {

constexpr DType kF8Types[] = {DType::F8E4M3FN, DType::F8E5M2};

std::string dataPath(const std::string &name) {
  return std::string(TORUS_DATA_DIR) + "/f8/" + name;
}

HostTensor load(const std::string &name) {
  auto t = readNpy(dataPath(name));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(*t) : HostTensor(DType::U8, {0});
}

template <typename T> std::vector<T> elements(const HostTensor &t) {
  std::vector<T> v(t.numElements());
  if (!v.empty())
    std::memcpy(v.data(), t.rawData(), v.size() * sizeof(T));
  return v;
}

/// Bit patterns 0..n-1 as a u8 (n <= 256) or u16 tensor.
HostTensor iota(DType dtype, int64_t n) {
  HostTensor t(dtype, {n});
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == DType::U8)
      static_cast<uint8_t *>(t.rawData())[i] = static_cast<uint8_t>(i);
    else
      static_cast<uint16_t *>(t.rawData())[i] = static_cast<uint16_t>(i);
  }
  return t;
}

/// Whether the f8 bits `b` of `dtype` are a NaN.
bool isNaN(DType dtype, uint8_t b) {
  return dtype == DType::F8E4M3FN ? (b & 0x7f) == 0x7f
                                  : (b & 0x7c) == 0x7c && (b & 3) != 0;
}

/// Expects the bytes of `got` to equal `want`, except that any NaN matches
/// any NaN: which NaN a conversion or an operation makes is unspecified
/// (XLA and ml_dtypes differ in sign and payload).
void expectBits(DType dtype, const HostTensor &got,
                const std::vector<uint8_t> &want, const std::string &what,
                const std::vector<std::string> &inputs = {}) {
  std::vector<uint8_t> g = elements<uint8_t>(got);
  ASSERT_EQ(g.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < g.size() && failures < 10; ++i) {
    bool ok = g[i] == want[i] || (isNaN(dtype, g[i]) && isNaN(dtype, want[i]));
    if (!ok) {
      ++failures;
      ADD_FAILURE() << what << " element " << i
                    << (i < inputs.size() ? " (" + inputs[i] + ")" : "")
                    << ": got 0x" << std::hex << int(g[i]) << ", want 0x"
                    << int(want[i]) << std::dec;
    }
  }
}

std::string f32Text(float f) {
  return fmt::format("{} = 0x{:08x}", f, std::bit_cast<uint32_t>(f));
}

//===--- f8 to wider ------------------------------------------------------===//

TEST(Float8OpsTest, EveryPatternToF32) {
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor x) {
          Tensor f = bitcastConvert(x, t);
          return std::make_tuple(astype(f, DType::F32), astype(f, DType::F64),
                                 astype(f, DType::F16), astype(f, DType::BF16));
        },
        {iota(DType::U8, 256)});
    ASSERT_EQ(out.size(), 4u) << name;
    std::vector<uint32_t> want =
        elements<uint32_t>(load(name + "_to_f32.npy"));
    std::vector<uint32_t> got = elements<uint32_t>(out[0]);
    // Bit for bit, except that any NaN matches any NaN: which NaN a
    // conversion makes is unspecified (XLA and ml_dtypes differ).
    auto nan = [](uint32_t b) { return (b & 0x7fffffff) > 0x7f800000; };
    for (int i = 0; i < 256; ++i)
      EXPECT_TRUE(got[i] == want[i] || (nan(got[i]) && nan(want[i])))
          << name << " 0x" << std::hex << i << ": got 0x" << got[i]
          << ", want 0x" << want[i];
    // f64, f16 and bf16 hold every f8 value exactly.
    std::vector<double> values;
    for (uint32_t w : want)
      values.push_back(std::bit_cast<float>(w));
    expectClose(out[1], values, 0, 0, name + " to f64");
    expectClose(out[2], values, 0, 0, name + " to f16");
    expectClose(out[3], values, 0, 0, name + " to bf16");
    std::vector<double> d = toDoubles(out[1]);
    for (int i = 0; i < 256; ++i)
      if (!std::isnan(d[i]))
        EXPECT_EQ(std::signbit(d[i]), (i & 0x80) != 0) << name << " " << i;
  }
}

TEST(Float8OpsTest, EveryPatternToIntegers) {
  // XLA's float -> integer rule on the widened value: toward zero,
  // saturating, NaN to 0.
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor x) {
          Tensor f = bitcastConvert(x, t);
          return std::make_tuple(astype(f, DType::I32), astype(f, DType::I8),
                                 astype(f, DType::U8), astype(f, DType::I1));
        },
        {iota(DType::U8, 256)});
    ASSERT_EQ(out.size(), 4u) << name;
    std::vector<uint32_t> bits = elements<uint32_t>(load(name + "_to_f32.npy"));
    auto toInt = [](float f, double lo, double hi) {
      if (std::isnan(f))
        return 0.0;
      return std::min(std::max(std::trunc(double(f)), lo), hi);
    };
    std::vector<double> i32, i8, u8, pred;
    for (uint32_t w : bits) {
      float f = std::bit_cast<float>(w);
      i32.push_back(toInt(f, -2147483648.0, 2147483647.0));
      i8.push_back(toInt(f, -128, 127));
      u8.push_back(toInt(f, 0, 255));
      pred.push_back(f != 0 ? 1 : 0); // NaN != 0 too
    }
    expectClose(out[0], i32, 0, 0, name + " to i32");
    expectClose(out[1], i8, 0, 0, name + " to i8");
    expectClose(out[2], u8, 0, 0, name + " to u8");
    expectClose(out[3], pred, 0, 0, name + " to pred");
  }
}

//===--- wider to f8 ------------------------------------------------------===//

/// `in` (written as `texts`) converted to each f8 type, against the
/// reference `<from>_to_<f8 type>.npy`.
void expectConvertsToF8(const HostTensor &in, const std::string &from,
                        const std::vector<std::string> &texts) {
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor x) { return bitcastConvert(astype(x, t), DType::U8); },
        {in});
    ASSERT_EQ(out.size(), 1u) << name;
    expectBits(t, out[0],
               elements<uint8_t>(load(from + "_to_" + name + ".npy")),
               from + " to " + name, texts);
  }
}

TEST(Float8OpsTest, F32ToF8) {
  HostTensor in = load("f32_inputs.npy");
  std::vector<std::string> texts;
  for (float f : elements<float>(in))
    texts.push_back(f32Text(f));
  expectConvertsToF8(in, "f32", texts);
}

TEST(Float8OpsTest, F64ToF8RoundsOnce) {
  // As XLA: one rounding (ml_dtypes rounds through f32, twice; the
  // reference is XLA's, checked to be the nearest where they differ).
  HostTensor in = load("f64_inputs.npy");
  std::vector<std::string> texts;
  for (double d : elements<double>(in))
    texts.push_back(fmt::format("{}", d));
  expectConvertsToF8(in, "f64", texts);
}

TEST(Float8OpsTest, EveryF16AndBF16PatternToF8) {
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor x) {
          return std::make_tuple(
              bitcastConvert(astype(bitcastConvert(x, DType::F16), t),
                             DType::U8),
              bitcastConvert(astype(bitcastConvert(x, DType::BF16), t),
                             DType::U8));
        },
        {iota(DType::U16, 65536)});
    ASSERT_EQ(out.size(), 2u) << name;
    expectBits(t, out[0], elements<uint8_t>(load("f16_to_" + name + ".npy")),
               "f16 to " + name);
    expectBits(t, out[1], elements<uint8_t>(load("bf16_to_" + name + ".npy")),
               "bf16 to " + name);
  }
}

TEST(Float8OpsTest, IntegersToF8) {
  HostTensor in = load("int_inputs.npy");
  std::vector<std::string> texts;
  for (int32_t v : elements<int32_t>(in))
    texts.push_back(std::to_string(v));
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor x) {
          return std::make_tuple(bitcastConvert(astype(x, t), DType::U8),
                                 bitcastConvert(astype(astype(x, DType::I64), t),
                                                DType::U8));
        },
        {in});
    ASSERT_EQ(out.size(), 2u) << name;
    std::vector<uint8_t> want = elements<uint8_t>(load("int_to_" + name + ".npy"));
    expectBits(t, out[0], want, "i32 to " + name, texts);
    expectBits(t, out[1], want, "i64 to " + name, texts);
  }
}

TEST(Float8OpsTest, EveryPatternToTheOtherF8) {
  for (DType t : kF8Types) {
    DType u = t == DType::F8E4M3FN ? DType::F8E5M2 : DType::F8E4M3FN;
    std::string name(dtypeName(t)), other(dtypeName(u));
    auto out = run(
        [t, u](Tensor x) {
          return bitcastConvert(astype(bitcastConvert(x, t), u), DType::U8);
        },
        {iota(DType::U8, 256)});
    ASSERT_EQ(out.size(), 1u) << name;
    expectBits(u, out[0],
               elements<uint8_t>(load(name + "_to_" + other + ".npy")),
               name + " to " + other);
  }
}

//===--- arithmetic -------------------------------------------------------===//

/// u8[256, 256] with element [i, j] = i (rows) or j (columns).
HostTensor grid(bool rows) {
  HostTensor t(DType::U8, {256, 256});
  auto *p = static_cast<uint8_t *>(t.rawData());
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j)
      p[i * 256 + j] = static_cast<uint8_t>(rows ? i : j);
  return t;
}

TEST(Float8OpsTest, EveryPairAddsAndMultipliesInF32) {
  // XLA computes f8 arithmetic in f32 and rounds back: the reference is
  // ml_dtypes' widen, compute, round.
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    auto out = run(
        [t](Tensor a, Tensor b) {
          Tensor x = bitcastConvert(a, t), y = bitcastConvert(b, t);
          return std::make_tuple(bitcastConvert(x + y, DType::U8),
                                 bitcastConvert(x * y, DType::U8),
                                 astype(maximum(x, y), DType::F32),
                                 x < y);
        },
        {grid(true), grid(false)});
    ASSERT_EQ(out.size(), 4u) << name;
    expectBits(t, out[0], elements<uint8_t>(load(name + "_add.npy")),
               name + " add (element 256 i + j)");
    expectBits(t, out[1], elements<uint8_t>(load(name + "_mul.npy")),
               name + " mul (element 256 i + j)");
    // max and < from the widened values: NaN propagates through max, and
    // -0 and +0 compare equal.
    std::vector<uint32_t> wide = elements<uint32_t>(load(name + "_to_f32.npy"));
    std::vector<double> wantMax, wantLess;
    for (int i = 0; i < 256; ++i)
      for (int j = 0; j < 256; ++j) {
        float x = std::bit_cast<float>(wide[i]), y = std::bit_cast<float>(wide[j]);
        wantMax.push_back(std::isnan(x) || std::isnan(y) ? NAN
                                                         : std::max(x, y));
        wantLess.push_back(x < y ? 1 : 0);
      }
    expectClose(out[2], wantMax, 0, 0, name + " maximum");
    expectClose(out[3], wantLess, 0, 0, name + " less");
  }
}

//===--- dot --------------------------------------------------------------===//

/// Random f8 bit patterns of finite values in [-limit, limit] of `t`.
HostTensor randomFinite(DType t, Shape shape, unsigned seed, double limit) {
  std::vector<uint32_t> wide = elements<uint32_t>(
      load(std::string(dtypeName(t)) + "_to_f32.npy"));
  std::vector<uint8_t> ok;
  for (int i = 0; i < 256; ++i) {
    float f = std::bit_cast<float>(wide[i]);
    if (std::isfinite(f) && std::abs(f) <= limit)
      ok.push_back(static_cast<uint8_t>(i));
  }
  std::mt19937 gen(seed);
  std::uniform_int_distribution<size_t> pick(0, ok.size() - 1);
  HostTensor h(DType::U8, shape);
  for (int64_t i = 0; i < h.numElements(); ++i)
    static_cast<uint8_t *>(h.rawData())[i] = ok[pick(gen)];
  return h;
}

TEST(Float8OpsTest, DotWithF32Result) {
  // JAX's fp8 matmul: f8 operands, f32 result (preferred_element_type),
  // against a naive sum in double of the widened values. Also the f8
  // result, accumulated in f32 and rounded once.
  const int64_t m = 7, k = 33, n = 5;
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    HostTensor a = randomFinite(t, {m, k}, 1, 8), b = randomFinite(t, {k, n}, 2, 8);
    DotDims dims{{}, {}, {1}, {0}};
    auto out = run(
        [&](Tensor x, Tensor y) {
          Tensor fx = bitcastConvert(x, t), fy = bitcastConvert(y, t);
          return std::make_tuple(dotGeneral(fx, fy, dims, DType::F32),
                                 dotGeneral(fx, fy, dims, DType::BF16),
                                 bitcastConvert(dotGeneral(fx, fy, dims),
                                                DType::U8));
        },
        {a, b});
    ASSERT_EQ(out.size(), 3u) << name;
    std::vector<uint32_t> wide = elements<uint32_t>(load(name + "_to_f32.npy"));
    auto value = [&](const HostTensor &h, int64_t i) {
      return double(std::bit_cast<float>(
          wide[static_cast<const uint8_t *>(h.rawData())[i]]));
    };
    std::vector<double> want, scale;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0, abs = 0;
        for (int64_t p = 0; p < k; ++p) {
          double term = value(a, i * k + p) * value(b, p * n + j);
          s += term;
          abs += std::abs(term);
        }
        want.push_back(s);
        scale.push_back(abs);
      }
    expectWithinScale(out[0], want, scale, 4e-6, name + " f32 dot");
    // bf16 and f8 results: within one rounding of the result type (plus
    // the f32 accumulation's error).
    expectWithinScale(out[1], want, scale, 1.0 / 128, name + " bf16 dot");
    HostTensor f8(t, {m, n});
    std::memcpy(f8.rawData(), out[2].rawData(), m * n);
    std::vector<double> got;
    for (int64_t i = 0; i < m * n; ++i)
      got.push_back(value(out[2], i));
    double ulp = t == DType::F8E4M3FN ? 1.0 / 16 : 1.0 / 8; // half an ulp
    for (int64_t i = 0; i < m * n; ++i) {
      double limit = t == DType::F8E4M3FN ? 448 : 57344;
      if (std::abs(want[i]) > limit)
        continue; // overflows: NaN or inf, checked by the conversion tests
      EXPECT_LE(std::abs(got[i] - want[i]),
                ulp * std::abs(want[i]) + 1e-6 * scale[i] + 1.0 / 512)
          << name << " f8 dot element " << i << ": got " << got[i]
          << ", want " << want[i];
    }
  }
}

/// `v` rounded to the f8 type `t` by brute force over its finite values
/// (nearest, ties to the even pattern; beyond the overflow threshold NaN
/// for f8e4m3fn, inf for f8e5m2), as a double.
double roundToF8(DType t, const std::vector<uint32_t> &wide, double v) {
  if (std::isnan(v))
    return NAN;
  double best = NAN, bestDistance = INFINITY;
  int bestPattern = 0;
  double largest = 0;
  for (int i = 0; i < 256; ++i) {
    float f = std::bit_cast<float>(wide[i]);
    if (!std::isfinite(f))
      continue;
    largest = std::max(largest, double(f));
    double d = std::abs(double(f) - v);
    if (d < bestDistance || (d == bestDistance && (i & 1) == 0 &&
                             (bestPattern & 1) == 1)) {
      best = f, bestDistance = d, bestPattern = i;
    }
  }
  double halfUlp = t == DType::F8E4M3FN ? 16 : 4096; // above the largest
  if (std::abs(v) > largest + halfUlp ||
      (t == DType::F8E5M2 && std::abs(v) >= largest + halfUlp))
    return t == DType::F8E4M3FN ? NAN : std::copysign(INFINITY, v);
  return best;
}

TEST(Float8OpsTest, ReductionsSortAndDataMovementInF32) {
  // The other ops on f8 operands: a row sum accumulates in f32 and rounds
  // once at the end (as XLA's CPU backend); sort, pad, concatenate, where,
  // transpose move the values unchanged; reducePrecision works on the
  // widened value (f8e4m3fn to f8e5m2's format: its e5m2 rounding).
  for (DType t : kF8Types) {
    std::string name(dtypeName(t));
    std::vector<uint32_t> wide = elements<uint32_t>(load(name + "_to_f32.npy"));
    HostTensor x = randomFinite(t, {6, 40}, 3, 4);
    auto out = run(
        [t](Tensor bits) {
          Tensor v = bitcastConvert(bits, t);
          Tensor padded = pad(v, {{0, 0}, {0, 1}}, 0.5);
          return std::make_tuple(
              astype(sum(v, {1}), DType::F32),
              astype(sort(v, 1), DType::F32),
              astype(concatenate({transpose(v), transpose(v)}, 1), DType::F32),
              astype(where(v > 0.0, v, slice(padded, {0, 1}, {6, 41})),
                     DType::F32),
              astype(reducePrecision(v, 5, 2), DType::F32));
        },
        {x});
    ASSERT_EQ(out.size(), 5u) << name;
    auto value = [&](int64_t i) {
      return double(std::bit_cast<float>(
          wide[static_cast<const uint8_t *>(x.rawData())[i]]));
    };
    std::vector<uint32_t> e5m2 = elements<uint32_t>(load("f8e5m2_to_f32.npy"));
    std::vector<double> sums, sorted, concatenated(2 * 240), selected,
        reduced;
    for (int64_t r = 0; r < 6; ++r) {
      double s = 0;
      std::vector<double> row;
      for (int64_t c = 0; c < 40; ++c) {
        s += value(r * 40 + c);
        row.push_back(value(r * 40 + c));
      }
      // In f32, exact: 40 values of at most 4, multiples of 2^-9 (e4m3fn)
      // or 2^-16 (e5m2).
      sums.push_back(roundToF8(t, wide, s));
      std::sort(row.begin(), row.end());
      sorted.insert(sorted.end(), row.begin(), row.end());
    }
    for (int64_t c = 0; c < 40; ++c)
      for (int64_t r = 0; r < 6; ++r) {
        concatenated[c * 12 + r] = value(r * 40 + c);
        concatenated[c * 12 + 6 + r] = value(r * 40 + c);
      }
    for (int64_t i = 0; i < 240; ++i) {
      double v = value(i);
      selected.push_back(v > 0 ? v : (i % 40 == 39 ? 0.5 : value(i + 1)));
      reduced.push_back(roundToF8(DType::F8E5M2, e5m2, v));
    }
    expectClose(out[0], sums, 0, 0, name + " sum");
    expectClose(out[1], sorted, 0, 0, name + " sort");
    expectClose(out[2], concatenated, 0, 0, name + " transpose, concatenate");
    expectClose(out[3], selected, 0, 0, name + " where, pad, slice");
    if (t == DType::F8E4M3FN)
      expectClose(out[4], reduced, 0, 0, name + " reduce_precision (5, 2)");
  }
}

TEST(Float8OpsTest, CrossReplicaReductionsAreRefused) {
  for (DType t : kF8Types) {
    auto traced = trace("f", {spec(t, {4})},
                        [](Tensor x) { return allReduce(x); });
    ASSERT_FALSE(traced.ok());
    EXPECT_THAT(std::string(traced.status().message()),
                ::testing::HasSubstr(fmt::format(
                    "cannot reduce an {} tensor across replicas (convert it "
                    "to bf16 or f32 first)",
                    dtypeName(t))));
  }
}

TEST(Float8OpsTest, TypesAndNames) {
  EXPECT_EQ(dtypeName(DType::F8E4M3FN), "f8e4m3fn");
  EXPECT_EQ(dtypeName(DType::F8E5M2), "f8e5m2");
  EXPECT_EQ(parseDType("f8e4m3fn"), DType::F8E4M3FN);
  EXPECT_EQ(parseDType("f8e5m2"), DType::F8E5M2);
  EXPECT_EQ(byteWidth(DType::F8E4M3FN), 1u);
  EXPECT_TRUE(isFloat(DType::F8E5M2));
  EXPECT_FALSE(isInteger(DType::F8E5M2));
  // Integers and weak floats meet an f8 at it; f8 meets the other narrow
  // floats at f32.
  EXPECT_EQ(promoteTypes(DType::F8E4M3FN, DType::I32), DType::F8E4M3FN);
  EXPECT_EQ(promoteTypes(DType::F8E5M2, DType::BF16), DType::F32);
  EXPECT_EQ(promoteTypes(DType::F8E5M2, DType::F16), DType::F32);
  EXPECT_EQ(promoteTypes(DType::F8E4M3FN, DType::F64), DType::F64);
  EXPECT_EQ(promoteTypes(DType::F8E5M2, DType::F32), DType::F32);
  EXPECT_EQ(promoteTypes(DType::F8E4M3FN, DType::F8E5M2), DType::F32);
}

} // namespace
