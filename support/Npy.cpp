//===- Npy.cpp - NumPy .npy files as HostTensors --------------------------===//
//
// Format reference: numpy/lib/format.py. A file is the magic "\x93NUMPY", a
// major and minor version byte, the header length (uint16 for 1.0, uint32
// for 2.0 and 3.0, little-endian), then the header: a Python dict literal
// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` padded with
// spaces and ending in '\n'. The raw data follows.
//
//===----------------------------------------------------------------------===//

#include "support/Npy.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace torus {

static_assert(std::endian::native == std::endian::little,
              "the .npy reader assumes a little-endian host");

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

struct Descr {
  std::string_view descr;
  DType dtype;
};
// Spellings NumPy writes for the supported types. `=` and no prefix mean
// native order, which is little-endian here; `|` means "not applicable".
constexpr Descr kDescrs[] = {
    {"<f4", DType::F32}, {"=f4", DType::F32}, {"f4", DType::F32},
    {"<f8", DType::F64}, {"=f8", DType::F64}, {"f8", DType::F64},
    {"<f2", DType::F16}, {"=f2", DType::F16}, {"f2", DType::F16},
    {"<i4", DType::I32}, {"=i4", DType::I32}, {"i4", DType::I32},
    {"<i8", DType::I64}, {"=i8", DType::I64}, {"i8", DType::I64},
    {"|i1", DType::I8},  {"<i1", DType::I8},  {"i1", DType::I8},
    {"<i2", DType::I16}, {"=i2", DType::I16}, {"i2", DType::I16},
    {"|u1", DType::U8},  {"<u1", DType::U8},  {"u1", DType::U8},
    {"<u2", DType::U16}, {"=u2", DType::U16}, {"u2", DType::U16},
    {"<u4", DType::U32}, {"=u4", DType::U32}, {"u4", DType::U32},
    {"<u8", DType::U64}, {"=u8", DType::U64}, {"u8", DType::U64},
    {"<c8", DType::C64}, {"=c8", DType::C64}, {"c8", DType::C64},
    {"<c16", DType::C128}, {"=c16", DType::C128}, {"c16", DType::C128},
    {"|b1", DType::I1},  {"<b1", DType::I1},  {"=b1", DType::I1},
    {"b1", DType::I1},   {"?", DType::I1},    {"|?", DType::I1},
    // bf16 as the ml_dtypes package saves it: numpy.save writes a 2-byte
    // void, '<V2' (np.load returns it as '|V2'; .view(ml_dtypes.bfloat16)
    // gets the values back).
    {"<V2", DType::BF16}, {"|V2", DType::BF16}, {"V2", DType::BF16},
    // The 8-bit floats as ml_dtypes saves them: float8_e4m3fn as a 1-byte
    // void '<V1' (np.load returns '|V1'), float8_e5m2 as '<f1' (which
    // np.load itself refuses; Torus reads and writes it as ml_dtypes does).
    {"<V1", DType::F8E4M3FN}, {"|V1", DType::F8E4M3FN}, {"V1", DType::F8E4M3FN},
    {"<f1", DType::F8E5M2}, {"|f1", DType::F8E5M2}, {"f1", DType::F8E5M2},
};

absl::Status error(std::string_view name, std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("{}: {}", name, message));
}

/// The three header values, parsed from the dict literal.
struct Header {
  std::string descr;
  bool fortranOrder = false;
  Shape shape;
};

/// A tiny parser for the subset of Python literals .npy headers use: a dict
/// of string keys to strings, booleans and tuples of non-negative integers.
class HeaderParser {
public:
  HeaderParser(std::string_view text, std::string_view name)
      : text_(text), name_(name) {}

