//===- DeviceIndexEval.cpp - Device-dependent integers, per device --------===//

#include "passes/DeviceIndexEval.h"
#include "ir/Sharding.h"

#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::torus {

DeviceSpace DeviceSpace::of(ModuleOp module) {
  DeviceSpace s;
  if (auto r = module->getAttrOfType<IntegerAttr>(kNumReplicasAttrName))
    s.numReplicas = r.getInt();
  if (auto p = module->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName))
    s.numPartitions = p.getInt();
  return s;
}

namespace {
std::optional<int64_t> evaluate(Value v, int64_t device,
                                const DeviceSpace &space, int depth) {
  if (depth > 32)
    return std::nullopt;
  Operation *op = v.getDefiningOp();
  if (!op)
    return std::nullopt;
  auto recurse = [&](Value operand) {
    return evaluate(operand, device, space, depth + 1);
  };
  if (isa<PartitionIdOp>(op))
    return device % space.numPartitions;
  if (isa<ReplicaIdOp>(op))
    return device / space.numPartitions;
  if (auto c = dyn_cast<ConstantOp>(op)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue());
    if (!dense || !dense.isSplat())
      return std::nullopt;
    return dense.getSplatValue<APInt>().getSExtValue();
  }
  if (isa<ReshapeOp, ConvertOp, BroadcastInDimOp>(op)) {
    auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!in || in.getNumElements() != 1 ||
        !isa<IntegerType>(in.getElementType()))
      return std::nullopt;
    if (auto ds = op->getOperand(0).getDefiningOp<DynamicSliceOp>()) {
      // table[index], the partitioner's offset lookup.
      auto table = ds.getOperand().getDefiningOp<ConstantOp>();
      auto dense =
          table ? dyn_cast<DenseIntElementsAttr>(table.getValue()) : nullptr;
      if (!dense || dense.getType().getRank() != 1 ||
          ds.getStartIndices().size() != 1)
        return std::nullopt;
      auto index = recurse(ds.getStartIndices()[0]);
      if (!index)
        return std::nullopt;
      int64_t n = dense.getNumElements();
      int64_t i = std::clamp<int64_t>(*index, 0, n - 1);
      return (*(dense.getValues<APInt>().begin() + i)).getSExtValue();
    }
    return recurse(op->getOperand(0));
  }
  if (isa<AddOp, SubtractOp, MultiplyOp, DivideOp, RemainderOp, MaximumOp,
          MinimumOp>(op)) {
    auto a = recurse(op->getOperand(0)), b = recurse(op->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    if (isa<AddOp>(op))
      return *a + *b;
    if (isa<SubtractOp>(op))
      return *a - *b;
    if (isa<MultiplyOp>(op))
      return *a * *b;
    if (isa<MaximumOp>(op))
      return std::max(*a, *b);
    if (isa<MinimumOp>(op))
      return std::min(*a, *b);
    if (*b == 0)
      return std::nullopt;
    return isa<DivideOp>(op) ? *a / *b : *a % *b;
  }
  return std::nullopt;
}
} // namespace

std::optional<int64_t> evaluateOnDevice(Value v, int64_t device,
                                        const DeviceSpace &space) {
  return evaluate(v, device, space, 0);
}

SmallVector<SmallVector<int64_t>> collectiveGroups(Attribute groups,
                                                   const DeviceSpace &space) {
  SmallVector<SmallVector<int64_t>> rows;
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(groups);
  if (!dense || dense.getNumElements() == 0) {
    rows.emplace_back();
    for (int64_t d = 0; d < space.numDevices(); ++d)
      rows.back().push_back(d);
    return rows;
  }
  int64_t width = dense.getType().getDimSize(1);
  SmallVector<int64_t> flat(dense.getValues<int64_t>());
  for (size_t i = 0; i < flat.size(); i += width)
    rows.emplace_back(flat.begin() + i, flat.begin() + i + width);
  return rows;
}

void eraseDeadIndexCode(ModuleOp module) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    module.walk([&](Operation *op) {
      if (op->getNumResults() == 0 || !op->use_empty())
        return;
      if (isOpTriviallyDead(op) || isa<PartitionIdOp, ReplicaIdOp>(op))
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    changed = !dead.empty();
  }
}

} // namespace mlir::torus
