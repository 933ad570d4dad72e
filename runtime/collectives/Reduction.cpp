//===- Reduction.cpp - Element-wise reduction of peer buffers -------------===//

#include "runtime/collectives/Reduction.h"

#include "support/DTypeDispatch.h"

#include "runtime/collectives/HalfFloat.h"
#include "runtime/collectives/StreamingCopy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <type_traits>

namespace torus::rt {

namespace {

template <typename T> T wrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<WrappingUnsigned<T>>(a) +
                          static_cast<WrappingUnsigned<T>>(b));
  else
    return a + b;
}

template <typename T> T wrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<WrappingUnsigned<T>>(a) *
                          static_cast<WrappingUnsigned<T>>(b));
  else
    return a * b;
}

// `a != a` is true only for NaN: keeps a NaN on either side.
template <typename T> T nanMax(T a, T b) { return (a > b || a != a) ? a : b; }
template <typename T> T nanMin(T a, T b) { return (a < b || a != a) ? a : b; }

struct SumOp {
  template <typename T> T operator()(T a, T b) const { return wrapAdd(a, b); }
};
struct ProductOp {
  template <typename T> T operator()(T a, T b) const { return wrapMul(a, b); }
};
// Complex elements have no order: checkReducible rejects max and min of
// them, and these are never instantiated for them.
struct MaxOp {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (IsComplex<T>)
      return a;
    else
      return nanMax(a, b);
  }
};
struct MinOp {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (IsComplex<T>)
      return a;
    else
      return nanMin(a, b);
  }
};

/// How elements of a dtype are stored and combined: native types combine as
/// themselves; f16 and bf16 are widened to f32 for each step and rounded
/// back (see HalfFloat.h).
template <typename T> struct Native {
  using Storage = T;
  static T load(T v) { return v; }
  static T store(T v) { return v; }
};
struct Bf16 {
  using Storage = uint16_t;
  static float load(uint16_t v) { return bf16ToFloat(v); }
  static uint16_t store(float v) { return floatToBf16(v); }
};
struct F16 {
  using Storage = uint16_t;
  static float load(uint16_t v) { return f16ToFloat(v); }
  static uint16_t store(float v) { return floatToF16(v); }
};

// Works through the range in blocks that stay in L1: accumulate the block in
// a local buffer (so in-place outputs never clobber an input still to be
// read), then copy it to every output; with streaming stores when the range
// is too large to stay in cache for its readers.
template <typename Traits, typename Op>
void reduceTyped(std::span<const void *const> inputs, int64_t begin,
                 int64_t end, std::span<void *const> outputs,
                 int64_t outBegin) {
  using T = typename Traits::Storage;
  constexpr int64_t kBlock = 8192 / sizeof(T);
  alignas(64) T acc[kBlock];
  Op op;
  const bool streaming =
      static_cast<size_t>(end - begin) * sizeof(T) >= kStreamingThreshold;
  for (int64_t b = begin; b < end; b += kBlock) {
    int64_t n = std::min(kBlock, end - b);
    std::memcpy(acc, static_cast<const T *>(inputs[0]) + b, n * sizeof(T));
    for (size_t q = 1; q < inputs.size(); ++q) {
      const T *in = static_cast<const T *>(inputs[q]) + b;
      for (int64_t j = 0; j < n; ++j)
        acc[j] = Traits::store(op(Traits::load(acc[j]), Traits::load(in[j])));
    }
    for (void *out : outputs) {
      T *to = static_cast<T *>(out) + outBegin + (b - begin);
      if (streaming)
        streamStore(to, acc, n * sizeof(T));
      else
        std::memcpy(to, acc, n * sizeof(T));
    }
  }
  if (streaming)
    streamFence();
}

template <typename Traits>
void reduceKind(ReduceKind kind, std::span<const void *const> inputs,
                int64_t begin, int64_t end, std::span<void *const> outputs,
                int64_t outBegin) {
  switch (kind) {
  case ReduceKind::Sum:
    return reduceTyped<Traits, SumOp>(inputs, begin, end, outputs, outBegin);
  case ReduceKind::Product:
    return reduceTyped<Traits, ProductOp>(inputs, begin, end, outputs,
                                          outBegin);
  case ReduceKind::Max:
    return reduceTyped<Traits, MaxOp>(inputs, begin, end, outputs, outBegin);
  case ReduceKind::Min:
    return reduceTyped<Traits, MinOp>(inputs, begin, end, outputs, outBegin);
  }
  assert(false && "unknown reduce kind");
}

} // namespace

absl::Status checkReducible(DType dtype, ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Product:
  case ReduceKind::Max:
  case ReduceKind::Min:
    break;
  default:
    return absl::InvalidArgumentError(
        fmt::format("unknown reduce kind {}", static_cast<int32_t>(kind)));
  }
  switch (dtype) {
  case DType::F32:
  case DType::F64:
  case DType::F16:
  case DType::BF16:
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return absl::OkStatus();
  case DType::C64:
  case DType::C128:
    if (kind == ReduceKind::Sum || kind == ReduceKind::Product)
      return absl::OkStatus();
    return absl::InvalidArgumentError(
        fmt::format("{} reduction of {} elements: complex numbers have no "
                    "order (only sum and product reduce them)",
                    reduceKindName(kind), dtypeName(dtype)));
  case DType::I1:
    return absl::UnimplementedError(
        fmt::format("{} reduction of {} elements is not supported yet "
                    "(supported: floats and integers but pred)",
                    reduceKindName(kind), dtypeName(dtype)));
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return absl::UnimplementedError(
        fmt::format("{} reduction of {} elements is not supported (convert "
                    "to bf16 or f32 before reducing across replicas)",
                    reduceKindName(kind), dtypeName(dtype)));
  }
  return absl::InvalidArgumentError(
      fmt::format("unknown dtype {}", static_cast<int32_t>(dtype)));
}

void reduceRange(ReduceKind kind, DType dtype,
                 std::span<const void *const> inputs,
                 std::span<void *const> outputs, int64_t begin, int64_t end) {
  reduceRangeTo(kind, dtype, inputs, begin, end, outputs, begin);
}

void reduceRangeTo(ReduceKind kind, DType dtype,
                   std::span<const void *const> inputs, int64_t begin,
                   int64_t end, std::span<void *const> outputs,
                   int64_t outBegin) {
  assert(!inputs.empty() && "reduction of no inputs");
  assert(checkReducible(dtype, kind).ok());
  if (begin >= end)
    return;
  switch (dtype) {
  case DType::F32:
    return reduceKind<Native<float>>(kind, inputs, begin, end, outputs,
                                     outBegin);
  case DType::F64:
    return reduceKind<Native<double>>(kind, inputs, begin, end, outputs,
                                      outBegin);
  case DType::F16:
    return reduceKind<F16>(kind, inputs, begin, end, outputs, outBegin);
  case DType::BF16:
    return reduceKind<Bf16>(kind, inputs, begin, end, outputs, outBegin);
  default:
    visitDType(dtype, [&]<typename T>(T) {
      if constexpr (!std::is_same_v<T, bool> &&
                    (std::is_integral_v<T> || IsComplex<T>))
        reduceKind<Native<T>>(kind, inputs, begin, end, outputs, outBegin);
      else
        assert(false && "unsupported dtype");
    });
  }
}

} // namespace torus::rt
