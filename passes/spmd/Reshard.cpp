//===- Reshard.cpp - Moving data between shardings ------------------------===//
//
// Partitioner::reshard, the only source of data-movement collectives, and
// the small builders the handlers share. A torus.sharding_constraint is
// nothing but a reshard of its operand.
//
//===----------------------------------------------------------------------===//

#include "passes/spmd/Partitioner.h"

namespace mlir::torus::spmd {

Value Partitioner::constantI32(OpBuilder &builder, Location loc, int64_t v) {
  auto type = RankedTensorType::get({}, builder.getI32Type());
  return builder.create<ConstantOp>(
      loc, type, DenseElementsAttr::get(type, builder.getI32IntegerAttr(v)));
}

Value Partitioner::splat(Location loc, RankedTensorType type, Attribute value) {
  return b.create<ConstantOp>(loc, type, DenseElementsAttr::get(type, value));
}

Value Partitioner::zeros(Location loc, RankedTensorType type) {
  Type e = type.getElementType();
  Attribute zero = isa<FloatType>(e) ? Attribute(b.getFloatAttr(e, 0.0))
                                     : Attribute(b.getIntegerAttr(e, 0));
  return splat(loc, type, zero);
}

/// `index * localSize` of this device's tile along `dim` of `s`, as an
/// i32 scalar computed once, at the top of the function, from a table
/// indexed by partition id.
Value Partitioner::tileOffset(ShardingAttr s, int64_t dim, int64_t localSize) {
  SmallVector<int64_t> table = tileIndexTable(s, dim);
  SmallVector<int32_t> offsets(P, 0);
  for (int64_t d = 0; d < P && d < static_cast<int64_t>(table.size()); ++d)
    offsets[d] = table[d] < 0 ? 0 : static_cast<int32_t>(table[d] * localSize);
  auto tableType = RankedTensorType::get({P}, prologue.getI32Type());
  auto attr = DenseIntElementsAttr::get(tableType, ArrayRef(offsets));
  auto key = std::make_pair(Attribute(attr), int64_t(0));
  if (Value cached = offsetCache.lookup(key))
    return cached;
  Location loc = fn.getLoc();
  Value result;
  if (llvm::all_equal(offsets)) {
    result = constantI32(prologue, loc, offsets[0]);
  } else {
    Value t = prologue.create<ConstantOp>(loc, tableType, attr);
    Value e = prologue.create<DynamicSliceOp>(loc, t, ValueRange{pid},
                                              ArrayRef<int64_t>{1});
    result = prologue.create<ReshapeOp>(
        loc, RankedTensorType::get({}, prologue.getI32Type()), e);
  }
  offsetCache[key] = result;
  return result;
}

/// The i32 scalar 0, at the top of the function.
Value Partitioner::zeroIndex() {
  if (!zeroIndex_)
    zeroIndex_ = constantI32(prologue, fn.getLoc(), 0);
  return zeroIndex_;
}

DenseIntElementsAttr
Partitioner::groupsAttr(ArrayRef<SmallVector<int64_t>> groups) {
  return partitionGroupsAttr(ctx, groups, P, R);
}

/// All partitions of each replica in one group.
DenseIntElementsAttr Partitioner::allPartitions() {
  SmallVector<SmallVector<int64_t>> g(1);
  for (int64_t p = 0; p < P; ++p)
    g[0].push_back(p);
  return groupsAttr(g);
}

Value Partitioner::allReduce(Location loc, ReduceKind kind, Value x,
                             DenseIntElementsAttr groups) {
  return b.create<AllReduceOp>(loc, x.getType(), kind, x, groups);
}

/// The owner's value of a maximal-sharded `x` on every device: zero
/// elsewhere, then a sum over the partitions.
Value Partitioner::broadcastFromOwner(Location loc, Value x, int64_t owner) {
  auto type = tensorTypeOf(x);
  Value in = x;
  bool pred = type.getElementType().isInteger(1);
  auto i32Type = RankedTensorType::get(type.getShape(), b.getI32Type());
  if (pred)
    in = b.create<ConvertOp>(loc, i32Type, x);
  Value isOwner = b.create<CompareOp>(loc, ComparisonDirection::EQ, pid,
                                      constantI32(b, loc, owner));
  auto inType = tensorTypeOf(in);
  Value masked =
      b.create<SelectOp>(loc, inType, isOwner, in, zeros(loc, inType));
  Value sum = allReduce(loc, ReduceKind::sum, masked, allPartitions());
  if (!pred)
    return sum;
  return b.create<CompareOp>(loc, ComparisonDirection::NE, sum,
                             zeros(loc, i32Type));
}

/// Slices the tiles of `to` along `dims` out of `x`, which holds those
/// dimensions whole (padding them first when the tiles are uneven).
Value Partitioner::sliceTiles(Location loc, Value x, ShardingAttr to,
                              RankedTensorType full, ArrayRef<int64_t> dims) {
  if (dims.empty())
    return x;
  auto type = tensorTypeOf(x);
  SmallVector<int64_t> local = to.getLocalShape(full.getShape());
  SmallVector<int64_t> high(type.getRank(), 0);
  bool padded = false;
  for (int64_t d : dims) {
    int64_t t = tilesOf(to, d);
    high[d] = local[d] * t - type.getDimSize(d);
    padded |= high[d] != 0;
  }
  if (padded) {
    Value zero = zeros(loc, RankedTensorType::get({}, type.getElementType()));
    SmallVector<int64_t> none(type.getRank(), 0);
    x = b.create<PadOp>(loc, x, zero, none, high, none);
  }
  SmallVector<Value> starts;
  SmallVector<int64_t> sizes;
  Value zero32;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(dims, d)) {
      starts.push_back(tileOffset(to, d, local[d]));
      sizes.push_back(local[d]);
    } else {
      if (!zero32)
        zero32 = zeroIndex();
      starts.push_back(zero32);
      sizes.push_back(type.getDimSize(d));
    }
  }
  return b.create<DynamicSliceOp>(loc, x, starts, sizes);
}

