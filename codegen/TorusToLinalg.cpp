//===- TorusToLinalg.cpp - torus compute ops to linalg on tensors ---------===//
//
// One pattern per op family. Elementwise ops share `buildElementwise`, which
// emits a parallel linalg.generic and asks a per-op callback for the scalar
// body; the scalar bodies follow HLO semantics per element type.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/TorusOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSTOLINALG
#include "codegen/Passes.h.inc"

namespace {

using ScalarFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

bool isFloatType(Type t) { return isa<FloatType>(t); }
bool isBool(Type t) { return t.isInteger(1); }

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return b.create<tensor::EmptyOp>(loc, type.getShape(),
                                   type.getElementType());
}

/// A parallel linalg.generic producing `resultType` from same-shaped
/// `inputs`, with the scalar body from `body`.
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarFn body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = b.create<linalg::GenericOp>(
      loc, resultType, inputs, emptyLike(b, loc, resultType), maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        nb.create<linalg::YieldOp>(nl, body(nb, nl, args.drop_back()));
      });
  return generic.getResult(0);
}

/// The identity of `kind` for element type `t`.
TypedAttr neutralElement(OpBuilder &b, ReduceKind kind, Type t) {
  if (auto ft = dyn_cast<FloatType>(t)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    switch (kind) {
    case ReduceKind::sum:
      return b.getFloatAttr(ft, APFloat::getZero(sem));
    case ReduceKind::product:
      return b.getFloatAttr(ft, APFloat::getOne(sem));
    case ReduceKind::max:
      return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/true));
    case ReduceKind::min:
      return b.getFloatAttr(ft, APFloat::getInf(sem, /*Negative=*/false));
    }
  }
  unsigned width = t.getIntOrFloatBitWidth();
  APInt value(width, 0);
  switch (kind) {
  case ReduceKind::sum:
    break;
  case ReduceKind::product:
    value = APInt(width, 1);
    break;
  case ReduceKind::max:
    value = width == 1 ? APInt(1, 0) : APInt::getSignedMinValue(width);
    break;
  case ReduceKind::min:
    value = width == 1 ? APInt(1, 1) : APInt::getSignedMaxValue(width);
    break;
  }
  return b.getIntegerAttr(t, value);
}

/// Scalar combiner of `kind` (HLO semantics: float max/min propagate NaN).
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y) {
  Type t = x.getType();
  bool isF = isFloatType(t), isB = isBool(t);
  switch (kind) {
  case ReduceKind::sum:
    return isF ? b.create<arith::AddFOp>(loc, x, y).getResult()
               : b.create<arith::AddIOp>(loc, x, y).getResult();
  case ReduceKind::product:
    return isF ? b.create<arith::MulFOp>(loc, x, y).getResult()
               : b.create<arith::MulIOp>(loc, x, y).getResult();
  case ReduceKind::max:
    if (isF)
      return b.create<arith::MaximumFOp>(loc, x, y);
    return isB ? b.create<arith::OrIOp>(loc, x, y).getResult()
               : b.create<arith::MaxSIOp>(loc, x, y).getResult();
  case ReduceKind::min:
    if (isF)
      return b.create<arith::MinimumFOp>(loc, x, y);
    return isB ? b.create<arith::AndIOp>(loc, x, y).getResult()
               : b.create<arith::MinSIOp>(loc, x, y).getResult();
  }
  llvm_unreachable("unknown reduce kind");
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Lowers an elementwise op whose scalar body is `Derived::scalar`.
template <typename OpTy, typename Derived>
struct ElementwisePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type inElt =
        cast<RankedTensorType>(op->getOperand(op->getNumOperands() - 1)
                                   .getType())
            .getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return Derived::scalar(b, loc, op, inElt, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

#define TORUS_SCALAR(Name, OpTy)                                               \
  struct Name : ElementwisePattern<OpTy, Name> {                               \
    using ElementwisePattern::ElementwisePattern;                              \
    static Value scalar(OpBuilder &b, Location loc, OpTy op, Type t,           \
                        ValueRange x);                                         \
  };                                                                           \
  Value Name::scalar(OpBuilder &b, Location loc, OpTy op, Type t, ValueRange x)

TORUS_SCALAR(AddLowering, AddOp) {
  return combine(b, loc, ReduceKind::sum, x[0], x[1]);
}
TORUS_SCALAR(MultiplyLowering, MultiplyOp) {
  if (isBool(t))
    return b.create<arith::AndIOp>(loc, x[0], x[1]);
  return combine(b, loc, ReduceKind::product, x[0], x[1]);
}
TORUS_SCALAR(MaximumLowering, MaximumOp) {
  return combine(b, loc, ReduceKind::max, x[0], x[1]);
}
TORUS_SCALAR(SubtractLowering, SubtractOp) {
  if (isFloatType(t))
    return b.create<arith::SubFOp>(loc, x[0], x[1]);
  return b.create<arith::SubIOp>(loc, x[0], x[1]);
}
TORUS_SCALAR(DivideLowering, DivideOp) {
  if (isFloatType(t))
    return b.create<arith::DivFOp>(loc, x[0], x[1]);
  return b.create<arith::DivSIOp>(loc, x[0], x[1]);
}
TORUS_SCALAR(NegateLowering, NegateOp) {
  if (isFloatType(t))
    return b.create<arith::NegFOp>(loc, x[0]);
  Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, 0));
  return b.create<arith::SubIOp>(loc, zero, x[0]);
}
TORUS_SCALAR(ExpLowering, ExpOp) { return b.create<math::ExpOp>(loc, x[0]); }
TORUS_SCALAR(LogLowering, LogOp) { return b.create<math::LogOp>(loc, x[0]); }
TORUS_SCALAR(SelectLowering, SelectOp) {
  return b.create<arith::SelectOp>(loc, x[0], x[1], x[2]);
}

