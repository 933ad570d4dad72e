//===- HostOps.cpp - Arithmetic and reshaping of host tensors -------------===//

#include "distribute/HostOps.h"

#include "support/DTypeDispatch.h"

#include <cstring>
#include <string>
#include <type_traits>

namespace torus::distribute::detail {

namespace {
int64_t rowElements(const HostTensor &t) {
  int64_t n = 1;
  for (size_t d = 1; d < t.shape().size(); ++d)
    n *= t.shape()[d];
  return n;
}

template <typename Fn> absl::Status dispatch(DType dtype, Fn &&fn) {
  if (dtype != DType::I1 && !isComplex(dtype) &&
      visitDType(dtype, [&]<typename T>(T) {
        if constexpr (!std::is_same_v<T, bool> && !IsComplex<T>)
          fn(T{});
      }))
    return absl::OkStatus();
  return absl::UnimplementedError("host arithmetic on " +
                                  std::string(dtypeName(dtype)) +
                                  " tensors is not supported");
}

absl::Status sameSpec(const HostTensor &a, const HostTensor &b,
                      const char *what) {
  if (a.spec() == b.spec())
    return absl::OkStatus();
  return absl::InvalidArgumentError(std::string(what) +
                                    ": incompatible shapes: " +
                                    a.spec().toString() + " vs. " +
                                    b.spec().toString());
}
} // namespace

HostTensor sliceRows(const HostTensor &t, int64_t begin, int64_t end) {
  Shape shape = t.shape();
  shape[0] = end - begin;
  HostTensor out(t.dtype(), shape);
  size_t rowBytes = rowElements(t) * byteWidth(t.dtype());
  if (out.sizeInBytes())
    std::memcpy(out.rawData(),
                static_cast<const std::byte *>(t.rawData()) + begin * rowBytes,
                out.sizeInBytes());
  return out;
}

HostTensor sliceAxis(const HostTensor &t, int64_t axis, int64_t begin,
                     int64_t end) {
  Shape shape = t.shape();
  const int64_t size = shape[axis];
  shape[axis] = end - begin;
  HostTensor out(t.dtype(), shape);
  if (!out.sizeInBytes())
    return out;
  // outer blocks of [size x inner] elements; copy [begin, end) of each.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  const size_t width = byteWidth(t.dtype());
  const size_t chunk = static_cast<size_t>((end - begin) * inner) * width;
  const auto *src = static_cast<const std::byte *>(t.rawData());
  auto *dst = static_cast<std::byte *>(out.rawData());
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(dst + o * chunk,
                src + static_cast<size_t>((o * size + begin) * inner) * width,
                chunk);
  return out;
}

HostTensor row(const HostTensor &t, int64_t i) {
  Shape shape(t.shape().begin() + 1, t.shape().end());
  HostTensor out(t.dtype(), shape);
  if (out.sizeInBytes())
    std::memcpy(out.rawData(),
                static_cast<const std::byte *>(t.rawData()) +
                    i * out.sizeInBytes(),
                out.sizeInBytes());
  return out;
}

HostTensor stack(const std::vector<HostTensor> &parts) {
  Shape shape = parts.front().shape();
  shape.insert(shape.begin(), static_cast<int64_t>(parts.size()));
  HostTensor out(parts.front().dtype(), shape);
  size_t bytes = parts.front().sizeInBytes();
  for (size_t i = 0; i < parts.size(); ++i)
    if (bytes)
      std::memcpy(static_cast<std::byte *>(out.rawData()) + i * bytes,
                  parts[i].rawData(), bytes);
  return out;
}

HostTensor concatRows(const std::vector<HostTensor> &parts) {
  Shape shape = parts.front().shape();
  int64_t rows = 0;
  for (const HostTensor &p : parts)
    rows += p.shape()[0];
  shape[0] = rows;
  HostTensor out(parts.front().dtype(), shape);
  size_t offset = 0;
  for (const HostTensor &p : parts) {
    if (p.sizeInBytes())
      std::memcpy(static_cast<std::byte *>(out.rawData()) + offset,
                  p.rawData(), p.sizeInBytes());
    offset += p.sizeInBytes();
  }
  return out;
}

bool identical(const HostTensor &a, const HostTensor &b) {
  return a.spec() == b.spec() &&
         (a.sizeInBytes() == 0 ||
          std::memcmp(a.rawData(), b.rawData(), a.sizeInBytes()) == 0);
}

bool allZero(const HostTensor &t) {
  const auto *p = static_cast<const unsigned char *>(t.rawData());
  for (size_t i = 0; i < t.sizeInBytes(); ++i)
    if (p[i])
      return false;
  return true;
}

namespace {
/// out[i] = op(a[i], b[i]) for tensors of one spec; `name` is the op in errors.
template <typename Op>
absl::StatusOr<HostTensor> elementwise(const HostTensor &a, const HostTensor &b,
                                       const char *name, Op op) {
  TORUS_RETURN_IF_ERROR(sameSpec(a, b, name));
  HostTensor out(a.spec());
  TORUS_RETURN_IF_ERROR(dispatch(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    auto x = a.data<T>(), y = b.data<T>();
    auto o = out.data<T>();
    for (size_t i = 0; i < o.size(); ++i)
      o[i] = static_cast<T>(op(x[i], y[i]));
  }));
  return out;
}
} // namespace

