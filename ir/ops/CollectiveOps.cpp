//===- CollectiveOps.cpp - collectives and the random bit generator -------===//

#include "ir/TorusOps.h"
#include "ir/ops/OpUtils.h"

using namespace mlir;
using namespace mlir::torus;

namespace {
/// all_reduce and reduce_scatter share the runtime's four reductions.
LogicalResult checkCollectiveKind(Operation *op, ReduceKind kind,
                                  Type elementType) {
  if (elementType.isInteger(1))
    return op->emitOpError("cannot reduce an i1 tensor across replicas");
  if (kind == ReduceKind::And || kind == ReduceKind::Or)
    return op->emitOpError("reduces with sum, product, max or min, not '")
           << stringifyReduceKind(kind) << "'";
  if (isa<ComplexType>(elementType) && kind != ReduceKind::sum &&
      kind != ReduceKind::product)
    return op->emitOpError("cannot ")
           << stringifyReduceKind(kind) << "-reduce complex numbers ("
           << elementType << ") across replicas: only sum and product";
  return success();
}

/// The group size fixed by the result when there are no replica groups:
/// result[dim] = operand[dim] * size (or / size when `divides`).
FailureOr<int64_t> groupSizeFromResult(Operation *op, int64_t dim,
                                       bool divides) {
  auto in = tensorType(op->getOperand(0)), out = tensorType(op->getResult(0));
  if (dim < 0 || dim >= in.getRank() || in.getRank() != out.getRank())
    return 1; // The shape rule reports it.
  int64_t a = in.getDimSize(dim), b = out.getDimSize(dim);
  if (divides)
    std::swap(a, b);
  if (a <= 0 || b % a != 0)
    return op->emitOpError("result dimension ")
           << dim << " must be a multiple of the operand's (operand "
           << formatShape(in.getShape()) << ", result "
           << formatShape(out.getShape()) << ")";
  return b / a;
}
} // namespace

LogicalResult AllReduceOp::verify() {
  if (failed(checkCollectiveKind(*this, getKind(),
                                 getType().getElementType())) ||
      failed(verifyReplicaGroups(*this, getReplicaGroupsAttr())))
    return failure();
  return success();
}

LogicalResult AllGatherOp::verify() {
  auto groupSize = verifyReplicaGroups(*this, getReplicaGroupsAttr());
  if (failed(groupSize))
    return failure();
  int64_t size = *groupSize;
  if (size == 0) {
    auto fromResult = groupSizeFromResult(*this, getAllGatherDim(), false);
    if (failed(fromResult))
      return failure();
    size = *fromResult;
  }
  std::string error;
  auto in = tensorType(getOperand());
  auto shape = inferAllGatherShape(in.getShape(), getAllGatherDim(), size,
                                   error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, in.getElementType());
}

LogicalResult ReduceScatterOp::verify() {
  auto in = tensorType(getOperand());
  if (failed(checkCollectiveKind(*this, getKind(), in.getElementType())))
    return failure();
  auto groupSize = verifyReplicaGroups(*this, getReplicaGroupsAttr());
  if (failed(groupSize))
    return failure();
  int64_t size = *groupSize;
  if (size == 0) {
    auto fromResult = groupSizeFromResult(*this, getScatterDimension(), true);
    if (failed(fromResult))
      return failure();
    size = *fromResult;
  }
  std::string error;
  auto shape = inferReduceScatterShape(in.getShape(), getScatterDimension(),
                                       size, error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, in.getElementType());
}

LogicalResult AllToAllOp::verify() {
  auto groupSize = verifyReplicaGroups(*this, getReplicaGroupsAttr());
  if (failed(groupSize))
    return failure();
  if (*groupSize != 0 && *groupSize != getSplitCount())
    return emitOpError("split_count ")
           << getSplitCount() << " differs from the replica group size "
           << *groupSize;
  auto in = tensorType(getOperand());
  std::string error;
  auto shape = inferAllToAllShape(in.getShape(), getSplitDimension(),
                                  getConcatDimension(), getSplitCount(), error);
  if (failed(shape))
    return emitOpError(error);
  return checkResult(*this, getType(), *shape, in.getElementType());
}

LogicalResult CollectivePermuteOp::verify() {
  auto pairs = getSourceTargetPairs();
  auto type = pairs.getShapedType();
  if (type.getRank() != 2 || type.getDimSize(1) != 2)
    return emitOpError("source_target_pairs must be an [n, 2] tensor of "
                       "(source, target) rows, got shape ")
           << formatShape(type.getShape());
  SmallVector<int64_t> flat(pairs.getValues<int64_t>());
  std::string error;
  if (failed(checkSourceTargetPairs(flat, error)))
    return emitOpError(error);
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  auto state = tensorType(getInitialState());
  if (state != tensorType(getOutputState()))
    return emitOpError("output_state type ")
           << getOutputState().getType() << " differs from initial_state type "
           << state;
  // DEFAULT is PHILOX (as in XLA), which also takes a 3-element state.
  bool philox = getRngAlgorithm() != RngAlgorithm::THREE_FRY;
  if (state.getRank() != 1 ||
      !(state.getDimSize(0) == 2 || (philox && state.getDimSize(0) == 3)))
    return emitOpError("initial_state must be tensor<2xi64>")
           << (philox ? " or tensor<3xi64>" : "") << ", got " << state;
  return success();
}
