//===- LinalgOps.cpp - Traced dot products, convolutions, solves, FFTs ----===//

#include "ir/trace/TraceOps.h"

#include <numeric>

namespace torus {

using namespace impl;

namespace {
/// Promotes a and b to one dtype (i1 becomes i32).
std::pair<Tensor, Tensor> promotePair(TraceContext *ctx, const Loc &loc,
                                      const Tensor &a, const Tensor &b) {
  DType dtype = promoteTypes(a.dtype(), b.dtype());
  if (dtype == DType::I1)
    dtype = DType::I32;
  return {convertTo(ctx, loc, a, dtype), convertTo(ctx, loc, b, dtype)};
}
} // namespace

Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "dot_general", {&a, &b}))
    return Tensor();
  std::string error;
  auto shape = t::inferDotGeneralShape(
      a.shape(), b.shape(), dims.lhsBatch, dims.rhsBatch, dims.lhsContracting,
      dims.rhsContracting, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "dot_general", error);
  auto [lhs, rhs] = promotePair(ctx, loc, a, b);
  return emit<t::DotGeneralOp>(
      ctx, loc, typeOf(ctx, lhs.dtype(), toShape(*shape)), ctx->value(lhs),
      ctx->value(rhs), I64s(dims.lhsBatch), I64s(dims.rhsBatch),
      I64s(dims.lhsContracting), I64s(dims.rhsContracting));
}

Tensor dotGeneral(const Tensor &a, const Tensor &b, const DotDims &dims,
                  DType resultType, Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "dot_general", {&a, &b}))
    return Tensor();
  auto [lhs, rhs] = promotePair(ctx, loc, a, b);
  if (lhs.dtype() == resultType)
    return dotGeneral(lhs, rhs, dims, loc);
  return dotGeneral(astype(lhs, resultType, loc), astype(rhs, resultType, loc),
                    dims, loc);
}

Tensor matmul(const Tensor &a, const Tensor &b, Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "matmul", {&a, &b}))
    return Tensor();
  if (a.rank() == 0 || b.rank() == 0)
    return ctx->fail(loc, "matmul",
                     fmt::format("operands must have rank >= 1, got {} and {}",
                                 specString(a), specString(b)));
  int64_t k = a.dim(-1), kb = b.rank() == 1 ? b.dim(0) : b.dim(-2);
  if (k != kb)
    return ctx->fail(
        loc, "matmul",
        fmt::format("contracting dimensions differ: {} has {} columns but {} "
                    "has {} rows",
                    specString(a), k, specString(b), kb));
  // NumPy: a 1-D lhs is a row, a 1-D rhs a column, removed afterwards.
  if (a.rank() == 1 || b.rank() == 1) {
    Tensor lhs = a.rank() == 1 ? reshape(a, {1, k}, loc) : a;
    Tensor rhs = b.rank() == 1 ? reshape(b, {k, 1}, loc) : b;
    Tensor r = matmul(lhs, rhs, loc);
    Shape s = r.shape();
    if (b.rank() == 1)
      s.pop_back();
    if (a.rank() == 1)
      s.erase(s.end() - (b.rank() == 1 ? 1 : 2));
    return reshape(r, s, loc);
  }
  if (b.rank() == 2) // Batch dimensions of `a` act as extra rows.
    return dotGeneral(a, b, {{}, {}, {a.rank() - 1}, {0}}, loc);
  // Both batched: broadcast the batch dimensions to one shape.
  Shape shapeA = a.shape(), shapeB = b.shape();
  Shape batchA(shapeA.begin(), shapeA.end() - 2);
  Shape batchB(shapeB.begin(), shapeB.end() - 2);
  auto batch = broadcastShapes(batchA, batchB);
  if (!batch)
    return ctx->fail(loc, "matmul",
                     fmt::format("batch dimensions of {} and {} cannot be "
                                 "broadcast together",
                                 specString(a), specString(b)));
  Shape sa = *batch, sb = *batch;
  sa.insert(sa.end(), {a.dim(-2), a.dim(-1)});
  sb.insert(sb.end(), {b.dim(-2), b.dim(-1)});
  Tensor lhs = broadcastTo(a, sa, loc), rhs = broadcastTo(b, sb, loc);
  int64_t nb = static_cast<int64_t>(batch->size());
  std::vector<int64_t> bd(nb);
  std::iota(bd.begin(), bd.end(), 0);
  return dotGeneral(lhs, rhs, {bd, bd, {nb + 1}, {nb}}, loc);
}

