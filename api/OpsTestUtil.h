//===- OpsTestUtil.h - Helpers for the end-to-end op tests ------*- C++ -*-===//
//
// The *OpsTest.cpp files trace a function, compile it, run it on emulated
// cores and compare every element with a value computed naively here, in
// double. This header holds what they share: running, converting host
// tensors of any dtype to and from doubles (f16/bf16 included), comparing
// with NaN awareness, and walking multi-indices.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_API_OPSTESTUTIL_H
#define TORUS_API_OPSTESTUTIL_H

#include "support/DTypeDispatch.h"
#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

namespace torus::testing {

inline TensorSpec spec(DType d, Shape s) { return {d, std::move(s)}; }

//===--- f16 / bf16 on the host -------------------------------------------===//

inline uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
inline float bitsFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// IEEE binary16 from float, rounding to nearest even.
inline uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7FFFFFFF;
  if (ax >= 0x7F800000)
    return sign | (ax > 0x7F800000 ? 0x7E00 : 0x7C00);
  if (ax >= 0x477FF000) // rounds to >= 65520: infinity
    return sign | 0x7C00;
  if (ax < 0x38800000) // below 2^-14: subnormal, units of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(bitsFloat(ax) * 16777216.0f));
  uint32_t mant = ax & 0x7FFFFF;
  uint32_t h = ((((ax >> 23) - 127 + 15)) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return sign | static_cast<uint16_t>(h);
}
inline float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    return bitsFloat(sign | 0x7F800000 | (mant << 13));
  return bitsFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}
inline uint16_t floatToBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7FFFFFFF) > 0x7F800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7FFF + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}
inline float bf16ToFloat(uint16_t b) {
  return bitsFloat(static_cast<uint32_t>(b) << 16);
}

//===--- Host tensors as doubles ------------------------------------------===//

/// Every element of `t` as a double.
inline std::vector<double> toDoubles(const HostTensor &t) {
  std::vector<double> out(t.numElements());
  const void *raw = t.rawData();
  for (int64_t i = 0; i < t.numElements(); ++i) {
    switch (t.dtype()) {
    case DType::F32:
      out[i] = static_cast<const float *>(raw)[i];
      break;
    case DType::F64:
      out[i] = static_cast<const double *>(raw)[i];
      break;
    case DType::F16:
      out[i] = halfToFloat(static_cast<const uint16_t *>(raw)[i]);
      break;
    case DType::BF16:
      out[i] = bf16ToFloat(static_cast<const uint16_t *>(raw)[i]);
      break;
    default:
      visitDType(t.dtype(), [&]<typename T>(T) {
        if constexpr (IsComplex<T>) // the real part (complex tests compare
          out[i] = static_cast<const T *>(raw)[i].real(); // std::complex)
        else
          out[i] = static_cast<double>(static_cast<const T *>(raw)[i]);
      });
    }
  }
  return out;
}

/// A host tensor of `dtype` holding `values` (rounded to nearest even,
/// integers truncated).
inline HostTensor fromDoubles(DType dtype, const Shape &shape,
                              const std::vector<double> &values) {
  HostTensor t(dtype, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.numElements());
  void *raw = t.rawData();
  for (int64_t i = 0; i < t.numElements() && i < (int64_t)values.size(); ++i) {
    double v = values[i];
    switch (dtype) {
    case DType::F32:
      static_cast<float *>(raw)[i] = static_cast<float>(v);
      break;
    case DType::F64:
      static_cast<double *>(raw)[i] = v;
      break;
    case DType::F16:
      static_cast<uint16_t *>(raw)[i] = floatToHalf(static_cast<float>(v));
      break;
    case DType::BF16:
      static_cast<uint16_t *>(raw)[i] = floatToBf16(static_cast<float>(v));
      break;
    default:
      visitDType(dtype, [&]<typename T>(T) {
        static_cast<T *>(raw)[i] = T(v); // complex: imaginary part 0
      });
    }
  }
  return t;
}

/// `values` rounded to `dtype` and back (what a tensor of it can hold).
inline std::vector<double> roundTo(DType dtype, std::vector<double> values) {
  return toDoubles(fromDoubles(dtype, {static_cast<int64_t>(values.size())},
                               values));
}

inline std::vector<double> randomDoubles(int64_t n, unsigned seed,
                                         double lo = -1, double hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double &x : v)
    x = dist(gen);
  return v;
}
inline std::vector<double> randomInts(int64_t n, unsigned seed, int64_t lo,
                                      int64_t hi) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int64_t> dist(lo, hi);
  std::vector<double> v(n);
  for (double &x : v)
    x = static_cast<double>(dist(gen));
  return v;
}

