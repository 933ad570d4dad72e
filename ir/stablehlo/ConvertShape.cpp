//===- ConvertShape.cpp - stablehlo shape ops -----------------------------===//
//
// Most shape ops (reshape, transpose, reverse, slice, dynamic_slice,
// dynamic_update_slice, concatenate, pad, iota) have the torus op's name,
// operands and attribute names and are converted by the generic pattern
// (ConvertToTorus.cpp). broadcast_in_dim is HLO's `broadcast`, so it has
// its own.
//
//===----------------------------------------------------------------------===//

#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloOps.h"

namespace mlir::torus::stablehlo {

namespace shlo = ::mlir::stablehlo;

namespace {

struct BroadcastInDimPattern : OpConversionPattern<shlo::BroadcastInDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(shlo::BroadcastInDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<BroadcastInDimOp>(
        op, op.getType(), adaptor.getOperand(),
        op.getBroadcastDimensionsAttr());
    return success();
  }
};

} // namespace

void populateShapePatterns(RewritePatternSet &patterns) {
  patterns.add<BroadcastInDimPattern>(patterns.getContext(), /*benefit=*/1);
}

} // namespace mlir::torus::stablehlo
