//===- RandomOpsTest.cpp - XLA's random bits, and their uses ------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

/// Threefry-2x32 with 20 rounds (Random123's threefry2x32_20).
std::pair<uint32_t, uint32_t> threefry(uint64_t key, uint64_t counter) {
  auto rotl = [](uint32_t v, int r) { return (v << r) | (v >> (32 - r)); };
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ 0x1BD11BDA};
  uint32_t x0 = static_cast<uint32_t>(counter) + ks[0];
  uint32_t x1 = static_cast<uint32_t>(counter >> 32) + ks[1];
  const int R[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  for (int i = 0; i < 20; ++i) {
    x0 += x1;
    x1 = rotl(x1, R[i % 8]);
    x1 ^= x0;
    if (i % 4 == 3) {
      uint32_t s = (i + 1) / 4;
      x0 += ks[s % 3];
      x1 += ks[(s + 1) % 3] + s;
    }
  }
  return {x0, x1};
}

TEST(RandomOpsTest, ReferenceMatchesRandom123KnownAnswers) {
  EXPECT_EQ(threefry(0, 0), std::make_pair(0x6b200159u, 0x99ba4efeu));
  EXPECT_EQ(threefry(~0ull, ~0ull), std::make_pair(0x1cb996fcu, 0xbb002be7u));
  EXPECT_EQ(threefry(0x0370734413198a2eull, 0x85a308d3243f6a88ull),
            std::make_pair(0xc4923a9cu, 0x483df7a0u));
}

// XLA's bits, from api/RngXlaVectors.inc (tests/data/rng/make_vectors.py
// wrote it with JAX: the expected values are XLA's, not Torus's).
enum class RngAlgorithm { THREE_FRY, PHILOX, DEFAULT };
struct RngVector {
  RngAlgorithm algorithm;
  const char *type; // ui8 .. ui64
  std::vector<int64_t> shape;
  std::vector<uint64_t> state, nextState, bits;
};
struct UniformVector {
  uint64_t key0, key1;
  std::vector<int64_t> shape;
  DType dtype;
  double minval, maxval;
  std::vector<double> values;
};
#include "api/RngXlaVectors.inc"

std::string tensorType(const std::vector<int64_t> &shape, const char *type) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + type + ">";
}

/// Element `i` of an integer host tensor, zero-extended.
uint64_t bitsAt(const HostTensor &t, int64_t i) {
  const auto *raw = static_cast<const uint8_t *>(t.rawData());
  size_t width = byteWidth(t.dtype());
  uint64_t v = 0;
  std::memcpy(&v, raw + i * width, width); // little-endian
  return v;
}

TEST(RandomOpsTest, RngBitGeneratorGivesXlasBits) {
  const char *names[] = {"THREE_FRY", "PHILOX", "DEFAULT"};
  for (const RngVector &v : kRngVectors) {
    std::string out = tensorType(v.shape, v.type);
    std::string st = tensorType({static_cast<int64_t>(v.state.size())}, "ui64");
    std::string text =
        "func.func @f(%s: " + st + ") -> (" + st + ", " + out +
        ") {\n  %s1, %b = torus.rng_bit_generator " +
        names[static_cast<int>(v.algorithm)] + " %s : (" + st + ") -> (" +
        st + ", " + out + ")\n  return %s1, %b : " + st + ", " + out +
        "\n}\n";
    SCOPED_TRACE(text);
    auto fn = parseModule(text, "rng.mlir");
    ASSERT_TRUE(fn.ok()) << fn.status();
    auto exe = compile(*fn, {});
    ASSERT_TRUE(exe.ok()) << exe.status();
    auto mesh = EmulatedMesh::create(1);
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    auto result = mesh->run(
        *exe, {{HostTensor::fromVector<uint64_t>(
                  {static_cast<int64_t>(v.state.size())}, v.state)}});
    ASSERT_TRUE(result.ok()) << result.status();
    const std::vector<HostTensor> &r = (*result)[0];
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].toVector<uint64_t>(), v.nextState);
    ASSERT_EQ(r[1].numElements(), static_cast<int64_t>(v.bits.size()));
    for (size_t i = 0; i < v.bits.size(); ++i)
      EXPECT_EQ(bitsAt(r[1], i), v.bits[i]) << "element " << i;
  }
}

