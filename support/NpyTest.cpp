//===- NpyTest.cpp - .npy reading and writing -----------------------------===//
//
// Round trips for every supported type, bytes exactly as numpy.save writes
// them (NumPy 2.x, format 1.0), and the errors for what is not supported.
//
//===----------------------------------------------------------------------===//

#include "support/Npy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <filesystem>

#include <unistd.h>

using namespace torus;
using ::testing::HasSubstr;

namespace {

/// What numpy.save writes for an array of `descr` and `shape` ("(2, 3)").
std::string numpyBytes(std::string_view descr, std::string_view shape,
                       std::string_view data, int major = 1) {
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': " +
                       std::string(shape) + ", }";
  size_t preamble = major == 1 ? 10 : 12;
  size_t total = preamble + header.size() + 1;
  header.append((total + 63) / 64 * 64 - total, ' ');
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  if (major != 1)
    out += std::string(2, '\0');
  return out + header + std::string(data);
}

HostTensor boolTensor(Shape shape, const std::vector<uint8_t> &values) {
  HostTensor t(DType::I1, std::move(shape));
  std::memcpy(t.rawData(), values.data(), values.size());
  return t;
}

template <typename T> std::string rawBytes(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

TEST(NpyTest, ReadsWhatNumpyWrites) {
  std::vector<float> values{0, 1, 2, 3, 4, 5};
  auto t = parseNpy(numpyBytes("<f4", "(2, 3)", rawBytes(values)));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->spec().toString(), "f32[2,3]");
  EXPECT_EQ(t->toVector<float>(), values);
}

TEST(NpyTest, SerializesExactlyAsNumpy) {
  // np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)) is 152 bytes with
  // a 118-byte header.
  auto bytes = serializeNpy(HostTensor::fromVector<float>(
      {2, 3}, {0, 1, 2, 3, 4, 5}));
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(bytes->size(), 152u);
  EXPECT_EQ(*bytes, numpyBytes("<f4", "(2, 3)",
                               rawBytes(std::vector<float>{0, 1, 2, 3, 4, 5})));
  // A 1-tuple keeps its comma; a scalar is ().
  auto vec = serializeNpy(HostTensor::fromVector<int32_t>({3}, {1, 2, 3}));
  ASSERT_TRUE(vec.ok());
  EXPECT_THAT(*vec, HasSubstr("'shape': (3,), }"));
  auto scalar = serializeNpy(HostTensor::scalar<int64_t>(7));
  ASSERT_TRUE(scalar.ok());
  EXPECT_THAT(*scalar, HasSubstr("'descr': '<i8', 'fortran_order': False, "
                                 "'shape': (), }"));
}

TEST(NpyTest, RoundTripsEverySupportedType) {
  std::vector<HostTensor> tensors{
      HostTensor::fromVector<float>({2, 2}, {1.5f, -2.f, 3.f, 0.f}),
      HostTensor::fromVector<double>({3}, {1e300, -1, 0.5}),
      HostTensor::fromVector<int32_t>({1, 3}, {-7, 0, 2147483647}),
      HostTensor::fromVector<int64_t>({2}, {-1, int64_t{1} << 40}),
      boolTensor({4}, {1, 0, 0, 1}),
      HostTensor::scalar<float>(42.f),
      HostTensor(DType::F32, {0, 5}),
      HostTensor(DType::F16, {3}),
  };
  for (const HostTensor &t : tensors) {
    auto bytes = serializeNpy(t);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(bytes->size() % 64, t.sizeInBytes() % 64) << t.toString();
    auto back = parseNpy(*bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->spec(), t.spec());
    EXPECT_EQ(std::memcmp(back->rawData(), t.rawData(), t.sizeInBytes()), 0)
        << t.toString();
  }
}

TEST(NpyTest, ReadsAndWritesComplexAsNumpy) {
  // NumPy's complex64 is '<c8' (two f32, real first), complex128 '<c16'.
  std::vector<std::complex<float>> c64 = {{1.5f, -2.f}, {0.f, 3.25f}};
  auto parsed =
      parseNpy(numpyBytes("<c8", "(2,)", rawBytes(std::vector<float>{
                                              1.5f, -2.f, 0.f, 3.25f})));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->dtype(), DType::C64);
  EXPECT_EQ(parsed->toVector<std::complex<float>>(), c64);
  auto c128 = HostTensor::fromVector<std::complex<double>>(
      {1, 2}, {{1e300, -1}, {0.5, -0.25}});
  auto bytes = serializeNpy(c128);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_NE(bytes->find("'descr': '<c16'"), std::string::npos);
  auto back = parseNpy(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->spec(), c128.spec());
  EXPECT_EQ(back->toVector<std::complex<double>>(),
            c128.toVector<std::complex<double>>());
}

