//===- RandomLowering.cpp - rng_bit_generator as Threefry-2x32 ------------===//
//
// A parallel linalg.generic over the output: each element computes its own
// counter from its row-major position and runs Threefry-2x32 with 20 rounds
// (Random123's threefry2x32_20) on it, so the bits do not depend on how the
// loop is split or vectorized. The op's description has the exact layout.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
namespace {

Value i32Constant(OpBuilder &b, Location loc, uint32_t v) {
  return b.create<arith::ConstantOp>(
      loc, b.getIntegerAttr(b.getI32Type(), static_cast<int32_t>(v)));
}

Value rotateLeft(OpBuilder &b, Location loc, Value v, int r) {
  Value left = b.create<arith::ShLIOp>(loc, v, i32Constant(b, loc, r));
  Value right = b.create<arith::ShRUIOp>(loc, v, i32Constant(b, loc, 32 - r));
  return b.create<arith::OrIOp>(loc, left, right);
}

/// The two 32-bit words of threefry2x32_20(key, counter), both i64 split
/// into (low, high) words.
std::pair<Value, Value> threefry(OpBuilder &b, Location loc, Value key,
                                 Value counter) {
  Type i32 = b.getI32Type();
  Value c32 = b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(32));
  auto low = [&](Value v) { return b.create<arith::TruncIOp>(loc, i32, v); };
  auto high = [&](Value v) {
    return b.create<arith::TruncIOp>(loc, i32,
                                     b.create<arith::ShRUIOp>(loc, v, c32));
  };
  Value ks[3] = {low(key), high(key), Value()};
  ks[2] = b.create<arith::XOrIOp>(
      loc, b.create<arith::XOrIOp>(loc, ks[0], ks[1]),
      i32Constant(b, loc, 0x1BD11BDA));
  Value x0 = b.create<arith::AddIOp>(loc, low(counter), ks[0]);
  Value x1 = b.create<arith::AddIOp>(loc, high(counter), ks[1]);
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  for (int i = 0; i < 20; ++i) {
    x0 = b.create<arith::AddIOp>(loc, x0, x1);
    x1 = rotateLeft(b, loc, x1, kRotations[i % 8]);
    x1 = b.create<arith::XOrIOp>(loc, x1, x0);
    if (i % 4 == 3) {
      int s = (i + 1) / 4;
      x0 = b.create<arith::AddIOp>(loc, x0, ks[s % 3]);
      x1 = b.create<arith::AddIOp>(
          loc, x1,
          b.create<arith::AddIOp>(loc, ks[(s + 1) % 3], i32Constant(b, loc, s)));
    }
  }
  return {x0, x1};
}

struct RngBitGeneratorLowering : OpConversionPattern<RngBitGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RngBitGeneratorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getRngAlgorithm() == RngAlgorithm::PHILOX)
      return op.emitOpError("PHILOX is not implemented; use THREE_FRY or "
                            "DEFAULT");
    Location loc = op.getLoc();
    Value state = adaptor.getInitialState();
    auto extract = [&](int64_t i) {
      return rewriter.create<tensor::ExtractOp>(
          loc, state, ValueRange{indexConstant(rewriter, loc, i)});
    };
    Value key = extract(0), counter = extract(1);
    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    bool wide = outType.getElementType().isInteger(64);
    int64_t rank = outType.getRank();
    Type i64 = rewriter.getI64Type();

    auto generic = rewriter.create<linalg::GenericOp>(
        loc, outType, ValueRange{}, emptyLike(rewriter, loc, outType),
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange) {
          // Row-major position of this element.
          Value linear = indexConstant(b, l, 0);
          for (int64_t d = 0; d < rank; ++d) {
            linear = b.create<arith::MulIOp>(
                l, linear, indexConstant(b, l, outType.getDimSize(d)));
            linear = b.create<arith::AddIOp>(l, linear,
                                             b.create<linalg::IndexOp>(l, d));
          }
          Value position = b.create<arith::IndexCastOp>(l, i64, linear);
          Value one = b.create<arith::ConstantOp>(l, b.getI64IntegerAttr(1));
          Value block = wide ? position
                             : b.create<arith::ShRUIOp>(l, position, one)
                                   .getResult();
          auto [w0, w1] = threefry(
              b, l, key, b.create<arith::AddIOp>(l, counter, block));
          Value bits;
          if (wide) {
            Value hi = b.create<arith::ExtUIOp>(l, i64, w0);
            Value lo = b.create<arith::ExtUIOp>(l, i64, w1);
            bits = b.create<arith::OrIOp>(
                l,
                b.create<arith::ShLIOp>(
                    l, hi,
                    b.create<arith::ConstantOp>(l, b.getI64IntegerAttr(32))),
                lo);
          } else {
            Value odd = b.create<arith::TruncIOp>(
                l, b.getI1Type(), b.create<arith::AndIOp>(l, position, one));
            bits = b.create<arith::SelectOp>(l, odd, w1, w0);
          }
          b.create<linalg::YieldOp>(l, bits);
        });

    int64_t count = outType.getNumElements();
    int64_t blocks = wide ? count : (count + 1) / 2;
    Value next = rewriter.create<arith::AddIOp>(
        loc, counter,
        rewriter.create<arith::ConstantOp>(loc,
                                           rewriter.getI64IntegerAttr(blocks)));
    Value newState = rewriter.create<tensor::FromElementsOp>(
        loc, op.getOutputState().getType(), ValueRange{key, next});
    rewriter.replaceOp(op, {newState, generic.getResult(0)});
    return success();
  }
};

} // namespace

void populateRandomLowering(RewritePatternSet &patterns) {
  patterns.add<RngBitGeneratorLowering>(patterns.getContext());
}

} // namespace mlir::torus
