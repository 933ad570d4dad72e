//===- ReduceScatterCreator.cpp - all_reduce + slice by id → reduce_scatter ===//
//
// An all_reduce whose only user slices, on the member at position k of each
// group, block k of one dimension is a reduce_scatter: every device then
// receives only its block. The slice's offsets are evaluated per device
// (DeviceIndexEval.h), so offsets from the partitioner's tables and
// offsets the user computed from replica_id are both recognised.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "passes/DeviceIndexEval.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSREDUCESCATTERCREATOR
#include "passes/Passes.h.inc"

namespace {


/// The dimension `slice` takes one block of on each member (block k on
/// the k-th), or -1.
int64_t scatteredDim(DynamicSliceOp slice, ArrayRef<SmallVector<int64_t>> groups,
                     const DeviceSpace &space) {
  auto in = cast<RankedTensorType>(slice.getOperand().getType());
  ArrayRef<int64_t> sizes = slice.getSliceSizes();
  int64_t dim = -1;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (sizes[d] == in.getDimSize(d))
      continue;
    if (dim >= 0)
      return -1;
    dim = d;
  }
  if (dim < 0)
    return -1;
  int64_t n = groups.front().size();
  if (sizes[dim] * n != in.getDimSize(dim))
    return -1;
  for (const auto &group : groups) {
    if (static_cast<int64_t>(group.size()) != n)
      return -1;
    for (int64_t k = 0; k < n; ++k)
      for (int64_t d = 0; d < in.getRank(); ++d) {
        auto offset =
            evaluateOnDevice(slice.getStartIndices()[d], group[k], space);
        int64_t expected = d == dim ? k * sizes[dim] : 0;
        if (!offset || *offset != expected)
          return -1;
      }
  }
  return dim;
}

struct ReduceScatterCreatorPass
    : impl::TorusReduceScatterCreatorBase<ReduceScatterCreatorPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DeviceSpace space = DeviceSpace::of(module);
    bool knowsDevices = module->hasAttr(kNumReplicasAttrName);
    SmallVector<AllReduceOp> candidates;
    module.walk([&](AllReduceOp op) { candidates.push_back(op); });
    for (AllReduceOp op : candidates) {
      if (!op->hasOneUse())
        continue;
      auto slice = dyn_cast<DynamicSliceOp>(*op->getUsers().begin());
      if (!slice || slice.getOperand() != op.getResult())
        continue;
      if (!op.getReplicaGroupsAttr() && !knowsDevices)
        continue;
      auto groups = collectiveGroups(op.getReplicaGroupsAttr(), space);
      int64_t dim = scatteredDim(slice, groups, space);
      if (dim < 0)
        continue;
      OpBuilder b(slice);
      Value scattered = b.create<ReduceScatterOp>(
          op.getLoc(), slice.getType(), op.getKind(), op.getOperand(), dim,
          op.getReplicaGroupsAttr());
      slice.getResult().replaceAllUsesWith(scattered);
      slice.erase();
      op.erase();
    }
    eraseDeadIndexCode(module);
  }
};

} // namespace
} // namespace mlir::torus
