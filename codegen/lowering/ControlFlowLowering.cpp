//===- ControlFlowLowering.cpp - while, if, case, call to scf/func --------===//
//
// The regions move as they are into scf.while / scf.if / scf.index_switch
// (their ops are lowered in place afterwards); torus.return becomes
// scf.condition in a loop's condition and scf.yield elsewhere. case's
// last branch is the switch's default, which is HLO's rule for an
// out-of-range index.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::torus {
namespace {

struct WhileLowering : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto loop = rewriter.create<scf::WhileOp>(op.getLoc(), op.getResultTypes(),
                                              adaptor.getOperand());
    rewriter.inlineRegionBefore(op.getCond(), loop.getBefore(),
                                loop.getBefore().end());
    rewriter.inlineRegionBefore(op.getBody(), loop.getAfter(),
                                loop.getAfter().end());
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct IfLowering : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value pred = extractScalar(rewriter, op.getLoc(), adaptor.getPred());
    auto ifOp = rewriter.create<scf::IfOp>(op.getLoc(), op.getResultTypes(),
                                           pred, /*addThenBlock=*/false,
                                           /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getTrueBranch(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getFalseBranch(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct CaseLowering : OpConversionPattern<CaseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value index = toIndex(rewriter, loc,
                          extractScalar(rewriter, loc, adaptor.getIndex()));
    int64_t n = op.getBranches().size();
    SmallVector<int64_t> cases;
    for (int64_t i = 0; i + 1 < n; ++i)
      cases.push_back(i);
    auto sw = rewriter.create<scf::IndexSwitchOp>(loc, op.getResultTypes(),
                                                  index, cases, cases.size());
    for (int64_t i = 0; i + 1 < n; ++i)
      rewriter.inlineRegionBefore(op.getBranches()[i], sw.getCaseRegions()[i],
                                  sw.getCaseRegions()[i].end());
    rewriter.inlineRegionBefore(op.getBranches()[n - 1], sw.getDefaultRegion(),
                                sw.getDefaultRegion().end());
    rewriter.replaceOp(op, sw.getResults());
    return success();
  }
};

struct ReturnLowering : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *parent = op->getParentOp();
    if (auto loop = dyn_cast<scf::WhileOp>(parent);
        loop && op->getParentRegion() == &loop.getBefore()) {
      Value pred = extractScalar(rewriter, op.getLoc(), adaptor.getResults()[0]);
      rewriter.replaceOpWithNewOp<scf::ConditionOp>(
          op, pred, loop.getBefore().front().getArguments());
      return success();
    }
    if (!isa<scf::WhileOp, scf::IfOp, scf::IndexSwitchOp>(parent))
      return rewriter.notifyMatchFailure(op, "parent not lowered yet");
    SmallVector<Value> results(adaptor.getResults());
    if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      // One-shot bufferization wants each loop-carried value to stay in its
      // buffer: copy the next value into the argument's (destination
      // passing). A no-op when the body updated it in place. A value that
      // is another argument (a loop that rotates its state) is first copied
      // aside, so that no copy reads a buffer an earlier one overwrote.
      ValueRange args = loop.getAfterArguments();
      for (auto [i, arg] : llvm::enumerate(args))
        if (results[i] != arg && llvm::is_contained(args, results[i]))
          results[i] =
              rewriter
                  .create<linalg::CopyOp>(
                      op.getLoc(), results[i],
                      emptyLike(rewriter, op.getLoc(),
                                cast<RankedTensorType>(results[i].getType())))
                  .getResult(0);
      for (auto [i, arg] : llvm::enumerate(args))
        if (results[i] != arg)
          results[i] = rewriter
                           .create<linalg::CopyOp>(op.getLoc(), results[i], arg)
                           .getResult(0);
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp>(parent)) {
      // Every branch returns a buffer of its own, so the buffers after the
      // conditional are always owned. (Returning an operand from one branch
      // and a new buffer from another makes ownership conditional, and two
      // of those in a function need a dealloc helper that the bare-pointer
      // LLVM lowering cannot convert.)
      for (Value &r : results)
        r = rewriter
                .create<linalg::CopyOp>(
                    op.getLoc(), r,
                    emptyLike(rewriter, op.getLoc(),
                              cast<RankedTensorType>(r.getType())))
                .getResult(0);
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, results);
    return success();
  }
};

struct CallLowering : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(
        op, op.getCalleeAttr(), op.getResultTypes(), adaptor.getOperands());
    return success();
  }
};

} // namespace

void populateControlFlowLowering(RewritePatternSet &patterns) {
  patterns.add<WhileLowering, IfLowering, CaseLowering, ReturnLowering,
               CallLowering>(patterns.getContext());
}

} // namespace mlir::torus
