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

  /// The op in `block` after which `v` is available (null: the block's
  /// start).
  static Operation *availableAfter(Value v, Block &block) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return nullptr;
    return block.findAncestorOpInBlock(*def);
  }

  /// True when every use of `ops`' results comes after `point` (null: the
  /// block's start).
  static bool usesAfter(ArrayRef<AllReduceOp> ops, Operation *point) {
    if (!point)
      return true;
    for (AllReduceOp op : ops)
      for (Operation *user : op->getUsers()) {
        Operation *inBlock = point->getBlock()->findAncestorOpInBlock(*user);
        if (!inBlock || !point->isBeforeInBlock(inBlock))
          return false;
      }
    return true;
  }

  /// The later of two points (null is the block's start).
  static Operation *later(Operation *a, Operation *b) {
    if (!a)
      return b;
    if (!b)
      return a;
    return a->isBeforeInBlock(b) ? b : a;
  }

  void combineIn(Block &block) {
    // A bucket is combined right after the last definition of its
    // operands, which needs every use of its results to come after that.
    SmallVector<AllReduceOp> bucket;
    Operation *point = nullptr;
    int64_t bytes = 0;
    SmallVector<AllReduceOp> ops(block.getOps<AllReduceOp>());
    for (AllReduceOp op : ops) {
      int64_t size = bytesOf(op.getType());
      if (size > thresholdBytes)
        continue;
      Operation *newPoint =
          later(point, availableAfter(op.getOperand(), block));
      SmallVector<AllReduceOp> candidate(bucket);
      candidate.push_back(op);
      if (!bucket.empty() &&
          (!sameKey(bucket.front(), op) || bytes + size > thresholdBytes ||
           !usesAfter(candidate, newPoint))) {
        flush(bucket, block, point);
        bucket.clear();
        bytes = 0;
        newPoint = availableAfter(op.getOperand(), block);
      }
      bucket.push_back(op);
      point = newPoint;
      bytes += size;
    }
    flush(bucket, block, point);
  }

  void flush(ArrayRef<AllReduceOp> bucket, Block &block, Operation *point) {
    if (bucket.size() < 2)
      return;
    AllReduceOp last = bucket.back();
    OpBuilder b(&getContext());
    if (point)
      b.setInsertionPointAfter(point);
    else
      b.setInsertionPointToStart(&block);
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
