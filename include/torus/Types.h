//===- Types.h - Element types, shapes and tensor specs ---------*- C++ -*-===//
//
// The vocabulary shared by the tracer, the compiler and the runtime: a
// tensor's element type and static shape. No MLIR or LLVM types.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TYPES_H
#define TORUS_TYPES_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torus {

/// Element types. Names follow HLO (`f32`, `u8`), except that the signed
/// integers are spelled as in MLIR (`i32` for HLO's `s32`). The numbering is
/// stable (checkpoints store it): new types are appended.
enum class DType : int32_t {
  F32, F64, F16, BF16, I1, I32, I64, I8, I16, U8, U16, U32, U64, C64, C128,
  /// XLA's 8-bit storage floats (OCP FP8): 4 exponent bits, 3 mantissa
  /// bits, no infinities (`f8e4m3fn`, max 448); and 5 exponent bits, 2
  /// mantissa bits, IEEE-like (`f8e5m2`). Arithmetic on them is computed in
  /// f32 and rounded back.
  F8E4M3FN, F8E5M2
};

/// Every DType, in their numbering's order.
inline constexpr DType kAllDTypes[] = {
    DType::F32, DType::F64, DType::F16, DType::BF16, DType::I1,
    DType::I32, DType::I64, DType::I8,  DType::I16,  DType::U8,
    DType::U16, DType::U32, DType::U64, DType::C64, DType::C128,
    DType::F8E4M3FN, DType::F8E5M2};

/// Bytes one element occupies in a dense host or device buffer (i1 uses 1).
size_t byteWidth(DType dtype);
/// `f32`, `f64`, `f16`, `bf16`, `i1`, `i8`, `i16`, `i32`, `i64`, `u8`,
/// `u16`, `u32`, `u64`, `c64`, `c128`, `f8e4m3fn`, `f8e5m2`.
std::string_view dtypeName(DType dtype);
/// Inverse of dtypeName; nullopt for an unknown name.
std::optional<DType> parseDType(std::string_view name);
/// True for the floating-point dtypes: f32, f64, f16, bf16, f8e4m3fn and
/// f8e5m2.
bool isFloat(DType dtype);
/// True for the 8-bit floats f8e4m3fn and f8e5m2.
bool isFloat8(DType dtype);
/// True for the unsigned integers u8, u16, u32 and u64.
bool isUnsigned(DType dtype);
/// True for the integers other than i1: i8..i64 and u8..u64.
bool isInteger(DType dtype);
/// True for the complex types c64 (two f32) and c128 (two f64).
bool isComplex(DType dtype);
/// The type of a complex dtype's parts (f32 for c64, f64 for c128); the
/// dtype itself for the others.
DType complexPartType(DType dtype);

/// A static shape, outermost dimension first (row-major).
using Shape = std::vector<int64_t>;

/// The product of the dimensions (1 for a scalar).
int64_t numElements(const Shape &shape);
/// `[2,3]`, or `[]` for a scalar.
std::string shapeToString(const Shape &shape);

/// The type of one tensor argument or result: dtype plus static shape.
struct TensorSpec {
  /// Element type.
  DType dtype = DType::F32;
  /// Dimensions, outermost first; empty for a scalar.
  Shape shape;

  /// The product of the dimensions (1 for a scalar).
  int64_t numElements() const { return torus::numElements(shape); }
  /// numElements() x byteWidth(dtype): the bytes of a dense buffer.
  size_t sizeInBytes() const { return numElements() * byteWidth(dtype); }
  /// `f32[2,3]`, the HLO spelling.
  std::string toString() const;
  /// Same dtype and shape.
  friend bool operator==(const TensorSpec &, const TensorSpec &) = default;
};

} // namespace torus

#endif // TORUS_TYPES_H
