//===- ConvertControlFlow.cpp - stablehlo control flow and calls ----------===//
//
// while, if and case move their regions into torus.while, torus.if and
// torus.case (same block arguments; stablehlo.return becomes torus.return).
// func.call becomes torus.call, as the HLO importer writes `call`.
// optimization_barrier passes its operands through. custom_call: the
// StableHLO test suite's `check.*` calls (no results) are dropped; any other
// target is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

struct ReturnPattern : OpConversionPattern<shlo::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ReturnOp>(op, adaptor.getResults());
    return success();
  }
};

struct WhilePattern : OpConversionPattern<shlo::WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = rewriter.create<WhileOp>(op.getLoc(), op->getResultTypes(),
                                          adaptor.getOperand());
    rewriter.inlineRegionBefore(op.getCond(), newOp.getCond(),
                                newOp.getCond().end());
    rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                                newOp.getBody().end());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct IfPattern : OpConversionPattern<shlo::IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = rewriter.create<IfOp>(op.getLoc(), op->getResultTypes(),
                                       adaptor.getPred());
    rewriter.inlineRegionBefore(op.getTrueBranch(), newOp.getTrueBranch(),
                                newOp.getTrueBranch().end());
    rewriter.inlineRegionBefore(op.getFalseBranch(), newOp.getFalseBranch(),
                                newOp.getFalseBranch().end());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct CasePattern : OpConversionPattern<shlo::CaseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::CaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp =
        rewriter.create<CaseOp>(op.getLoc(), op->getResultTypes(),
                                adaptor.getIndex(), op.getBranches().size());
    for (auto [from, to] : llvm::zip(op.getBranches(), newOp.getBranches()))
      rewriter.inlineRegionBefore(from, to, to.end());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct OptimizationBarrierPattern
    : OpConversionPattern<shlo::OptimizationBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::OptimizationBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperand());
    return success();
  }
};

struct CustomCallPattern : OpConversionPattern<shlo::CustomCallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::CustomCallOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getCallTargetName().starts_with("check.") &&
        op->getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    return op.emitError() << "unsupported custom_call target '@"
                          << op.getCallTargetName() << "'";
  }
};

struct CallPattern : OpConversionPattern<func::CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(func::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<CallOp>(op, op->getResultTypes(),
                                        op.getCalleeAttr(),
                                        adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateControlFlowPatterns(RewritePatternSet &patterns) {
  patterns.add<ReturnPattern, WhilePattern, IfPattern, CasePattern,
               OptimizationBarrierPattern, CustomCallPattern, CallPattern>(
      patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
