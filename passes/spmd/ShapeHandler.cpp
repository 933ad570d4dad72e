//===- ShapeHandler.cpp - Partitioning reshape ----------------------------===//
//
// A reshape keeps a tiling that passes through its dimension groups evenly
// (reshapeSharding); otherwise it runs on whole tensors. The other shape
// ops (broadcast, transpose, slices, pads, concatenation, reverse) have a
// sharding rule and run on tiles (PassThroughHandler.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

void Partitioner::partitionReshape(ReshapeOp op) {
  auto inFull = fullTypeOf(op.getOperand());
  auto outFull = op.getType();
  ShardingAttr want = resultSharding(op, 0);
  ShardingAttr req =
      reshapeSharding(want, outFull.getShape(), inFull.getShape(), P);
  ShardingAttr mid =
      reshapeSharding(req, inFull.getShape(), outFull.getShape(), P);
  if ((req && req.isUneven(inFull.getShape())) ||
      (mid && mid.isUneven(outFull.getShape()))) {
    req = replicated();
    mid = replicated();
  }
  Value in = reshardOperand(op.getLoc(), op.getOperand(), req);
  Operation *clone = cloneWith(op, {in}, {localType(outFull, mid)});
  setResult(op, 0, clone->getResult(0), mid);
}

void registerShapeHandlers(HandlerTable &table) {
  table.add<ReshapeOp>(&Partitioner::partitionReshape);
}

} // namespace mlir::torus::spmd
