//===- HalfFloat.h - f16 and bf16 to and from f32 ---------------*- C++ -*-===//
//
// Reductions of f16 and bf16 compute each combining step in f32 and round
// the result back to the element type (round to nearest even). f32 carries
// more than twice the significand bits of either type plus two, so this
// double rounding equals the correctly rounded f16/bf16 operation.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_HALFFLOAT_H
#define TORUS_RUNTIME_COLLECTIVES_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace torus::rt {

inline float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

inline uint16_t floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  uint32_t bias = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + bias) >> 16);
}

inline float f16ToFloat(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, sizeof(half));
  return static_cast<float>(half);
}

inline uint16_t floatToF16(float value) {
  _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_HALFFLOAT_H
