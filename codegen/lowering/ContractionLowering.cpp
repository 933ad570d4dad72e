//===- ContractionLowering.cpp - dot_general and convolution --------------===//
//
// Both become one linalg.generic with parallel loops over the result and
// reduction loops over the contracted dimensions, accumulating into a
// zero-filled result (in f32 for f16/bf16 operands, rounded at the end).
// A convolution first pads and dilates its input (buildPad); feature and
// batch groups are affine `floordiv` expressions in the input's map.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

/// out += lhs * rhs for the accumulator's element type.
Value multiplyAccumulate(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value out) {
  lhs = widenHalf(b, loc, lhs);
  rhs = widenHalf(b, loc, rhs);
  Value product = combine(b, loc, ReduceKind::product, lhs, rhs);
  return combine(b, loc, ReduceKind::sum, out, product);
}

/// A zero-filled accumulator for `resultType` (f32 for f16/bf16).
Value zeroAccumulator(OpBuilder &b, Location loc, RankedTensorType resultType) {
  Type et = resultType.getElementType();
  Type acc = isHalfFloat(et) ? b.getF32Type() : et;
  auto accType = RankedTensorType::get(resultType.getShape(), acc);
  return filled(b, loc, accType, identityValue(b, loc, ReduceKind::sum, acc));
}

/// Rounds an f32 accumulator back to `resultType` when it differs.
Value finish(OpBuilder &b, Location loc, Value acc,
             RankedTensorType resultType) {
  if (acc.getType() == resultType)
    return acc;
  return buildElementwise(b, loc, resultType, acc,
                          [&](OpBuilder &nb, Location nl, ValueRange x) {
                            return narrowTo(nb, nl, x[0],
                                            resultType.getElementType());
                          });
}

/// The map of the result: the first `numParallel` of `numLoops` loops, (d0,
/// ..., dn) -> (d0, ..., dk); for a scalar result, (d0, ..., dn) -> ()
/// (getMajorSubMap(0) would be the null map).
AffineMap leadingLoops(int64_t numLoops, int64_t numParallel,
                       MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < numParallel; ++i)
    exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

/// dot_general as one linalg.generic. Loop order: batch dims, lhs free dims,
/// rhs free dims (all parallel), then contracting dims (reduction).
struct DotGeneralLowering : OpConversionPattern<DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto resultType = op.getType();
    ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(),
                      rb = op.getRhsBatchingDimensions(),
                      lc = op.getLhsContractingDimensions(),
                      rc = op.getRhsContractingDimensions();
    int64_t numParallel = resultType.getRank();
    int64_t numLoops = numParallel + lc.size();

    // Loop index of each operand dimension.
    auto operandMap = [&](int64_t rank, ArrayRef<int64_t> batch,
                          ArrayRef<int64_t> contract, int64_t firstFree) {
      SmallVector<AffineExpr> exprs(rank);
      int64_t nextFree = firstFree;
      for (int64_t d = 0; d < rank; ++d) {
        if (const int64_t *it = llvm::find(batch, d); it != batch.end())
          exprs[d] = getAffineDimExpr(it - batch.begin(), ctx);
        else if (const int64_t *jt = llvm::find(contract, d);
                 jt != contract.end())
          exprs[d] =
              getAffineDimExpr(numParallel + (jt - contract.begin()), ctx);
        else
          exprs[d] = getAffineDimExpr(nextFree++, ctx);
      }
      return AffineMap::get(numLoops, 0, exprs, ctx);
    };
    int64_t lhsFree = lhsType.getRank() - lb.size() - lc.size();
    SmallVector<AffineMap> maps = {
        operandMap(lhsType.getRank(), lb, lc, lb.size()),
        operandMap(rhsType.getRank(), rb, rc, lb.size() + lhsFree),
        leadingLoops(numLoops, numParallel, ctx)};
    SmallVector<utils::IteratorType> iterators(numParallel,
                                               utils::IteratorType::parallel);
    iterators.append(lc.size(), utils::IteratorType::reduction);

    Value init = zeroAccumulator(rewriter, loc, resultType);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, init.getType(), ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        init, maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          b.create<linalg::YieldOp>(
              l, multiplyAccumulate(b, l, args[0], args[1], args[2]));
        });
    rewriter.replaceOp(op,
                       finish(rewriter, loc, generic.getResult(0), resultType));
    return success();
  }
};

