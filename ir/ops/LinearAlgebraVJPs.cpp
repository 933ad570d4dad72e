//===- LinearAlgebraVJPs.cpp - VJP of triangular_solve --------------------===//
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
  Value ctM =
      getLeftSide()
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
  ComparisonDirection dir =
      getLower() ? (getUnitDiagonal() ? ComparisonDirection::GT
                                      : ComparisonDirection::GE)
                 : (getUnitDiagonal() ? ComparisonDirection::LT
                                      : ComparisonDirection::LE);
  cts[0] = gb.select(gb.compare(dir, row, col), ctM, gb.zerosLike(ctM));
  cts[1] = ctB;
  return success();
}

} // namespace mlir::torus