  absl::StatusOr<Header> parse() {
    Header header;
    bool sawDescr = false, sawOrder = false, sawShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("the header is not a Python dict");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      auto key = parseString();
      if (!key)
        return fail("expected a quoted key in the header dict");
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + *key + "' in the header");
      skipSpace();
      if (*key == "descr") {
        auto value = parseString();
        if (!value) {
          if (peek() == '[')
            return fail("structured dtypes (record arrays) are not "
                        "supported");
          return fail("'descr' must be a string such as '<f4'");
        }
        header.descr = *value;
        sawDescr = true;
      } else if (*key == "fortran_order") {
        auto value = parseBool();
        if (!value)
          return fail("'fortran_order' must be True or False");
        header.fortranOrder = *value;
        sawOrder = true;
      } else if (*key == "shape") {
        auto value = parseShape();
        if (!value.ok())
          return value.status();
        header.shape = std::move(*value);
        sawShape = true;
      } else {
        return fail("unexpected key '" + *key + "' in the header");
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}' in the header dict");
    }
    if (!sawDescr || !sawOrder || !sawShape)
      return fail("the header must have the keys 'descr', 'fortran_order' "
                  "and 'shape'");
    // NumPy pads the dict with spaces and ends the header with '\n';
    // np.load refuses anything else there.
    for (size_t i = pos_; i < text_.size(); ++i) {
      char c = text_[i];
      if (c == ' ' || (c == '\n' && i + 1 == text_.size()))
        continue;
      return fail(fmt::format("unexpected byte 0x{:02x} at offset {} of the "
                              "header, after the dict: only spaces and a "
                              "final newline may pad it",
                              static_cast<unsigned char>(c), i));
    }
    return header;
  }

private:
  absl::Status fail(std::string message) {
    return error(name_, "bad .npy header: " + message);
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  std::optional<std::string> parseString() {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return std::nullopt;
    ++pos_;
    size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos)
      return std::nullopt;
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  std::optional<bool> parseBool() {
    if (text_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (text_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    return std::nullopt;
  }
  absl::StatusOr<Shape> parseShape() {
    Shape shape;
    if (!consume('('))
      return fail("'shape' must be a tuple of integers");
    while (true) {
      skipSpace();
      if (consume(')'))
        return shape;
      if (!std::isdigit(static_cast<unsigned char>(peek())))
        return fail("'shape' must be a tuple of non-negative integers");
      int64_t dim = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        int digit = text_[pos_++] - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
          return fail("a dimension of 'shape' is too large");
        dim = dim * 10 + digit;
      }
      // NumPy 1.x writes `3L` for longs on Python 2.
      consume('L');
      shape.push_back(dim);
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return shape;
      return fail("expected ',' or ')' in 'shape'");
    }
  }

  std::string_view text_;
  std::string_view name_;
  size_t pos_ = 0;
};

uint32_t readLittleEndian(std::string_view bytes, size_t offset, size_t width) {
  uint32_t value = 0;
  for (size_t i = 0; i < width; ++i)
    value |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i]))
             << (8 * i);
  return value;
}

std::string describeUnsupported(std::string_view descr) {
  std::string supported =
      "supported: <f4 (f32), <f8 (f64), <f2 (f16), |i1, <i2, <i4, <i8 "
      "(i8..i64), |u1, <u2, <u4, <u8 (u8..u64), |b1 (bool), <V2 (bf16, as "
      "ml_dtypes saves it), <V1 (f8e4m3fn) and <f1 (f8e5m2), as ml_dtypes "
      "saves them";
  if (!descr.empty() && descr[0] == '>')
    return fmt::format("big-endian data ('{}') is not supported; convert "
                       "with arr.astype(arr.dtype.newbyteorder('<')) ({})",
                       descr, supported);
  return fmt::format("unsupported dtype '{}' ({})", descr, supported);
}

} // namespace

std::string_view npyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::F16:
    return "<f2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::C64:
    return "<c8";
  case DType::C128:
    return "<c16";
  case DType::I1:
    return "|b1";
  case DType::BF16:
    return "<V2";
  case DType::F8E4M3FN:
    return "<V1";
  case DType::F8E5M2:
    return "<f1";
  }
  return "";
}

