//===- AllReduceCombiner.cpp - Bucket small all-reduces --------------------===//
//
// XLA's AllReduceCombiner. In each block, all-reduces are taken in order
// into a bucket while they share reduction, element type and groups, stay
// within the byte threshold, and no result of the bucket is used before the
// newest member (so the combined op, placed at the newest member, dominates
// every use, and no member depends on another). A bucket of two or more
// becomes: reshape each operand to 1-D, concatenate, one all_reduce, slice
// and reshape back.
//
//===----------------------------------------------------------------------===//

#include "ir/TorusOps.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSALLREDUCECOMBINER
#include "passes/Passes.h.inc"

namespace {

int64_t bytesOf(RankedTensorType type) {
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

struct AllReduceCombinerPass
    : impl::TorusAllReduceCombinerBase<AllReduceCombinerPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      combineIn(*block);
  }

  static bool sameKey(AllReduceOp a, AllReduceOp b) {
    return a.getKind() == b.getKind() &&
           a.getType().getElementType() == b.getType().getElementType() &&
           a.getReplicaGroupsAttr() == b.getReplicaGroupsAttr();
  }

  /// True when some result of `bucket` is used at or before `op`.
  static bool usedBefore(ArrayRef<AllReduceOp> bucket, Operation *op) {
    for (AllReduceOp member : bucket)
      for (Operation *user : member->getUsers()) {
        Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
        if (!inBlock || !op->isBeforeInBlock(inBlock))
          return true;
      }
    return false;
  }

  void combineIn(Block &block) {
    SmallVector<AllReduceOp> bucket;
    int64_t bytes = 0;
    SmallVector<AllReduceOp> ops(block.getOps<AllReduceOp>());
    for (AllReduceOp op : ops) {
      int64_t size = bytesOf(op.getType());
      if (!bucket.empty() &&
          (!sameKey(bucket.front(), op) || bytes + size > thresholdBytes ||
           usedBefore(bucket, op))) {
        flush(bucket);
        bucket.clear();
        bytes = 0;
      }
      if (size > thresholdBytes)
        continue;
      bucket.push_back(op);
      bytes += size;
    }
    flush(bucket);
  }

  void flush(ArrayRef<AllReduceOp> bucket) {
    if (bucket.size() < 2)
      return;
    AllReduceOp last = bucket.back();
    OpBuilder b(last);
    Location loc = b.getFusedLoc(llvm::to_vector(llvm::map_range(
        bucket, [](AllReduceOp op) { return op.getLoc(); })));
    Type element = last.getType().getElementType();
    SmallVector<Value> flat;
    int64_t total = 0;
    for (AllReduceOp op : bucket) {
      int64_t n = op.getType().getNumElements();
      auto type = RankedTensorType::get({n}, element);
      Value x = op.getOperand();
      if (op.getType() != type)
        x = b.create<ReshapeOp>(loc, type, x);
      flat.push_back(x);
      total += n;
    }
    Value joined = b.create<ConcatenateOp>(loc, flat, 0);
    Value reduced = b.create<AllReduceOp>(
        loc, joined.getType(), last.getKind(), joined,
        last.getReplicaGroupsAttr());
    int64_t offset = 0;
    for (AllReduceOp op : bucket) {
      int64_t n = op.getType().getNumElements();
      Value part = b.create<SliceOp>(op.getLoc(), reduced,
                                     ArrayRef<int64_t>{offset},
                                     ArrayRef<int64_t>{offset + n},
                                     ArrayRef<int64_t>{1});
      if (part.getType() != op.getType())
        part = b.create<ReshapeOp>(op.getLoc(), op.getType(), part);
      op.getResult().replaceAllUsesWith(part);
      offset += n;
    }
    (void)total;
    for (AllReduceOp op : bucket)
      op.erase();
  }
};

} // namespace
} // namespace mlir::torus
