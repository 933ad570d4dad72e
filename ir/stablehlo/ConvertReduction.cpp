//===- ConvertReduction.cpp - stablehlo reductions, windows, sorting ------===//
//
// reduce and reduce_window: the reducer region becomes the torus op's kind
// (reducerKind, as the HLO importer reads `to_apply`), one torus.reduce per
// input of a componentwise variadic reduce, and an init value other than
// the kind's identity is combined into the result afterwards, as XLA folds
// it into every window (once per padding element for sum and product).
// sort and select_and_scatter keep their regions, moved into the torus op.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

#include <complex>

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

/// `init` broadcast to `type`.
Value broadcastTo(OpBuilder &b, Location loc, Value init,
                  RankedTensorType type) {
  if (type.getRank() == 0)
    return init;
  return b.create<BroadcastInDimOp>(loc, type, init,
                                    b.getDenseI64ArrayAttr({}));
}

InFlightDiagnostic unsupportedReducer(Operation *op) {
  return op->emitError()
         << "'" << op->getName()
         << "' with this reducer is not supported: torus reads a body that "
            "applies one of add, multiply, maximum, minimum, and, or to its "
            "arguments, per input";
}

struct ReducePattern : OpConversionPattern<shlo::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned n = op.getInputs().size();
    SmallVector<ReduceKind> kinds;
    for (unsigned j = 0; j < n; ++j) {
      std::optional<ReduceKind> kind =
          reducerKind(op.getBody(), nullptr, n, j);
      if (!kind)
        return unsupportedReducer(op);
      kinds.push_back(*kind);
    }
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (unsigned j = 0; j < n; ++j) {
      auto type = cast<RankedTensorType>(op->getResult(j).getType());
      Value r = rewriter.create<ReduceOp>(
          loc, type, ReduceKindAttr::get(getContext(), kinds[j]),
          adaptor.getInputs()[j], op.getDimensionsAttr());
      Value init = adaptor.getInitValues()[j];
      if (!isIdentity(init, kinds[j]))
        r = combine(rewriter, loc, kinds[j], r,
                    broadcastTo(rewriter, loc, init, type));
      results.push_back(r);
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
    if (op.getInputs().size() != 1)
      return op.emitError()
             << "'stablehlo.reduce_window' of " << op.getInputs().size()
             << " inputs is not supported: only one";
    std::optional<ReduceKind> kind = reducerKind(op.getBody());
    if (!kind)
      return unsupportedReducer(op);
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value x = adaptor.getInputs()[0];
    auto windowOf = [&](ReduceKind k, Value operand) -> Value {
      return rewriter.create<ReduceWindowOp>(
          loc, type, ReduceKindAttr::get(getContext(), k), operand,
          op.getWindowDimensionsAttr(), op.getWindowStridesAttr(),
          op.getBaseDilationsAttr(), op.getWindowDilationsAttr(),
          op.getPaddingAttr());
    };
    Value reduced = windowOf(*kind, x);
    Value init = adaptor.getInitValues()[0];
    if (!isIdentity(init, *kind)) {
      Value initValue = broadcastTo(rewriter, loc, init, type);
      bool padded = false;
      if (auto padding = op.getPaddingAttr())
        padded |= llvm::any_of(padding.getValues<int64_t>(),
                               [](int64_t p) { return p != 0; });
      if (auto dil = op.getBaseDilationsAttr())
        padded |= llvm::any_of(dil.asArrayRef(),
                               [](int64_t d) { return d != 1; });
      if (padded &&
          (*kind == ReduceKind::sum || *kind == ReduceKind::product)) {
        // XLA pads with the init value: it enters each window once plus
        // once per padding element, window size + 1 - (real elements).
        Type et = type.getElementType();
        auto splat = [&](RankedTensorType t, double v) -> Value {
          DenseElementsAttr a;
          if (auto complex = dyn_cast<ComplexType>(et)) {
            if (complex.getElementType().isF64())
              a = DenseElementsAttr::get(t, std::complex<double>(v, 0));
            else
              a = DenseElementsAttr::get(t, std::complex<float>(v, 0));
          } else if (isa<FloatType>(et)) {
            a = DenseElementsAttr::get(t, FloatAttr::get(et, v));
          } else {
            a = DenseElementsAttr::get(
                t, IntegerAttr::get(et, static_cast<int64_t>(v)));
          }
          return rewriter.create<ConstantOp>(loc, a);
        };
        int64_t size = 1;
        for (int64_t d : op.getWindowDimensions())
          size *= d;
        auto xType = cast<RankedTensorType>(x.getType());
        Value count = windowOf(ReduceKind::sum, splat(xType, 1));
        Value times =
            rewriter.create<SubtractOp>(loc, type, splat(type, size + 1), count);
        initValue =
            *kind == ReduceKind::sum
                ? Value(rewriter.create<MultiplyOp>(loc, type, initValue, times))
                : Value(rewriter.create<PowerOp>(loc, type, initValue, times));
      }
      reduced = combine(rewriter, loc, *kind, reduced, initValue);
    }
    rewriter.replaceOp(op, reduced);
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
