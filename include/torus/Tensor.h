//===- Tensor.h - Traced tensors and the ops on them ------------*- C++ -*-===//
//
// A torus::Tensor is a symbolic value inside a function being traced by
// torus::trace (Trace.h): every operation on it records an op of the torus
// dialect instead of computing. Shapes are static and known while tracing,
// so misuse (mismatched shapes, a bad axis) is caught at the line that does
// it: the trace records the first error, with the operation, the shapes
// involved and the C++ line, and torus::trace returns it as a Status.
// Operations on a tensor that came from a failed operation do nothing
// further.
//
// Broadcasting follows NumPy: shapes are aligned at their last dimension and
// a dimension of size 1 stretches. Operands of different dtypes are promoted
// by JAX's type promotion lattice; C++ numbers are weakly typed and take the
// dtype of the tensor they meet (see promoteTypes and docs/tracing.md).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TENSOR_H
#define TORUS_TENSOR_H

#include "torus/HostTensor.h"
#include "torus/ReduceOp.h"
#include "torus/Types.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <source_location>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace torus {

class TraceContext;
class Index;
class TensorLike;

/// The C++ source line an operation is called from, recorded for errors.
using Loc = std::source_location;

/// A symbolic tensor in a function being traced.
class Tensor {
public:
  /// An invalid tensor; using it records an error.
  Tensor() = default;

  /// False for a default-constructed tensor or the result of a failed op.
  bool valid() const { return ctx_ != nullptr && id_ >= 0; }
  /// The element type (F32 for an invalid tensor).
  DType dtype() const;
  /// The static shape (empty for an invalid tensor).
  Shape shape() const;
  /// The number of dimensions.
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  /// Size of dimension `axis` (negative counts from the end); -1 if none.
  int64_t dim(int64_t axis) const;
  /// The product of the dimensions.
  int64_t numElements() const { return torus::numElements(shape()); }
  /// dtype() and shape() together.
  TensorSpec spec() const { return {dtype(), shape()}; }

  ///@{
  /// NumPy basic indexing: `x[2]`, `x[Slice(1, 3)]`,
  /// `x[{Slice(), 0, newAxis}]`, `x[{ellipsis, Slice(std::nullopt,
  /// std::nullopt, -1)}]`. See index().
  Tensor operator[](const Index &index) const;
  Tensor operator[](std::initializer_list<Index> indices) const;
  ///@}

  ///@{
  /// Internal: the trace and value index this tensor refers to.
  TraceContext *context() const { return ctx_; }
  int64_t id() const { return id_; }
  Tensor(TraceContext *ctx, int64_t id) : ctx_(ctx), id_(id) {}
  ///@}

private:
  TraceContext *ctx_ = nullptr;
  int64_t id_ = -1;
};

//===--- Operands: tensors or weakly typed C++ numbers -------------------===//

/// What elementwise operations accept: a Tensor or a C++ number. A number is
/// weakly typed (JAX's rule): `x * 2` keeps x's dtype, `i32_tensor + 0.5` is
/// f32. The constructors record the source line of the expression they
/// convert, which operators use in error messages.
class TensorLike {
public:
  /// What the operand holds: a Tensor, or a C++ bool, integer or floating
  /// point number.
  enum class Kind { Tensor, Bool, Int, Float };

  ///@{
  /// Implicit conversions from a Tensor, a bool, an integer or a floating
  /// number; `loc` defaults to the caller's line.
  TensorLike(const Tensor &t, Loc loc = Loc::current())
      : kind_(Kind::Tensor), tensor_(t), loc_(loc) {}
  TensorLike(bool v, Loc loc = Loc::current())
      : kind_(Kind::Bool), int_(v), loc_(loc) {}
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  TensorLike(T v, Loc loc = Loc::current())
      : kind_(Kind::Int), int_(static_cast<int64_t>(v)), loc_(loc) {}
  template <std::floating_point T>
  TensorLike(T v, Loc loc = Loc::current())
      : kind_(Kind::Float), float_(static_cast<double>(v)), loc_(loc) {}
  ///@}

  /// What the operand holds.
  Kind kind() const { return kind_; }
  /// kind() == Kind::Tensor.
  bool isTensor() const { return kind_ == Kind::Tensor; }
  /// The tensor, for a tensor operand (an invalid Tensor otherwise).
  const Tensor &tensor() const { return tensor_; }
  /// The number, for a scalar operand.
  double floatValue() const {
    return kind_ == Kind::Float ? float_ : static_cast<double>(int_);
  }
  /// The number as an integer (floats truncate toward zero), for a scalar
  /// operand.
  int64_t intValue() const {
    return kind_ == Kind::Float ? static_cast<int64_t>(float_) : int_;
  }
  /// The source line of the expression this operand was converted from.
  const Loc &loc() const { return loc_; }

private:
  Kind kind_;
  Tensor tensor_;
  int64_t int_ = 0;
  double float_ = 0;
  Loc loc_;
};

//===--- dtype promotion -------------------------------------------------===//

/// The dtype two tensors of dtypes `a` and `b` combine to: the least upper
/// bound in JAX's promotion lattice restricted to Torus's dtypes,
///
///   i1 -> i32 -> i64 -> {bf16, f16, f8e4m3fn, f8e5m2} -> f32 -> f64
///
/// (any two of the four narrow floats meet at f32; JAX refuses to promote
/// the 8-bit floats with other floats at all),
/// so an integer meets a float at that float (i32 + f16 = f16). C++ numbers
/// are weak: an int takes the other operand's dtype unless that is i1
/// (then i32); a double takes it if it is a float, else f32.
DType promoteTypes(DType a, DType b);

