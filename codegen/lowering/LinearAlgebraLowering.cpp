//===- LinearAlgebraLowering.cpp - triangular_solve, fft to scf/linalg ----===//
//
// triangular_solve becomes substitution: scf loops over the independent
// systems (batch elements times the columns, or rows, of x), and in each
// over the solved index in the order the triangle allows, subtracting the
// known terms one by one from b and dividing by the diagonal, on
// tensor.extract/insert. f16 and bf16 are solved in f32 and rounded once.
//
// fft becomes one linalg.generic per transformed dimension, a direct sum
// (O(n^2)) against a constant table of twiddle factors computed in long
// double, on the real and imaginary parts as f64 tensors; the result is
// rounded to the element type at the end. RFFT's first step keeps the
// n/2 + 1 frequencies it returns; IRFFT's last step sums the Hermitian
// spectrum's real part directly (each frequency 1 to ceil(n/2) - 1 twice).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

namespace mlir::torus {
namespace {

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return b.create<arith::ConstantIndexOp>(loc, v);
}

//===----------------------------------------------------------------------===//
// triangular_solve
//===----------------------------------------------------------------------===//

Value subOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (isComplexType(x.getType()))
    return b.create<complex::SubOp>(loc, x, y);
  return b.create<arith::SubFOp>(loc, x, y);
}

Value mulOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (isComplexType(x.getType()))
    return b.create<complex::MulOp>(loc, x, y);
  return b.create<arith::MulFOp>(loc, x, y);
}

Value divOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (isComplexType(x.getType()))
    return b.create<complex::DivOp>(loc, x, y);
  return b.create<arith::DivFOp>(loc, x, y);
}

struct TriangularSolveLowering : OpConversionPattern<TriangularSolveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TriangularSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyLike(rewriter, loc, type));
      return success();
    }
    Value a = adaptor.getA();
    Type et = type.getElementType();
    Type ct = isHalfFloat(et) ? rewriter.getF32Type() : et;
    Value work = adaptor.getB();
    if (ct != et)
      work = buildElementwise(rewriter, loc, type.clone(ct), work,
                              [](OpBuilder &b, Location loc, ValueRange x) {
                                return widenHalf(b, loc, x[0]);
                              });
    int64_t rank = type.getRank();
    int64_t m = cast<RankedTensorType>(a.getType()).getShape().back();
    bool left = op.getLeftSide();
    bool transposed = op.getTransposeA() != TransposeKind::NO_TRANSPOSE;
    bool conjugate =
        op.getTransposeA() == TransposeKind::ADJOINT && isComplexType(et);
    bool unit = op.getUnitDiagonal();
    // op(a) is lower triangular when `lower` xor transposed. Solving from
    // the left, a lower op(a) gives x's rows first to last; from the
    // right, an upper one gives its columns first to last.
    bool opLower = op.getLower() != transposed;
    bool forward = left ? opLower : !opLower;
    // The coefficient of unknown k in equation s is a[s, k] or a[k, s].
    bool swap = left == transposed;
    int64_t freeDim = left ? rank - 1 : rank - 2;
    SmallVector<int64_t> systems(type.getShape().drop_back(2));
    systems.push_back(type.getDimSize(freeDim));
    int64_t count = 1;
    for (int64_t n : systems)
      count *= n;

    Value zero = cIndex(rewriter, loc, 0), one = cIndex(rewriter, loc, 1);
    Value last = cIndex(rewriter, loc, m - 1);
    auto loop = rewriter.create<scf::ForOp>(
        loc, zero, cIndex(rewriter, loc, count), one, ValueRange{work},
        [&](OpBuilder &b, Location loc, Value p, ValueRange outer) {
          SmallVector<Value> sys = delinearize(b, loc, p, systems);
          Value free = sys.pop_back_val();
          auto xAt = [&](Value s) {
            SmallVector<Value> idx(sys);
            if (left)
              idx.append({s, free});
            else
              idx.append({free, s});
            return idx;
          };
          auto coefficient = [&](OpBuilder &b, Location loc, Value s, Value k) {
            SmallVector<Value> idx(sys);
            if (swap)
              idx.append({k, s});
            else
              idx.append({s, k});
            Value v =
                widenHalf(b, loc, b.create<tensor::ExtractOp>(loc, a, idx));
            if (conjugate)
              v = b.create<complex::ConjOp>(loc, v);
            return v;
          };
          auto steps = b.create<scf::ForOp>(
              loc, zero, cIndex(b, loc, m), one, outer,
              [&](OpBuilder &b, Location loc, Value t, ValueRange x) {
                Value s = forward ? t : b.create<arith::SubIOp>(loc, last, t);
                // The t unknowns solved before s.
                Value init = b.create<tensor::ExtractOp>(loc, x[0], xAt(s));
                auto sum = b.create<scf::ForOp>(
                    loc, zero, t, one, ValueRange{init},
                    [&](OpBuilder &b, Location loc, Value u, ValueRange acc) {
                      Value k =
                          forward ? u : b.create<arith::SubIOp>(loc, last, u);
                      Value xk = b.create<tensor::ExtractOp>(loc, x[0], xAt(k));
                      Value term = mulOf(b, loc, coefficient(b, loc, s, k), xk);
                      b.create<scf::YieldOp>(
                          loc, ValueRange{subOf(b, loc, acc[0], term)});
                    });
                Value xs = sum.getResult(0);
                if (!unit)
                  xs = divOf(b, loc, xs, coefficient(b, loc, s, s));
                b.create<scf::YieldOp>(
                    loc, ValueRange{b.create<tensor::InsertOp>(loc, xs, x[0],
                                                               xAt(s))});
              });
          b.create<scf::YieldOp>(loc, steps.getResults());
        });
    Value result = loop.getResult(0);
    if (ct != et)
      result = buildElementwise(rewriter, loc, type, result,
                                [&](OpBuilder &b, Location loc, ValueRange x) {
                                  return narrowTo(b, loc, x[0], et);
                                });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// fft
