//===- DotHandler.cpp - Partitioning dot_general --------------------------===//
//
// Operands laid out so that batch and free dimensions keep the result's
// tiling and contracting dimensions share one; the partial products are
// then summed (Contraction.cpp). XLA: dot_handler.cc.
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

namespace mlir::torus::spmd {

void Partitioner::partitionDot(DotGeneralOp op) {
  Location loc = op.getLoc();
  auto outFull = op.getType();
  auto lhsFull = fullTypeOf(op.getLhs()), rhsFull = fullTypeOf(op.getRhs());
  ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(),
                    rb = op.getRhsBatchingDimensions(),
                    lc = op.getLhsContractingDimensions(),
                    rc = op.getRhsContractingDimensions();
  PValue lhs = lookup(op.getLhs()), rhs = lookup(op.getRhs());
  SmallVector<int64_t> contracting = tilesOn(lhs.sharding, lc);
  if (computeProduct(contracting) == 1)
    contracting = tilesOn(rhs.sharding, rc);
  ContractionLayout plan =
      planContraction(resultSharding(op, 0), outFull, contracting);
  int64_t outRank = outFull.getRank(), nb = lb.size();
  int64_t lhsFree = lhsFull.getRank() - nb - lc.size();
  auto axesFor = [&](int64_t rank, ArrayRef<int64_t> batch,
                     ArrayRef<int64_t> contract, int64_t freeStart) {
    SmallVector<int64_t> axisOfDim(rank, -1);
    int64_t next = freeStart;
    for (int64_t d = 0; d < rank; ++d) {
      if (const int64_t *it = llvm::find(batch, d); it != batch.end())
        axisOfDim[d] = it - batch.begin();
      else if (const int64_t *jt = llvm::find(contract, d);
               jt != contract.end())
        axisOfDim[d] = outRank + (jt - contract.begin());
      else
        axisOfDim[d] = next++;
    }
    return axisOfDim;
  };
  ShardingAttr lhsReq =
      shardingFromMesh(ctx, plan.mesh, axesFor(lhsFull.getRank(), lb, lc, nb));
  ShardingAttr rhsReq = shardingFromMesh(
      ctx, plan.mesh, axesFor(rhsFull.getRank(), rb, rc, nb + lhsFree));
  Value l = reshard(loc, lhs, lhsReq, lhsFull);
  Value r = reshard(loc, rhs, rhsReq, rhsFull);
  Attribute zero = b.getZeroAttr(outFull.getElementType());
  for (size_t k = 0; k < lc.size(); ++k) {
    l = maskPadding(loc, l, lhsReq, lhsFull, lc[k], zero);
    r = maskPadding(loc, r, rhsReq, rhsFull, rc[k], zero);
  }
  Operation *dot = cloneWith(op, {l, r}, {localType(outFull, plan.mid)});
  finishContraction(op, plan, dot->getResult(0), ReduceKind::sum);
}

void registerDotHandlers(HandlerTable &table) {
  table.add<DotGeneralOp>(&Partitioner::partitionDot);
}

} // namespace mlir::torus::spmd
