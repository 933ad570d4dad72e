//===- ConvertReduction.cpp - stablehlo reductions, windows, sorting ------===//
//
// reduce and reduce_window: the reducer region becomes the torus op's kind
// (reducerKind, as the HLO importer reads `to_apply`), one torus.reduce per
// input of a componentwise variadic reduce, and an init value other than
// the kind's identity is combined into the result afterwards, as XLA folds
// it into every window (once per padding element for sum and product).
// Any other reducer keeps its body: reduce_general, reduce_window_general.
// sort and select_and_scatter keep their regions, moved into the torus op.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/HloForms.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

#include "mlir/IR/Matchers.h"


namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

/// Whether torus.reduce of `kind` applies to elements of `type` (XLA's
/// `add` of pred is `or`, its max of complex numbers lexicographic: those
/// keep their body).
bool kindApplies(ReduceKind kind, Type type) {
  Type et = cast<ShapedType>(type).getElementType();
  if (et.isInteger(1))
    return kind != ReduceKind::sum && kind != ReduceKind::product;
  if (isa<ComplexType>(et))
    return kind == ReduceKind::sum || kind == ReduceKind::product;
  return true;
}

/// `v`'s defining op if it is `OpTy`.
template <typename OpTy> OpTy def(Value v) {
  return v ? v.getDefiningOp<OpTy>() : OpTy();
}

/// `op` is the binary `OpTy` of `a` and `b`, in either order.
template <typename OpTy> bool isBinary(Value v, Value a, Value b) {
  auto op = def<OpTy>(v);
  return op && ((op.getLhs() == a && op.getRhs() == b) ||
                (op.getLhs() == b && op.getRhs() == a));
}

bool isCompare(Value v, shlo::ComparisonDirection dir, Value a, Value b) {
  auto op = def<shlo::CompareOp>(v);
  return op && op.getComparisonDirection() == dir && op.getLhs() == a &&
         op.getRhs() == b;
}

/// JAX's argmax (`isMax`) or argmin reducer over (value, index) pairs:
///   p = (a GT b) or (a NE a)           (LT for argmin)
///   q = p or ((a EQ b) and (ai LT bi))
///   return select(p, a, b), select(q, ai, bi)
/// which keeps the first extreme value (a NaN first) and its index.
bool isArgReducer(Region &region, bool isMax) {
  if (!region.hasOneBlock() || region.front().getNumArguments() != 4)
    return false;
  Block &body = region.front();
  Value a = body.getArgument(0), ai = body.getArgument(1),
        b = body.getArgument(2), bi = body.getArgument(3);
  auto ret = dyn_cast<shlo::ReturnOp>(body.getTerminator());
  if (!ret || ret->getNumOperands() != 2)
    return false;
  auto selValue = def<shlo::SelectOp>(ret->getOperand(0));
  auto selIndex = def<shlo::SelectOp>(ret->getOperand(1));
  if (!selValue || !selIndex || selValue.getOnTrue() != a ||
      selValue.getOnFalse() != b || selIndex.getOnTrue() != ai ||
      selIndex.getOnFalse() != bi)
    return false;
  Value p = selValue.getPred(), q = selIndex.getPred();
  auto pOr = def<shlo::OrOp>(p);
  if (!pOr)
    return false;
  auto dir = isMax ? shlo::ComparisonDirection::GT
                   : shlo::ComparisonDirection::LT;
  auto isP = [&](Value x, Value y) {
    return isCompare(x, dir, a, b) &&
           isCompare(y, shlo::ComparisonDirection::NE, a, a);
  };
  if (!isP(pOr.getLhs(), pOr.getRhs()) && !isP(pOr.getRhs(), pOr.getLhs()))
    return false;
  auto qOr = def<shlo::OrOp>(q);
  if (!qOr)
    return false;
  Value tie = qOr.getLhs() == p ? qOr.getRhs()
              : qOr.getRhs() == p ? qOr.getLhs()
                                  : Value();
  auto tieAnd = def<shlo::AndOp>(tie);
  if (!tieAnd)
    return false;
  auto isTie = [&](Value x, Value y) {
    return isCompare(x, shlo::ComparisonDirection::EQ, a, b) &&
           isCompare(y, shlo::ComparisonDirection::LT, ai, bi);
  };
  return isTie(tieAnd.getLhs(), tieAnd.getRhs()) ||
         isTie(tieAnd.getRhs(), tieAnd.getLhs());
}