/// Gathers the tiles of `cur` along `d` (and drops their padding).
Value Partitioner::gatherDim(Location loc, Value x, ShardingAttr cur,
                             RankedTensorType full, int64_t d) {
  auto type = tensorTypeOf(x);
  int64_t t = tilesOf(cur, d);
  SmallVector<int64_t> shape(type.getShape());
  shape[d] *= t;
  auto gathered = b.create<AllGatherOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), x, d,
      groupsAttr(deviceGroupsAlong(cur, {d})));
  if (shape[d] == full.getDimSize(d))
    return gathered;
  SmallVector<int64_t> start(shape.size(), 0), limit(shape),
      strides(shape.size(), 1);
  limit[d] = full.getDimSize(d);
  return b.create<SliceOp>(loc, gathered, start, limit, strides);
}

/// One tiling to another that moves one dimension's tiles to another
/// dimension over the same devices: an all_to_all.
Value Partitioner::tryAllToAll(Location loc, Value x, ShardingAttr from,
                               ShardingAttr to, RankedTensorType full) {
  if (!from.isTiled() || !to.isTiled())
    return {};
  int64_t rank = full.getRank(), i = -1, j = -1;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t a = tilesOf(from, d), c = tilesOf(to, d);
    if (a == c)
      continue;
    if (a > 1 && c == 1 && i < 0)
      i = d;
    else if (a == 1 && c > 1 && j < 0)
      j = d;
    else
      return {};
  }
  if (i < 0 || j < 0 || tilesOf(from, i) != tilesOf(to, j))
    return {};
  int64_t t = tilesOf(from, i);
  if (full.getDimSize(i) % t != 0 || full.getDimSize(j) % t != 0)
    return {};
  TileArray mesh = tileArrayOf(from, rank, P);
  SmallVector<int64_t> axisOfDim;
  for (int64_t d = 0; d < rank; ++d)
    axisOfDim.push_back(d == i ? -1 : d == j ? i : d);
  if (!equivalent(shardingFromMesh(ctx, mesh, axisOfDim), to, rank, P))
    return {};
  auto type = tensorTypeOf(x);
  SmallVector<int64_t> shape(type.getShape());
  shape[j] /= t;
  shape[i] *= t;
  return b.create<AllToAllOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), x, j, i, t,
      groupsAttr(deviceGroupsAlong(from, {i})));
}

