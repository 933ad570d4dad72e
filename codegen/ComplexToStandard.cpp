//===- ComplexToStandard.cpp - complex ops to arith and accurate math ----===//
//
// MLIR's complex-to-standard patterns (but multiplication, computed as
// XLA:CPU computes it), then the math functions they emit
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

/// complex.mul as XLA:CPU computes it: the textbook formula with one
/// multiply of each part fused (XLA's LLVM contracts (a*c - b*d, b*c + a*d)
/// into fma(a, c, -(b*d)), fma(b, c, a*d) on hosts with FMA), and no C99
/// recovery of infinities. An explicit fma gives those bits on every host.
struct XlaComplexMul : OpConversionPattern<complex::MulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(complex::MulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type t = cast<ComplexType>(op.getType()).getElementType();
    Value a = b.create<complex::ReOp>(loc, t, adaptor.getLhs());
    Value bb = b.create<complex::ImOp>(loc, t, adaptor.getLhs());
    Value c = b.create<complex::ReOp>(loc, t, adaptor.getRhs());
    Value d = b.create<complex::ImOp>(loc, t, adaptor.getRhs());
    Value bd = b.create<arith::MulFOp>(loc, bb, d);
    Value ad = b.create<arith::MulFOp>(loc, a, d);
    Value re = b.create<math::FmaOp>(loc, a, c,
                                     b.create<arith::NegFOp>(loc, bd));
    Value im = b.create<math::FmaOp>(loc, bb, c, ad);
    b.replaceOpWithNewOp<complex::CreateOp>(op, op.getType(), re, im);
    return success();
  }
};

/// complex.pow on complex<f32> computed on complex<f64> and rounded once:
/// exp(y * log(x)) magnifies the error of log by the size of the result,
/// tens of ULPs in f32.
struct WidenedComplexPow : OpConversionPattern<complex::PowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(complex::PowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    auto type = cast<ComplexType>(op.getType());
    if (!type.getElementType().isF32())
      return failure();
    Location loc = op.getLoc();
    Type f32 = b.getF32Type(), f64 = b.getF64Type();
    auto wide = ComplexType::get(f64);
    auto widen = [&](Value z) -> Value {
      Value re = b.create<complex::ReOp>(loc, f32, z);
      Value im = b.create<complex::ImOp>(loc, f32, z);
      re = b.create<arith::ExtFOp>(loc, f64, re);
      im = b.create<arith::ExtFOp>(loc, f64, im);
      return b.create<complex::CreateOp>(loc, wide, re, im);
    };
    Value r = b.create<complex::PowOp>(loc, widen(adaptor.getLhs()),
                                       widen(adaptor.getRhs()));
    Value re = b.create<complex::ReOp>(loc, f64, r);
    Value im = b.create<complex::ImOp>(loc, f64, r);
    re = b.create<arith::TruncFOp>(loc, f32, re);
    im = b.create<arith::TruncFOp>(loc, f32, im);
    b.replaceOpWithNewOp<complex::CreateOp>(op, type, re, im);
    return success();
  }
};

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
    patterns.add<XlaComplexMul, WidenedComplexPow>(ctx, /*benefit=*/2);
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
