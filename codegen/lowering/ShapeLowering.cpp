//===- ShapeLowering.cpp - Constants and shape ops to linalg/tensor -------===//
//
// Data movement: broadcast_in_dim, iota and reverse are linalg.generic maps;
// transpose is linalg.transpose; reshape a collapse/expand pair; slices,
// concatenation and padding are tensor.extract_slice / insert_slice into a
// filled tensor (which bufferize to copies into one buffer).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "constant is not a typed attr");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    int64_t rank = type.getRank();
    int64_t dim = op.getIotaDimension();
    Type et = type.getElementType();
    auto generic = rewriter.create<linalg::GenericOp>(
        op.getLoc(), type, ValueRange{}, emptyLike(rewriter, op.getLoc(), type),
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = b.create<linalg::IndexOp>(loc, dim);
          Value i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
          Value v;
          if (isFloatType(et))
            v = narrowTo(b, loc,
                         b.create<arith::SIToFPOp>(
                             loc, isHalfFloat(et) ? b.getF32Type() : et, i64),
                         et);
          else if (et.getIntOrFloatBitWidth() < 64)
            v = b.create<arith::TruncIOp>(loc, et, i64);
          else
            v = i64;
          b.create<linalg::YieldOp>(loc, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct BroadcastInDimLowering : OpConversionPattern<BroadcastInDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastInDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    auto inType = cast<RankedTensorType>(op.getOperand().getType());
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineExpr> exprs;
    for (auto [i, d] : llvm::enumerate(op.getBroadcastDimensions())) {
      bool stretched =
          inType.getDimSize(i) == 1 && resultType.getDimSize(d) != 1;
      exprs.push_back(stretched ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(d, ctx));
    }
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, ctx),
                                   rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = rewriter.create<linalg::GenericOp>(
        op.getLoc(), resultType, adaptor.getOperand(),
        emptyLike(rewriter, op.getLoc(), resultType), maps, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          b.create<linalg::YieldOp>(loc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto transpose = rewriter.create<linalg::TransposeOp>(
        op.getLoc(), adaptor.getOperand(),
        emptyLike(rewriter, op.getLoc(), op.getType()), op.getPermutation());
    rewriter.replaceOp(op, transpose.getResult()[0]);
    return success();
  }
};

/// Row-major reshape as collapse-to-1-D then expand (both free on static,
/// contiguous tensors); rank-0 sides need no reassociation.
struct ReshapeLowering : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value in = adaptor.getOperand();
    auto inType = cast<RankedTensorType>(in.getType());
    auto outType = op.getType();
    auto all = [](int64_t rank) {
      ReassociationIndices r;
      for (int64_t i = 0; i < rank; ++i)
        r.push_back(i);
      return SmallVector<ReassociationIndices>{r};
    };
    if (inType.getRank() == 0) {
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, outType, in, SmallVector<ReassociationIndices>{});
      return success();
    }
    if (outType.getRank() == 0) {
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
          op, outType, in, SmallVector<ReassociationIndices>{});
      return success();
    }
    Value flat = in;
    if (inType.getRank() != 1)
      flat = rewriter.create<tensor::CollapseShapeOp>(loc, in,
                                                      all(inType.getRank()));
    if (outType.getRank() == 1) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, outType, flat,
                                                       all(outType.getRank()));
    return success();
  }
};

struct SliceLowering : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), adaptor.getOperand(), ValueRange{}, ValueRange{},
        ValueRange{}, op.getStartIndicesAttr(),
        rewriter.getDenseI64ArrayAttr(op.getType().getShape()),
        op.getStridesAttr());
    return success();
  }
};

/// HLO clamps dynamic start indices so the block [start, start + size)
/// lies inside [0, dim).
SmallVector<OpFoldResult> clampedStarts(OpBuilder &b, Location loc,
                                        ValueRange starts,
                                        ArrayRef<int64_t> dims,
                                        ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> result;
  for (auto [start, dim, size] : llvm::zip(starts, dims, sizes)) {
    Value i = toIndex(b, loc, extractScalar(b, loc, start));
    i = b.create<arith::MaxSIOp>(loc, i, indexConstant(b, loc, 0));
    i = b.create<arith::MinSIOp>(loc, i, indexConstant(b, loc, dim - size));
    result.push_back(i);
  }
  return result;
}

SmallVector<OpFoldResult> staticValues(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> result;
  for (int64_t v : values)
    result.push_back(b.getIndexAttr(v));
  return result;
}

struct DynamicSliceLowering : OpConversionPattern<DynamicSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(op.getOperand().getType());
    ArrayRef<int64_t> sizes = op.getSliceSizes();
    auto offsets = clampedStarts(rewriter, loc, adaptor.getStartIndices(),
                                 inType.getShape(), sizes);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), adaptor.getOperand(), offsets,
        staticValues(rewriter, sizes),
        staticValues(rewriter, SmallVector<int64_t>(sizes.size(), 1)));
    return success();
  }
};

struct DynamicUpdateSliceLowering
    : OpConversionPattern<DynamicUpdateSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynamicUpdateSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto updateType = cast<RankedTensorType>(op.getUpdate().getType());
    ArrayRef<int64_t> sizes = updateType.getShape();
    auto offsets = clampedStarts(rewriter, loc, adaptor.getStartIndices(),
                                 op.getType().getShape(), sizes);
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, adaptor.getUpdate(), adaptor.getOperand(), offsets,
        staticValues(rewriter, sizes),
        staticValues(rewriter, SmallVector<int64_t>(sizes.size(), 1)));
    return success();
  }
};

struct ConcatenateLowering : OpConversionPattern<ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t dim = op.getDimension();
    Value result = emptyLike(rewriter, loc, type);
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      auto inType = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> offsets(type.getRank(), 0);
      offsets[dim] = offset;
      result = rewriter.create<tensor::InsertSliceOp>(
          loc, input, result, ValueRange{}, ValueRange{}, ValueRange{},
          rewriter.getDenseI64ArrayAttr(offsets),
          rewriter.getDenseI64ArrayAttr(inType.getShape()),
          rewriter.getDenseI64ArrayAttr(
              SmallVector<int64_t>(type.getRank(), 1)));
      offset += inType.getDimSize(dim);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PadLowering : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = extractScalar(rewriter, loc, adaptor.getPaddingValue());
    rewriter.replaceOp(op, buildPad(rewriter, loc, adaptor.getOperand(), value,
                                    op.getEdgePaddingLow(),
                                    op.getEdgePaddingHigh(),
                                    op.getInteriorPadding()));
    return success();
  }
};

/// Element i along a reversed dimension of size n reads n - 1 - i.
struct ReverseLowering : OpConversionPattern<ReverseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReverseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    int64_t rank = type.getRank();
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr e = getAffineDimExpr(d, ctx);
      if (llvm::is_contained(op.getDimensions(), d))
        e = getAffineConstantExpr(type.getDimSize(d) - 1, ctx) - e;
      exprs.push_back(e);
    }
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, ctx),
                                   rewriter.getMultiDimIdentityMap(rank)};
    auto generic = rewriter.create<linalg::GenericOp>(
        op.getLoc(), type, adaptor.getOperand(),
        emptyLike(rewriter, op.getLoc(), type), maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location loc, ValueRange args) {
          b.create<linalg::YieldOp>(loc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void populateShapeLowering(RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, IotaLowering, BroadcastInDimLowering,
               TransposeLowering, ReshapeLowering, SliceLowering,
               DynamicSliceLowering, DynamicUpdateSliceLowering,
               ConcatenateLowering, PadLowering, ReverseLowering>(
      patterns.getContext());
}

} // namespace mlir::torus