//===--- Creating tensors -------------------------------------------------===//

/// A constant holding `value`'s contents.
Tensor constant(const HostTensor &value, Loc loc = Loc::current());
/// A tensor of `shape` filled with `value`, converted to `dtype`.
Tensor full(const Shape &shape, double value, DType dtype = DType::F32,
            Loc loc = Loc::current());
/// A scalar constant of `dtype`.
Tensor scalar(double value, DType dtype = DType::F32, Loc loc = Loc::current());
///@{
/// Constant tensors of zeros, ones or `value`: of `shape` and `dtype`, or
/// (the *Like forms) of `t`'s shape and dtype.
Tensor zeros(const Shape &shape, DType dtype = DType::F32,
             Loc loc = Loc::current());
Tensor ones(const Shape &shape, DType dtype = DType::F32,
            Loc loc = Loc::current());
Tensor zerosLike(const Tensor &t, Loc loc = Loc::current());
Tensor onesLike(const Tensor &t, Loc loc = Loc::current());
Tensor fullLike(const Tensor &t, double value, Loc loc = Loc::current());
///@}
/// HLO `iota`: element i along `axis` is i.
Tensor iota(const Shape &shape, int64_t axis, DType dtype = DType::I32,
            Loc loc = Loc::current());
/// `[0, 1, ..., n - 1]`.
Tensor arange(int64_t n, DType dtype = DType::I32, Loc loc = Loc::current());

//===--- Elementwise: unary ---------------------------------------------===//
//
// Float functions (exp ... round) promote integer and i1 operands to f32.

// One function per line of UnaryOps.def: abs, negate, sign, exp, expm1,
// log, log1p, sqrt, rsqrt, tanh, sigmoid, sin, cos, floor, ceil, round,
// bitwiseNot, ..., each `Tensor f(const Tensor &a, Loc loc)`.
#define TORUS_UNARY(function, Op, Domain)                                      \
  Tensor function(const Tensor &a, Loc loc = Loc::current());
#include "torus/UnaryOps.def"
/// i1: neither infinite nor NaN (true for integers).
Tensor isFinite(const Tensor &a, Loc loc = Loc::current());
/// `a == 0` as i1 (logical not of i1).
Tensor logicalNot(const Tensor &a, Loc loc = Loc::current());
///@{
/// `a * a`, `1.0 / a` and `max(a, 0)`, elementwise (multiply(), divide(),
/// maximum(), with their promotion rules).
Tensor square(const Tensor &a, Loc loc = Loc::current());
Tensor reciprocal(const Tensor &a, Loc loc = Loc::current());
Tensor relu(const Tensor &a, Loc loc = Loc::current());
///@}
/// Elementwise conversion to `dtype` (HLO `convert`: floats to integers
/// round toward zero and saturate, NaN to 0; anything to i1 is `x != 0`;
/// to f8e4m3fn/f8e5m2 rounds to nearest even, beyond the largest finite
/// value to NaN (f8e4m3fn, which has no infinity) or inf (f8e5m2), as
/// ml_dtypes does).
Tensor astype(const Tensor &a, DType dtype, Loc loc = Loc::current());
/// The bits of each element read as `dtype`, of the same width (HLO
/// `bitcast-convert`): f32 and i32, f64 and i64, f16 and bf16, f8e4m3fn and
/// f8e5m2 and the 8-bit integers.
Tensor bitcastConvert(const Tensor &a, DType dtype, Loc loc = Loc::current());
/// Each element rounded to the float format of `exponentBits` exponent and
/// `mantissaBits` mantissa bits (nearest even; overflow to infinity,
/// underflow to zero), keeping its dtype (HLO `reduce-precision`).
Tensor reducePrecision(const Tensor &a, int exponentBits, int mantissaBits,
                       Loc loc = Loc::current());

//===--- Elementwise: binary (promoting, broadcasting) -------------------===//

///@{
/// `a + b`, `a - b`, `a * b`, elementwise, after promoting the operands to
/// one dtype (promoteTypes()) and broadcasting them together.
Tensor add(const TensorLike &a, const TensorLike &b, Loc loc = Loc::current());
Tensor subtract(const TensorLike &a, const TensorLike &b,
                Loc loc = Loc::current());
Tensor multiply(const TensorLike &a, const TensorLike &b,
                Loc loc = Loc::current());
///@}
/// HLO division: integers divide toward zero (as in C++), x / 0 is -1.
Tensor divide(const TensorLike &a, const TensorLike &b,
              Loc loc = Loc::current());
/// Remainder with the sign of the dividend (C `fmod` / `%`).
Tensor remainder(const TensorLike &a, const TensorLike &b,
                 Loc loc = Loc::current());
/// `a` raised to the power `b`, elementwise (promoting, broadcasting).
Tensor power(const TensorLike &a, const TensorLike &b,
             Loc loc = Loc::current());
///@{
/// NaN-propagating maximum and minimum.
Tensor maximum(const TensorLike &a, const TensorLike &b,
               Loc loc = Loc::current());
Tensor minimum(const TensorLike &a, const TensorLike &b,
               Loc loc = Loc::current());
///@}
/// The angle of (x, y) in radians, in [-pi, pi], elementwise; integer
/// operands are promoted to f32.
Tensor atan2(const TensorLike &y, const TensorLike &x,
             Loc loc = Loc::current());
