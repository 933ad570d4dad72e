//===- CollectiveVJPs.cpp - VJPs of collectives ---------------------------===//
//
// Each collective's transpose is another collective over the same groups:
// all_gather ↔ reduce_scatter(sum), all_to_all with split and concat
// swapped, and collective_permute with its pairs reversed.
//
//===----------------------------------------------------------------------===//

#include "passes/VJPFamilies.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::torus {

LogicalResult collectiveVJP(GradBuilder &gb, Operation *op, Value ct,
                            SmallVectorImpl<Value> &cts) {
  OpBuilder &b = gb.builder();
  Location loc = gb.location();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllReduceOp a) -> LogicalResult {
        // y_r = sum over the group of x_q, so dL/dx_q = sum over r of ct_r.
        if (a.getKind() != ReduceKind::sum)
          return a.emitOpError("has no gradient for a ")
                 << stringifyReduceKind(a.getKind()) << " all-reduce";
        cts[0] = b.create<AllReduceOp>(loc, ct.getType(), ReduceKind::sum, ct,
                                       a.getReplicaGroupsAttr());
        return success();
      })
      .Case([&](AllGatherOp g) {
        cts[0] = b.create<ReduceScatterOp>(
            loc, g.getOperand().getType(), ReduceKind::sum, ct,
            g.getAllGatherDim(), g.getReplicaGroupsAttr());
        return success();
      })
      .Case([&](ReduceScatterOp r) -> LogicalResult {
        if (r.getKind() != ReduceKind::sum)
          return r.emitOpError("has no gradient for a ")
                 << stringifyReduceKind(r.getKind()) << " reduce-scatter";
        cts[0] = b.create<AllGatherOp>(loc, r.getOperand().getType(), ct,
                                       r.getScatterDimension(),
                                       r.getReplicaGroupsAttr());
        return success();
      })
      .Case([&](AllToAllOp a) {
        cts[0] = b.create<AllToAllOp>(
            loc, a.getOperand().getType(), ct, a.getConcatDimension(),
            a.getSplitDimension(), a.getSplitCount(), a.getReplicaGroupsAttr());
        return success();
      })
      .Case([&](CollectivePermuteOp p) {
        auto pairs = p.getSourceTargetPairs();
        SmallVector<int64_t> reversed;
        auto values = llvm::to_vector(pairs.getValues<int64_t>());
        for (size_t i = 0; i + 1 < values.size(); i += 2) {
          reversed.push_back(values[i + 1]);
          reversed.push_back(values[i]);
        }
        auto attr = DenseIntElementsAttr::get(pairs.getShapedType(), reversed);
        cts[0] = b.create<CollectivePermuteOp>(loc, ct.getType(), ct, attr);
        return success();
      })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be differentiated: no gradient "
                                  "rule for this op");
      });
}

} // namespace mlir::torus
