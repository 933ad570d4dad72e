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
      HostTensor(DType::BF16, {2, 1}),
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

TEST(NpyTest, OnlySpacesAndANewlinePadTheHeader) {
  // np.load refuses a header with anything but whitespace after the dict.
  std::string good = numpyBytes("<f4", "(1,)", "abcd");
  ASSERT_TRUE(parseNpy(good).ok());
  std::string garbage = good;
  size_t pad = garbage.find("}") + 3;
  garbage[pad] = '\xdb';
  auto bad = parseNpy(garbage, "x.npy");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("x.npy: bad .npy header: unexpected byte 0xdb"));
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("only spaces and a final newline may pad it"));
  // A newline before the end of the padding is not NumPy's either.
  std::string early = good;
  early[pad] = '\n';
  EXPECT_FALSE(parseNpy(early).ok());
  // A second dict after the first.
  std::string twice = good;
  twice.replace(pad, 2, "{}");
  EXPECT_FALSE(parseNpy(twice).ok());
}

TEST(NpyTest, NarrowAndUnsignedIntegers) {
  // numpy.save of int8, int16, uint8, uint16, uint32 and uint64 arrays.
  struct Case {
    const char *descr;
    DType dtype;
    std::string data;
  } cases[] = {
      {"|i1", DType::I8, std::string("\xff\x7f", 2)},
      {"<i2", DType::I16, std::string("\x00\x80\xff\x7f", 4)},
      {"|u1", DType::U8, std::string("\xff\x01", 2)},
      {"<u2", DType::U16, std::string("\xff\xff\x02\x00", 4)},
      {"<u4", DType::U32, std::string("\xff\xff\xff\xff\x03\x00\x00\x00", 8)},
      {"<u8", DType::U64, std::string("\xff\xff\xff\xff\xff\xff\xff\xff"
                                      "\x04\x00\x00\x00\x00\x00\x00\x00",
                                      16)},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.descr);
    std::string saved = numpyBytes(c.descr, "(2,)", c.data);
    auto t = parseNpy(saved);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->dtype(), c.dtype);
    EXPECT_EQ(std::string(static_cast<const char *>(t->rawData()),
                          t->sizeInBytes()),
              c.data);
    auto bytes = serializeNpy(*t);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(*bytes, saved);
  }
  auto u8 = parseNpy(numpyBytes("|u1", "(2,)", std::string("\xff\x01", 2)));
  ASSERT_TRUE(u8.ok());
  EXPECT_EQ(u8->data<uint8_t>()[0], 255);
}

TEST(NpyTest, SameWidthIntegersReadAsTheArgumentType) {
  HostTensor i32 = HostTensor::fromVector<int32_t>({2}, {-1, 7});
  HostTensor u32 = asIntegerArgument(i32, DType::U32);
  EXPECT_EQ(u32.dtype(), DType::U32);
  EXPECT_EQ(u32.data<uint32_t>()[0], 0xffffffffu);
  EXPECT_EQ(u32.data<uint32_t>()[1], 7u);
  // Another width or a float stays as it is, for the caller to reject.
  EXPECT_EQ(asIntegerArgument(i32, DType::U64).dtype(), DType::I32);
  EXPECT_EQ(asIntegerArgument(i32, DType::F32).dtype(), DType::I32);
}

TEST(NpyTest, Bf16AsMlDtypesSavesIt) {
  // numpy.save(f, np.array([1, -2.5, 0.1, inf], dtype=ml_dtypes.bfloat16))
  // with NumPy 2.4.6 and ml_dtypes 0.6.0: 136 bytes, the 2-byte void '<V2'.
  std::string header =
      "{'descr': '<V2', 'fortran_order': False, 'shape': (4,), }";
  header.append(117 - header.size(), ' ');
  header += '\n';
  std::string saved = std::string("\x93NUMPY\x01\x00v\x00", 10) + header +
                      std::string("\x80\x3f\x20\xc0\xcd\x3d\x80\x7f", 8);
  ASSERT_EQ(saved.size(), 136u);
  auto t = parseNpy(saved);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->spec().toString(), "bf16[4]");
  // The upper halves of the f32 bits of 1, -2.5, 0.1 (rounded), inf.
  std::vector<uint16_t> bits(4);
  std::memcpy(bits.data(), t->rawData(), 8);
  EXPECT_EQ(bits, (std::vector<uint16_t>{0x3f80, 0xc020, 0x3dcd, 0x7f80}));
  // Written back byte for byte; np.load returns it as '|V2', read too.
  auto bytes = serializeNpy(*t);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, saved);
  auto reloaded = parseNpy(numpyBytes("|V2", "(1,)", "\x80\x3f"));
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_EQ(reloaded->dtype(), DType::BF16);
  // Other voids are not bf16.
  EXPECT_THAT(std::string(parseNpy(numpyBytes("|V4", "(1,)", "abcd"))
                              .status()
                              .message()),
              HasSubstr("unsupported dtype '|V4'"));
}