TEST(NpyTest, ReadsVersionTwoAndOtherSpellings) {
  auto v2 = parseNpy(numpyBytes("<i4", "(2,)", rawBytes(std::vector<int32_t>{
                                                   5, 6}),
                                /*major=*/2));
  ASSERT_TRUE(v2.ok()) << v2.status();
  EXPECT_EQ(v2->toVector<int32_t>(), (std::vector<int32_t>{5, 6}));
  // Keys in another order, double quotes, no trailing comma.
  std::string header =
      "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"|b1\"}";
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size());
  bytes += '\0';
  bytes += header + std::string("\x01\x05", 2);
  auto b = parseNpy(bytes);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->toVector<bool>(), (std::vector<bool>{true, true}));
}

TEST(NpyTest, ClearErrorsForUnsupportedFiles) {
  auto message = [](std::string bytes) {
    auto t = parseNpy(bytes, "x.npy");
    EXPECT_FALSE(t.ok());
    return t.ok() ? std::string() : std::string(t.status().message());
  };
  EXPECT_THAT(message("hello"), HasSubstr("x.npy: not a .npy file"));
  EXPECT_THAT(message(numpyBytes(">f4", "(1,)", "abcd")),
              HasSubstr("big-endian data ('>f4') is not supported"));
  EXPECT_THAT(message(numpyBytes("<M8", "(1,)", "abcdefgh")),
              HasSubstr("unsupported dtype '<M8' (supported: <f4 (f32)"));
  EXPECT_THAT(message(numpyBytes("<c32", "(1,)", "abcdefghabcdefgh")),
              HasSubstr("unsupported dtype '<c32'"));
  EXPECT_THAT(message(numpyBytes("<f4", "(3,)", "abcd")),
              HasSubstr("truncated .npy data: shape [3] of f32 needs 12 "
                        "bytes, the file has 4"));
  EXPECT_THAT(message(numpyBytes("<f4", "(1,)", "abcdabcd")),
              HasSubstr("extra .npy data"));
  std::string fortran = numpyBytes("<f4", "(1,)", "abcd");
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_THAT(message(fortran), HasSubstr("Fortran-order arrays are not "
                                          "supported"));
  std::string v9 = numpyBytes("<f4", "(1,)", "abcd");
  v9[6] = 9;
  EXPECT_THAT(message(v9), HasSubstr("unsupported .npy version 9.0"));
  EXPECT_THAT(message(numpyBytes("<f4", "(-1,)", "")),
              HasSubstr("non-negative integers"));
  EXPECT_THAT(message(numpyBytes("<f4", "(99999999999999999999,)", "")),
              HasSubstr("too large"));
  EXPECT_THAT(message(numpyBytes("<f4", "(4294967296, 4294967296)", "")),
              HasSubstr("too large"));
  EXPECT_THAT(message(std::string("\x93NUMPY\x01\x00\xff\x00{", 11)),
              HasSubstr("truncated .npy file"));
  // Every prefix of a valid file is an error, never a crash.
  std::string good = numpyBytes("<i8", "(2, 2)", std::string(32, '\1'));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(parseNpy(good.substr(0, n)).ok()) << n;
}

TEST(NpyTest, Bf16CannotBeWritten) {
  auto bytes = serializeNpy(HostTensor(DType::BF16, {2}));
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(std::string(bytes.status().message()),
              HasSubstr("bf16[2] has no .npy element type"));
}

TEST(NpyTest, FilesOnDisk) {
  auto dir = std::filesystem::temp_directory_path() /
             ("npy-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "a.npy").string();
  HostTensor t = HostTensor::fromVector<int64_t>({2}, {3, 4});
  ASSERT_TRUE(writeNpy(path, t).ok());
  auto back = readNpy(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->toVector<int64_t>(), (std::vector<int64_t>{3, 4}));
  auto missing = readNpy((dir / "missing.npy").string());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("missing.npy: cannot open"));
  std::filesystem::remove_all(dir);
}

} // namespace