namespace {

/// The header of a .npy file and where its data starts, checked up to the
/// element type.
struct Layout {
  Header header;
  size_t dataOffset = 0;
};

absl::StatusOr<Layout> parseLayout(std::string_view bytes,
                                   std::string_view name) {
  if (bytes.size() < kMagic.size() + 2 ||
      bytes.substr(0, kMagic.size()) != kMagic)
    return error(name, "not a .npy file (it does not start with "
                       "\"\\x93NUMPY\")");
  int major = static_cast<unsigned char>(bytes[6]);
  int minor = static_cast<unsigned char>(bytes[7]);
  size_t lengthWidth;
  if (major == 1)
    lengthWidth = 2;
  else if (major == 2 || major == 3)
    lengthWidth = 4;
  else
    return error(name, fmt::format("unsupported .npy version {}.{} (1.0, 2.0 "
                                   "and 3.0 are supported)",
                                   major, minor));
  size_t headerStart = 8 + lengthWidth;
  if (bytes.size() < headerStart)
    return error(name, "truncated .npy file (no header length)");
  size_t headerLength = readLittleEndian(bytes, 8, lengthWidth);
  if (bytes.size() - headerStart < headerLength)
    return error(name, fmt::format("truncated .npy file: the header needs {} "
                                   "bytes, the file has {} after the preamble",
                                   headerLength, bytes.size() - headerStart));
  std::string_view headerText = bytes.substr(headerStart, headerLength);
  TORUS_ASSIGN_OR_RETURN(Header header, HeaderParser(headerText, name).parse());
  return Layout{std::move(header), headerStart + headerLength};
}

/// Checks that the data after the header is exactly the array: `elements`
/// of `width` bytes (`typeName` for the message).
absl::StatusOr<uint64_t> checkDataSize(std::string_view bytes,
                                       const Layout &layout, size_t width,
                                       std::string_view typeName,
                                       std::string_view name) {
  if (layout.header.fortranOrder)
    return error(name, "Fortran-order arrays are not supported; save "
                       "np.ascontiguousarray(arr) instead");
  // Element count without overflow.
  uint64_t elements = 1;
  for (int64_t dim : layout.header.shape) {
    if (dim != 0 && elements > std::numeric_limits<uint64_t>::max() / 8 /
                                   static_cast<uint64_t>(dim))
      return error(name, "the array is too large");
    elements *= static_cast<uint64_t>(dim);
  }
  uint64_t dataBytes = elements * width;
  uint64_t available = bytes.size() - layout.dataOffset;
  if (available != dataBytes)
    return error(name,
                 fmt::format("{} .npy data: shape {} of {} needs {} bytes, the "
                             "file has {}",
                             available < dataBytes ? "truncated" : "extra",
                             shapeToString(layout.header.shape), typeName,
                             dataBytes, available));
  return elements;
}

} // namespace

absl::StatusOr<HostTensor> parseNpy(std::string_view bytes,
                                    std::string_view name) {
  TORUS_ASSIGN_OR_RETURN(Layout layout, parseLayout(bytes, name));
  const Header &header = layout.header;
  std::optional<DType> dtype;
  for (const Descr &d : kDescrs)
    if (d.descr == header.descr)
      dtype = d.dtype;
  if (!dtype)
    return error(name, describeUnsupported(header.descr));
  TORUS_ASSIGN_OR_RETURN(uint64_t elements,
                         checkDataSize(bytes, layout, byteWidth(*dtype),
                                       dtypeName(*dtype), name));

  HostTensor tensor(*dtype, header.shape);
  const char *data = bytes.data() + layout.dataOffset;
  if (*dtype == DType::I1) {
    auto *out = static_cast<uint8_t *>(tensor.rawData());
    for (uint64_t i = 0; i < elements; ++i)
      out[i] = data[i] != 0 ? 1 : 0;
  } else if (elements > 0) {
    std::memcpy(tensor.rawData(), data, elements * byteWidth(*dtype));
  }
  return tensor;
}