Tensor convolution(const Tensor &input, const Tensor &kernel,
                   const ConvolutionOptions &options, Loc loc) {
  TraceContext *ctx = traceOf({&input, &kernel});
  if (!checkOperands(ctx, loc, "convolution", {&input, &kernel}))
    return Tensor();
  const ConvDimensionNumbers &d = options.dims;
  t::ConvDims dims;
  dims.inputBatch = d.inputBatch;
  dims.inputFeature = d.inputFeature;
  dims.inputSpatial.assign(d.inputSpatial.begin(), d.inputSpatial.end());
  dims.kernelInputFeature = d.kernelInputFeature;
  dims.kernelOutputFeature = d.kernelOutputFeature;
  dims.kernelSpatial.assign(d.kernelSpatial.begin(), d.kernelSpatial.end());
  dims.outputBatch = d.outputBatch;
  dims.outputFeature = d.outputFeature;
  dims.outputSpatial.assign(d.outputSpatial.begin(), d.outputSpatial.end());
  std::string error;
  auto shape = t::inferConvolutionShape(
      input.shape(), kernel.shape(), dims, options.strides, options.padding,
      options.lhsDilation, options.rhsDilation, options.featureGroupCount,
      options.batchGroupCount, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "convolution", error);
  auto [lhs, rhs] = promotePair(ctx, loc, input, kernel);
  auto attr = t::ConvDimensionNumbersAttr::get(
      ctx->mlirContext(), d.inputBatch, d.inputFeature, d.inputSpatial,
      d.kernelInputFeature, d.kernelOutputFeature, d.kernelSpatial,
      d.outputBatch, d.outputFeature, d.outputSpatial);
  return emit<t::ConvolutionOp>(
      ctx, loc, ctx->value(lhs), ctx->value(rhs), attr, I64s(options.strides),
      llvm::ArrayRef<std::pair<int64_t, int64_t>>(options.padding),
      I64s(options.lhsDilation), I64s(options.rhsDilation),
      options.featureGroupCount, options.batchGroupCount);
}

Tensor conv2d(const Tensor &input, const Tensor &kernel,
              const std::vector<int64_t> &strides, const Padding &padding,
              const std::vector<int64_t> &dilation, int64_t groups, Loc loc) {
  TraceContext *ctx = traceOf({&input, &kernel});
  if (!checkOperands(ctx, loc, "conv2d", {&input, &kernel}))
    return Tensor();
  if (input.rank() != 4 || kernel.rank() != 4 || strides.size() != 2 ||
      dilation.size() != 2)
    return ctx->fail(loc, "conv2d",
                     fmt::format("needs an NHWC input, an HWIO kernel and two "
                                 "strides and dilations, got {} and {}, "
                                 "strides [{}], dilation [{}]",
                                 specString(input), specString(kernel),
                                 fmt::join(strides, ","),
                                 fmt::join(dilation, ",")));
  ConvolutionOptions options;
  options.strides = strides;
  options.rhsDilation = dilation;
  options.featureGroupCount = groups;
  for (size_t i = 0; i < 2; ++i)
    options.padding.push_back(spatialPadding(padding, i, input.dim(1 + i),
                                             kernel.dim(i), strides[i],
                                             dilation[i]));
  return convolution(input, kernel, options, loc);
}

Tensor triangularSolve(const Tensor &a, const Tensor &b,
                       const TriangularSolveOptions &options, Loc loc) {
  TraceContext *ctx = traceOf({&a, &b});
  if (!checkOperands(ctx, loc, "triangular_solve", {&a, &b}))
    return Tensor();
  std::string error;
  if (mlir::failed(t::checkTriangularSolveShapes(a.shape(), b.shape(),
                                                 options.leftSide, error)))
    return ctx->fail(loc, "triangular_solve", error);
  DType dtype = promoteTypes(a.dtype(), b.dtype());
  if (!isFloat(dtype) && !isComplex(dtype))
    dtype = DType::F32;
  Tensor lhs = convertTo(ctx, loc, a, dtype);
  Tensor rhs = convertTo(ctx, loc, b, dtype);
  auto transpose = options.transposeA == TransposeA::None
                       ? t::TransposeKind::NO_TRANSPOSE
                   : options.transposeA == TransposeA::Transpose
                       ? t::TransposeKind::TRANSPOSE
                       : t::TransposeKind::ADJOINT;
  return emit<t::TriangularSolveOp>(
      ctx, loc, ctx->value(rhs).getType(), ctx->value(lhs), ctx->value(rhs),
      options.leftSide, options.lower, options.unitDiagonal, transpose);
}

Tensor fft(const Tensor &a, FftType type, const std::vector<int64_t> &lengths,
           Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "fft", {&a}))
    return Tensor();
  bool real = type == FftType::RFFT;
  if (real && isComplex(a.dtype()))
    return ctx->fail(loc, "fft",
                     "RFFT needs a real operand, got " + specString(a));
  // f64 and c128 stay double; everything else is single precision.
  bool wide = a.dtype() == DType::F64 || a.dtype() == DType::C128;
  DType operandType = real ? (wide ? DType::F64 : DType::F32)
                           : (wide ? DType::C128 : DType::C64);
  DType resultType = type == FftType::IRFFT ? (wide ? DType::F64 : DType::F32)
                                            : (wide ? DType::C128 : DType::C64);
  auto kind = type == FftType::RFFT    ? t::FftShapeKind::RealToComplex
              : type == FftType::IRFFT ? t::FftShapeKind::ComplexToReal
                                       : t::FftShapeKind::Complex;
  std::string error;
  auto shape = t::inferFftShape(a.shape(), lengths, kind, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "fft", error);
  Tensor x = convertTo(ctx, loc, a, operandType);
  auto fftType = type == FftType::FFT    ? t::FftType::FFT
                 : type == FftType::IFFT ? t::FftType::IFFT
                 : type == FftType::RFFT ? t::FftType::RFFT
                                         : t::FftType::IRFFT;
  return emit<t::FftOp>(ctx, loc, typeOf(ctx, resultType, toShape(*shape)),
                        ctx->value(x), fftType, I64s(lengths));
}

} // namespace torus
