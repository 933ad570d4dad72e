//===- CreationHandler.cpp - Values made from nothing ---------------------===//
//
// iota and splat constants are built directly in their tiles; other
// constants are sliced; partition_id and replica_id are the same on every
// device's program.
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

void Partitioner::partitionDeviceId(Operation *op) {
  SmallVector<Type> types(op->getResultTypes());
  Operation *clone = cloneWith(op, {}, types);
  values[op->getResult(0)] = {clone->getResult(0), replicated()};
}

void Partitioner::partitionIota(IotaOp op) {
  ShardingAttr want = resultSharding(op, 0);
  auto full = op.getType();
  auto local = localType(full, want);
  Value x = b.create<IotaOp>(op.getLoc(), local, op.getIotaDimension());
  int64_t dim = op.getIotaDimension();
  if (tilesOf(want, dim) > 1) {
    Value offset = tileOffset(want, dim, local.getDimSize(dim));
    auto scalar = RankedTensorType::get({}, local.getElementType());
    if (scalar.getElementType() != b.getI32Type())
      offset = b.create<ConvertOp>(op.getLoc(), scalar, offset);
    offset = b.create<BroadcastInDimOp>(op.getLoc(), local, offset,
                                        ArrayRef<int64_t>{});
    x = b.create<AddOp>(op.getLoc(), x, offset);
  }
  values[op.getResult()] = {x, want};
}

void Partitioner::partitionConstant(ConstantOp op) {
  ShardingAttr want = resultSharding(op, 0);
  auto elements = dyn_cast<DenseElementsAttr>(op.getValue());
  if (elements && elements.isSplat() && want.isTiled()) {
    auto local = localType(op.getType(), want);
    values[op.getResult()] = {
        b.create<ConstantOp>(op.getLoc(), local, elements.resizeSplat(local)),
        want};
    return;
  }
  Operation *clone = cloneWith(op, {}, {op.getType()});
  setResult(op, 0, clone->getResult(0), replicated());
}

void registerCreationHandlers(HandlerTable &table) {
  table.add<PartitionIdOp, ReplicaIdOp>(&Partitioner::partitionDeviceId,
                                        /*anySharding=*/true);
  table.add<IotaOp>(&Partitioner::partitionIota);
  table.add<ConstantOp>(&Partitioner::partitionConstant);
}

} // namespace mlir::torus::spmd
