//===- HostTensor.cpp - A dense array in host memory ----------------------===//

#include "torus/HostTensor.h"

#include "support/DTypeDispatch.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace torus {

namespace {
constexpr size_t kAlignment = 64;

void *allocateAligned(size_t bytes) {
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void *p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (!p)
    throw std::bad_alloc();
  std::memset(p, 0, rounded == 0 ? kAlignment : rounded);
  return p;
}

std::string formatElement(DType dtype, const void *data, int64_t i) {
  if (dtype == DType::I1)
    return static_cast<const uint8_t *>(data)[i] ? "true" : "false";
  std::string text;
  if (!visitDType(dtype, [&]<typename T>(T) {
        const T &v = static_cast<const T *>(data)[i];
        if constexpr (IsComplex<T>)
          text = fmt::format("({}, {})", v.real(), v.imag()); // as HLO
        else // 8-bit integers as numbers, not characters
          text = fmt::format("{}", +v);
      }))
    // f16, bf16 and the f8 types: their bits.
    text = byteWidth(dtype) == 1
               ? fmt::format("0x{:02x}", static_cast<const uint8_t *>(data)[i])
               : fmt::format("0x{:04x}",
                             static_cast<const uint16_t *>(data)[i]);
  return text;
}
} // namespace

void HostTensor::FreeDeleter::operator()(void *p) const { std::free(p); }

HostTensor::HostTensor(TensorSpec spec)
    : spec_(std::move(spec)),
      data_(static_cast<std::byte *>(allocateAligned(spec_.sizeInBytes()))) {}

HostTensor::HostTensor(const HostTensor &other) : HostTensor(other.spec_) {
  if (other.data_)
    std::memcpy(rawData(), other.rawData(), sizeInBytes());
}

HostTensor &HostTensor::operator=(const HostTensor &other) {
  if (this != &other)
    *this = HostTensor(other);
  return *this;
}

void HostTensor::checkType(DType requested) const {
  if (requested != spec_.dtype)
    throw std::logic_error(fmt::format(
        "HostTensor: requested {} data of a {} tensor", dtypeName(requested),
        spec_.toString()));
}

std::string HostTensor::toString(size_t maxElements) const {
  std::string out = spec_.toString() + "{";
  int64_t n = data_ ? numElements() : 0;
  int64_t head = n, tail = 0;
  if (static_cast<size_t>(n) > maxElements) {
    head = static_cast<int64_t>(maxElements / 2);
    tail = static_cast<int64_t>(maxElements) - head;
  }
  for (int64_t i = 0; i < head; ++i)
    out += (i ? ", " : "") + formatElement(dtype(), rawData(), i);
  if (tail) {
    out += ", ...";
    for (int64_t i = n - tail; i < n; ++i)
      out += ", " + formatElement(dtype(), rawData(), i);
  }
  return out + "}";
}

} // namespace torus