//===----------------------------------------------------------------------===//

constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;

/// A constant f64 tensor of `shape` whose element (i, j) is `fn(i, j)`.
Value table(OpBuilder &b, Location loc, int64_t rows, int64_t cols,
            function_ref<double(int64_t, int64_t)> fn) {
  SmallVector<double> values;
  values.reserve(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values.push_back(fn(i, j));
  auto type = RankedTensorType::get({rows, cols}, b.getF64Type());
  return b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type, ArrayRef<double>(values)));
}

/// cos and sin of 2 pi (f t mod n) / n, in long double.
/// Exact at multiples of a quarter turn, so that IRFFT ignores the
/// imaginary part of frequency n/2 and real inputs stay real there.
std::pair<long double, long double> twiddle(int64_t f, int64_t t, int64_t n) {
  int64_t r = (f * t) % n;
  if (r == 0)
    return {1.0L, 0.0L};
  if (2 * r == n)
    return {-1.0L, 0.0L};
  if (4 * r == n)
    return {0.0L, 1.0L};
  if (4 * r == 3 * n)
    return {0.0L, -1.0L};
  long double angle = kTwoPi * static_cast<long double>(r) / n;
  return {std::cos(angle), std::sin(angle)};
}

/// `x` with dimension `dim` replaced by the reduction dimension `rank`: the
/// map of an operand summed along `dim`.
AffineMap summedMap(MLIRContext *ctx, int64_t rank, int64_t dim) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
  return AffineMap::get(rank + 1, 0, exprs, ctx);
}

