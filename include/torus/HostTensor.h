//===- HostTensor.h - A dense array in host memory --------------*- C++ -*-===//
//
// What a user feeds to and fetches from the emulated devices: an owned,
// row-major, 64-byte aligned buffer with a TensorSpec.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_HOSTTENSOR_H
#define TORUS_HOSTTENSOR_H

#include "torus/Types.h"

#include <complex>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace torus {

/// The DType of the C++ element type T: float -> F32, double -> F64,
/// int8_t .. int64_t -> I8 .. I64, uint8_t .. uint64_t -> U8 .. U64,
/// bool -> I1, std::complex<float> / <double> -> C64 / C128 (no other T is
/// defined).
///@{
template <typename T> constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<float>() { return DType::F32; }
template <> constexpr DType dtypeOf<double>() { return DType::F64; }
template <> constexpr DType dtypeOf<int8_t>() { return DType::I8; }
template <> constexpr DType dtypeOf<int16_t>() { return DType::I16; }
template <> constexpr DType dtypeOf<int32_t>() { return DType::I32; }
template <> constexpr DType dtypeOf<int64_t>() { return DType::I64; }
template <> constexpr DType dtypeOf<uint8_t>() { return DType::U8; }
template <> constexpr DType dtypeOf<uint16_t>() { return DType::U16; }
template <> constexpr DType dtypeOf<uint32_t>() { return DType::U32; }
template <> constexpr DType dtypeOf<uint64_t>() { return DType::U64; }
template <> constexpr DType dtypeOf<bool>() { return DType::I1; }
template <> constexpr DType dtypeOf<std::complex<float>>() { return DType::C64; }
template <> constexpr DType dtypeOf<std::complex<double>>() {
  return DType::C128;
}
///@}

/// A dense tensor in host memory: an owned, row-major, 64-byte aligned buffer
/// with its TensorSpec. What programs feed to and fetch from the emulated
/// devices. Copying copies the buffer; moving moves it. Allocation failure
/// throws std::bad_alloc.
class HostTensor {
public:
  /// An empty f32 scalar-shaped tensor with no storage; only for containers.
  HostTensor() = default;
  /// Zero-filled tensor of the given type.
  explicit HostTensor(TensorSpec spec);
  /// Zero-filled tensor of `dtype` and `shape`.
  HostTensor(DType dtype, Shape shape) : HostTensor(TensorSpec{dtype, shape}) {}

  ///@{
  /// Copies duplicate the buffer (deep copy); moves take it over and leave the
  /// source without storage.
  HostTensor(const HostTensor &other);
  HostTensor &operator=(const HostTensor &other);
  HostTensor(HostTensor &&) noexcept = default;
  HostTensor &operator=(HostTensor &&) noexcept = default;
  ///@}

  /// A tensor holding `values` (row-major); the count must match the shape.
  template <typename T>
  static HostTensor fromVector(Shape shape, const std::vector<T> &values) {
    HostTensor t(dtypeOf<T>(), std::move(shape));
    if (static_cast<int64_t>(values.size()) != t.numElements())
      throw std::invalid_argument("HostTensor::fromVector: " +
                                  std::to_string(values.size()) +
                                  " values for shape " +
                                  shapeToString(t.shape()));
    std::memcpy(t.rawData(), values.data(), t.sizeInBytes());
    return t;
  }
  /// A rank-0 tensor of dtypeOf<T>() holding `value`.
  template <typename T> static HostTensor scalar(T value) {
    return fromVector<T>({}, {value});
  }

  /// The dtype and shape.
  const TensorSpec &spec() const { return spec_; }
  /// The element type.
  DType dtype() const { return spec_.dtype; }
  /// The dimensions, outermost first.
  const Shape &shape() const { return spec_.shape; }
  /// The number of elements (1 for a scalar).
  int64_t numElements() const { return spec_.numElements(); }
  /// Size of the buffer in bytes: numElements() x byteWidth(dtype()).
  size_t sizeInBytes() const { return spec_.sizeInBytes(); }

  ///@{
  /// The untyped buffer (sizeInBytes() bytes, 64-byte aligned), owned by this
  /// tensor; null for a default-constructed one.
  void *rawData() { return data_.get(); }
  const void *rawData() const { return data_.get(); }
  ///@}

  ///@{
  /// Typed view; T must match dtype() (checked, throws std::logic_error).
  template <typename T> std::span<T> data() {
    checkType(dtypeOf<T>());
    return {static_cast<T *>(rawData()), static_cast<size_t>(numElements())};
  }
  template <typename T> std::span<const T> data() const {
    checkType(dtypeOf<T>());
    return {static_cast<const T *>(rawData()),
            static_cast<size_t>(numElements())};
  }
  ///@}
  /// Copies out as a vector of T (T must match dtype()).
  template <typename T> std::vector<T> toVector() const {
    auto d = data<T>();
    return {d.begin(), d.end()};
  }

  /// `f32[2,2]{1, 2, 3, 4}`; long tensors are elided in the middle.
  std::string toString(size_t maxElements = 16) const;

private:
  struct FreeDeleter {
    void operator()(void *p) const;
  };
  void checkType(DType requested) const;

  TensorSpec spec_;
  std::unique_ptr<std::byte, FreeDeleter> data_;
};

} // namespace torus

#endif // TORUS_HOSTTENSOR_H
