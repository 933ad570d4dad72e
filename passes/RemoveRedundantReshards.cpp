//===- RemoveRedundantReshards.cpp - Resharding that undoes itself --------===//
//
// Partitioning op by op can move data and move it straight back. This pass
// removes the round trips:
//
//   - dynamic_slice(all_gather(x)) taking, on every device, the block that
//     device contributed: x;
//   - all_to_all(all_to_all(x)) with split and concat dimensions swapped
//     over the same groups: x;
//   - collective_permute sending every device its own data: its operand;
//   - (before partitioning) sharding_constraint of a value that already has
//     that sharding: its operand.
//
// Device-dependent offsets are evaluated for every device.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "passes/DeviceIndexEval.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSREMOVEREDUNDANTRESHARDS
#include "passes/Passes.h.inc"

namespace {


/// True when `slice` takes, on each device of `gather`'s groups, the block
/// that device contributed to `gather`.
bool slicesOwnBlock(DynamicSliceOp slice, AllGatherOp gather,
                    const DeviceSpace &space) {
  auto in = cast<RankedTensorType>(gather.getOperand().getType());
  if (slice.getType() != in)
    return false;
  int64_t dim = gather.getAllGatherDim();
  auto groups = collectiveGroups(gather.getReplicaGroupsAttr(), space);
  for (const auto &group : groups)
    for (size_t k = 0; k < group.size(); ++k)
      for (int64_t d = 0; d < in.getRank(); ++d) {
        auto offset =
            evaluateOnDevice(slice.getStartIndices()[d], group[k], space);
        int64_t expected = d == dim ? k * in.getDimSize(dim) : 0;
        if (!offset || *offset != expected)
          return false;
      }
  return true;
}

struct RemoveRedundantReshardsPass
    : impl::TorusRemoveRedundantReshardsBase<RemoveRedundantReshardsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DeviceSpace space = DeviceSpace::of(module);
    bool knowsDevices = module->hasAttr(kNumReplicasAttrName);

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) { ops.push_back(op); });
    SmallVector<Operation *> dead;
    for (Operation *op : ops) {
      if (auto slice = dyn_cast<DynamicSliceOp>(op)) {
        auto gather = slice.getOperand().getDefiningOp<AllGatherOp>();
        if (gather && (gather.getReplicaGroupsAttr() || knowsDevices) &&
            slicesOwnBlock(slice, gather, space)) {
          slice.getResult().replaceAllUsesWith(gather.getOperand());
          dead.push_back(slice);
          dead.push_back(gather);
        }
      } else if (auto a2a = dyn_cast<AllToAllOp>(op)) {
        auto first = a2a.getOperand().getDefiningOp<AllToAllOp>();
        if (first && first.getSplitDimension() == a2a.getConcatDimension() &&
            first.getConcatDimension() == a2a.getSplitDimension() &&
            first.getSplitCount() == a2a.getSplitCount() &&
            first.getReplicaGroupsAttr() == a2a.getReplicaGroupsAttr() &&
            first.getOperand().getType() == a2a.getType()) {
          a2a.getResult().replaceAllUsesWith(first.getOperand());
          dead.push_back(a2a);
          dead.push_back(first);
        }
      } else if (auto cp = dyn_cast<CollectivePermuteOp>(op)) {
        SmallVector<int64_t> pairs(
            cp.getSourceTargetPairs().getValues<int64_t>());
        bool identity = knowsDevices &&
                        static_cast<int64_t>(pairs.size()) ==
                            2 * space.numDevices();
        for (size_t i = 0; identity && i + 1 < pairs.size(); i += 2)
          identity = pairs[i] == pairs[i + 1];
        if (identity) {
          cp.getResult().replaceAllUsesWith(cp.getOperand());
          dead.push_back(cp);
        }
      } else if (auto c = dyn_cast<ShardingConstraintOp>(op)) {
        Value in = c.getOperand();
        ShardingAttr has;
        if (auto inner = in.getDefiningOp<ShardingConstraintOp>())
          has = inner.getSharding();
        else if (Operation *def = in.getDefiningOp())
          has = getResultSharding(def, cast<OpResult>(in).getResultNumber());
        if (has && has == c.getSharding()) {
          c.getResult().replaceAllUsesWith(in);
          dead.push_back(c);
        }
      }
    }
    // Erase what became unused, users first.
    for (Operation *op : dead) // Users come before what they use.
      if (op->use_empty())
        op->erase();
    eraseDeadIndexCode(module);
  }
};

} // namespace
} // namespace mlir::torus