/// `v` numbers the positions along `dim` (an iota, maybe broadcast).
bool isIotaAlong(Value v, int64_t dim) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (auto iota = dyn_cast<IotaOp>(op))
    return iota.getIotaDimension() == static_cast<uint64_t>(dim);
  if (auto iota = dyn_cast<shlo::IotaOp>(op))
    return iota.getIotaDimension() == static_cast<uint64_t>(dim);
  return false;
}

/// reduce or reduce_window whose reducer is not one kind per input: the
/// torus op `OpTy` (reduce_general, reduce_window_general) built by `build`
/// around the reducer body, which is already a scalar computation.
template <typename OpTy, typename SrcOp>
LogicalResult convertWithBody(SrcOp op, ConversionPatternRewriter &rewriter,
                              function_ref<OpTy()> build) {
  OpTy newOp = build();
  rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                              newOp.getBody().end());
  rewriter.replaceOp(op, newOp->getResults());
  return success();
}

/// A zero index init value.
bool isZero(Value v) {
  DenseIntElementsAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.isSplat() &&
         attr.getSplatValue<APInt>().isZero();
}

struct ReducePattern : OpConversionPattern<shlo::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  /// argmax/argmin: a reduce of (values, iota) with JAX's reducer.
  LogicalResult argReduce(shlo::ReduceOp op, OpAdaptor adaptor,
                          ConversionPatternRewriter &rewriter) const {
    // torus.argmax/argmin take real numbers (JAX's argmax of booleans or
    // complex numbers keeps its body).
    Type et = cast<RankedTensorType>(op.getInputs()[0].getType())
                  .getElementType();
    if (et.isInteger(1) || isa<ComplexType>(et))
      return general(op, adaptor, rewriter);
    bool isMax = isArgReducer(op.getBody(), true);
    if (!isMax && !isArgReducer(op.getBody(), false))
      return general(op, adaptor, rewriter);
    ArrayRef<int64_t> dims = op.getDimensions();
    if (dims.size() != 1)
      return op.emitError() << "an argmax/argmin-style 'stablehlo.reduce' "
                               "must reduce one dimension";
    if (!isIotaAlong(adaptor.getInputs()[1], dims[0]))
      return op.emitError()
             << "the indices of an argmax/argmin-style 'stablehlo.reduce' "
                "must be an iota along dimension "
             << dims[0];
    if (!isReduceIdentity(adaptor.getInitValues()[0],
                    isMax ? ReduceKind::max : ReduceKind::min) ||
        !isZero(adaptor.getInitValues()[1]))
      return op.emitError() << "the init values of an "
                            << (isMax ? "argmax" : "argmin")
                            << "-style 'stablehlo.reduce' must be the "
                               "value's identity and index 0";
    Type indexType =
        cast<RankedTensorType>(op->getResult(1).getType()).getElementType();
    Value values, indices;
    if (isMax) {
      auto r = rewriter.create<ArgMaxOp>(op.getLoc(), adaptor.getInputs()[0],
                                         dims[0], indexType);
      values = r.getValues();
      indices = r.getIndices();
    } else {
      auto r = rewriter.create<ArgMinOp>(op.getLoc(), adaptor.getInputs()[0],
                                         dims[0], indexType);
      values = r.getValues();
      indices = r.getIndices();
    }
    rewriter.replaceOp(op, ValueRange{values, indices});
    return success();
  }

  /// Any other reducer: torus.reduce_general with the body.
  LogicalResult general(shlo::ReduceOp op, OpAdaptor adaptor,
                        ConversionPatternRewriter &rewriter) const {
    return convertWithBody<ReduceGeneralOp>(op, rewriter, [&] {
      return rewriter.create<ReduceGeneralOp>(
          op.getLoc(), op->getResultTypes(), adaptor.getInputs(),
          adaptor.getInitValues(), op.getDimensionsAttr());
    });
  }

  LogicalResult
  matchAndRewrite(shlo::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned n = op.getInputs().size();
    if (n == 2 && !reducerKind(op.getBody(), nullptr, 2, 0))
      return argReduce(op, adaptor, rewriter);
    SmallVector<ReduceKind> kinds;
    for (unsigned j = 0; j < n; ++j) {
      std::optional<ReduceKind> kind =
          reducerKind(op.getBody(), nullptr, n, j);
      if (!kind || !kindApplies(*kind, op.getInputs()[j].getType()))
        return general(op, adaptor, rewriter);
      kinds.push_back(*kind);
    }
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (unsigned j = 0; j < n; ++j) {
      auto type = cast<RankedTensorType>(op->getResult(j).getType());
      Value r = rewriter.create<ReduceOp>(
          loc, type, ReduceKindAttr::get(getContext(), kinds[j]),
          adaptor.getInputs()[j], op.getDimensionsAttr());
      results.push_back(foldInitValue(rewriter, loc, kinds[j],
                                      adaptor.getInputs()[j], r,
                                      adaptor.getInitValues()[j]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ReduceWindowPattern : OpConversionPattern<shlo::ReduceWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ReduceWindowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ReduceKind> kind;
    if (op.getInputs().size() == 1)
      kind = reducerKind(op.getBody());
    if (!kind || !kindApplies(*kind, op.getInputs()[0].getType()))
      return convertWithBody<ReduceWindowGeneralOp>(op, rewriter, [&] {
        return rewriter.create<ReduceWindowGeneralOp>(
            op.getLoc(), op->getResultTypes(), adaptor.getInputs(),
            adaptor.getInitValues(), op.getWindowDimensionsAttr(),
            op.getWindowStridesAttr(), op.getBaseDilationsAttr(),
            op.getWindowDilationsAttr(), op.getPaddingAttr());
      });
    auto reduced = rewriter.create<ReduceWindowOp>(
        op.getLoc(), op->getResult(0).getType(),
        ReduceKindAttr::get(getContext(), *kind), adaptor.getInputs()[0],
        op.getWindowDimensionsAttr(), op.getWindowStridesAttr(),
        op.getBaseDilationsAttr(), op.getWindowDilationsAttr(),
        op.getPaddingAttr());
    // XLA folds the init value into every window, padding included.
    rewriter.replaceOp(op, foldInitValue(rewriter, op.getLoc(), *kind,
                                         adaptor.getInputs()[0], reduced,
                                         adaptor.getInitValues()[0], reduced));
    return success();
  }
};

struct SelectAndScatterPattern
    : OpConversionPattern<shlo::SelectAndScatterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::SelectAndScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    DenseI64ArrayAttr window = op.getWindowDimensionsAttr();
    if (!window)
      window = rewriter.getDenseI64ArrayAttr(
          SmallVector<int64_t>(type.getRank(), 1));
    auto newOp = rewriter.create<SelectAndScatterOp>(
        op.getLoc(), type, adaptor.getOperand(), adaptor.getSource(),
        adaptor.getInitValue(), window, op.getWindowStridesAttr(),
        op.getPaddingAttr());
    rewriter.inlineRegionBefore(op.getSelect(), newOp.getSelect(),
                                newOp.getSelect().end());
    rewriter.inlineRegionBefore(op.getScatter(), newOp.getScatter(),
                                newOp.getScatter().end());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct SortPattern : OpConversionPattern<shlo::SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::SortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t dim = op.getDimension();
    if (dim < 0)
      dim += cast<RankedTensorType>(op.getInputs()[0].getType()).getRank();
    auto newOp = rewriter.create<SortOp>(
        op.getLoc(), op->getResultTypes(), adaptor.getInputs(),
        rewriter.getI64IntegerAttr(dim),
        rewriter.getBoolAttr(op.getIsStable()));
    rewriter.inlineRegionBefore(op.getComparator(), newOp.getComparator(),
                                newOp.getComparator().end());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

} // namespace

void populateReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern, ReduceWindowPattern, SelectAndScatterPattern,
               SortPattern>(patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
