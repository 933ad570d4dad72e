//===- PassThroughHandler.cpp - Ops that compute on tiles -----------------===//
//
// The default for every op with a sharding rule (ShardingRuleOpInterface):
// operands resharded into the result's tiling (minus the dimensions the op
// blocks), the op on tiles, attributes that spell whole sizes shrunk to the
// tile.
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

/// Ops whose operand dimensions line up with result dimensions
/// (elementwise, broadcast, transpose, slices, pads, concatenation,
/// windows that tiles hold whole, argmax): operands in the result's
/// tiling, the op on tiles.
void Partitioner::partitionPassThrough(ShardingRuleOpInterface rule) {
  Operation *op = rule.getOperation();
  auto outFull = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t outRank = outFull.getRank();
  ShardingAttr want = resultSharding(op, 0);
  ShardingAttr mid = untile(want, rule.getBlockedResultDims(want), outRank, P);
  SmallVector<Value> operands;
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    Value o = op->getOperand(i);
    auto map = rule.getOperandDimMap(i, 0);
    ShardingAttr req = replicated();
    if (map)
      req = mapDims(mid, outRank, invertDimMap(*map, outRank),
                    fullTypeOf(o).getRank(), P);
    operands.push_back(reshardOperand(op->getLoc(), o, req));
  }
  SmallVector<Type> types;
  for (Value r : op->getResults())
    types.push_back(localType(tensorTypeOf(r), mid));
  Operation *clone = cloneWith(op, operands, types);
  // Attributes that spell out whole sizes of the tiled dimensions.
  SmallVector<int64_t> local = mid.getLocalShape(outFull.getShape());
  if (auto slice = dyn_cast<SliceOp>(clone)) {
    SmallVector<int64_t> limit(slice.getLimitIndices());
    auto inFull = fullTypeOf(op->getOperand(0)).getShape();
    for (int64_t d = 0; d < outRank; ++d)
      if (local[d] != outFull.getDimSize(d) && limit[d] == inFull[d])
        limit[d] = local[d];
    slice.setLimitIndices(limit);
  } else if (auto ds = dyn_cast<DynamicSliceOp>(clone)) {
    SmallVector<int64_t> sizes(ds.getSliceSizes());
    for (int64_t d = 0; d < outRank; ++d)
      sizes[d] = std::min(sizes[d], local[d]);
    ds.setSliceSizes(sizes);
  }
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    setResult(op, r, clone->getResult(r), mid);
}

} // namespace mlir::torus::spmd