/// The next float after `x` in the direction of `y` (C `nextafter`),
/// elementwise: `y` where they are equal, NaN if either is NaN; from zero,
/// the smallest subnormal (which arithmetic then reads as zero, as XLA's
/// CPU backend does). f32 and f64 (integers promote to f32); XLA's
/// expansion of `chlo.next_after` into integer operations on the bits, as
/// HLO has no such instruction.
Tensor nextafter(const TensorLike &x, const TensorLike &y,
                 Loc loc = Loc::current());

/// Complex numbers `re + i im` elementwise: c128 from f64 operands, c64
/// from any other real ones (promoted to f32); complex operands are an
/// error.
Tensor complex(const TensorLike &re, const TensorLike &im,
               Loc loc = Loc::current());
///@{
/// Bitwise on integers, logical on i1; floats are an error.
Tensor bitwiseAnd(const TensorLike &a, const TensorLike &b,
                  Loc loc = Loc::current());
Tensor bitwiseOr(const TensorLike &a, const TensorLike &b,
                 Loc loc = Loc::current());
Tensor bitwiseXor(const TensorLike &a, const TensorLike &b,
                  Loc loc = Loc::current());
///@}
///@{
/// Shifts of integers (i1 and floats are an error) by `b` bits, read as
/// unsigned: `a << b`, `a >> b` with the sign bit shifted in, and `a >> b`
/// with zeros shifted in. Shifting by the bit width or more gives 0, or
/// for the arithmetic shift of a negative `a`, -1 (HLO's semantics).
Tensor shiftLeft(const TensorLike &a, const TensorLike &b,
                 Loc loc = Loc::current());
Tensor shiftRightArithmetic(const TensorLike &a, const TensorLike &b,
                            Loc loc = Loc::current());
Tensor shiftRightLogical(const TensorLike &a, const TensorLike &b,
                         Loc loc = Loc::current());
///@}
///@{
/// Logical operations on the truth values (`x != 0`), giving i1.
Tensor logicalAnd(const TensorLike &a, const TensorLike &b,
                  Loc loc = Loc::current());
Tensor logicalOr(const TensorLike &a, const TensorLike &b,
                 Loc loc = Loc::current());
Tensor logicalXor(const TensorLike &a, const TensorLike &b,
                  Loc loc = Loc::current());
///@}

///@{
/// Comparisons promote, broadcast and yield i1.
Tensor equal(const TensorLike &a, const TensorLike &b,
             Loc loc = Loc::current());
Tensor notEqual(const TensorLike &a, const TensorLike &b,
                Loc loc = Loc::current());
Tensor less(const TensorLike &a, const TensorLike &b, Loc loc = Loc::current());
Tensor lessEqual(const TensorLike &a, const TensorLike &b,
                 Loc loc = Loc::current());
Tensor greater(const TensorLike &a, const TensorLike &b,
               Loc loc = Loc::current());
Tensor greaterEqual(const TensorLike &a, const TensorLike &b,
                    Loc loc = Loc::current());
///@}

/// `cond ? a : b` elementwise; `cond` is converted to i1 (`!= 0`), a and b
/// are promoted, and all three broadcast together.
Tensor where(const TensorLike &cond, const TensorLike &a, const TensorLike &b,
             Loc loc = Loc::current());
/// min(max(x, lo), hi) with x's dtype (lo and hi broadcast).
Tensor clamp(const Tensor &x, const TensorLike &lo, const TensorLike &hi,
             Loc loc = Loc::current());

///@{
/// Arithmetic and bitwise operators: add(), subtract(), multiply(), divide(),
/// remainder(), bitwiseAnd(), bitwiseOr(), bitwiseXor(), recording the
/// caller's source line.
Tensor operator+(const TensorLike &a, const TensorLike &b);
Tensor operator-(const TensorLike &a, const TensorLike &b);
Tensor operator*(const TensorLike &a, const TensorLike &b);
Tensor operator/(const TensorLike &a, const TensorLike &b);
Tensor operator%(const TensorLike &a, const TensorLike &b);
Tensor operator&(const TensorLike &a, const TensorLike &b);
Tensor operator|(const TensorLike &a, const TensorLike &b);
Tensor operator^(const TensorLike &a, const TensorLike &b);
///@}
///@{
/// Comparison operators build i1 tensors (there is no `==`: a Tensor is a
/// handle; use equal()).
Tensor operator<(const TensorLike &a, const TensorLike &b);
Tensor operator<=(const TensorLike &a, const TensorLike &b);
Tensor operator>(const TensorLike &a, const TensorLike &b);
Tensor operator>=(const TensorLike &a, const TensorLike &b);
///@}
///@{
/// Unary operators: negate(), bitwiseNot() and logicalNot().
Tensor operator-(const TensorLike &a);
Tensor operator~(const TensorLike &a);
Tensor operator!(const TensorLike &a);
///@}

//===--- Shapes -----------------------------------------------------------===//

/// NumPy `broadcast_to`.
Tensor broadcastTo(const Tensor &a, const Shape &shape,
                   Loc loc = Loc::current());
/// HLO `broadcast_in_dim`: operand dimension i becomes result dimension
/// dims[i].
Tensor broadcastInDim(const Tensor &a, const Shape &shape,
                      const std::vector<int64_t> &dims,
                      Loc loc = Loc::current());
/// Row-major reshape; one entry may be -1 and is inferred.
Tensor reshape(const Tensor &a, const Shape &shape, Loc loc = Loc::current());
/// Result dimension i is operand dimension perm[i]; empty reverses them.
Tensor transpose(const Tensor &a, const std::vector<int64_t> &perm = {},
                 Loc loc = Loc::current());
