//===- HloForms.cpp - torus ops for HLO forms the ops do not carry --------===//

#include "ir/ops/HloForms.h"

#include "mlir/IR/Matchers.h"

#include <complex>

namespace mlir::torus {

bool isReduceIdentity(Value value, ReduceKind kind) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type et = attr.getElementType();
  if (isa<ComplexType>(et)) { // 0 for sum, 1 for product
    if (kind != ReduceKind::sum && kind != ReduceKind::product)
      return false;
    auto v = attr.getSplatValue<std::complex<llvm::APFloat>>();
    return v.imag().isPosZero() &&
           (kind == ReduceKind::sum ? v.real().isPosZero()
                                    : v.real().isExactlyValue(1.0));
  }
  TypedAttr identity = reduceIdentity(kind, et);
  if (!identity)
    return false;
  if (auto f = dyn_cast<FloatAttr>(identity))
    return attr.getSplatValue<llvm::APFloat>().bitwiseIsEqual(f.getValue());
  return attr.getSplatValue<llvm::APInt>() ==
         cast<IntegerAttr>(identity).getValue();
}

Value combineByKind(OpBuilder &b, Location loc, ReduceKind kind, Value a,
                    Value c) {
  Type t = a.getType();
  switch (kind) {
  case ReduceKind::sum:
    return b.create<AddOp>(loc, t, a, c);
  case ReduceKind::product:
    return b.create<MultiplyOp>(loc, t, a, c);
  case ReduceKind::max:
    return b.create<MaximumOp>(loc, t, a, c);
  case ReduceKind::min:
    return b.create<MinimumOp>(loc, t, a, c);
  case ReduceKind::And:
    return b.create<AndOp>(loc, t, a, c);
  case ReduceKind::Or:
    return b.create<OrOp>(loc, t, a, c);
  }
  return a;
}

Value foldInitValue(OpBuilder &b, Location loc, ReduceKind kind,
                    Value operand, Value reduced, Value init,
                    ReduceWindowOp window) {
  if (isReduceIdentity(init, kind))
    return reduced;
  auto type = cast<RankedTensorType>(reduced.getType());
  Value initValue = init;
  if (type.getRank() > 0)
    initValue = b.create<BroadcastInDimOp>(loc, type, init,
                                           b.getDenseI64ArrayAttr({}));
  bool padded = false;
  if (window) {
    for (auto [lo, hi] : window.getPaddingPairs())
      padded |= lo != 0 || hi != 0;
    for (int64_t d : window.getBaseDilationsOr1())
      padded |= d != 1;
  }
  if (padded && (kind == ReduceKind::sum || kind == ReduceKind::product)) {
    // times = window size + 1 - (real elements in the window)
    Type et = type.getElementType();
    auto splat = [&](RankedTensorType t, double v) -> Value {
      DenseElementsAttr a;
      if (auto complex = dyn_cast<ComplexType>(et)) {
        if (complex.getElementType().isF64())
          a = DenseElementsAttr::get(t, std::complex<double>(v, 0));
        else
          a = DenseElementsAttr::get(t, std::complex<float>(v, 0));
      } else if (isa<FloatType>(et)) {
        a = DenseElementsAttr::get(t, FloatAttr::get(et, v));
      } else {
        a = DenseElementsAttr::get(
            t, IntegerAttr::get(et, static_cast<int64_t>(v)));
      }
      return b.create<ConstantOp>(loc, a);
    };
    int64_t size = 1;
    for (int64_t d : window.getWindowDimensions())
      size *= d;
    auto xType = cast<RankedTensorType>(operand.getType());
    Value count = b.create<ReduceWindowOp>(
        loc, type, ReduceKindAttr::get(b.getContext(), ReduceKind::sum),
        splat(xType, 1), window.getWindowDimensionsAttr(),
        window.getWindowStridesAttr(), window.getBaseDilationsAttr(),
        window.getWindowDilationsAttr(), window.getPaddingAttr());
    Value times =
        b.create<SubtractOp>(loc, type, splat(type, size + 1), count);
    initValue = kind == ReduceKind::sum
                    ? Value(b.create<MultiplyOp>(loc, type, initValue, times))
                    : Value(b.create<PowerOp>(loc, type, initValue, times));
  }
  return combineByKind(b, loc, kind, reduced, initValue);
}

Value appendBatchIotas(OpBuilder &b, Location loc, Value indices,
                       int64_t &indexVectorDim,
                       ArrayRef<int64_t> batchingDims) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) {
    SmallVector<int64_t> shape(type.getShape());
    shape.push_back(1);
    type = RankedTensorType::get(shape, type.getElementType());
    indices = b.create<ReshapeOp>(loc, type, indices);
  }
  SmallVector<int64_t> iotaShape(type.getShape());
  iotaShape[indexVectorDim] = 1;
  auto iotaType = RankedTensorType::get(iotaShape, type.getElementType());
  SmallVector<Value> parts{indices};
  for (int64_t d : batchingDims)
    parts.push_back(b.create<IotaOp>(loc, iotaType, d));
  return b.create<ConcatenateOp>(loc, parts, indexVectorDim);
}

FailureOr<DeviceGroups> deviceGroupsOf(
    DeviceGroups groups, CollectiveGroupMode mode, int64_t r, int64_t p,
    function_ref<void(int64_t id, StringRef what, int64_t limit)> badId) {
  // With one partition every mode but cross-partition names replicas.
  if (mode == CollectiveGroupMode::FlattenedId ||
      (p == 1 && mode != CollectiveGroupMode::CrossPartition))
    return groups;
  auto checkIds = [&](int64_t limit, StringRef what) -> LogicalResult {
    for (const auto &g : groups)
      for (int64_t id : g)
        if (id < 0 || id >= limit) {
          badId(id, what, limit);
          return failure();
        }
    return success();
  };
  DeviceGroups out;
  switch (mode) {
  case CollectiveGroupMode::CrossReplica:
    if (groups.empty())
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, r)));
    if (failed(checkIds(r, "replica")))
      return failure();
    for (int64_t part = 0; part < p; ++part)
      for (const auto &g : groups)
        out.push_back(llvm::map_to_vector(
            g, [&](int64_t id) { return id * p + part; }));
    break;
  case CollectiveGroupMode::CrossPartition:
    if (groups.empty())
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, p)));
    if (failed(checkIds(p, "partition")))
      return failure();
    for (int64_t rep = 0; rep < r; ++rep)
      for (const auto &g : groups)
        out.push_back(llvm::map_to_vector(
            g, [&](int64_t id) { return rep * p + id; }));
    break;
  case CollectiveGroupMode::CrossReplicaAndPartition:
    if (failed(checkIds(r, "replica")))
      return failure();
    for (const auto &g : groups) {
      out.emplace_back();
      for (int64_t id : g)
        for (int64_t part = 0; part < p; ++part)
          out.back().push_back(id * p + part);
    }
    break;
  case CollectiveGroupMode::FlattenedId:
    break;
  }
  return out;
}

Value perDeviceId(OpBuilder &b, Location loc, RankedTensorType type,
                  bool partition, int64_t partitions) {
  Value device = b.create<ReplicaIdOp>(loc, type);
  Value p = b.create<ConstantOp>(
      loc, DenseElementsAttr::get(
               type, APInt(type.getElementTypeBitWidth(),
                           static_cast<uint64_t>(partitions))));
  if (partition)
    return b.create<RemainderOp>(loc, type, device, p);
  return b.create<DivideOp>(loc, type, device, p);
}

} // namespace mlir::torus