/// `out[..., f, ...] = sum_t in[..., t, ...] * w[f, t]` along `dim` of the
/// f64 tensors `ins` (all of one shape), for weight tables `ws` ([outSize,
/// inSize] each): `body(b, loc, inputs, weights, accumulators)` returns the
/// new accumulators, one per output.
SmallVector<Value>
sumAlong(OpBuilder &b, Location loc, ValueRange ins, ValueRange ws, int64_t dim,
         int64_t outSize, unsigned numOutputs,
         function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange,
                                         ValueRange, ValueRange)>
             body) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(ins[0].getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> shape(inType.getShape());
  shape[dim] = outSize;
  auto outType = RankedTensorType::get(shape, b.getF64Type());
  Value zero = filled(b, loc, outType, b.getF64FloatAttr(0.0));
  SmallVector<Value> inits(numOutputs, zero);
  SmallVector<AffineMap> maps;
  for (size_t i = 0; i < ins.size(); ++i)
    maps.push_back(summedMap(ctx, rank, dim));
  AffineMap wMap = AffineMap::get(
      rank + 1, 0, {getAffineDimExpr(dim, ctx), getAffineDimExpr(rank, ctx)},
      ctx);
  for (size_t i = 0; i < ws.size(); ++i)
    maps.push_back(wMap);
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(getAffineDimExpr(d, ctx));
  AffineMap outMap = AffineMap::get(rank + 1, 0, outExprs, ctx);
  for (unsigned i = 0; i < numOutputs; ++i)
    maps.push_back(outMap);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  SmallVector<Value> operands(ins);
  operands.append(ws.begin(), ws.end());
  auto generic = b.create<linalg::GenericOp>(
      loc, SmallVector<Type>(numOutputs, outType), operands, inits, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        ValueRange xs = args.take_front(ins.size());
        ValueRange wv = args.slice(ins.size(), ws.size());
        ValueRange acc = args.take_back(numOutputs);
        nb.create<linalg::YieldOp>(nl, body(nb, nl, xs, wv, acc));
      });
  return SmallVector<Value>(generic.getResults());
}

/// One complex DFT step along `dim`: `n` inputs, the first `outSize`
/// frequencies, forward (exp(-2 pi i f t / n)) or inverse (exp(+...) / n).
std::pair<Value, Value> dftAlong(OpBuilder &b, Location loc, Value re, Value im,
                                 int64_t dim, int64_t n, int64_t outSize,
                                 bool inverse) {
  long double scale = inverse ? 1.0L / n : 1.0L;
  Value wr = table(b, loc, outSize, n, [&](int64_t f, int64_t t) {
    return static_cast<double>(twiddle(f, t, n).first * scale);
  });
  Value wi = table(b, loc, outSize, n, [&](int64_t f, int64_t t) {
    long double s = twiddle(f, t, n).second * scale;
    return static_cast<double>(inverse ? s : -s);
  });
  SmallVector<Value> out = sumAlong(
      b, loc, ValueRange{re, im}, ValueRange{wr, wi}, dim, outSize, 2,
      [](OpBuilder &b, Location loc, ValueRange x, ValueRange w,
         ValueRange acc) -> SmallVector<Value> {
        auto mul = [&](Value p, Value q) {
          return b.create<arith::MulFOp>(loc, p, q);
        };
        // (xr + i xi)(wr + i wi)
        Value r =
            b.create<arith::SubFOp>(loc, mul(x[0], w[0]), mul(x[1], w[1]));
        Value i =
            b.create<arith::AddFOp>(loc, mul(x[0], w[1]), mul(x[1], w[0]));
        return {b.create<arith::AddFOp>(loc, acc[0], r),
                b.create<arith::AddFOp>(loc, acc[1], i)};
      });
  return {out[0], out[1]};
}