TEST(NpyTest, Float8AsMlDtypesSavesThem) {
  // numpy.save(f, np.array([1, -2.5, 0.1, x], np.float32).astype(t)) with
  // NumPy 2.4.6 and ml_dtypes 0.6.0: 132 bytes; float8_e4m3fn (x = 448) is
  // the 1-byte void '<V1', float8_e5m2 (x = inf) is '<f1'.
  struct Case {
    const char *descr;
    const char *data;
    const char *spec;
  } cases[] = {{"<V1", "\x38\xc2\x1d\x7e", "f8e4m3fn[4]"},
               {"<f1", "\x3c\xc1\x2e\x7c", "f8e5m2[4]"}};
  for (const Case &c : cases) {
    std::string header = std::string("{'descr': '") + c.descr +
                         "', 'fortran_order': False, 'shape': (4,), }";
    header.append(117 - header.size(), ' ');
    header += '\n';
    std::string saved = std::string("\x93NUMPY\x01\x00v\x00", 10) + header +
                        std::string(c.data, 4);
    ASSERT_EQ(saved.size(), 132u);
    auto t = parseNpy(saved);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->spec().toString(), c.spec);
    EXPECT_EQ(std::memcmp(t->rawData(), c.data, 4), 0) << c.descr;
    // Written back byte for byte.
    auto bytes = serializeNpy(*t);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(*bytes, saved) << c.descr;
  }
  // np.load returns an f8e4m3fn file as '|V1', read too.
  auto reloaded = parseNpy(numpyBytes("|V1", "(1,)", "\x38"));
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_EQ(reloaded->dtype(), DType::F8E4M3FN);
}

TEST(NpyTest, ArraysOfAnyScalarTypeUndecoded) {
  auto u2 = parseNpyArray(
      numpyBytes("<u2", "(2, 1)", std::string("\x01\x00\xff\xff", 4)));
  ASSERT_TRUE(u2.ok()) << u2.status();
  EXPECT_EQ(u2->descr, "<u2");
  EXPECT_EQ(u2->kind, 'u');
  EXPECT_EQ(u2->width, 2);
  EXPECT_EQ(u2->shape, (Shape{2, 1}));
  EXPECT_EQ(u2->data, std::string("\x01\x00\xff\xff", 4));
  auto i1 = parseNpyArray(numpyBytes("|i1", "()", "\xfe"));
  ASSERT_TRUE(i1.ok()) << i1.status();
  EXPECT_EQ(i1->kind, 'i');
  EXPECT_EQ(i1->width, 1);
  EXPECT_EQ(i1->shape, Shape{});
  auto b = parseNpyArray(numpyBytes("?", "(1,)", "\x01"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->kind, 'b');
  EXPECT_EQ(b->width, 1);
  auto c = parseNpyArray(numpyBytes("<c8", "(1,)", "abcdefgh"));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->kind, 'c');
  EXPECT_EQ(c->width, 8);

  auto message = [](std::string bytes) {
    auto a = parseNpyArray(bytes, "x.npy");
    EXPECT_FALSE(a.ok());
    return a.ok() ? std::string() : std::string(a.status().message());
  };
  EXPECT_THAT(message(numpyBytes(">u2", "(1,)", "ab")),
              HasSubstr("big-endian data ('>u2') is not supported"));
  EXPECT_THAT(message(numpyBytes("|O", "(1,)", "abcdefgh")),
              HasSubstr("unsupported dtype '|O'"));
  EXPECT_THAT(message(numpyBytes("<U3", "(1,)", std::string(12, 'a'))),
              HasSubstr("x.npy: unsupported dtype '<U3'"));
  EXPECT_THAT(message(numpyBytes("<u4", "(3,)", "abcd")),
              HasSubstr("truncated .npy data: shape [3] of <u4 needs 12 "
                        "bytes, the file has 4"));
  std::string good = numpyBytes("<u8", "(2,)", std::string(16, '\1'));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(parseNpyArray(good.substr(0, n)).ok()) << n;
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
