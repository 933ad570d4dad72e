//===- RandomLowering.cpp - rng_bit_generator with XLA's bits -------------===//
//
// rng_bit_generator as XLA's CPU and GPU backends expand it
// (xla/service/rng_bit_generator_expander.cc over xla/hlo/builder/lib/prng.cc),
// so a state gives the bits XLA gives: Threefry-2x32 (20 rounds) for
// THREE_FRY, Philox-4x32 (10 rounds) for PHILOX and DEFAULT (XLA's CPU and
// GPU compilers expand DEFAULT as PHILOX).
//
// One parallel linalg.generic over the output: each element computes its
// block's counter from its own position and runs the cipher on it, so the
// bits do not depend on how the loop is split or vectorized. The layouts,
// all row-major, are XLA's:
//
//   THREE_FRY, <= 32-bit elements: the output is split in halves along its
//     first even dimension (or its first largest one if none is even); the
//     element at index j of that dimension is word j % 2 of the block at
//     the position with j / 2 there in the halved shape. Blocks are
//     counter + that position's row-major offset; 8/16-bit elements keep a
//     word's low bits. The counter advances by the halved shape's size.
//   THREE_FRY, 64-bit: element i is block counter + i, word 0 low.
//     The counter advances by the element count.
//   PHILOX: the counter is 128-bit (state[1] low, state[2] or else the key
//     state[0] high). 32-bit element i (8/16-bit: its low bits) is word
//     i % 4 of block counter + i / 4; 64-bit element i is words (0, 1) or
//     (2, 3) of block counter + i / 2, the first word low. The counter
//     advances by the blocks used; a 2-element state keeps only its low half.
//
// The key, state[0], is the cipher key (low word first) in both.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>

namespace mlir::torus {
namespace {

/// Scalar arithmetic on signless i32/i64 values. (State values read from a
/// `ui64` tensor keep that type until the pass makes integers signless.)
struct Scalar {
  OpBuilder &b;
  Location loc;

  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Value c32(uint32_t v) {
    return b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(i32(), static_cast<int32_t>(v)));
  }
  Value c64(uint64_t v) {
    return b.create<arith::ConstantOp>(
        loc, b.getIntegerAttr(i64(), static_cast<int64_t>(v)));
  }
  Value add(Value x, Value y) { return b.create<arith::AddIOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<arith::MulIOp>(loc, x, y); }
  Value xor_(Value x, Value y) { return b.create<arith::XOrIOp>(loc, x, y); }
  Value or_(Value x, Value y) { return b.create<arith::OrIOp>(loc, x, y); }
  Value and_(Value x, Value y) { return b.create<arith::AndIOp>(loc, x, y); }
  Value shl(Value x, Value y) { return b.create<arith::ShLIOp>(loc, x, y); }
  Value shr(Value x, Value y) { return b.create<arith::ShRUIOp>(loc, x, y); }
  Value eq(Value x, Value y) {
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, c, x, y);
  }
  Value low(Value v64) { return b.create<arith::TruncIOp>(loc, i32(), v64); }
  Value high(Value v64) { return low(shr(v64, c64(32))); }
  Value zext(Value v) { return b.create<arith::ExtUIOp>(loc, i64(), v); }
  /// The 64-bit value with words (lo, hi).
  Value join(Value lo, Value hi) { return or_(zext(lo), shl(zext(hi), c64(32))); }
  Value rotl(Value v, int r) { return or_(shl(v, c32(r)), shr(v, c32(32 - r))); }
  /// (low + delta, high + carry) of the 128-bit (low, high).
  std::pair<Value, Value> add128(Value lo, Value hi, Value delta) {
    Value sum = add(lo, delta);
    Value carry =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, sum, lo);
    return {sum, add(hi, zext(carry))};
  }

  /// Threefry-2x32 with 20 rounds (xla::ThreeFry2x32, Random123's
  /// threefry2x32_20) of the block (x0, x1) under the key (k0, k1).
  std::array<Value, 2> threefry(Value k0, Value k1, Value x0, Value x1) {
    Value ks[3] = {k0, k1, xor_(xor_(k0, k1), c32(0x1BD11BDA))};
    x0 = add(x0, ks[0]);
    x1 = add(x1, ks[1]);
    static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    for (int i = 0; i < 20; ++i) {
      x0 = add(x0, x1);
      x1 = xor_(rotl(x1, kRotations[i % 8]), x0);
      if (i % 4 == 3) {
        int s = (i + 1) / 4;
        x0 = add(x0, ks[s % 3]);
        x1 = add(x1, add(ks[(s + 1) % 3], c32(s)));
      }
    }
    return {x0, x1};
  }

  /// Philox-4x32 with 10 rounds (xla::Philox4x32, Random123's
  /// philox4x32_10) of the block x under the key (k0, k1).
  std::array<Value, 4> philox(Value k0, Value k1, std::array<Value, 4> x) {
    // The 64-bit product of a word and a constant, as (high, low) words.
    auto mulHiLo = [&](Value v, uint32_t m) -> std::pair<Value, Value> {
      Value p = mul(zext(v), c64(m));
      return {high(p), low(p)};
    };
    for (int round = 0; round < 10; ++round) {
      auto [hi0, lo0] = mulHiLo(x[0], 0xD2511F53);
      auto [hi1, lo1] = mulHiLo(x[2], 0xCD9E8D57);
      x = {xor_(xor_(hi1, x[1]), k0), lo1, xor_(xor_(hi0, x[3]), k1), lo0};
      if (round < 9) {
        k0 = add(k0, c32(0x9E3779B9));
        k1 = add(k1, c32(0xBB67AE85));
      }
    }
    return x;
  }
};