/// IRFFT's last step along `dim`: the `n` reals of the Hermitian spectrum
/// whose first n/2 + 1 frequencies are (re, im).
Value complexToRealAlong(OpBuilder &b, Location loc, Value re, Value im,
                         int64_t dim, int64_t n) {
  int64_t half = n / 2 + 1;
  // Frequencies 1..ceil(n/2)-1 stand for themselves and their mirror
  // images; 0 and (for even n) n/2 only for themselves.
  auto weight = [&](int64_t f) -> long double {
    return (f == 0 || 2 * f == n ? 1.0L : 2.0L) / n;
  };
  Value wr = table(b, loc, n, half, [&](int64_t t, int64_t f) {
    return static_cast<double>(weight(f) * twiddle(f, t, n).first);
  });
  Value wi = table(b, loc, n, half, [&](int64_t t, int64_t f) {
    return static_cast<double>(weight(f) * twiddle(f, t, n).second);
  });
  return sumAlong(b, loc, ValueRange{re, im}, ValueRange{wr, wi}, dim, n, 1,
                  [](OpBuilder &b, Location loc, ValueRange x, ValueRange w,
                     ValueRange acc) -> SmallVector<Value> {
                    // re((xr + i xi)(cos + i sin))
                    Value r = b.create<arith::SubFOp>(
                        loc, b.create<arith::MulFOp>(loc, x[0], w[0]),
                        b.create<arith::MulFOp>(loc, x[1], w[1]));
                    return {b.create<arith::AddFOp>(loc, acc[0], r)};
                  })[0];
}

struct FftLowering : OpConversionPattern<FftOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FftOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto outType = cast<RankedTensorType>(op.getType());
    if (outType.getNumElements() == 0) {
      rewriter.replaceOp(op, emptyLike(rewriter, loc, outType));
      return success();
    }
    Value x = adaptor.getOperand();
    auto inType = cast<RankedTensorType>(x.getType());
    Type f64 = rewriter.getF64Type();
    auto partType = inType.clone(f64);
    auto part = [&](bool imag) {
      return buildElementwise(
          rewriter, loc, partType, x,
          [&](OpBuilder &b, Location loc, ValueRange v) -> Value {
            Value p = imag ? imagPart(b, loc, v[0]) : realPart(b, loc, v[0]);
            return p.getType() == f64 ? p
                                      : b.create<arith::ExtFOp>(loc, f64, p);
          });
    };
    Value re = part(false), im = part(true);
    FftType kind = op.getFftType();
    bool inverse = kind == FftType::IFFT || kind == FftType::IRFFT;
    ArrayRef<int64_t> lengths = op.getFftLength();
    int64_t rank = inType.getRank(), k = lengths.size();
    int64_t lastDim = rank - 1, n = lengths.back();
    // RFFT halves the last dimension first; IRFFT restores it last.
    if (kind == FftType::RFFT)
      std::tie(re, im) = dftAlong(rewriter, loc, re, im, lastDim, n, n / 2 + 1,
                                  /*inverse=*/false);
    for (int64_t i = 0; i < k; ++i) {
      int64_t dim = rank - k + i;
      if (kind != FftType::FFT && kind != FftType::IFFT && dim == lastDim)
        continue;
      std::tie(re, im) =
          dftAlong(rewriter, loc, re, im, dim, lengths[i], lengths[i], inverse);
    }
    Type et = outType.getElementType();
    Value result;
    if (kind == FftType::IRFFT) {
      Value y = complexToRealAlong(rewriter, loc, re, im, lastDim, n);
      result = buildElementwise(
          rewriter, loc, outType, y,
          [&](OpBuilder &b, Location loc, ValueRange v) -> Value {
            return et == f64 ? v[0] : b.create<arith::TruncFOp>(loc, et, v[0]);
          });
    } else {
      Type part = cast<ComplexType>(et).getElementType();
      result = buildElementwise(
          rewriter, loc, outType, ValueRange{re, im},
          [&](OpBuilder &b, Location loc, ValueRange v) -> Value {
            Value r = v[0], i = v[1];
            if (part != f64) {
              r = b.create<arith::TruncFOp>(loc, part, r);
              i = b.create<arith::TruncFOp>(loc, part, i);
            }
            return b.create<complex::CreateOp>(loc, et, r, i);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateLinearAlgebraLowering(RewritePatternSet &patterns) {
  patterns.add<TriangularSolveLowering, FftLowering>(patterns.getContext());
}

} // namespace mlir::torus