/// convolution as one linalg.generic over (output dims) × (kernel spatial
/// dims, kernel input feature). With output batch b, output feature o,
/// output spatial s_i, kernel position k_i and kernel input feature c:
///   input[batch]   = (o floordiv (O / B)) * (N / B) + b    (B batch groups)
///   input[feature] = (o floordiv (O / G)) * (C / G) + c    (G feature groups)
///   input[space i] = s_i * stride_i + k_i * rhs_dilation_i
/// on the padded, lhs-dilated input.
struct ConvolutionLowering : OpConversionPattern<ConvolutionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConvolutionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
    auto resultType = op.getType();
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    int64_t rank = resultType.getRank();
    int64_t numSpatial = dn.getInputSpatialDimensions().size();
    int64_t groups = op.getFeatureGroupCount();
    int64_t batchGroups = op.getBatchGroupCount();

    // Pad and dilate the input's spatial dimensions with zeros.
    SmallVector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
    auto padding = op.getPaddingPairs();
    auto lhsDilation = op.getLhsDilationOr1();
    for (int64_t i = 0; i < numSpatial; ++i) {
      int64_t d = dn.getInputSpatialDimensions()[i];
      low[d] = padding[i].first;
      high[d] = padding[i].second;
      interior[d] = lhsDilation[i] - 1;
    }
    Type et = lhsType.getElementType();
    Value zero = rewriter.create<arith::ConstantOp>(
        loc, reduceIdentity(ReduceKind::sum, et));
    Value input = buildPad(rewriter, loc, adaptor.getLhs(), zero, low, high,
                           interior);

    // Loops: the output's dims in order, then kernel spatial, then c.
    int64_t numLoops = rank + numSpatial + 1;
    auto dim = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    AffineExpr b = dim(dn.getOutputBatchDimension());
    AffineExpr o = dim(dn.getOutputFeatureDimension());
    AffineExpr c = dim(rank + numSpatial);
    int64_t outFeatures = rhsType.getDimSize(dn.getKernelOutputFeatureDimension());
    int64_t inFeaturesPerGroup =
        rhsType.getDimSize(dn.getKernelInputFeatureDimension());
    int64_t batchPerGroup = lhsType.getDimSize(dn.getInputBatchDimension()) /
                            batchGroups;
    SmallVector<int64_t> strides = op.getStrides();
    SmallVector<int64_t> rhsDilation = op.getRhsDilationOr1();

    SmallVector<AffineExpr> in(rank), kernel(rank);
    in[dn.getInputBatchDimension()] =
        batchGroups == 1
            ? b
            : (o.floorDiv(outFeatures / batchGroups)) * batchPerGroup + b;
    in[dn.getInputFeatureDimension()] =
        groups == 1 ? c
                    : (o.floorDiv(outFeatures / groups)) * inFeaturesPerGroup + c;
    kernel[dn.getKernelInputFeatureDimension()] = c;
    kernel[dn.getKernelOutputFeatureDimension()] = o;
    for (int64_t i = 0; i < numSpatial; ++i) {
      AffineExpr s = dim(dn.getOutputSpatialDimensions()[i]);
      AffineExpr k = dim(rank + i);
      in[dn.getInputSpatialDimensions()[i]] = s * strides[i] + k * rhsDilation[i];
      kernel[dn.getKernelSpatialDimensions()[i]] = k;
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, in, ctx),
        AffineMap::get(numLoops, 0, kernel, ctx),
        leadingLoops(numLoops, rank, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(numSpatial + 1, utils::IteratorType::reduction);

    Value init = zeroAccumulator(rewriter, loc, resultType);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, init.getType(), ValueRange{input, adaptor.getRhs()}, init, maps,
        iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
          nb.create<linalg::YieldOp>(
              l, multiplyAccumulate(nb, l, args[0], args[1], args[2]));
        });
    rewriter.replaceOp(op,
                       finish(rewriter, loc, generic.getResult(0), resultType));
    return success();
  }
};

} // namespace

void populateContractionLowering(RewritePatternSet &patterns) {
  patterns.add<DotGeneralLowering, ConvolutionLowering>(patterns.getContext());
}

} // namespace mlir::torus