absl::StatusOr<HostTensor> add(const HostTensor &a, const HostTensor &b) {
  return elementwise(a, b, "add", [](auto x, auto y) { return x + y; });
}

absl::StatusOr<HostTensor> subtract(const HostTensor &a, const HostTensor &b) {
  return elementwise(a, b, "subtract", [](auto x, auto y) { return x - y; });
}

absl::StatusOr<HostTensor> divideBy(const HostTensor &a, double n) {
  HostTensor out(a.spec());
  TORUS_RETURN_IF_ERROR(dispatch(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    auto x = a.data<T>();
    auto o = out.data<T>();
    for (size_t i = 0; i < o.size(); ++i)
      o[i] = static_cast<T>(x[i] / static_cast<T>(n));
  }));
  return out;
}

absl::StatusOr<HostTensor> scaleBy(const HostTensor &a, double s) {
  HostTensor out(a.spec());
  TORUS_RETURN_IF_ERROR(dispatch(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    auto x = a.data<T>();
    auto o = out.data<T>();
    for (size_t i = 0; i < o.size(); ++i)
      o[i] = static_cast<T>(x[i] * static_cast<T>(s));
  }));
  return out;
}

absl::StatusOr<HostTensor> reduceSum(const HostTensor &a,
                                     const std::vector<int64_t> &axes) {
  const Shape &in = a.shape();
  std::vector<bool> reduced(in.size(), false);
  for (int64_t ax : axes)
    reduced[ax] = true;
  Shape outShape;
  for (size_t d = 0; d < in.size(); ++d)
    if (!reduced[d])
      outShape.push_back(in[d]);
  HostTensor out(a.dtype(), outShape);
  // Strides of the output for every input dimension (0 when reduced).
  std::vector<int64_t> outStride(in.size(), 0);
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(in.size()) - 1; d >= 0; --d)
    if (!reduced[d]) {
      outStride[d] = stride;
      stride *= in[d];
    }
  TORUS_RETURN_IF_ERROR(dispatch(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    auto x = a.data<T>();
    auto o = out.data<T>();
    std::vector<int64_t> idx(in.size(), 0);
    for (size_t i = 0; i < x.size(); ++i) {
      int64_t target = 0;
      for (size_t d = 0; d < in.size(); ++d)
        target += idx[d] * outStride[d];
      o[target] = static_cast<T>(o[target] + x[i]);
      for (int64_t d = static_cast<int64_t>(in.size()) - 1; d >= 0; --d) {
        if (++idx[d] < in[d])
          break;
        idx[d] = 0;
      }
    }
  }));
  return out;
}

double elementAsDouble(const HostTensor &t, int64_t i) {
  double v = 0;
  visitDType(t.dtype(), [&]<typename T>(T) {
    if constexpr (IsComplex<T>) // the real part, as a conversion does
      v = static_cast<double>(static_cast<const T *>(t.rawData())[i].real());
    else
      v = static_cast<double>(static_cast<const T *>(t.rawData())[i]);
  });
  return v;
}

namespace {
void storeElement(HostTensor &t, int64_t i, double v) {
  visitDType(t.dtype(), [&]<typename T>(T) {
    if constexpr (IsComplex<T>)
      static_cast<T *>(t.rawData())[i] = T(v, 0);
    else
      static_cast<T *>(t.rawData())[i] =
          std::is_same_v<T, bool> ? v != 0 : static_cast<T>(v);
  });
}
} // namespace

HostTensor cast(const HostTensor &a, DType dtype) {
  if (a.dtype() == dtype)
    return a;
  HostTensor out(dtype, a.shape());
  for (int64_t i = 0; i < a.numElements(); ++i)
    storeElement(out, i, elementAsDouble(a, i));
  return out;
}

HostTensor scalarOf(DType dtype, double value) {
  HostTensor out(dtype, {});
  storeElement(out, 0, value);
  return out;
}

} // namespace torus::distribute::detail