/// The dimension XLA's SplitShapeIntoHalves splits: the first even one, or
/// else the first largest. -1 for a scalar.
int64_t threefrySplitDim(ArrayRef<int64_t> shape) {
  for (auto [d, size] : llvm::enumerate(shape))
    if (size % 2 == 0)
      return d;
  int64_t best = -1;
  for (auto [d, size] : llvm::enumerate(shape))
    if (best < 0 || size > shape[best])
      best = d;
  return best;
}

struct RngBitGeneratorLowering : OpConversionPattern<RngBitGeneratorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RngBitGeneratorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Scalar s{rewriter, loc};
    Value state = adaptor.getInitialState();
    int64_t stateSize = cast<RankedTensorType>(state.getType()).getDimSize(0);
    auto extract = [&](int64_t i) -> Value {
      return rewriter.create<tensor::ExtractOp>(
          loc, state, ValueRange{indexConstant(rewriter, loc, i)});
    };
    Value key = extract(0), counter = extract(1);
    bool philox = op.getRngAlgorithm() != RngAlgorithm::THREE_FRY;
    Value counterHigh = philox && stateSize >= 3 ? extract(2) : key;

    auto outType = cast<RankedTensorType>(op.getOutput().getType());
    ArrayRef<int64_t> shape = outType.getShape();
    unsigned width = outType.getElementType().getIntOrFloatBitWidth();
    bool wide = width == 64;
    Type elementType = rewriter.getIntegerType(width);
    int64_t rank = outType.getRank();
    int64_t count = outType.getNumElements();
    int64_t split = philox || wide ? -1 : threefrySplitDim(shape);

    auto generic = rewriter.create<linalg::GenericOp>(
        loc, outType, ValueRange{}, emptyLike(rewriter, loc, outType),
        SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange) {
          Scalar e{b, l};
          Value k0 = e.low(key), k1 = e.high(key);
          // The row-major position of this element, in the halved shape
          // along `split` (for Threefry's narrow elements); `word` is the
          // element's index along `split` modulo 2.
          Value position = e.c64(0), word;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = b.create<arith::IndexCastOp>(
                l, e.i64(), b.create<linalg::IndexOp>(l, d));
            int64_t size = shape[d];
            if (d == split) {
              word = e.and_(i, e.c64(1));
              i = e.shr(i, e.c64(1));
              size = (size + 1) / 2;
            }
            position = e.add(e.mul(position, e.c64(size)), i);
          }
          Value bits;
          if (!philox) {
            Value block = e.add(counter, position);
            auto [w0, w1] = e.threefry(k0, k1, e.low(block), e.high(block));
            if (wide)
              bits = e.join(w0, w1);
            else if (!word) // a scalar: word 0
              bits = w0;
            else
              bits = e.select(e.eq(word, e.c64(1)), w1, w0);
          } else {
            // 4 words per block: 4 narrow elements or 2 wide ones.
            int shift = wide ? 1 : 2;
            auto [lo, hi] = e.add128(counter, counterHigh,
                                     e.shr(position, e.c64(shift)));
            std::array<Value, 4> w = e.philox(
                k0, k1, {e.low(lo), e.high(lo), e.low(hi), e.high(hi)});
            Value which = e.and_(position, e.c64(wide ? 1 : 3));
            if (wide) {
              bits = e.select(e.eq(which, e.c64(1)), e.join(w[2], w[3]),
                              e.join(w[0], w[1]));
            } else {
              bits = w[3];
              for (int j = 2; j >= 0; --j)
                bits = e.select(e.eq(which, e.c64(j)), w[j], bits);
            }
          }
          if (width < 32)
            bits = b.create<arith::TruncIOp>(l, elementType, bits);
          b.create<linalg::YieldOp>(l, bits);
        });

    SmallVector<Value> next{key};
    if (!philox) {
      int64_t blocks = 1; // the halved shape's size (the shape's, if wide)
      for (int64_t d = 0; d < rank; ++d)
        blocks *= d == split ? (shape[d] + 1) / 2 : shape[d];
      next.push_back(s.add(counter, s.c64(blocks)));
    } else {
      int64_t words = wide ? 2 * count : count;
      auto [lo, hi] = s.add128(counter, counterHigh, s.c64((words + 3) / 4));
      next.push_back(lo);
      if (stateSize >= 3)
        next.push_back(hi);
    }
    Value newState = rewriter.create<tensor::FromElementsOp>(
        loc, op.getOutputState().getType(), next);
    rewriter.replaceOp(op, {newState, generic.getResult(0)});
    return success();
  }
};

} // namespace

void populateRandomLowering(RewritePatternSet &patterns) {
  patterns.add<RngBitGeneratorLowering>(patterns.getContext());
}

} // namespace mlir::torus