/// Inserts a dimension of size 1 at `axis` (negative counts from the end of
/// the result).
Tensor expandDims(const Tensor &a, int64_t axis, Loc loc = Loc::current());
/// Removes the given size-1 axes (all of them when empty).
Tensor squeeze(const Tensor &a, const std::vector<int64_t> &axes = {},
               Loc loc = Loc::current());
/// HLO `slice`: elements start[d], start[d] + strides[d], ... below
/// limits[d]; empty strides mean 1s.
Tensor slice(const Tensor &a, const std::vector<int64_t> &starts,
             const std::vector<int64_t> &limits,
             const std::vector<int64_t> &strides = {},
             Loc loc = Loc::current());
/// HLO `dynamic_slice`: a `sizes` block at run-time `starts` (integer
/// scalars or numbers), clamped to stay in bounds.
Tensor dynamicSlice(const Tensor &a, const std::vector<TensorLike> &starts,
                    const std::vector<int64_t> &sizes,
                    Loc loc = Loc::current());
/// HLO `dynamic_update_slice`: `a` with `update` written at `starts`
/// (clamped); `update` is converted to a's dtype.
Tensor dynamicUpdateSlice(const Tensor &a, const Tensor &update,
                          const std::vector<TensorLike> &starts,
                          Loc loc = Loc::current());
/// Joins tensors along `axis` (dtypes promoted).
Tensor concatenate(const std::vector<Tensor> &tensors, int64_t axis = 0,
                   Loc loc = Loc::current());
/// Stacks equally shaped tensors along a new `axis`.
Tensor stack(const std::vector<Tensor> &tensors, int64_t axis = 0,
             Loc loc = Loc::current());
/// NumPy `pad` with a constant: (before, after) per dimension; negative
/// amounts crop.
Tensor pad(const Tensor &a,
           const std::vector<std::pair<int64_t, int64_t>> &padding,
           double value = 0, Loc loc = Loc::current());
/// HLO `pad`, with interior padding between elements.
Tensor pad(const Tensor &a, const TensorLike &value,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           const std::vector<int64_t> &interior, Loc loc = Loc::current());
/// Reverses the order of elements along `axes` (NumPy `flip`).
Tensor reverse(const Tensor &a, const std::vector<int64_t> &axes,
               Loc loc = Loc::current());

//===--- NumPy basic indexing ---------------------------------------------===//

/// `start:stop:step` of one axis; unset bounds mean the whole axis in the
/// step's direction (NumPy's rules, negative values count from the end).
struct Slice {
  ///@{
  /// Bounds (nullopt: the end in the step's direction) and step (non-zero).
  std::optional<int64_t> start, stop;
  int64_t step = 1;
  ///@}
  Slice() = default;
  /// `start:stop:step`; Slice() is `:`, the whole axis.
  Slice(std::optional<int64_t> start, std::optional<int64_t> stop,
        int64_t step = 1)
      : start(start), stop(stop), step(step) {}
};
/// The type of newAxis.
struct NewAxis {};
/// The type of ellipsis.
struct Ellipsis {};
/// Inserts an axis of size 1 (NumPy `np.newaxis`).
inline constexpr NewAxis newAxis{};
/// Stands for as many whole axes as needed (NumPy `...`).
inline constexpr Ellipsis ellipsis{};

/// One entry of an index expression: an integer (removes the axis), a
/// Slice, newAxis or ellipsis.
class Index {
public:
  ///@{
  /// Implicit conversions from an axis position (negative counts from the
  /// end), a Slice, newAxis or ellipsis; `loc` defaults to the caller's line.
  Index(int64_t i, Loc loc = Loc::current()) : value_(i), loc_(loc) {}
  Index(int i, Loc loc = Loc::current())
      : value_(static_cast<int64_t>(i)), loc_(loc) {}
  Index(Slice s, Loc loc = Loc::current()) : value_(s), loc_(loc) {}
  Index(NewAxis n, Loc loc = Loc::current()) : value_(n), loc_(loc) {}
  Index(Ellipsis e, Loc loc = Loc::current()) : value_(e), loc_(loc) {}
  ///@}
  /// The entry.
  const std::variant<int64_t, Slice, NewAxis, Ellipsis> &value() const {
    return value_;
  }
  /// The source line of the index expression.
  const Loc &loc() const { return loc_; }

private:
  std::variant<int64_t, Slice, NewAxis, Ellipsis> value_;
  Loc loc_;
};

/// NumPy basic indexing with static indices, as one HLO slice (plus
/// `reverse` for negative steps and a reshape).
Tensor index(const Tensor &a, const std::vector<Index> &indices,
             Loc loc = Loc::current());

//===--- Linear algebra ---------------------------------------------------===//

/// HLO DotDimensionNumbers: the batch and contracting dimensions of each
/// operand of dotGeneral().
struct DotDims {
  ///@{
  /// Batch and contracting dimension numbers of the left (lhs) and right (rhs)
  /// operand; batch dimensions pair up in order, as do contracting ones.
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContracting, rhsContracting;
  ///@}
};
/// HLO `dot_general` (operands promoted to one dtype).
Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  Loc loc = Loc::current());
/// HLO `dot_general` with a result of `resultType` (JAX's
/// `preferred_element_type`): the operands, promoted to one dtype, are
/// converted to it and contracted in it, as `f32 dot(f8e4m3fn, f8e4m3fn)`
/// (fp8 matmuls) or `f32 dot(bf16, bf16)`.
Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  DType resultType, Loc loc = Loc::current());
/// NumPy `matmul` for rank >= 1 operands (batch dimensions broadcast).
Tensor matmul(const Tensor &a, const Tensor &b, Loc loc = Loc::current());