/// Relative tolerance that suits results of `dtype`.
inline double defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 1e-12;
  case DType::F32:
    return 2e-6;
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  default:
    return 0;
  }
}

/// Expects `got` to hold `want` elementwise: NaN where want is NaN, equal
/// infinities, else within `rtol` relative (and `atol` absolute) error.
inline void expectClose(const HostTensor &got, const std::vector<double> &want,
                        double rtol = -1, double atol = 0,
                        const std::string &what = "") {
  if (rtol < 0)
    rtol = defaultTolerance(got.dtype());
  std::vector<double> g = toDoubles(got);
  ASSERT_EQ(g.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < g.size() && failures < 8; ++i) {
    bool ok;
    if (std::isnan(want[i]))
      ok = std::isnan(g[i]);
    else if (std::isinf(want[i]))
      ok = g[i] == want[i];
    else
      ok = std::abs(g[i] - want[i]) <=
           atol + rtol * std::max(1.0, std::abs(want[i]));
    if (!ok) {
      ++failures;
      ADD_FAILURE() << what << " element " << i << ": got " << g[i]
                    << ", want " << want[i] << " (" << got.spec().toString()
                    << ")";
    }
  }
}

/// Expects each element of `got` within rtol * scale[i] of `want[i]`
/// (scale: e.g. the sum of the magnitudes of the terms summed into it, so
/// the bound holds for any summation order; at least 1e-30).
inline void expectWithinScale(const HostTensor &got,
                              const std::vector<double> &want,
                              const std::vector<double> &scale, double rtol,
                              const std::string &what) {
  std::vector<double> g = toDoubles(got);
  ASSERT_EQ(g.size(), want.size()) << what;
  int failures = 0;
  for (size_t i = 0; i < g.size() && failures < 8; ++i)
    if (!(std::abs(g[i] - want[i]) <= rtol * std::max(scale[i], 1e-30))) {
      ++failures;
      ADD_FAILURE() << what << " element " << i << ": got " << g[i]
                    << ", want " << want[i] << " (scale " << scale[i] << ")";
    }
}

//===--- Running ----------------------------------------------------------===//

/// Traces `fn`, compiles it for `replicas` and runs it on as many cores with
/// `inputs[replica]`; outputs[replica][result].
template <typename Fn>
std::vector<std::vector<HostTensor>>
runReplicas(int64_t replicas, Fn &&fn,
            const std::vector<std::vector<HostTensor>> &inputs) {
  std::vector<TensorSpec> specs;
  for (const HostTensor &t : inputs.at(0))
    specs.push_back(t.spec());
  auto traced = trace("f", specs, std::forward<Fn>(fn));
  EXPECT_TRUE(traced.ok()) << traced.status();
  if (!traced.ok())
    return {};
  auto exe = compile(*traced, {.numReplicas = replicas});
  EXPECT_TRUE(exe.ok()) << exe.status() << "\n" << traced->toString();
  if (!exe.ok())
    return {};
  auto mesh = EmulatedMesh::create(replicas);
  EXPECT_TRUE(mesh.ok()) << mesh.status();
  if (!mesh.ok())
    return {};
  auto out = mesh->run(*exe, inputs);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<std::vector<HostTensor>>{};
}

/// Runs `fn` on one core; the results (empty after a failure).
template <typename Fn>
std::vector<HostTensor> run(Fn &&fn, const std::vector<HostTensor> &inputs) {
  auto out = runReplicas(1, std::forward<Fn>(fn), {inputs});
  return out.empty() ? std::vector<HostTensor>{} : out[0];
}

//===--- Multi-indices ----------------------------------------------------===//

inline std::vector<int64_t> stridesOf(const Shape &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}
inline int64_t flatIndex(const Shape &shape, const std::vector<int64_t> &idx) {
  auto strides = stridesOf(shape);
  int64_t f = 0;
  for (size_t d = 0; d < idx.size(); ++d)
    f += idx[d] * strides[d];
  return f;
}
/// Calls fn(index) for every multi-index of `shape`, row-major.
inline void forEachIndex(const Shape &shape,
                         const std::function<void(const std::vector<int64_t> &)>
                             &fn) {
  if (numElements(shape) == 0)
    return;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    fn(idx);
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace torus::testing

#endif // TORUS_API_OPSTESTUTIL_H
