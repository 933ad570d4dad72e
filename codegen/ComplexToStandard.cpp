//===- ComplexToStandard.cpp - complex ops to arith and accurate math ----===//
//
// MLIR's complex-to-standard patterns, then the math functions they emit
// that the LLVM lowering lacks (atan2, tanh, tan) or computes inaccurately
// near zero (expm1, log1p) replaced by ScalarMath's accurate sequences,
// which is what the real ops use.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/ops/ScalarMath.h"

#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSCOMPLEXTOSTANDARD
#include "codegen/Passes.h.inc"

namespace {

/// tan(x) as the real op computes it: sin/cos in f64, rounded once.
Value tanOf(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType(), f64 = b.getF64Type();
  Value v = t == f64 ? x : b.create<arith::ExtFOp>(loc, f64, x);
  Value r = b.create<arith::DivFOp>(loc, b.create<math::SinOp>(loc, v),
                                    b.create<math::CosOp>(loc, v));
  return t == f64 ? r : b.create<arith::TruncFOp>(loc, t, r).getResult();
}

struct TorusComplexToStandard
    : impl::TorusComplexToStandardBase<TorusComplexToStandard> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool any = false;
    func.walk([&](Operation *op) {
      if (isa<complex::ComplexDialect>(op->getDialect()))
        any = true;
    });
    if (!any)
      return;
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect>();
    target.addLegalOp<complex::CreateOp, complex::ImOp, complex::ReOp,
                      complex::ConstantOp>();
    target.addIllegalDialect<complex::ComplexDialect>();
    RewritePatternSet patterns(ctx);
    populateComplexToStandardConversionPatterns(patterns);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      return signalPassFailure();

    // Only scalar math appears here (loops come first in the pipeline).
    SmallVector<Operation *> math;
    func.walk([&](Operation *op) {
      if (isa<math::Atan2Op, math::TanhOp, math::TanOp, math::ExpM1Op,
              math::Log1pOp>(op) &&
          isa<FloatType>(op->getResult(0).getType()))
        math.push_back(op);
    });
    for (Operation *op : math) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value r;
      if (auto a = dyn_cast<math::Atan2Op>(op))
        r = atan2Of(b, loc, a.getLhs(), a.getRhs());
      else if (isa<math::TanhOp>(op))
        r = tanhOf(b, loc, op->getOperand(0));
      else if (isa<math::TanOp>(op))
        r = tanOf(b, loc, op->getOperand(0));
      else if (isa<math::ExpM1Op>(op))
        r = expm1Of(b, loc, op->getOperand(0));
      else
        r = log1pOf(b, loc, op->getOperand(0));
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};

} // namespace
} // namespace mlir::torus
