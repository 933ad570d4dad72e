//===- CollectiveVJPs.cpp - VJPs of collectives ---------------------------===//
//
// Each collective's transpose is another collective over the same groups:
// all_gather ↔ reduce_scatter(sum), all_to_all with split and concat
// swapped, and collective_permute with its pairs reversed.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

namespace mlir::torus {

LogicalResult AllReduceOp::buildVJP(GradBuilder &gb,
                                    ArrayRef<Value> resultCotangents,
                                    SmallVectorImpl<Value> &cts) {
  // y_r = sum over the group of x_q, so dL/dx_q = sum over r of ct_r.
  if (getKind() != ReduceKind::sum)
    return emitOpError("has no gradient for a ")
           << stringifyReduceKind(getKind()) << " all-reduce";
  Value ct = resultCotangents.front();
  cts[0] = gb.builder().create<AllReduceOp>(
      gb.location(), ct.getType(), ReduceKind::sum, ct, getReplicaGroupsAttr());
  return success();
}

LogicalResult AllGatherOp::buildVJP(GradBuilder &gb,
                                    ArrayRef<Value> resultCotangents,
                                    SmallVectorImpl<Value> &cts) {
  cts[0] = gb.builder().create<ReduceScatterOp>(
      gb.location(), getOperand().getType(), ReduceKind::sum,
      resultCotangents.front(), getAllGatherDim(), getReplicaGroupsAttr());
  return success();
}

LogicalResult ReduceScatterOp::buildVJP(GradBuilder &gb,
                                        ArrayRef<Value> resultCotangents,
                                        SmallVectorImpl<Value> &cts) {
  if (getKind() != ReduceKind::sum)
    return emitOpError("has no gradient for a ")
           << stringifyReduceKind(getKind()) << " reduce-scatter";
  cts[0] = gb.builder().create<AllGatherOp>(
      gb.location(), getOperand().getType(), resultCotangents.front(),
      getScatterDimension(), getReplicaGroupsAttr());
  return success();
}

LogicalResult AllToAllOp::buildVJP(GradBuilder &gb,
                                   ArrayRef<Value> resultCotangents,
                                   SmallVectorImpl<Value> &cts) {
  cts[0] = gb.builder().create<AllToAllOp>(
      gb.location(), getOperand().getType(), resultCotangents.front(),
      getConcatDimension(), getSplitDimension(), getSplitCount(),
      getReplicaGroupsAttr());
  return success();
}

LogicalResult CollectivePermuteOp::buildVJP(GradBuilder &gb,
                                            ArrayRef<Value> resultCotangents,
                                            SmallVectorImpl<Value> &cts) {
  Value ct = resultCotangents.front();
  auto pairs = getSourceTargetPairs();
  SmallVector<int64_t> reversed;
  auto values = llvm::to_vector(pairs.getValues<int64_t>());
  for (size_t i = 0; i + 1 < values.size(); i += 2) {
    reversed.push_back(values[i + 1]);
    reversed.push_back(values[i]);
  }
  auto attr = DenseIntElementsAttr::get(pairs.getShapedType(), reversed);
  cts[0] = gb.builder().create<CollectivePermuteOp>(gb.location(),
                                                    ct.getType(), ct, attr);
  return success();
}

} // namespace mlir::torus
