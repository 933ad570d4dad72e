//===- Types.cpp - Element types, shapes and tensor specs -----------------===//

#include "torus/Types.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace torus {

size_t byteWidth(DType dtype) {
  switch (dtype) {
  case DType::C128:
    return 16;
  case DType::C64:
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::I1:
  case DType::I8:
  case DType::U8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return 1;
  }
  return 0;
}

std::string_view dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::C64:
    return "c64";
  case DType::C128:
    return "c128";
  case DType::F8E4M3FN:
    return "f8e4m3fn";
  case DType::F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType d : kAllDTypes)
    if (dtypeName(d) == name)
      return d;
  return std::nullopt;
}

bool isFloat(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 ||
         dtype == DType::BF16 || isFloat8(dtype);
}

bool isFloat8(DType dtype) {
  return dtype == DType::F8E4M3FN || dtype == DType::F8E5M2;
}

bool isInteger(DType dtype) {
  return !isFloat(dtype) && !isComplex(dtype) && dtype != DType::I1;
}

bool isComplex(DType dtype) {
  return dtype == DType::C64 || dtype == DType::C128;
}

DType complexPartType(DType dtype) {
  return dtype == DType::C64    ? DType::F32
         : dtype == DType::C128 ? DType::F64
                                : dtype;
}

bool isUnsigned(DType dtype) {
  return dtype == DType::U8 || dtype == DType::U16 || dtype == DType::U32 ||
         dtype == DType::U64;
}

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string shapeToString(const Shape &shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}

std::string TensorSpec::toString() const {
  return fmt::format("{}{}", dtypeName(dtype), shapeToString(shape));
}

} // namespace torus
