//===- CorpusJudge.cpp - Judging a StableHLO corpus result ----------------===//
//
// A port of close() in scripts/stablehlo-corpus.py; CorpusJudge.h says the
// rules.
//
//===----------------------------------------------------------------------===//

#include "tests/stablehlo/CorpusJudge.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace torus::stablehlo {
namespace {

enum class Kind { Bool, Int, UInt, Float, Other };

Kind kindOf(const NpyArray &a) {
  switch (a.kind) {
  case 'b':
    return Kind::Bool;
  case 'i':
    return a.width <= 8 ? Kind::Int : Kind::Other;
  case 'u':
    return a.width <= 8 ? Kind::UInt : Kind::Other;
  case 'f':
    return a.width == 2 || a.width == 4 || a.width == 8 ? Kind::Float
                                                        : Kind::Other;
  case 'V':
    return a.width == 2 ? Kind::Float : Kind::Other; // bf16 (Npy.h)
  default:
    return Kind::Other;
  }
}

bool isInteger(Kind k) {
  return k == Kind::Bool || k == Kind::Int || k == Kind::UInt;
}
bool isBf16(const NpyArray &a) { return a.kind == 'V' && a.width == 2; }
bool isF16(const NpyArray &a) { return a.kind == 'f' && a.width == 2; }

/// The bits of element i, zero-extended.
uint64_t bitsAt(const NpyArray &a, int64_t i) {
  uint64_t v = 0;
  std::memcpy(&v, a.data.data() + i * a.width, a.width);
  return v;
}

/// The value of integer element i.
__int128 intAt(const NpyArray &a, int64_t i) {
  uint64_t bits = bitsAt(a, i);
  switch (kindOf(a)) {
  case Kind::Bool:
    return bits != 0;
  case Kind::Int: {
    int shift = 64 - 8 * a.width;
    return static_cast<int64_t>(bits << shift) >> shift;
  }
  default:
    return bits;
  }
}

double halfToDouble(uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  int mantissa = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    v = mantissa ? std::numeric_limits<double>::quiet_NaN()
                 : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(mantissa + 1024, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

/// Element i as a double (integers converted, as NumPy's astype(float64)).
double doubleAt(const NpyArray &a, int64_t i) {
  if (isInteger(kindOf(a)))
    return static_cast<double>(intAt(a, i));
  uint64_t bits = bitsAt(a, i);
  if (isBf16(a)) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  if (a.width == 2)
    return halfToDouble(static_cast<uint16_t>(bits));
  if (a.width == 4) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

std::string intToString(__int128 v) {
  return v < 0 ? std::to_string(static_cast<int64_t>(v))
               : std::to_string(static_cast<uint64_t>(v));
}

std::string indexToString(const Shape &shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return fmt::format("[{}]", fmt::join(index, ","));
}

/// The distance from |x| to the next float of the result's type, in that
/// type (np.spacing); NaN where |x| overflows it.
double spacing(double x, int width) {
  if (width == 4) {
    float f = static_cast<float>(std::fabs(x));
    return static_cast<double>(
        std::nextafter(f, std::numeric_limits<float>::infinity()) - f);
  }
  double d = std::fabs(x);
  return std::nextafter(d, std::numeric_limits<double>::infinity()) - d;
}

} // namespace

namespace {
bool isComplex(const NpyArray &a) {
  return a.kind == 'c' && (a.width == 8 || a.width == 16);
}

/// The real (`part` 0) or imaginary (1) parts of a complex array, as a
/// float array.
NpyArray complexPart(const NpyArray &a, int part) {
  NpyArray out{"", 'f', a.width / 2, a.shape, ""};
  out.descr = fmt::format("<f{}", out.width);
  int64_t n = numElements(a.shape);
  out.data.reserve(n * out.width);
  for (int64_t i = 0; i < n; ++i)
    out.data.append(a.data, i * a.width + part * out.width, out.width);
  return out;
}
} // namespace

std::optional<std::string> judge(const NpyArray &got, const NpyArray &want,
                                 const Check &check) {
  if (got.shape != want.shape)
    return fmt::format("shape {} {}, expected {}", got.descr,
                       shapeToString(got.shape), shapeToString(want.shape));
  // Complex: each of the real and imaginary parts as for its float type.
  if (isComplex(got) && isComplex(want) && got.width == want.width) {
    for (int part : {0, 1})
      if (auto wrong = judge(complexPart(got, part), complexPart(want, part),
                             check))
        return fmt::format("{} part: {}", part ? "imaginary" : "real",
                           *wrong);
    return std::nullopt;
  }
  Kind g = kindOf(got), w = kindOf(want);
  if (g == Kind::Other || w == Kind::Other)
    return fmt::format("cannot compare a {} result with {} expected values",
                       got.descr, want.descr);
  int64_t n = numElements(got.shape);

  if (isInteger(g) || isInteger(w)) {
    // Same-width integers by bits; otherwise by value, in float64 when
    // one side is a float (as np.array_equal).
    bool byBits = (g == Kind::Int || g == Kind::UInt) &&
                  (w == Kind::Int || w == Kind::UInt) &&
                  got.width == want.width;
    bool exact = isInteger(g) && isInteger(w);
    int64_t wrong = 0, first = -1;
    for (int64_t i = 0; i < n; ++i) {
      bool equal = byBits  ? bitsAt(got, i) == bitsAt(want, i)
                   : exact ? intAt(got, i) == intAt(want, i)
                           : doubleAt(got, i) == doubleAt(want, i);
      if (!equal && wrong++ == 0)
        first = i;
    }
    if (!wrong)
      return std::nullopt;
    auto show = [&](const NpyArray &a, Kind k) {
      return isInteger(k) ? intToString(intAt(a, first))
                          : fmt::format("{}", doubleAt(a, first));
    };
    return fmt::format("{} of {} elements differ, first at index {} (got {}, "
                       "expected {})",
                       wrong, n, indexToString(got.shape, first), show(got, g),
                       show(want, w));
  }

  bool narrow = check.narrow || isF16(got) || isBf16(got);
  int64_t wrong = 0, worst = -1, firstNonFinite = -1;
  double worstError = -1;
  for (int64_t i = 0; i < n; ++i) {
    double x = doubleAt(got, i), y = doubleAt(want, i);
    bool ok;
    if (std::isnan(x) || std::isnan(y)) {
      ok = std::isnan(x) && std::isnan(y);
    } else if (!std::isfinite(y)) {
      ok = x == y;
    } else {
      double error = std::fabs(x - y);
      if (check.kind == "allclose")
        ok = error <= check.atol + check.rtol * std::fabs(y);
      else if (narrow)
        ok = error <= 1e-2 * std::fabs(y) + 1e-2;
      else if (check.kind == "expect_almost_eq")
        ok = error <= 1e-3;
      else if (check.kind == "expect_close")
        ok = error <= 3 * spacing(y, got.width);
      else
        ok = error <= 1e-5 * std::fabs(y) + 1e-6;
      // An infinite result where a finite one is expected is also "worst".
      if (!ok && !(error <= worstError)) {
        worstError = error;
        worst = i;
      }
    }
    if (!ok) {
      ++wrong;
      if (firstNonFinite < 0 && worst != i)
        firstNonFinite = i;
    }
  }
  if (!wrong)
    return std::nullopt;
  int64_t at = worst >= 0 ? worst : firstNonFinite;
  std::string where = fmt::format("at index {} (got {}, expected {})",
                                  indexToString(got.shape, at),
                                  doubleAt(got, at), doubleAt(want, at));
  if (worst >= 0)
    return fmt::format("{} of {} elements differ: max abs error {} {}", wrong,
                       n, worstError, where);
  return fmt::format("{} of {} elements differ: non-finite values {}", wrong, n,
                     where);
}

} // namespace torus::stablehlo
