//===- IndexingLowering.cpp - gather and scatter --------------------------===//
//
// gather is a parallel linalg.generic over the result that computes each
// element's operand position (HLO's index arithmetic, start indices
// clamped) and reads it with tensor.extract. scatter is sequential: a loop
// nest over the updates, in row-major order, that combines each update
// into the result with tensor.extract/insert, skipping windows that do not
// fit (XLA's rule).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

/// The start index vector component `k` for batch position `batch`: reads
/// `indices[batch with k inserted at indexVectorDim]` as an index.
Value startComponent(OpBuilder &b, Location loc, Value indices,
                     ArrayRef<Value> batch, int64_t indexVectorDim,
                     int64_t k) {
  auto type = cast<RankedTensorType>(indices.getType());
  SmallVector<Value> position(batch);
  if (indexVectorDim < type.getRank())
    position.insert(position.begin() + indexVectorDim,
                    indexConstant(b, loc, k));
  return toIndex(b, loc, b.create<tensor::ExtractOp>(loc, indices, position));
}

struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = op.getType();
    auto operandType = cast<RankedTensorType>(op.getOperand().getType());
    int64_t outRank = resultType.getRank();
    Value operand = adaptor.getOperand(), indices = adaptor.getStartIndices();
    ArrayRef<int64_t> offsetDims = op.getOffsetDims();
    ArrayRef<int64_t> collapsed = op.getCollapsedSliceDims();
    ArrayRef<int64_t> startIndexMap = op.getStartIndexMap();
    ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
    int64_t indexVectorDim = op.getIndexVectorDim();

    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{}, emptyLike(rewriter, loc, resultType),
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(outRank)},
        SmallVector<utils::IteratorType>(outRank,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> batch, window;
          for (int64_t d = 0; d < outRank; ++d) {
            Value i = b.create<linalg::IndexOp>(l, d);
            (llvm::is_contained(offsetDims, d) ? window : batch).push_back(i);
          }
          Value zero = indexConstant(b, l, 0);
          SmallVector<Value> start(operandType.getRank(), zero);
          for (auto [k, od] : llvm::enumerate(startIndexMap)) {
            Value s = startComponent(b, l, indices, batch, indexVectorDim, k);
            s = b.create<arith::MaxSIOp>(l, s, zero);
            s = b.create<arith::MinSIOp>(
                l, s,
                indexConstant(b, l,
                              operandType.getDimSize(od) - sliceSizes[od]));
            start[od] = s;
          }
          SmallVector<Value> position;
          size_t w = 0;
          for (int64_t d = 0; d < operandType.getRank(); ++d)
            position.push_back(
                llvm::is_contained(collapsed, d)
                    ? start[d]
                    : b.create<arith::AddIOp>(l, start[d], window[w++])
                          .getResult());
          b.create<linalg::YieldOp>(
              l, ValueRange{b.create<tensor::ExtractOp>(l, operand, position)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ScatterLowering : OpConversionPattern<ScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto operandType = op.getType();
    auto updatesType = cast<RankedTensorType>(op.getUpdates().getType());
    Value indices = adaptor.getScatterIndices();
    Value updates = adaptor.getUpdates();
    ArrayRef<int64_t> windowDims = op.getUpdateWindowDims();
    ArrayRef<int64_t> inserted = op.getInsertedWindowDims();
    ArrayRef<int64_t> toOperand = op.getScatterDimsToOperandDims();
    int64_t indexVectorDim = op.getIndexVectorDim();
    ScatterKind kind = op.getKind();
    Type et = operandType.getElementType();

    SmallVector<Value> lbs, ubs, steps;
    for (int64_t size : updatesType.getShape()) {
      lbs.push_back(indexConstant(rewriter, loc, 0));
      ubs.push_back(indexConstant(rewriter, loc, size));
      steps.push_back(indexConstant(rewriter, loc, 1));
    }
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{adaptor.getOperand()},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          Value result = iterArgs[0];
          SmallVector<Value> batch, window;
          SmallVector<int64_t> windowSizes;
          for (int64_t d = 0; d < updatesType.getRank(); ++d) {
            if (llvm::is_contained(windowDims, d)) {
              window.push_back(ivs[d]);
              windowSizes.push_back(updatesType.getDimSize(d));
            } else {
              batch.push_back(ivs[d]);
            }
          }
          Value zero = indexConstant(b, l, 0);
          SmallVector<Value> start(operandType.getRank(), zero);
          for (auto [k, od] : llvm::enumerate(toOperand))
            start[od] =
                startComponent(b, l, indices, batch, indexVectorDim, k);
          Value inBounds = b.create<arith::ConstantOp>(l, b.getBoolAttr(true));
          SmallVector<Value> position;
          size_t w = 0;
          for (int64_t d = 0; d < operandType.getRank(); ++d) {
            bool isInserted = llvm::is_contained(inserted, d);
            int64_t size = isInserted ? 1 : windowSizes[w];
            position.push_back(
                isInserted ? start[d]
                           : b.create<arith::AddIOp>(l, start[d], window[w])
                                 .getResult());
            if (!isInserted)
              ++w;
            Value fitsLow = b.create<arith::CmpIOp>(
                l, arith::CmpIPredicate::sge, start[d], zero);
            Value fitsHigh = b.create<arith::CmpIOp>(
                l, arith::CmpIPredicate::sle, start[d],
                indexConstant(b, l, operandType.getDimSize(d) - size));
            inBounds = b.create<arith::AndIOp>(
                l, inBounds, b.create<arith::AndIOp>(l, fitsLow, fitsHigh));
          }
          Value update = b.create<tensor::ExtractOp>(l, updates, ivs);
          auto ifOp = b.create<scf::IfOp>(
              l, inBounds,
              [&](OpBuilder &tb, Location tl) {
                Value next = update;
                if (kind != ScatterKind::replace) {
                  Value current =
                      tb.create<tensor::ExtractOp>(tl, result, position);
                  ReduceKind reduce =
                      kind == ScatterKind::sum       ? ReduceKind::sum
                      : kind == ScatterKind::product ? ReduceKind::product
                      : kind == ScatterKind::max     ? ReduceKind::max
                                                     : ReduceKind::min;
                  next = narrowTo(tb, tl,
                                  combine(tb, tl, reduce,
                                          widenHalf(tb, tl, current),
                                          widenHalf(tb, tl, update)),
                                  et);
                }
                Value written =
                    tb.create<tensor::InsertOp>(tl, next, result, position);
                tb.create<scf::YieldOp>(tl, written);
              },
              [&](OpBuilder &eb, Location el) {
                eb.create<scf::YieldOp>(el, result);
              });
          return {ifOp.getResult(0)};
        });
    rewriter.replaceOp(op, nest.results.empty() ? adaptor.getOperand()
                                                : nest.results[0]);
    return success();
  }
};

} // namespace

void populateIndexingLowering(RewritePatternSet &patterns) {
  patterns.add<GatherLowering, ScatterLowering>(patterns.getContext());
}

} // namespace mlir::torus
