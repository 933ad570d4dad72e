//===- CollectiveHandler.cpp - The user's collectives ---------------------===//
//
// Collectives the program itself contains run among replicas: each
// partition takes part with the same partition of the other replicas, so
// their groups are rewritten to device ids.
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

/// The user's collectives among replicas: each partition takes part with
/// the same partition of the other replicas.
void Partitioner::partitionUserCollective(Operation *op) {
  if (ShardingAttr first = resultSharding(op, 0); first.isManual())
    return partitionManual(op, first);
  Location loc = op->getLoc();
  auto rewriteGroups = [&](Operation *clone) {
    if (P == 1)
      return;
    if (auto cp = dyn_cast<CollectivePermuteOp>(clone)) {
      SmallVector<int64_t> flat;
      SmallVector<int64_t> pairs(
          cp.getSourceTargetPairs().getValues<int64_t>());
      for (int64_t p = 0; p < P; ++p)
        for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
          flat.push_back(pairs[i] * P + p);
          flat.push_back(pairs[i + 1] * P + p);
        }
      auto type = RankedTensorType::get(
          {static_cast<int64_t>(flat.size() / 2), 2}, b.getI64Type());
      cp.setSourceTargetPairsAttr(
          DenseIntElementsAttr::get(type, ArrayRef(flat)));
      return;
    }
    auto groups = clone->getAttrOfType<DenseIntElementsAttr>("replica_groups");
    clone->setAttr("replica_groups", replicaGroupsToDevices(ctx, groups, P, R));
  };
  if (isa<AllReduceOp, CollectivePermuteOp>(op)) {
    ShardingAttr want = resultSharding(op, 0);
    if (want.isMaximal())
      want = replicated();
    Value in = reshardOperand(loc, op->getOperand(0), want);
    Operation *clone =
        cloneWith(op, {in}, {localType(tensorTypeOf(op->getResult(0)), want)});
    rewriteGroups(clone);
    setResult(op, 0, clone->getResult(0), want);
    return;
  }
  Value in = reshardOperand(loc, op->getOperand(0), replicated());
  Operation *clone = cloneWith(op, {in}, {op->getResult(0).getType()});
  rewriteGroups(clone);
  setResult(op, 0, clone->getResult(0), replicated());
}

void registerCollectiveHandlers(HandlerTable &table) {
  table.add<AllReduceOp, CollectivePermuteOp, AllGatherOp, ReduceScatterOp,
            AllToAllOp>(&Partitioner::partitionUserCollective,
                        /*anySharding=*/true);
}

} // namespace mlir::torus::spmd
