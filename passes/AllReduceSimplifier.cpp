//===- AllReduceSimplifier.cpp - all-reduces of agreed values -------------===//
//
// XLA's AllReduceSimplifier with a small replication analysis: a value is
// the same on every member of a group when it comes from constants and
// iotas, from partition_id or replica_id if every member has the same one,
// or from collectives whose groups hold the whole group, through pure ops.
// Its sum across n members is n times it; its max and min are itself; its
// product is its n-th power. Groups of one reduce nothing.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "passes/DeviceIndexEval.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSALLREDUCESIMPLIFIER
#include "passes/Passes.h.inc"

namespace {

using Groups = SmallVector<SmallVector<int64_t>>;

/// Every group of `inner` lies inside one group of `outer`.
bool covered(const Groups &inner, const Groups &outer) {
  llvm::DenseMap<int64_t, int64_t> groupOf;
  for (size_t g = 0; g < outer.size(); ++g)
    for (int64_t d : outer[g])
      groupOf[d] = g;
  for (const auto &group : inner) {
    auto first = groupOf.find(group.front());
    if (first == groupOf.end())
      return false;
    for (int64_t d : group) {
      auto it = groupOf.find(d);
      if (it == groupOf.end() || it->second != first->second)
        return false;
    }
  }
  return true;
}

class Replication {
public:
  Replication(const Groups &groups, const DeviceSpace &space)
      : groups_(groups), space_(space) {}

  /// True when `v` is the same on every member of each group.
  bool uniform(Value v, int depth = 0) {
    if (auto it = memo_.find(v); it != memo_.end())
      return it->second;
    bool result = compute(v, depth);
    memo_[v] = result;
    return result;
  }

private:
  bool compute(Value v, int depth) {
    if (depth > 256)
      return false;
    Operation *op = v.getDefiningOp();
    if (!op)
      return false; // Arguments differ between devices.
    if (isa<ConstantOp, IotaOp>(op))
      return true;
    if (isa<PartitionIdOp, ReplicaIdOp>(op)) {
      bool partition = isa<PartitionIdOp>(op);
      for (const auto &g : groups_)
        for (int64_t d : g) {
          int64_t mine = partition ? d % space_.numPartitions
                                   : d / space_.numPartitions;
          int64_t first = partition ? g[0] % space_.numPartitions
                                    : g[0] / space_.numPartitions;
          if (mine != first)
            return false;
        }
      return true;
    }
    if (isa<AllReduceOp, AllGatherOp>(op))
      return covered(groups_, collectiveGroups(
                                  op->getAttr("replica_groups"), space_));
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        isa<ReduceScatterOp, AllToAllOp, CollectivePermuteOp>(op))
      return false;
    return llvm::all_of(op->getOperands(),
                        [&](Value o) { return uniform(o, depth + 1); });
  }

  const Groups &groups_;
  const DeviceSpace &space_;
  llvm::DenseMap<Value, bool> memo_;
};

struct AllReduceSimplifierPass
    : impl::TorusAllReduceSimplifierBase<AllReduceSimplifierPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DeviceSpace space = DeviceSpace::of(module);
    bool knowsDevices = module->hasAttr(kNumReplicasAttrName);
    SmallVector<AllReduceOp> ops;
    module.walk([&](AllReduceOp op) { ops.push_back(op); });
    for (AllReduceOp op : ops) {
      if (!op.getReplicaGroupsAttr() && !knowsDevices)
        continue;
      Groups groups = collectiveGroups(op.getReplicaGroupsAttr(), space);
      int64_t n = groups.front().size();
      Value x = op.getOperand();
      Value replacement;
      if (n == 1) {
        replacement = x;
      } else {
        Replication replication(groups, space);
        if (!replication.uniform(x))
          continue;
        OpBuilder b(op);
        auto type = op.getType();
        Type e = type.getElementType();
        auto count = [&]() -> Value {
          Attribute c = isa<FloatType>(e)
                            ? Attribute(b.getFloatAttr(e, double(n)))
                            : Attribute(b.getIntegerAttr(e, n));
          return b.create<ConstantOp>(op.getLoc(), type,
                                      DenseElementsAttr::get(type, c));
        };
        switch (op.getKind()) {
        case ReduceKind::sum:
          replacement = b.create<MultiplyOp>(op.getLoc(), x, count());
          break;
        case ReduceKind::product:
          replacement = b.create<PowerOp>(op.getLoc(), x, count());
          break;
        case ReduceKind::max:
        case ReduceKind::min:
          replacement = x;
          break;
        default:
          continue;
        }
      }
      op.getResult().replaceAllUsesWith(replacement);
      op.erase();
    }
  }
};

} // namespace
} // namespace mlir::torus