/// Which matrix triangularSolve() applies: `a`, its transpose, or its
/// conjugate transpose (HLO's `transpose_a`).
enum class TransposeA { None, Transpose, Adjoint };
/// HLO's TriangularSolveOptions.
struct TriangularSolveOptions {
  /// Solve `op(a) x = b` (true) or `x op(a) = b`.
  bool leftSide = true;
  /// Read `a`'s lower triangle (true) or its upper one; the other is not
  /// read.
  bool lower = true;
  /// Take `a`'s diagonal as ones without reading it.
  bool unitDiagonal = false;
  TransposeA transposeA = TransposeA::None;
};
/// HLO `triangular-solve`: `x` with `op(a) x = b` (or `x op(a) = b`) for
/// each batch, `a` of shape `[..., m, m]`, `b` `[..., m, n]` (or
/// `[..., n, m]`) with `a`'s batch dimensions. Operands are promoted to one
/// float or complex dtype (integers to f32); f16 and bf16 are solved in f32
/// and rounded once.
Tensor triangularSolve(const Tensor &a, const Tensor &b,
                       const TriangularSolveOptions &options = {},
                       Loc loc = Loc::current());

/// HLO's fft_type.
enum class FftType {
  FFT,   ///< complex to complex, exp(-2 pi i f t / n)
  IFFT,  ///< its inverse, exp(+2 pi i f t / n) / n
  RFFT,  ///< real to complex: the last axis keeps n / 2 + 1 frequencies
  IRFFT, ///< the inverse of RFFT: n / 2 + 1 frequencies to n reals
};
/// HLO `fft` over the last `lengths.size()` (1 to 3) axes, whose lengths
/// are `lengths` (for IRFFT the last is the result's: the operand has
/// `lengths.back() / 2 + 1` there). FFT, IFFT and IRFFT take real operands
/// as complex ones; integers become f32 (c64) first. Computed as direct
/// sums in f64 (docs/tracing.md).
Tensor fft(const Tensor &a, FftType type, const std::vector<int64_t> &lengths,
           Loc loc = Loc::current());

/// Padding of the spatial dimensions of a convolution or pooling window:
/// TensorFlow's "SAME" (output size ceil(in / stride), extra padding at the
/// end) and "VALID" (none), or explicit (low, high) pairs.
class Padding {
public:
  ///@{
  /// TensorFlow's "SAME" and "VALID" padding.
  static Padding same() { return Padding(Kind::Same); }
  static Padding valid() { return Padding(Kind::Valid); }
  ///@}
  ///@{
  /// Explicit (low, high) padding, one pair per spatial dimension.
  Padding(std::vector<std::pair<int64_t, int64_t>> pairs)
      : kind_(Kind::Explicit), pairs_(std::move(pairs)) {}
  Padding(std::initializer_list<std::pair<int64_t, int64_t>> pairs)
      : kind_(Kind::Explicit), pairs_(pairs) {}
  ///@}

  /// Which form of padding.
  enum class Kind { Same, Valid, Explicit };
  /// Which form this is.
  Kind kind() const { return kind_; }
  /// The (low, high) pairs of explicit padding; empty otherwise.
  const std::vector<std::pair<int64_t, int64_t>> &pairs() const {
    return pairs_;
  }

private:
  explicit Padding(Kind kind) : kind_(kind) {}
  Kind kind_;
  std::vector<std::pair<int64_t, int64_t>> pairs_;
};

/// HLO ConvDimensionNumbers: which dimension of input, kernel and output is
/// batch, feature and spatial. The default is NHWC input, HWIO kernel, NHWC
/// output.
struct ConvDimensionNumbers {
  ///@{
  /// The input's batch, feature and spatial dimensions.
  int64_t inputBatch = 0, inputFeature = 3;
  std::vector<int64_t> inputSpatial = {1, 2};
  ///@}
  ///@{
  /// The kernel's input-feature, output-feature and spatial dimensions.
  int64_t kernelInputFeature = 2, kernelOutputFeature = 3;
  std::vector<int64_t> kernelSpatial = {0, 1};
  ///@}
  ///@{
  /// The output's batch, feature and spatial dimensions.
  int64_t outputBatch = 0, outputFeature = 3;
  std::vector<int64_t> outputSpatial = {1, 2};
  ///@}
};

/// Window strides, padding, dilations, groups and dimension numbers of
/// convolution(), as HLO `convolution` takes them.
struct ConvolutionOptions {
  /// Window strides per spatial dimension; empty means 1s.
  std::vector<int64_t> strides;      // per spatial dim; empty = 1s
  /// (low, high) padding per spatial dimension; empty means none.
  std::vector<std::pair<int64_t, int64_t>> padding; // empty = none
  /// Input (lhs) dilation per spatial dimension, as in a transposed
  /// convolution; empty means 1s.
  std::vector<int64_t> lhsDilation;  // empty = 1s (transposed convolution)
  /// Kernel (rhs) dilation per spatial dimension, as in an atrous convolution;
  /// empty means 1s.
  std::vector<int64_t> rhsDilation;  // empty = 1s (atrous convolution)
  /// Feature groups (the input features split into this many groups; depthwise
  /// when it equals the feature count).
  int64_t featureGroupCount = 1;
  /// Batch groups (HLO batch_group_count).
  int64_t batchGroupCount = 1;
  /// Which dimensions are batch, feature and spatial (default NHWC / HWIO).
  ConvDimensionNumbers dims;
};
/// HLO `convolution` (operands promoted to one dtype).
Tensor convolution(const Tensor &input, const Tensor &kernel,
                   const ConvolutionOptions &options,
                   Loc loc = Loc::current());
