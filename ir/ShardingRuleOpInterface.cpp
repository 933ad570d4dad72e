//===- ShardingRuleOpInterface.cpp - An op's sharding rule ----------------===//

#include "ir/ShardingRuleOpInterface.h"

#include "mlir/IR/BuiltinTypes.h"

#include <numeric>

namespace mlir::torus {

#include "ir/ShardingRuleOpInterface.cpp.inc"

std::optional<SmallVector<int64_t>>
elementwiseDimMap(Operation *op, unsigned operand, unsigned result) {
  auto in = dyn_cast<RankedTensorType>(op->getOperand(operand).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(result).getType());
  if (!in || !out || in.getShape() != out.getShape())
    return std::nullopt; // A scalar predicate or bound.
  return identityDimMapKeeping(in.getRank(), [](int64_t) { return true; });
}

SmallVector<int64_t> identityDimMapKeeping(int64_t rank,
                                           function_ref<bool(int64_t)> keep) {
  SmallVector<int64_t> map(rank);
  std::iota(map.begin(), map.end(), 0);
  for (int64_t d = 0; d < rank; ++d)
    if (!keep(d))
      map[d] = -1;
  return map;
}

SmallVector<int64_t> unmappedDims(ArrayRef<int64_t> map) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0, e = map.size(); d < e; ++d)
    if (map[d] < 0)
      dims.push_back(d);
  return dims;
}

} // namespace mlir::torus
