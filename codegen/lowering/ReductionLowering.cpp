//===- ReductionLowering.cpp - reduce, argmax/argmin, reduce_window -------===//
//
// Reductions start from the kind's identity (a linalg.fill) and combine in
// a reduction loop: `reduce` is linalg.reduce; argmax/argmin a two-result
// linalg.generic carrying (value, index); reduce_window pads its operand
// with the identity (base dilation is interior padding) and iterates output
// positions × window positions, the window's extent given by an empty
// tensor of the window's shape, as linalg's pooling ops do. f16/bf16
// reduce in f32.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

/// `value` with its elements converted to `to` (f16/bf16 <-> f32 only).
Value castElements(OpBuilder &b, Location loc, Value value, Type to) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == to)
    return value;
  auto result = RankedTensorType::get(type.getShape(), to);
  return buildElementwise(b, loc, result, value,
                          [&](OpBuilder &nb, Location nl, ValueRange x) {
                            if (to.isF32())
                              return widenHalf(nb, nl, x[0]);
                            return narrowTo(nb, nl, x[0], to);
                          });
}

/// The element type a reduction over `t` accumulates in.
Type accumulatorType(OpBuilder &b, Type t) {
  return isHalfFloat(t) ? b.getF32Type() : t;
}

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type et = op.getType().getElementType();
    Type acc = accumulatorType(rewriter, et);
    ReduceKind kind = op.getKind();
    auto accType = RankedTensorType::get(op.getType().getShape(), acc);
    Value init =
        filled(rewriter, loc, accType, identityValue(rewriter, loc, kind, acc));
    Value input = castElements(rewriter, loc, adaptor.getOperand(), acc);
    auto reduce = rewriter.create<linalg::ReduceOp>(
        loc, ValueRange{input}, ValueRange{init}, op.getDimensions(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          b.create<linalg::YieldOp>(l, combine(b, l, kind, args[0], args[1]));
        });
    rewriter.replaceOp(op, castElements(rewriter, loc, reduce.getResult(0), et));
    return success();
  }
};

/// argmax/argmin: first index of the extreme value; the first NaN wins.
/// The choice does not depend on iteration order (ties go to the lower
/// index explicitly).
template <typename OpTy, bool isMax>
struct ArgReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using arith::CmpFPredicate;
    using arith::CmpIPredicate;
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Type et = valuesType.getElementType();
    Type acc = accumulatorType(rewriter, et);
    Type indexType = indicesType.getElementType();
    Value input = castElements(rewriter, loc, adaptor.getOperand(), acc);
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t dim = op.getDimension();

    auto accType = RankedTensorType::get(valuesType.getShape(), acc);
    Value initValue = filled(
        rewriter, loc, accType,
        reduceIdentity(isMax ? ReduceKind::max : ReduceKind::min, acc));
    Value initIndex = filled(rewriter, loc, indicesType,
                             rewriter.getIntegerAttr(indexType, 0));
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim)
        outExprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   outMap, outMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[dim] = utils::IteratorType::reduction;
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{accType, indicesType}, input,
        ValueRange{initValue, initIndex}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], a = args[1], ai = args[2];
          Value idx = b.create<arith::IndexCastOp>(
              l, indexType, b.create<linalg::IndexOp>(l, dim));
          Value earlier = b.create<arith::CmpIOp>(l, CmpIPredicate::slt, idx, ai);
          Value take;
          if (isFloatType(acc)) {
            Value xNaN = b.create<arith::CmpFOp>(l, CmpFPredicate::UNO, x, x);
            Value aNaN = b.create<arith::CmpFOp>(l, CmpFPredicate::UNO, a, a);
            Value aNum = b.create<arith::XOrIOp>(
                l, aNaN, b.create<arith::ConstantOp>(l, b.getBoolAttr(true)));
            Value better = b.create<arith::CmpFOp>(
                l, isMax ? CmpFPredicate::OGT : CmpFPredicate::OLT, x, a);
            Value equal = b.create<arith::CmpFOp>(l, CmpFPredicate::OEQ, x, a);
            Value takeNumber = b.create<arith::AndIOp>(
                l, aNum,
                b.create<arith::OrIOp>(
                    l, better, b.create<arith::AndIOp>(l, equal, earlier)));
            Value takeNaN = b.create<arith::OrIOp>(l, aNum, earlier);
            take = b.create<arith::SelectOp>(l, xNaN, takeNaN, takeNumber);
          } else {
            Value better = compareScalar(
                b, l, isMax ? ComparisonDirection::GT : ComparisonDirection::LT,
                x, a);
            Value equal = b.create<arith::CmpIOp>(l, CmpIPredicate::eq, x, a);
            take = b.create<arith::OrIOp>(
                l, better, b.create<arith::AndIOp>(l, equal, earlier));
          }
          b.create<linalg::YieldOp>(
              l, ValueRange{b.create<arith::SelectOp>(l, take, x, a),
                            b.create<arith::SelectOp>(l, take, idx, ai)});
        });
    rewriter.replaceOp(
        op, {castElements(rewriter, loc, generic.getResult(0), et),
             generic.getResult(1)});
    return success();
  }
};