/// True when `to` is `cur` with more dimensions tiled (`extra`).
bool Partitioner::refines(ShardingAttr to, ShardingAttr cur, int64_t rank,
                          SmallVectorImpl<int64_t> &extra) {
  extra.clear();
  for (int64_t d = 0; d < rank; ++d) {
    if (tilesOf(to, d) == tilesOf(cur, d))
      continue;
    if (tilesOf(cur, d) != 1)
      return false;
    extra.push_back(d);
  }
  return equivalent(untile(to, extra, rank, P), cur, rank, P);
}

/// `v`'s data laid out as `to`. The only source of data-movement
/// collectives.
Value Partitioner::reshard(Location loc, PValue v, ShardingAttr to,
                           RankedTensorType full) {
  ShardingAttr from = v.sharding ? v.sharding : replicated();
  int64_t rank = full.getRank();
  if (equivalent(from, to, rank, P))
    return v.local;
  if (from.isManual() || to.isManual()) {
    fail(loc) << "cannot reshard " << from.toString() << " to " << to.toString()
              << ": manual shardings only meet manual shardings";
    return v.local;
  }
  Value x = v.local;
  if (from.isMaximal()) {
    x = broadcastFromOwner(loc, x, from.getDevice());
    from = replicated();
  }
  if (to.isMaximal()) // Full data on every device serves any owner.
    to = replicated();
  if (equivalent(from, to, rank, P))
    return x;
  if (Value a2a = tryAllToAll(loc, x, from, to, full))
    return a2a;
  SmallVector<int64_t> extra;
  if (refines(to, from, rank, extra))
    return sliceTiles(loc, x, to, full, extra);
  // Gather what `to` does not tile the same way, then slice.
  SmallVector<int64_t> gather;
  for (int64_t d = 0; d < rank; ++d)
    if (tilesOf(from, d) > 1 && tilesOf(from, d) != tilesOf(to, d))
      gather.push_back(d);
  ShardingAttr cur = from;
  if (!refines(to, untile(from, gather, rank, P), rank, extra)) {
    gather.clear();
    for (int64_t d = 0; d < rank; ++d)
      if (tilesOf(from, d) > 1)
        gather.push_back(d);
  }
  for (int64_t d : gather) {
    x = gatherDim(loc, x, cur, full, d);
    cur = untile(cur, {d}, rank, P);
  }
  if (!refines(to, cur, rank, extra)) {
    fail(loc) << "internal error: cannot reshard " << from.toString() << " to "
              << to.toString();
    return x;
  }
  return sliceTiles(loc, x, to, full, extra);
}

Value Partitioner::reshardOperand(Location loc, Value original,
                                  ShardingAttr to) {
  auto full = fullTypeOf(original);
  PValue v = lookup(original);
  if (!full)
    return v.local;
  return reshard(loc, v, to, full);
}

/// `local` (a tile of `s`) with the padding of the last tile along `dim`
/// replaced by `fill`.
Value Partitioner::maskPadding(Location loc, Value local, ShardingAttr s,
                               RankedTensorType full, int64_t dim,
                               Attribute fill) {
  int64_t n = full.getDimSize(dim), t = tilesOf(s, dim);
  if (t == 1 || n % t == 0)
    return local;
  auto type = tensorTypeOf(local);
  int64_t l = type.getDimSize(dim);
  auto i32 = RankedTensorType::get(type.getShape(), b.getI32Type());
  Value index = b.create<IotaOp>(loc, i32, dim);
  Value offset = b.create<BroadcastInDimOp>(loc, i32, tileOffset(s, dim, l),
                                            ArrayRef<int64_t>{});
  Value global = b.create<AddOp>(loc, index, offset);
  Value bound = splat(loc, i32, b.getI32IntegerAttr(n));
  Value inside =
      b.create<CompareOp>(loc, ComparisonDirection::LT, global, bound);
  auto predType = RankedTensorType::get(type.getShape(), b.getI1Type());
  (void)predType;
  return b.create<SelectOp>(loc, type, inside, local, splat(loc, type, fill));
}

void Partitioner::partitionShardingConstraint(ShardingConstraintOp c) {
  values[c.getResult()] = {
      reshardOperand(c.getLoc(), c.getOperand(), c.getSharding()),
      c.getSharding()};
}

void registerReshardHandlers(HandlerTable &table) {
  table.add<ShardingConstraintOp>(&Partitioner::partitionShardingConstraint,
                                  /*anySharding=*/true);
}

} // namespace mlir::torus::spmd