/// 2-D convolution of an NHWC input with an HWIO kernel whose I is
/// C / groups (groups = C: depthwise).
Tensor conv2d(const Tensor &input, const Tensor &kernel,
              const std::vector<int64_t> &strides = {1, 1},
              const Padding &padding = Padding::valid(),
              const std::vector<int64_t> &dilation = {1, 1},
              int64_t groups = 1, Loc loc = Loc::current());

/// Several tensors: loop state, branch results, call arguments, the
/// operands of variadic ops.
using TensorList = std::vector<Tensor>;

//===--- Reductions (axes may be negative; empty = all axes) ------------===//

/// Sum over `axes` (i1 inputs count as i32); `keepdims` keeps the reduced
/// axes with size 1.
Tensor sum(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
/// Integer and i1 inputs give an f32 mean.
Tensor mean(const Tensor &a, const std::vector<int64_t> &axes = {},
            bool keepdims = false, Loc loc = Loc::current());
///@{
/// Maximum, minimum and product over `axes` (the product counts i1 as i32);
/// `keepdims` keeps the reduced axes with size 1.
Tensor max(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
Tensor min(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
Tensor prod(const Tensor &a, const std::vector<int64_t> &axes = {},
            bool keepdims = false, Loc loc = Loc::current());
///@}
///@{
/// Whether any / all elements are non-zero (i1 results).
Tensor any(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
Tensor all(const Tensor &a, const std::vector<int64_t> &axes = {},
           bool keepdims = false, Loc loc = Loc::current());
///@}
///@{
/// Index (i32) of the first maximum / minimum along `axis` (a NaN counts as
/// the extreme, as in NumPy).
Tensor argmax(const Tensor &a, int64_t axis = -1, bool keepdims = false,
              Loc loc = Loc::current());
Tensor argmin(const Tensor &a, int64_t axis = -1, bool keepdims = false,
              Loc loc = Loc::current());
///@}
/// log(sum(exp(a))) over `axes`, computed stably.
Tensor logsumexp(const Tensor &a, const std::vector<int64_t> &axes = {},
                 bool keepdims = false, Loc loc = Loc::current());
///@{
/// exp(a) / sum(exp(a)) along `axis`, and its logarithm, computed stably
/// (integer inputs are converted to f32).
Tensor softmax(const Tensor &a, int64_t axis = -1, Loc loc = Loc::current());
Tensor logSoftmax(const Tensor &a, int64_t axis = -1,
                  Loc loc = Loc::current());
///@}


/// HLO `reduce_window` with the reducer `op` (its identity pads);
/// per-dimension window, strides (empty = 1s) and (low, high) padding
/// (empty = none).
Tensor reduceWindow(const Tensor &a, ReduceOp op,
                    const std::vector<int64_t> &window,
                    const std::vector<int64_t> &strides = {},
                    const std::vector<std::pair<int64_t, int64_t>> &padding =
                        {},
                    Loc loc = Loc::current());
/// A reducer computation of reduce() and reduceWindow() below: from the
/// accumulators and one element of each operand (0-d tensors of the init
/// values' dtypes), the new accumulators. Like HLO's reducer computations
/// it may use only elementwise functions and constants.
using Reducer =
    std::function<TensorList(const TensorList &accs, const TensorList &xs)>;

/// HLO `reduce` with the reducer `body`: `operands` (of one shape) reduced
/// together over `axes` (empty = all), starting from the 0-d `initValues`
/// (one per operand, of its dtype); the elements are combined in row-major
/// order. For example an argmax that keeps the last of equal maxima, or a
/// lexicographic maximum of complex numbers.
TensorList reduce(const TensorList &operands, const TensorList &initValues,
                  const Reducer &body, const std::vector<int64_t> &axes = {},
                  Loc loc = Loc::current());

/// HLO `reduce_window` of one or more `operands` (of one shape) with the
/// reducer `body`: windows, strides and padding as in the reduceWindow()
/// above, each operand padded with its own init value.
TensorList
reduceWindow(const TensorList &operands, const TensorList &initValues,
             const Reducer &body, const std::vector<int64_t> &window,
             const std::vector<int64_t> &strides = {},
             const std::vector<std::pair<int64_t, int64_t>> &padding = {},
             Loc loc = Loc::current());

/// Max pooling of an NHWC tensor over `window` = {h, w}; strides default to
/// the window.
Tensor maxPool2d(const Tensor &x, const std::vector<int64_t> &window,
                 const std::vector<int64_t> &strides = {},
                 const Padding &padding = Padding::valid(),
                 Loc loc = Loc::current());
/// Average pooling of an NHWC tensor; padding does not count towards the
/// average (TensorFlow's rule).
Tensor avgPool2d(const Tensor &x, const std::vector<int64_t> &window,
                 const std::vector<int64_t> &strides = {},
                 const Padding &padding = Padding::valid(),
                 Loc loc = Loc::current());

//===--- Indexing with run-time indices -----------------------------------===//

/// HLO GatherDimensionNumbers.
struct GatherDims {
  ///@{
  /// HLO `gather` dimension numbers, with their HLO meanings (offset_dims,
  /// collapsed_slice_dims, start_index_map, index_vector_dim).
  std::vector<int64_t> offsetDims, collapsedSliceDims, startIndexMap;
  int64_t indexVectorDim = 0;
  ///@}
};
/// HLO `gather` (start indices clamped so each slice is in bounds).
Tensor gather(const Tensor &operand, const Tensor &startIndices,
              const GatherDims &dims, const std::vector<int64_t> &sliceSizes,
              Loc loc = Loc::current());

/// HLO ScatterDimensionNumbers.
struct ScatterDims {
  ///@{
  /// HLO `scatter` dimension numbers, with their HLO meanings
  /// (update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims,
  /// index_vector_dim).
  std::vector<int64_t> updateWindowDims, insertedWindowDims,
      scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
  ///@}
};
/// How scatter() combines an update with the operand's element.
enum class ScatterOp { Replace, Add, Multiply, Max, Min };
/// HLO `scatter`: updates applied in row-major order; windows that do not
/// fit are skipped. `updates` is converted to operand's dtype.
Tensor scatter(const Tensor &operand, const Tensor &scatterIndices,
               const Tensor &updates, const ScatterDims &dims,
               ScatterOp op = ScatterOp::Add, Loc loc = Loc::current());

/// NumPy `take`: elements of `a` at integer `indices` along `axis`; the
/// result has shape a[:axis] + indices + a[axis+1:]. Negative indices count
/// from the end; others out of range are clamped.
Tensor take(const Tensor &a, const Tensor &indices, int64_t axis = 0,
            Loc loc = Loc::current());
/// NumPy `take_along_axis`: `indices` has a's rank; other axes broadcast.
Tensor takeAlongAxis(const Tensor &a, const Tensor &indices, int64_t axis,
                     Loc loc = Loc::current());
/// Rows of `table` ([V, D]) at `ids` (any shape): take(table, ids, 0).
Tensor embeddingLookup(const Tensor &table, const Tensor &ids,
                       Loc loc = Loc::current());
/// `a` with `updates` (shape a[:axis] + indices + a[axis+1:], as take's
/// result) added at `indices` along `axis`; repeated indices accumulate.
/// Out-of-range indices are dropped.
Tensor indexAdd(const Tensor &a, const Tensor &indices, const Tensor &updates,
                int64_t axis = 0, Loc loc = Loc::current());
/// As indexAdd, but the updates replace (the last one wins).
Tensor indexSet(const Tensor &a, const Tensor &indices, const Tensor &updates,
                int64_t axis = 0, Loc loc = Loc::current());
/// One-hot encoding: a new axis of size `depth` (at `axis`) that is 1 at
/// the index and 0 elsewhere (all zero for an index out of range).
Tensor oneHot(const Tensor &indices, int64_t depth, DType dtype = DType::F32,
              int64_t axis = -1, Loc loc = Loc::current());

//===--- Control flow (C++ lambdas traced into regions) -------------------===//
//
// The lambdas run once, while tracing, on symbolic tensors; they may use
// tensors from the enclosing function. Tensors they create stay inside: one
// used after the loop or branch is an error naming it.


///@{
/// HLO `while`: `body` maps the state to the next state (same dtypes and
/// shapes) while `cond` (an i1 scalar, or a number converted with != 0)
/// holds.
TensorList whileLoop(const std::function<Tensor(const TensorList &)> &cond,
                     const std::function<TensorList(const TensorList &)> &body,
                     const TensorList &init, Loc loc = Loc::current());
Tensor whileLoop(const std::function<Tensor(const Tensor &)> &cond,
                 const std::function<Tensor(const Tensor &)> &body,
                 const Tensor &init, Loc loc = Loc::current());
///@}
/// `for (i = lower; i < upper; ++i) state = body(i, state)` with an i32
/// scalar counter.
TensorList
forLoop(int64_t lower, int64_t upper,
        const std::function<TensorList(const Tensor &, const TensorList &)>
            &body,
        const TensorList &init, Loc loc = Loc::current());
///@{
/// HLO `conditional` on a predicate: runs one branch (both return tensors
/// of the same dtypes and shapes).
TensorList cond(const TensorLike &pred,
                const std::function<TensorList()> &trueBranch,
                const std::function<TensorList()> &falseBranch,
                Loc loc = Loc::current());
Tensor cond(const TensorLike &pred, const std::function<Tensor()> &trueBranch,
            const std::function<Tensor()> &falseBranch,
            Loc loc = Loc::current());
///@}
/// HLO `case`: runs branches[index], or the last branch when `index` is out
/// of range.
TensorList switchCase(const TensorLike &index,
                      const std::vector<std::function<TensorList()>> &branches,
                      Loc loc = Loc::current());
/// HLO `call`: traces `fn` once per name and argument signature into a
/// private function of the module and calls it. `fn` may only use its
/// arguments.
TensorList call(const std::string &name,
                const std::function<TensorList(const TensorList &)> &fn,
                const TensorList &args, Loc loc = Loc::current());

//===--- Sorting and selection --------------------------------------------===//
//
// Floats are ordered as XLA's TOTALORDER compare orders them: -NaN < -inf <
// ... < -0 < +0 < ... < inf < NaN (so NaNs go last, as in NumPy). Every sort
// is stable: equal elements keep their order.

///@{
/// HLO `sort`: `operands` (of one shape) permuted together along `axis` so
/// that the first `numKeys` of them are in lexicographic order, ascending
/// (or descending).
TensorList sort(const TensorList &operands, int64_t axis = -1,
                int64_t numKeys = 1, bool descending = false,
                Loc loc = Loc::current());
Tensor sort(const Tensor &a, int64_t axis = -1, bool descending = false,
            Loc loc = Loc::current());
///@}
/// The indices (i32) that sort `a` along `axis`, as NumPy's stable argsort.
Tensor argsort(const Tensor &a, int64_t axis = -1, bool descending = false,
               Loc loc = Loc::current());
/// HLO `topk`: the `k` largest elements along the last axis, in descending
/// order, and their indices (i32); equal elements in index order.
TensorList topK(const Tensor &a, int64_t k, Loc loc = Loc::current());
/// The gradient of max pooling (HLO `select-and-scatter` with GE and add):
/// each element of `dy`, one per window of reduceWindow(x, Max, window,
/// strides, padding), is added to the position of its window's maximum in
/// `x` (the first one on ties).
Tensor maxPoolGrad(const Tensor &x, const Tensor &dy,
                   const std::vector<int64_t> &window,
                   const std::vector<int64_t> &strides = {},
                   const std::vector<std::pair<int64_t, int64_t>> &padding = {},
                   Loc loc = Loc::current());

//===--- Random numbers ---------------------------------------------------===//
//
// Counter-based: a key is an i64[2] tensor (key, counter), and the bits are
// XLA's rng-bit-generator THREE_FRY (Threefry-2x32) of it, so the same key
// always gives the same numbers, the ones XLA gives. Split a key to get
// independent ones.

/// A key from a seed: `[seed, 0]`.
Tensor randomKey(int64_t seed, Loc loc = Loc::current());
/// `n` new keys, as an i64[n, 2] tensor (index it: `keys[0]`).
Tensor randomSplit(const Tensor &key, int64_t n = 2, Loc loc = Loc::current());
/// Uniform random bits of any integer dtype (8 to 64 bits; narrow ones are
/// the low bits of 32-bit words, as in XLA).
Tensor randomBits(const Tensor &key, const Shape &shape,
                  DType dtype = DType::I32, Loc loc = Loc::current());
/// Uniform floats in [minval, maxval): jax.random.uniform's conversion of
/// the dtype-wide bits (the top mantissa-width bits as a float in [1, 2),
/// minus 1, scaled; bf16 uses 8-bit bits).
Tensor randomUniform(const Tensor &key, const Shape &shape,
                     DType dtype = DType::F32, double minval = 0,
                     double maxval = 1, Loc loc = Loc::current());
/// Standard normal floats (Box-Muller).
Tensor randomNormal(const Tensor &key, const Shape &shape,
                    DType dtype = DType::F32, Loc loc = Loc::current());
/// Zeroes each element with probability `rate` and scales the others by
/// 1 / (1 - rate).
Tensor dropout(const Tensor &key, const Tensor &x, double rate,
               Loc loc = Loc::current());
/// HLO `rng_bit_generator` THREE_FRY (XLA's bits): the next state and the
/// bits, of any integer dtype.
std::pair<Tensor, Tensor> rngBitGenerator(const Tensor &state,
                                          const Shape &shape,
                                          DType dtype = DType::I32,
                                          Loc loc = Loc::current());

//===--- Replicas and collectives ----------------------------------------===//

/// Replica ids grouped for a collective; each group reduces or exchanges
/// among itself.
using ReplicaGroups = std::vector<std::vector<int64_t>>;

/// The executing replica's index, an i32 scalar (HLO `replica-id`).
Tensor replicaId(Loc loc = Loc::current());
/// The executing partition's index, an i32 scalar (HLO `partition-id`).
Tensor partitionId(Loc loc = Loc::current());
/// HLO `all-reduce`; empty `groups` means all replicas form one group.
Tensor allReduce(const Tensor &a, ReduceOp op = ReduceOp::Sum,
                 const ReplicaGroups &groups = {}, Loc loc = Loc::current());
///@{
/// HLO `all-gather` along `axis` within `groups` (non-empty), or among all
/// `numReplicas` replicas (the count fixes the result shape; the compiler
/// checks it).
Tensor allGather(const Tensor &a, int64_t axis, const ReplicaGroups &groups,
                 Loc loc = Loc::current());
Tensor allGather(const Tensor &a, int64_t axis, int64_t numReplicas,
                 Loc loc = Loc::current());
///@}
///@{
/// HLO `reduce-scatter`: reduce, then keep block k (of the group size)
/// along `axis` on the group's k-th member.
Tensor reduceScatter(const Tensor &a, int64_t axis,
                     const ReplicaGroups &groups, ReduceOp op = ReduceOp::Sum,
                     Loc loc = Loc::current());
Tensor reduceScatter(const Tensor &a, int64_t axis, int64_t numReplicas,
                     ReduceOp op = ReduceOp::Sum, Loc loc = Loc::current());
///@}
/// HLO `all-to-all`: split `splitAxis` into `splitCount` blocks, send block
/// k to the group's k-th member, concatenate what arrives along
/// `concatAxis`.
Tensor allToAll(const Tensor &a, int64_t splitAxis, int64_t concatAxis,
                int64_t splitCount, const ReplicaGroups &groups = {},
                Loc loc = Loc::current());
/// HLO `collective-permute`: replica `target` receives `source`'s tensor;
/// replicas that are no target get zeros.
Tensor collectivePermute(
    const Tensor &a, const std::vector<std::pair<int64_t, int64_t>> &pairs,
    Loc loc = Loc::current());

} // namespace torus

#endif // TORUS_TENSOR_H
