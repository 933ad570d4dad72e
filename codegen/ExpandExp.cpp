//===- ExpandExp.cpp - f32 exp computed inline, vectorizable --------------===//
//
// The torus-expand-exp pass (Passes.td): `math.exp` of f32, scalar or
// vector, becomes arithmetic (Cephes' expf: Cody-Waite range reduction and a
// degree-5 polynomial, within 1 ulp of the exact value), so a vectorized
// kernel computes eight exponentials in a few FMAs instead of eight libm
// calls, and every host computes the same bits. Edges as XLA:CPU: NaN stays
// NaN, above ln(FLT_MAX) is +inf, results below FLT_MIN (subnormal) are
// flushed to zero.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <bit>
#include <cstdint>
#include <limits>

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSEXPANDEXP
#include "codegen/Passes.h.inc"

namespace {

/// Cephes' expf, written with the value's own shape (f32 or vector of f32).
struct ExpandF32Exp : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type intType = b.getI32Type();
    if (auto vector = dyn_cast<VectorType>(type))
      intType = vector.clone(intType);
    auto f = [&](float v) -> Value {
      if (auto vector = dyn_cast<VectorType>(type))
        return b.create<arith::ConstantOp>(
            type, SplatElementsAttr::get(vector, b.getF32FloatAttr(v)));
      return b.create<arith::ConstantOp>(b.getF32FloatAttr(v));
    };
    auto i = [&](int32_t v) -> Value {
      if (auto vector = dyn_cast<VectorType>(intType))
        return b.create<arith::ConstantOp>(
            intType, SplatElementsAttr::get(vector, b.getI32IntegerAttr(v)));
      return b.create<arith::ConstantOp>(b.getI32IntegerAttr(v));
    };
    auto fma = [&](Value x, Value y, Value z) -> Value {
      return b.create<math::FmaOp>(x, y, z);
    };
    Value x = op.getOperand();

    // x = m ln2 + r with |r| <= ln2/2: m = floor(x log2(e) + 1/2), and r in
    // two steps (ln2 = C1 + C2, C1 exact in few bits). x is clamped first
    // (never NaN: maxnum/minnum take the number), so that 2^m is two normal
    // powers of two; the edges are selected at the end.
    Value xc = b.create<arith::MinNumFOp>(
        b.create<arith::MaxNumFOp>(x, f(-88.0f)), f(88.8f));
    Value m = b.create<math::FloorOp>(fma(xc, f(1.44269504088896341f), f(0.5f)));
    Value r = fma(m, f(-0.693359375f), xc);
    r = fma(m, f(2.12194440e-4f), r);
    // e^r = 1 + r + r^2 P(r).
    Value p = f(1.9875691500e-4f);
    for (float c : {1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f,
                    1.6666665459e-1f, 5.0000001201e-1f})
      p = fma(p, r, f(c));
    Value r2 = b.create<arith::MulFOp>(r, r);
    Value y = b.create<arith::AddFOp>(fma(p, r2, r), f(1.0f));
    // y * 2^m, as y * 2^(m/2) * 2^(m - m/2): m is in [-127, 128].
    Value mi = b.create<arith::FPToSIOp>(intType, m);
    Value half = b.create<arith::ShRSIOp>(mi, i(1));
    auto pow2 = [&](Value n) -> Value {
      Value bits = b.create<arith::ShLIOp>(
          b.create<arith::AddIOp>(n, i(127)), i(23));
      return b.create<arith::BitcastOp>(type, bits);
    };
    Value result = b.create<arith::MulFOp>(
        b.create<arith::MulFOp>(y, pow2(half)),
        pow2(b.create<arith::SubIOp>(mi, half)));

    using P = arith::CmpFPredicate;
    // Subnormal results flushed, as XLA:CPU's are.
    Value tiny = b.create<arith::CmpFOp>(
        P::OLT, result, f(std::numeric_limits<float>::min()));
    result = b.create<arith::SelectOp>(tiny, f(0.0f), result);
    // Past ln(FLT_MAX) (88.7228317 is the last f32 whose exp is finite).
    Value huge = b.create<arith::CmpFOp>(
        P::OGT, x, f(std::bit_cast<float>(0x42B17217u)));
    result = b.create<arith::SelectOp>(
        huge, f(std::numeric_limits<float>::infinity()), result);
    Value nan = b.create<arith::CmpFOp>(P::UNO, x, x);
    result = b.create<arith::SelectOp>(nan, x, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandExpPass : impl::TorusExpandExpBase<ExpandExpPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandF32Exp>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::torus
