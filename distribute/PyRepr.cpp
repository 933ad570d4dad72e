//===- PyRepr.cpp - Python renderings for TensorFlow's messages -----------===//

#include "distribute/PyRepr.h"
#include "distribute/HostOps.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace torus::distribute::detail {

std::string pyFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buf[64];
  // Python's repr: the shortest string that round-trips; plain notation for
  // exponents in [-5, 16), else scientific with at least two exponent
  // digits.
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  std::string s(buf, res.ptr);
  // Find the decimal exponent of the shortest representation.
  auto sci = std::to_chars(buf, buf + sizeof(buf), value,
                           std::chars_format::scientific);
  std::string e(buf, sci.ptr);
  size_t epos = e.find('e');
  int exponent = std::stoi(e.substr(epos + 1));
  std::string mantissa = e.substr(0, epos);
  if (exponent < -4 || exponent >= 16) {
    char expBuf[16];
    std::snprintf(expBuf, sizeof(expBuf), "e%c%02d", exponent < 0 ? '-' : '+',
                  std::abs(exponent));
    return mantissa + expBuf;
  }
  auto fixed = std::to_chars(buf, buf + sizeof(buf), value,
                             std::chars_format::fixed);
  s.assign(buf, fixed.ptr);
  if (s.find('.') == std::string::npos)
    s += ".0";
  return s;
}

std::string tfDtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "float32";
  case DType::F64:
    return "float64";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::I1:
    return "bool";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::I8:
    return "int8";
  case DType::I16:
    return "int16";
  case DType::U8:
    return "uint8";
  case DType::U16:
    return "uint16";
  case DType::U32:
    return "uint32";
  case DType::U64:
    return "uint64";
  case DType::C64:
    return "complex64";
  case DType::C128:
    return "complex128";
  case DType::F8E4M3FN:
    return "float8_e4m3fn";
  case DType::F8E5M2:
    return "float8_e5m2";
  }
  return "unknown";
}

std::string pyShape(const std::vector<int64_t> &dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ", ";
    s += dims[i] < 0 ? "None" : std::to_string(dims[i]);
  }
  if (dims.size() == 1)
    s += ",";
  return s + ")";
}

namespace {
std::string element(const HostTensor &t, int64_t i, bool inArray) {
  double v = elementAsDouble(t, i);
  if (t.dtype() == DType::I1)
    return v != 0 ? "True" : "False";
  if (!isFloat(t.dtype()))
    return std::to_string(static_cast<int64_t>(v));
  if (t.dtype() == DType::F32)
    v = static_cast<double>(static_cast<float>(v));
  std::string s = t.dtype() == DType::F32
                      ? [&] {
                          char buf[64];
                          auto r = std::to_chars(buf, buf + sizeof(buf),
                                                 static_cast<float>(v));
                          std::string x(buf, r.ptr);
                          if (x.find_first_of(".en") == std::string::npos)
                            x += ".0";
                          return x;
                        }()
                      : pyFloat(v);
  // numpy prints 1.0 as "1." inside arrays.
  if (inArray && s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
    s.pop_back();
  return s;
}

void render(const HostTensor &t, const Shape &shape, size_t dim,
            int64_t &index, std::string &out, size_t indent) {
  if (dim == shape.size()) {
    out += element(t, index++, true);
    return;
  }
  out += "[";
  for (int64_t k = 0; k < shape[dim]; ++k) {
    if (k) {
      out += dim + 1 == shape.size() ? " " : "\n" + std::string(indent + 1, ' ');
    }
    render(t, shape, dim + 1, index, out, indent + 1);
  }
  out += "]";
}
} // namespace

std::string numpyStr(const HostTensor &t) {
  if (t.shape().empty())
    return element(t, 0, false);
  std::string out;
  int64_t index = 0;
  render(t, t.shape(), 0, index, out, 0);
  return out;
}

} // namespace torus::distribute::detail