struct ReduceWindowLowering : OpConversionPattern<ReduceWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceWindowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type et = op.getType().getElementType();
    Type acc = accumulatorType(rewriter, et);
    ReduceKind kind = op.getKind();
    int64_t rank = op.getType().getRank();
    Value identity = identityValue(rewriter, loc, kind, acc);

    // Pad (and dilate) the operand with the identity.
    SmallVector<int64_t> low, high, interior;
    for (auto [lo, hi] : op.getPaddingPairs()) {
      low.push_back(lo);
      high.push_back(hi);
    }
    for (int64_t d : op.getBaseDilationsOr1())
      interior.push_back(d - 1);
    Value input = castElements(rewriter, loc, adaptor.getOperand(), acc);
    Value padded = buildPad(rewriter, loc, input,
                            identity, low, high, interior);

    // Loops: output dims (parallel), then window dims (reduction).
    SmallVector<int64_t> strides = op.getStrides();
    SmallVector<int64_t> dilations = op.getWindowDilationsOr1();
    SmallVector<AffineExpr> inExprs, windowExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr out = getAffineDimExpr(d, ctx);
      AffineExpr w = getAffineDimExpr(rank + d, ctx);
      inExprs.push_back(out * strides[d] + w * dilations[d]);
      windowExprs.push_back(w);
      outExprs.push_back(out);
    }
    SmallVector<AffineMap> maps = {AffineMap::get(2 * rank, 0, inExprs, ctx),
                                   AffineMap::get(2 * rank, 0, windowExprs, ctx),
                                   AffineMap::get(2 * rank, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(rank, utils::IteratorType::reduction);
    Value window = rewriter.create<tensor::EmptyOp>(
        loc, op.getWindowDimensions(), acc);
    auto accType = RankedTensorType::get(op.getType().getShape(), acc);
    Value init = filled(rewriter, loc, accType, identity);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, accType, ValueRange{padded, window}, init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // f16/bf16 windows round after every step, as XLA's CPU backend
          // applies the f16/bf16 reducer (a cumulative sum shows it).
          Value r = combine(b, l, kind, args[2], args[0]);
          if (acc != et)
            r = widenHalf(b, l, narrowTo(b, l, r, et));
          b.create<linalg::YieldOp>(l, r);
        });
    rewriter.replaceOp(op,
                       castElements(rewriter, loc, generic.getResult(0), et));
    return success();
  }
};

} // namespace

void populateReductionLowering(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ArgReduceLowering<ArgMaxOp, true>,
               ArgReduceLowering<ArgMinOp, false>, ReduceWindowLowering>(
      patterns.getContext());
}

} // namespace mlir::torus
