//===- ReductionLowering.cpp - reduce, argmax/argmin, reduce_window -------===//
//
// Reductions start from the kind's identity (a linalg.fill) and combine in
// a reduction loop: `reduce` is linalg.reduce; argmax/argmin a two-result
// linalg.generic carrying (value, index); reduce_window pads its operand
// with the identity (base dilation is interior padding) and iterates output
// positions × window positions, the window's extent given by an empty
// tensor of the window's shape, as linalg's pooling ops do. f16/bf16
// reduce in f32. reduce_general and reduce_window_general do the same from
// their init values, with their body inlined as scalar code.
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

/// `input` padded for the windows of a window op: edges and base-dilation
/// holes hold `value`.
template <typename Op>
Value padForWindows(OpBuilder &b, Location loc, Op op, Value input,
                    Value value) {
  SmallVector<int64_t> low, high, interior;
  for (auto [lo, hi] : op.getPaddingPairs()) {
    low.push_back(lo);
    high.push_back(hi);
  }
  for (int64_t d : op.getBaseDilationsOr1())
    interior.push_back(d - 1);
  return buildPad(b, loc, input, value, low, high, interior);
}

/// (accumulators, elements) -> new accumulators.
using CombineFn = function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                  ValueRange, ValueRange)>;

/// Reduces the windows of `op` over the padded inputs into `inits` (one
/// per input, of the result's shape): loops over output dims (parallel),
/// then window dims (reduction), the window's extent given by an empty
/// tensor of its shape, as linalg's pooling ops do.
template <typename Op>
ValueRange reduceWindows(OpBuilder &b, Location loc, Op op, ValueRange padded,
                         ValueRange inits, CombineFn combineFn) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = op.getWindowDimensions().size();
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
  auto map = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(2 * rank, 0, exprs, ctx);
  };
  size_t n = padded.size();
  SmallVector<AffineMap> maps(n, map(inExprs));
  maps.push_back(map(windowExprs));
  maps.append(n, map(outExprs));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  SmallVector<Value> ins(padded);
  ins.push_back(b.create<tensor::EmptyOp>(
      loc, op.getWindowDimensions(),
      cast<RankedTensorType>(padded[0].getType()).getElementType()));
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange(inits), ins, inits, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        nb.create<linalg::YieldOp>(
            l, combineFn(nb, l, args.drop_front(n + 1), args.take_front(n)));
      });
  return generic.getResults();
}

struct ReduceWindowLowering : OpConversionPattern<ReduceWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceWindowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type et = op.getType().getElementType();
    Type acc = accumulatorType(rewriter, et);
    ReduceKind kind = op.getKind();
    Value identity = identityValue(rewriter, loc, kind, acc);
    Value input = castElements(rewriter, loc, adaptor.getOperand(), acc);
    Value padded = padForWindows(rewriter, loc, op, input, identity);
    auto accType = RankedTensorType::get(op.getType().getShape(), acc);
    Value init = filled(rewriter, loc, accType, identity);
    ValueRange reduced = reduceWindows(
        rewriter, loc, op, padded, init,
        [&](OpBuilder &b, Location l, ValueRange accs, ValueRange xs) {
          // f16/bf16 windows round after every step, as XLA's CPU backend
          // applies the f16/bf16 reducer (a cumulative sum shows it).
          Value r = combine(b, l, kind, accs[0], xs[0]);
          if (acc != et)
            r = widenHalf(b, l, narrowTo(b, l, r, et));
          return SmallVector<Value>{r};
        });
    rewriter.replaceOp(op, castElements(rewriter, loc, reduced[0], et));
    return success();
  }
};

/// The body's results for the scalars (accumulators, elements), in the
/// body's argument order.
SmallVector<Value> applyBody(OpBuilder &b, Location loc, Region &body,
                             ValueRange accs, ValueRange xs) {
  SmallVector<Value> args(accs);
  args.append(xs.begin(), xs.end());
  return inlineScalarComputation(b, loc, body, args);
}

/// Accumulators of the result types of `op`, filled with its init values.
SmallVector<Value> filledInits(OpBuilder &b, Location loc, Operation *op,
                               ValueRange initValues) {
  SmallVector<Value> inits;
  for (auto [type, init] : llvm::zip(op->getResultTypes(), initValues))
    inits.push_back(filled(b, loc, cast<RankedTensorType>(type),
                           extractScalar(b, loc, init)));
  return inits;
}

/// reduce_general: a linalg.generic, the reduced dims reduction loops in
/// row-major order, the body inlined as scalar code.
struct ReduceGeneralLowering : OpConversionPattern<ReduceGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    ValueRange inputs = adaptor.getInputs();
    size_t n = inputs.size();
    int64_t rank = cast<RankedTensorType>(inputs[0].getType()).getRank();
    ArrayRef<int64_t> dims = op.getDimensions();
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = llvm::is_contained(dims, d);
      iterators.push_back(reduced ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
      if (!reduced)
        outExprs.push_back(getAffineDimExpr(d, ctx));
    }
    SmallVector<AffineMap> maps(n, rewriter.getMultiDimIdentityMap(rank));
    maps.append(n, AffineMap::get(rank, 0, outExprs, ctx));
    SmallVector<Value> inits =
        filledInits(rewriter, loc, op, adaptor.getInitValues());
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, op.getResultTypes(), inputs, inits, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          b.create<linalg::YieldOp>(l, applyBody(b, l, op.getBody(),
                                                 args.drop_front(n),
                                                 args.take_front(n)));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// reduce_window_general: each input padded with its own init value, the
/// windows reduced by the body inlined as scalar code.
struct ReduceWindowGeneralLowering
    : OpConversionPattern<ReduceWindowGeneralOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceWindowGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> padded;
    for (auto [input, init] :
         llvm::zip(adaptor.getInputs(), adaptor.getInitValues()))
      padded.push_back(padForWindows(rewriter, loc, op, input,
                                     extractScalar(rewriter, loc, init)));
    SmallVector<Value> inits =
        filledInits(rewriter, loc, op, adaptor.getInitValues());
    ValueRange reduced = reduceWindows(
        rewriter, loc, op, padded, inits,
        [&](OpBuilder &b, Location l, ValueRange accs, ValueRange xs) {
          return applyBody(b, l, op.getBody(), accs, xs);
        });
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

} // namespace

void populateReductionLowering(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ArgReduceLowering<ArgMaxOp, true>,
               ArgReduceLowering<ArgMinOp, false>, ReduceWindowLowering,
               ReduceGeneralLowering, ReduceWindowGeneralLowering>(
      patterns.getContext());
}

} // namespace mlir::torus