TORUS_SCALAR(CompareLowering, CompareOp) {
  ComparisonDirection dir = op.getComparisonDirection();
  if (isFloatType(t)) {
    static constexpr arith::CmpFPredicate preds[] = {
        arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
        arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
        arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
    return b.create<arith::CmpFOp>(loc, preds[static_cast<int>(dir)], x[0],
                                   x[1]);
  }
  // i1 compares unsigned (false < true); other integers are signed.
  bool u = isBool(t);
  arith::CmpIPredicate preds[] = {
      arith::CmpIPredicate::eq,
      arith::CmpIPredicate::ne,
      u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
      u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle,
      u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
      u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge};
  return b.create<arith::CmpIOp>(loc, preds[static_cast<int>(dir)], x[0],
                                 x[1]);
}

TORUS_SCALAR(ConvertLowering, ConvertOp) {
  Value v = x[0];
  Type from = v.getType();
  Type to = op.getType().getElementType();
  if (from == to)
    return v;
  if (isBool(to)) { // HLO: convert to pred is `x != 0`.
    if (isFloatType(from)) {
      Value zero = b.create<arith::ConstantOp>(loc, b.getFloatAttr(from, 0.0));
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, v, zero);
    }
    Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(from, 0));
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, v, zero);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (isFloatType(from) && isFloatType(to)) {
    if (fromWidth == toWidth) { // f16 <-> bf16 goes through f32.
      v = b.create<arith::ExtFOp>(loc, b.getF32Type(), v);
      return b.create<arith::TruncFOp>(loc, to, v);
    }
    return fromWidth < toWidth ? b.create<arith::ExtFOp>(loc, to, v).getResult()
                               : b.create<arith::TruncFOp>(loc, to, v).getResult();
  }
  if (isFloatType(to))
    return isBool(from) ? b.create<arith::UIToFPOp>(loc, to, v).getResult()
                        : b.create<arith::SIToFPOp>(loc, to, v).getResult();
  if (isFloatType(from))
    return b.create<arith::FPToSIOp>(loc, to, v);
  if (fromWidth < toWidth)
    return isBool(from) ? b.create<arith::ExtUIOp>(loc, to, v).getResult()
                        : b.create<arith::ExtSIOp>(loc, to, v).getResult();
  return b.create<arith::TruncIOp>(loc, to, v);
}

#undef TORUS_SCALAR

//===----------------------------------------------------------------------===//
// Constants and shapes
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

Value filledInit(OpBuilder &b, Location loc, RankedTensorType type,
                 TypedAttr value) {
  Value init = emptyLike(b, loc, type);
  Value scalar = b.create<arith::ConstantOp>(loc, value);
  return b.create<linalg::FillOp>(loc, scalar, init).getResult(0);
}

struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    ReduceKind kind = op.getKind();
    Value init = filledInit(
        rewriter, loc, type,
        neutralElement(rewriter, kind, type.getElementType()));
    auto reduce = rewriter.create<linalg::ReduceOp>(
        loc, ValueRange{adaptor.getOperand()}, ValueRange{init},
        op.getDimensions(), [&](OpBuilder &b, Location l, ValueRange args) {
          b.create<linalg::YieldOp>(l, combine(b, l, kind, args[0], args[1]));
        });
    rewriter.replaceOp(op, reduce.getResult(0));
    return success();
  }
};

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
        AffineMap::getMultiDimIdentityMap(numLoops, ctx)
            .getMajorSubMap(numParallel)};
    SmallVector<utils::IteratorType> iterators(numParallel,
                                               utils::IteratorType::parallel);
    iterators.append(lc.size(), utils::IteratorType::reduction);

    Type et = resultType.getElementType();
    Value init = filledInit(rewriter, loc, resultType,
                            neutralElement(rewriter, ReduceKind::sum, et));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{adaptor.getLhs(), adaptor.getRhs()}, init,
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = combine(b, l, ReduceKind::product, args[0], args[1]);
          b.create<linalg::YieldOp>(
              l, combine(b, l, ReduceKind::sum, args[2], product));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TorusToLinalgPass : impl::TorusToLinalgBase<TorusToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    target.addIllegalDialect<TorusDialect>();
    RewritePatternSet patterns(ctx);
    patterns.add<AddLowering, SubtractLowering, MultiplyLowering,
                 DivideLowering, MaximumLowering, NegateLowering, ExpLowering,
                 LogLowering, CompareLowering, SelectLowering, ConvertLowering,
                 ConstantLowering, BroadcastInDimLowering, TransposeLowering,
                 ReshapeLowering, ReduceLowering, DotGeneralLowering>(ctx);
    WalkResult early = getOperation().walk([&](Operation *op) {
      if (!isa<AllReduceOp, ReplicaIdOp>(op))
        return WalkResult::advance();
      op->emitOpError("must be lowered by torus-lower-collectives before "
                      "torus-to-linalg");
      return WalkResult::interrupt();
    });
    if (early.wasInterrupted())
      return signalPassFailure();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::torus
