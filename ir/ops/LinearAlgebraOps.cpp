//===- LinearAlgebraOps.cpp - triangular_solve, fft -----------------------===//
//
// The ops XLA:CPU hands to library kernels (Eigen, DUCC): a triangular
// solve and the discrete Fourier transform. Both compute along their last
// dimensions and treat the leading ones as batches, which is their
// sharding rule: batches tile, the solved or transformed dimensions do not.
//
//===----------------------------------------------------------------------===//

#include "ir/ShardingRuleOpInterface.h"
#include "ir/TensorTypes.h"
#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

//===----------------------------------------------------------------------===//
// triangular_solve
//===----------------------------------------------------------------------===//

LogicalResult TriangularSolveOp::verify() {
  auto a = tensorType(getA()), b = tensorType(getB());
  if (failed(checkSameElementType(*this, getA(), "a", getB(), "b")))
    return failure();
  std::string error;
  if (failed(checkTriangularSolveShapes(a.getShape(), b.getShape(),
                                        getLeftSide(), error)))
    return emitOpError(error);
  return checkResult(*this, tensorType(getResult()), b.getShape(),
                     b.getElementType());
}

std::optional<SmallVector<int64_t>>
TriangularSolveOp::getOperandDimMap(unsigned operand, unsigned) {
  int64_t rank = tensorType(getB()).getRank();
  // a: its batches; b: all of it (the solved dimension is blocked).
  if (operand == 0)
    return identityDimMapKeeping(rank, [&](int64_t d) { return d < rank - 2; });
  return identityDimMapKeeping(rank, [](int64_t) { return true; });
}

SmallVector<int64_t> TriangularSolveOp::getBlockedResultDims(ShardingAttr) {
  int64_t rank = tensorType(getB()).getRank();
  // Each column (left side) or row (right side) of x is solved on its own;
  // along the other dimension every element depends on the ones before.
  return {getLeftSide() ? rank - 2 : rank - 1};
}

//===----------------------------------------------------------------------===//
// fft
//===----------------------------------------------------------------------===//

LogicalResult FftOp::verify() {
  auto in = tensorType(getOperand()), out = tensorType(getResult());
  Type et = in.getElementType();
  bool complexIn = isa<ComplexType>(et);
  Type part = complexIn ? cast<ComplexType>(et).getElementType() : et;
  if (!part.isF32() && !part.isF64())
    return emitOpError("operand element type ")
           << et << " is not f32, f64, or complex of them";
  FftType type = getFftType();
  bool wantComplexIn = type != FftType::RFFT;
  if (complexIn != wantComplexIn)
    return emitOpError() << stringifyFftType(type) << " takes a "
                         << (wantComplexIn ? "complex" : "real")
                         << " operand, not " << in;
  auto kind = type == FftType::RFFT    ? FftShapeKind::RealToComplex
              : type == FftType::IRFFT ? FftShapeKind::ComplexToReal
                                       : FftShapeKind::Complex;
  std::string error;
  auto shape = inferFftShape(in.getShape(), getFftLength(), kind, error);
  if (failed(shape))
    return emitOpError(error);
  Type resultElement = type == FftType::RFFT    ? ComplexType::get(part)
                       : type == FftType::IRFFT ? part
                                                : et;
  if (out.getElementType() != resultElement)
    return emitOpError("result element type ")
           << out.getElementType() << " should be " << resultElement << " for "
           << stringifyFftType(type) << " of " << et;
  if (out.getShape() != ArrayRef<int64_t>(*shape))
    return emitOpError("result shape ") << formatShape(out.getShape())
                                        << " should be " << formatShape(*shape);
  return success();
}

std::optional<SmallVector<int64_t>> FftOp::getOperandDimMap(unsigned,
                                                            unsigned) {
  int64_t rank = tensorType(getOperand()).getRank();
  int64_t batch = rank - getFftLength().size();
  return identityDimMapKeeping(rank, [&](int64_t d) { return d < batch; });
}

SmallVector<int64_t> FftOp::getBlockedResultDims(ShardingAttr) {
  int64_t rank = tensorType(getOperand()).getRank();
  SmallVector<int64_t> dims;
  for (int64_t d = rank - getFftLength().size(); d < rank; ++d)
    dims.push_back(d);
  return dims;
}
