//===- ElementwiseLowering.cpp - Elementwise torus ops to linalg ----------===//
//
// Every op with ScalarOpInterface becomes a parallel linalg.generic whose
// body is the op's own scalar semantics (its ScalarBody in ir/TorusOps.td,
// HLO's per element type). f16 and bf16 are computed in f32 and rounded
// back, as XLA's CPU backend does, unless the op sees the exact types
// (conversions).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

namespace mlir::torus {
namespace {

struct ScalarOpLowering : OpInterfaceConversionPattern<ScalarOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ScalarOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type resultElement = resultType.getElementType();
    bool widen = op.widensHalfFloats();
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          if (!widen)
            return op.buildScalar(b, loc, args);
          SmallVector<Value> wide;
          for (Value a : args)
            wide.push_back(widenHalf(b, loc, a));
          return narrowTo(b, loc, op.buildScalar(b, loc, wide), resultElement);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void populateElementwiseLowering(RewritePatternSet &patterns) {
  patterns.add<ScalarOpLowering>(patterns.getContext());
}

} // namespace mlir::torus