absl::StatusOr<NpyArray> parseNpyArray(std::string_view bytes,
                                       std::string_view name) {
  TORUS_ASSIGN_OR_RETURN(Layout layout, parseLayout(bytes, name));
  NpyArray array;
  array.descr = layout.header.descr;
  array.shape = layout.header.shape;
  // [byte order] kind width, as NumPy writes a scalar type; '?' is bool.
  std::string_view d = array.descr;
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '='))
    d.remove_prefix(1);
  if (d == "?")
    d = "b1";
  if (d.size() < 2 ||
      std::string_view("biufcV").find(d[0]) == std::string_view::npos ||
      d.substr(1).find_first_not_of("0123456789") != std::string_view::npos ||
      d.size() > 4)
    return error(name, fmt::format("unsupported dtype '{}' (not a scalar "
                                   "type: bool, integer, float, complex or "
                                   "void, of a fixed width)",
                                   array.descr));
  array.kind = d[0];
  array.width = std::stoi(std::string(d.substr(1)));
  if (array.width == 0)
    return error(name, fmt::format("unsupported dtype '{}' (zero width)",
                                   array.descr));
  if (array.descr[0] == '>' && array.width > 1)
    return error(name, describeUnsupported(array.descr));
  TORUS_ASSIGN_OR_RETURN(uint64_t elements,
                         checkDataSize(bytes, layout, array.width, array.descr,
                                       name));
  array.data.assign(bytes.substr(layout.dataOffset, elements * array.width));
  return array;
}

namespace {
/// The bytes of the file at `path`.
absl::StatusOr<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(
        fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad())
    return absl::DataLossError(fmt::format("{}: read error", path));
  return buffer.str();
}
} // namespace

absl::StatusOr<HostTensor> readNpy(const std::string &path) {
  auto bytes = readFile(path);
  if (!bytes.ok())
    return bytes.status();
  return parseNpy(*bytes, path);
}

absl::StatusOr<NpyArray> readNpyArray(const std::string &path) {
  auto bytes = readFile(path);
  if (!bytes.ok())
    return bytes.status();
  return parseNpyArray(*bytes, path);
}

absl::StatusOr<std::string> serializeNpy(const HostTensor &tensor) {
  std::string_view descr = npyDescr(tensor.dtype());
  if (descr.empty())
    return absl::InvalidArgumentError(
        fmt::format("{} has no .npy element type", tensor.spec().toString()));
  std::string shape;
  for (int64_t dim : tensor.shape())
    shape += fmt::format("{}, ", dim);
  if (tensor.shape().size() > 1)
    shape.resize(shape.size() - 2); // (2, 3); a 1-tuple keeps its comma: (4,)
  else if (tensor.shape().size() == 1)
    shape.resize(shape.size() - 1);
  std::string header = fmt::format(
      "{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr,
      shape);
  // Pad with spaces so that the data starts on a 64-byte boundary.
  size_t preamble = kMagic.size() + 2 + 2;
  size_t total = preamble + header.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  header.append(padded - total, ' ');
  header.push_back('\n');
  if (header.size() > std::numeric_limits<uint16_t>::max())
    return absl::InvalidArgumentError("the .npy header is too long");

  std::string out(kMagic);
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  if (tensor.sizeInBytes() > 0) {
    if (!tensor.rawData())
      return absl::InvalidArgumentError("the tensor has no storage");
    out.append(static_cast<const char *>(tensor.rawData()),
               tensor.sizeInBytes());
  }
  return out;
}

absl::Status writeNpy(const std::string &path, const HostTensor &tensor) {
  TORUS_ASSIGN_OR_RETURN(std::string bytes, serializeNpy(tensor));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(
        fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out)
    return absl::DataLossError(fmt::format("{}: write failed", path));
  return absl::OkStatus();
}

HostTensor asIntegerArgument(HostTensor array, DType dtype) {
  if (array.dtype() == dtype || !isInteger(array.dtype()) ||
      !isInteger(dtype) || byteWidth(array.dtype()) != byteWidth(dtype))
    return array;
  HostTensor same(TensorSpec{dtype, array.shape()});
  if (array.sizeInBytes())
    std::memcpy(same.rawData(), array.rawData(), array.sizeInBytes());
  return same;
}

} // namespace torus