TEST(RandomOpsTest, UniformIsJaxsUniformOfXlasBits) {
  for (const UniformVector &v : kUniformVectors) {
    SCOPED_TRACE(dtypeName(v.dtype));
    auto out = run(
        [&](Tensor key) {
          return randomUniform(key, v.shape, v.dtype, v.minval, v.maxval);
        },
        {HostTensor::fromVector<int64_t>(
            {2}, {static_cast<int64_t>(v.key0), static_cast<int64_t>(v.key1)})});
    ASSERT_EQ(out.size(), 1u);
    expectClose(out[0], v.values, 0);
  }
}

TEST(RandomOpsTest, UniformUsesTheMantissaBits) {
  auto out = run(
      [](Tensor) {
        Tensor key = randomKey(7);
        return std::make_tuple(randomUniform(key, {1000}),
                               randomUniform(key, {8}, DType::F64, -2, 3),
                               randomUniform(key, {64}, DType::BF16),
                               randomBits(key, {8}));
      },
      {HostTensor::fromVector<float>({1}, {0})});
  ASSERT_EQ(out.size(), 4u);
  // f32: (bits >> 9) * 2^-23, from the same bits.
  auto u = toDoubles(out[0]);
  std::vector<double> want;
  for (int i = 0; i < 1000; ++i) {
    auto [w0, w1] = threefry(7, i / 2);
    uint32_t bits = i % 2 ? w1 : w0;
    // JAX's _uniform: the top 23 bits as the mantissa of [1, 2), minus 1.
    want.push_back(std::ldexp(static_cast<double>(bits >> 9), -23));
  }
  expectClose(out[0], want, 0);
  double mean = 0;
  for (double v : u) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 1);
    mean += v / 1000;
  }
  EXPECT_NEAR(mean, 0.5, 0.05);
  for (double v : toDoubles(out[1])) {
    EXPECT_GE(v, -2);
    EXPECT_LT(v, 3);
  }
  for (double v : toDoubles(out[2])) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 1); // never rounds up to 1
  }
  auto bits = out[3].toVector<int32_t>();
  for (int i = 0; i < 8; ++i) {
    auto [w0, w1] = threefry(7, i / 2);
    EXPECT_EQ(static_cast<uint32_t>(bits[i]), i % 2 ? w1 : w0);
  }
}

TEST(RandomOpsTest, SplitKeysAreDistinctAndDeterministic) {
  auto fn = [](Tensor seed) {
    (void)seed;
    Tensor keys = randomSplit(randomKey(3), 4);
    return std::make_tuple(keys, randomUniform(keys[0], {4}),
                           randomUniform(keys[1], {4}));
  };
  auto a = run(fn, {HostTensor::fromVector<float>({1}, {0})});
  auto b = run(fn, {HostTensor::fromVector<float>({1}, {0})});
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  auto keys = a[0].toVector<int64_t>();
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      EXPECT_FALSE(keys[2 * i] == keys[2 * j] && keys[2 * i + 1] == keys[2 * j + 1]);
  EXPECT_EQ(a[1].toVector<float>(), b[1].toVector<float>());
  EXPECT_NE(a[1].toVector<float>(), a[2].toVector<float>());
}

TEST(RandomOpsTest, NormalHasUnitVariance) {
  auto out = run([](Tensor) { return randomNormal(randomKey(11), {4000}, DType::F64); },
                 {HostTensor::fromVector<float>({1}, {0})});
  ASSERT_EQ(out.size(), 1u);
  double mean = 0, var = 0;
  auto z = toDoubles(out[0]);
  for (double v : z)
    mean += v / z.size();
  for (double v : z)
    var += (v - mean) * (v - mean) / z.size();
  EXPECT_NEAR(mean, 0, 0.06);
  EXPECT_NEAR(var, 1, 0.08);
}

TEST(RandomOpsTest, DropoutZeroesAndRescales) {
  std::vector<double> x(2000);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 1 + static_cast<double>(i % 7);
  auto out = run(
      [](Tensor v) {
        Tensor key = randomKey(5);
        return std::make_tuple(dropout(key, v, 0.25),
                               randomUniform(key, {2000}),
                               dropout(key, v, 0.0));
      },
      {fromDoubles(DType::F32, {2000}, x)});
  ASSERT_EQ(out.size(), 3u);
  auto d = toDoubles(out[0]), u = toDoubles(out[1]);
  int zeros = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    // Kept exactly where the same key's uniform is >= rate.
    if (u[i] >= 0.25)
      EXPECT_NEAR(d[i], x[i] / 0.75, 1e-5) << i;
    else
      EXPECT_EQ(d[i], 0) << i;
    zeros += d[i] == 0;
  }
  EXPECT_NEAR(zeros / 2000.0, 0.25, 0.04);
  expectClose(out[2], x, 0);
}

} // namespace
