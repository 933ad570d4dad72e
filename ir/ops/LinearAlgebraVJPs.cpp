//===- LinearAlgebraVJPs.cpp - VJPs of triangular_solve and fft -----------===//
//
// With M = op(a) and x the result, the left-side solve M x = b gives
//   b̄ = M^-T x̄          (a solve with the transpose toggled)
//   M̄ = -b̄ x^T
// and the right-side solve x M = b gives b̄ = x̄ M^-T, M̄ = -x^T b̄. ā is M̄
// (transposed back when op transposes) on the triangle the solve reads:
// the other triangle, and the diagonal under unit_diagonal, are not
// inputs. Real types only: autodiff refuses complex values for ops
// passes/VJPRules.cpp does not list.
//
// fft's rules are JAX's transposes (jax/_src/lax/fft.py): FFT and IFFT are
// complex-linear with symmetric matrices, so each is its own transpose;
// RFFT is x -> slice(FFT(complex(x))), whose transpose pads the cotangent
// with zeros, applies FFT and takes the real part; IRFFT's is
// conj(RFFT(ct) * mask / prod(fft_length)), the mask 1 at frequency 0 and
// (even n) n/2, 2 at the frequencies that stand for two.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

namespace mlir::torus {

LogicalResult TriangularSolveOp::buildVJP(GradBuilder &gb,
                                          ArrayRef<Value> resultCotangents,
                                          SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents[0];
  if (!ct)
    return success();
  OpBuilder &b = gb.builder();
  Location loc = gb.location();
  Value a = getA(), x = getResult();
  auto aType = GradBuilder::typeOf(a);
  int64_t rank = aType.getRank();
  bool transposed = getTransposeA() != TransposeKind::NO_TRANSPOSE;
  Value ctB = b.create<TriangularSolveOp>(
      loc, getB().getType(), a, ct, getLeftSide(), getLower(),
      getUnitDiagonal(),
      transposed ? TransposeKind::NO_TRANSPOSE : TransposeKind::TRANSPOSE);
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < rank - 2; ++d)
    batch.push_back(d);
  // M̄ = -b̄ x^T (left) or -x^T b̄ (right), [..., m, m].
  Value ctM = getLeftSide()
                  ? gb.dotGeneral(ctB, x, batch, batch, {rank - 1}, {rank - 1})
                  : gb.dotGeneral(x, ctB, batch, batch, {rank - 2}, {rank - 2});
  ctM = gb.neg(ctM);
  if (transposed) {
    SmallVector<int64_t> perm(batch);
    perm.append({rank - 1, rank - 2});
    ctM = gb.transpose(ctM, perm);
  }
  // Zero outside the triangle read: row >= column (lower) or row <= column,
  // strictly with a unit diagonal.
  auto iotaType = aType.clone(b.getI32Type());
  Value row = b.create<IotaOp>(loc, iotaType, rank - 2);
  Value col = b.create<IotaOp>(loc, iotaType, rank - 1);
  ComparisonDirection dir = getLower()
                                ? (getUnitDiagonal() ? ComparisonDirection::GT
                                                     : ComparisonDirection::GE)
                                : (getUnitDiagonal() ? ComparisonDirection::LT
                                                     : ComparisonDirection::LE);
  cts[0] = gb.select(gb.compare(dir, row, col), ctM, gb.zerosLike(ctM));
  cts[1] = ctB;
  return success();
}

LogicalResult FftOp::buildVJP(GradBuilder &gb, ArrayRef<Value> resultCotangents,
                              SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents[0];
  if (!ct)
    return success();
  OpBuilder &b = gb.builder();
  Location loc = gb.location();
  auto inType = GradBuilder::typeOf(getOperand());
  int64_t rank = inType.getRank(), n = getFftLength().back();
  auto transform = [&](Value x, FftType type, Type resultType) -> Value {
    return b.create<FftOp>(loc, resultType, x, type, getFftLengthAttr());
  };
  switch (getFftType()) {
  case FftType::FFT:
  case FftType::IFFT:
    cts[0] = transform(ct, getFftType(), ct.getType());
    return success();
  case FftType::RFFT: {
    SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    high[rank - 1] = n - GradBuilder::typeOf(ct).getShape().back();
    Value padded = gb.padZeros(ct, low, high, interior);
    Value full = transform(padded, FftType::FFT, padded.getType());
    cts[0] = b.create<RealOp>(loc, inType, full);
    return success();
  }
  case FftType::IRFFT: {
    Value spectrum = transform(ct, FftType::RFFT, inType);
    int64_t half = inType.getShape().back(), total = 1;
    for (int64_t len : getFftLength())
      total *= len;
    auto part = GradBuilder::typeOf(ct).getElementType();
    auto semantics = &cast<FloatType>(part).getFloatSemantics();
    SmallVector<APFloat> mask;
    for (int64_t f = 0; f < half; ++f) {
      APFloat v((f == 0 || 2 * f == n ? 1.0 : 2.0) / total);
      bool lost;
      v.convert(*semantics, APFloat::rmNearestTiesToEven, &lost);
      mask.push_back(v);
    }
    auto maskType = RankedTensorType::get({half}, part);
    Value m = b.create<ConstantOp>(
        loc, maskType,
        cast<ElementsAttr>(DenseElementsAttr::get(maskType, mask)));
    m = gb.broadcastInDim(m, inType.getShape(), {rank - 1});
    Value scaled = gb.mul(spectrum, gb.convert(m, inType.getElementType()));
    Value re = b.create<RealOp>(loc, m.getType(), scaled);
    Value im = b.create<ImagOp>(loc, m.getType(), scaled);
    cts[0] = b.create<ComplexOp>(loc, re, gb.neg(im));
    return success();
  }
  }
  llvm_unreachable("every fft_type is handled");
}

} // namespace mlir::torus
