//===- DTypeDispatch.h - Call a generic function with a dtype's C++ type -===//
//
// The one switch from a DType to the C++ type of its elements, for host code
// that handles elements one by one (formatting, host arithmetic, collective
// reductions, .npy files).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SUPPORT_DTYPEDISPATCH_H
#define TORUS_SUPPORT_DTYPEDISPATCH_H

#include "torus/Types.h"

#include <complex>
#include <cstdint>
#include <type_traits>

namespace torus {

/// Calls `fn(T{})` where T is the C++ element type of `dtype`: float,
/// double, int8_t .. int64_t, uint8_t .. uint64_t, std::complex<float> and
/// std::complex<double> for c64 and c128, or bool for i1 (stored as one
/// byte, 0 or 1). Callers that order elements (max, min) check IsComplex. Returns false without calling `fn` for f16, bf16,
/// f8e4m3fn and f8e5m2, which have no C++ arithmetic type here.
template <typename Fn> bool visitDType(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::F32:
    fn(float{});
    return true;
  case DType::F64:
    fn(double{});
    return true;
  case DType::I1:
    fn(bool{});
    return true;
  case DType::I8:
    fn(int8_t{});
    return true;
  case DType::I16:
    fn(int16_t{});
    return true;
  case DType::I32:
    fn(int32_t{});
    return true;
  case DType::I64:
    fn(int64_t{});
    return true;
  case DType::U8:
    fn(uint8_t{});
    return true;
  case DType::U16:
    fn(uint16_t{});
    return true;
  case DType::U32:
    fn(uint32_t{});
    return true;
  case DType::U64:
    fn(uint64_t{});
    return true;
  case DType::C64:
    fn(std::complex<float>{});
    return true;
  case DType::C128:
    fn(std::complex<double>{});
    return true;
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return false;
  }
  return false;
}

/// True for std::complex<float> and std::complex<double>.
template <typename T> struct IsComplexT : std::false_type {};
template <typename T> struct IsComplexT<std::complex<T>> : std::true_type {};
template <typename T> inline constexpr bool IsComplex = IsComplexT<T>::value;

/// The unsigned type in which integer arithmetic on T wraps around (two's
/// complement, as HLO's integers do): at least `unsigned`, so that 8- and
/// 16-bit operands do not promote to an `int` that could overflow.
template <typename T>
using WrappingUnsigned =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                       std::make_unsigned_t<T>>;

} // namespace torus

#endif // TORUS_SUPPORT_DTYPEDISPATCH_H
