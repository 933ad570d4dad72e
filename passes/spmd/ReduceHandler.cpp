//===- ReduceHandler.cpp - Partitioning reduce ----------------------------===//
//
// Kept dimensions keep the result's tiling; tiles of reduced dimensions are
// reduced locally (their padding masked with the identity), then combined
// across devices (Contraction.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

void Partitioner::partitionReduce(ReduceOp op) {
  Location loc = op.getLoc();
  auto outFull = op.getType();
  auto inFull = fullTypeOf(op.getOperand());
  ArrayRef<int64_t> dims = op.getDimensions();
  PValue in = lookup(op.getOperand());
  SmallVector<int64_t> contracting = tilesOn(in.sharding, dims);
  ReduceKind kind = op.getKind();
  if (kind == ReduceKind::And || kind == ReduceKind::Or ||
      inFull.getElementType().isInteger(1))
    contracting.assign(contracting.size(), 1);
  ContractionLayout plan =
      planContraction(resultSharding(op, 0), outFull, contracting);
  int64_t outRank = outFull.getRank();
  SmallVector<int64_t> axisOfDim;
  int64_t next = 0;
  for (int64_t d = 0; d < inFull.getRank(); ++d) {
    if (const int64_t *it = llvm::find(dims, d); it != dims.end())
      axisOfDim.push_back(outRank + (it - dims.begin()));
    else
      axisOfDim.push_back(next++);
  }
  ShardingAttr req = shardingFromMesh(ctx, plan.mesh, axisOfDim);
  Value x = reshard(loc, in, req, inFull);
  Attribute identity = reduceIdentity(kind, inFull.getElementType());
  for (int64_t d : dims)
    x = maskPadding(loc, x, req, inFull, d, identity);
  Operation *reduce = cloneWith(op, {x}, {localType(outFull, plan.mid)});
  finishContraction(op, plan, reduce->getResult(0), kind);
}

void registerReduceHandlers(HandlerTable &table) {
  table.add<ReduceOp>(&Partitioner::partitionReduce);
}

} // namespace mlir::torus::spmd
