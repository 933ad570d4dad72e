//===- SpmdPartitioner.cpp - One program for every logical device ---------===//
//
// GSPMD's partitioner on the torus dialect. Input: a module whose values
// carry shardings (after --torus-sharding-propagation). Output: the same
// functions computing on local data — every value takes the shape of the
// tile its sharding gives a device — with the collectives that moving data
// between layouts needs, and `torus.partition_id` as the only thing that
// differs between devices. See docs/sharding.md.
//
// The partitioner walks each function in order and keeps, for every
// original value, its local value and the sharding that local value has
// (PValue). Each op is rewritten by a handler that decides the shardings it
// wants its operands in, reshards them (Partitioner::reshard: the only
// place collectives for data movement come from), computes locally, and
// fixes up what the local computation leaves partial (sums over a split
// contracting or reduced dimension).
//
//===----------------------------------------------------------------------===//

#include "ir/DiagnosticCollector.h"
#include "ir/Sharding.h"
#include "ir/ShardingRuleOpInterface.h"
#include "ir/ops/OpUtils.h"
#include "passes/Passes.h"
#include "passes/ShardingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSPMDPARTITION
#include "passes/Passes.h.inc"

int64_t shardingPartitionCount(ModuleOp module, int64_t option);

namespace {

int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// A value of the partitioned program and the sharding its local data has.
struct PValue {
  Value local;
  ShardingAttr sharding;
};

class Partitioner {
public:
  Partitioner(func::FuncOp fn, int64_t numPartitions, int64_t numReplicas)
      : ctx(fn.getContext()), fn(fn), P(numPartitions), R(numReplicas),
        b(ctx), prologue(ctx) {}

  LogicalResult run();

private:
  MLIRContext *ctx;
  func::FuncOp fn;
  int64_t P, R;
  OpBuilder b;
  OpBuilder prologue;
  Value pid;
  llvm::DenseMap<Value, PValue> values;

  llvm::DenseMap<std::pair<Attribute, int64_t>, Value> offsetCache;
  bool failed_ = false;

  ShardingAttr replicated() { return ShardingAttr::getReplicated(ctx); }

  //===--- Lookups ----------------------------------------------------===//

  PValue lookup(Value original) {
    auto it = values.find(original);
    if (it != values.end())
      return it->second;
    // Not tensor-valued or defined outside what we partition.
    return {original, replicated()};
  }

  ShardingAttr resultSharding(Operation *op, unsigned r) {
    ShardingAttr s = getResultSharding(op, r);
    return s ? s : replicated();
  }

  RankedTensorType localType(RankedTensorType full, ShardingAttr s) {
    if (!s || !s.isTiled())
      return full;
    return RankedTensorType::get(s.getLocalShape(full.getShape()),
                                 full.getElementType());
  }

  InFlightDiagnostic fail(Location loc) {
    failed_ = true;
    return emitError(loc);
  }

  //===--- Small builders ---------------------------------------------===//

  Value constantI32(OpBuilder &builder, Location loc, int64_t v) {
    auto type = RankedTensorType::get({}, builder.getI32Type());
    return builder.create<ConstantOp>(
        loc, type,
        DenseElementsAttr::get(type, builder.getI32IntegerAttr(v)));
  }

  Value splat(Location loc, RankedTensorType type, Attribute value) {
    return b.create<ConstantOp>(loc, type,
                                DenseElementsAttr::get(type, value));
  }

  Value zeros(Location loc, RankedTensorType type) {
    Type e = type.getElementType();
    Attribute zero = isa<FloatType>(e) ? Attribute(b.getFloatAttr(e, 0.0))
                                       : Attribute(b.getIntegerAttr(e, 0));
    return splat(loc, type, zero);
  }

  /// `index * localSize` of this device's tile along `dim` of `s`, as an
  /// i32 scalar computed once, at the top of the function, from a table
  /// indexed by partition id.
  Value tileOffset(ShardingAttr s, int64_t dim, int64_t localSize) {
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
  Value zeroIndex() {
    if (!zeroIndex_)
      zeroIndex_ = constantI32(prologue, fn.getLoc(), 0);
    return zeroIndex_;
  }
  Value zeroIndex_;

  DenseIntElementsAttr groupsAttr(ArrayRef<SmallVector<int64_t>> groups) {
    return partitionGroupsAttr(ctx, groups, P, R);
  }

  /// All partitions of each replica in one group.
  DenseIntElementsAttr allPartitions() {
    SmallVector<SmallVector<int64_t>> g(1);
    for (int64_t p = 0; p < P; ++p)
      g[0].push_back(p);
    return groupsAttr(g);
  }

  Value allReduce(Location loc, ReduceKind kind, Value x,
                  DenseIntElementsAttr groups) {
    return b.create<AllReduceOp>(loc, x.getType(), kind, x, groups);
  }

  //===--- Resharding -------------------------------------------------===//

  /// The owner's value of a maximal-sharded `x` on every device: zero
  /// elsewhere, then a sum over the partitions.
  Value broadcastFromOwner(Location loc, Value x, int64_t owner) {
    auto type = tensorTypeOf(x);
    Value in = x;
    bool pred = type.getElementType().isInteger(1);
    auto i32Type = RankedTensorType::get(type.getShape(), b.getI32Type());
    if (pred)
      in = b.create<ConvertOp>(loc, i32Type, x);
    Value isOwner = b.create<CompareOp>(loc, ComparisonDirection::EQ, pid,
                                        constantI32(b, loc, owner));
    auto inType = tensorTypeOf(in);
    Value masked = b.create<SelectOp>(loc, inType, isOwner, in,
                                      zeros(loc, inType));
    Value sum = allReduce(loc, ReduceKind::sum, masked, allPartitions());
    if (!pred)
      return sum;
    return b.create<CompareOp>(loc, ComparisonDirection::NE, sum,
                               zeros(loc, i32Type));
  }

  /// Slices the tiles of `to` along `dims` out of `x`, which holds those
  /// dimensions whole (padding them first when the tiles are uneven).
  Value sliceTiles(Location loc, Value x, ShardingAttr to,
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
  Value gatherDim(Location loc, Value x, ShardingAttr cur,
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
  Value tryAllToAll(Location loc, Value x, ShardingAttr from, ShardingAttr to,
                    RankedTensorType full) {
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
  bool refines(ShardingAttr to, ShardingAttr cur, int64_t rank,
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
  Value reshard(Location loc, PValue v, ShardingAttr to,
                RankedTensorType full) {
    ShardingAttr from = v.sharding ? v.sharding : replicated();
    int64_t rank = full.getRank();
    if (equivalent(from, to, rank, P))
      return v.local;
    if (from.isManual() || to.isManual()) {
      fail(loc) << "cannot reshard " << from.toString() << " to "
                << to.toString()
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
      fail(loc) << "internal error: cannot reshard " << from.toString()
                << " to " << to.toString();
      return x;
    }
    return sliceTiles(loc, x, to, full, extra);
  }

  RankedTensorType fullTypeOf(Value original) {
    return dyn_cast<RankedTensorType>(original.getType());
  }

  Value reshardOperand(Location loc, Value original, ShardingAttr to) {
    auto full = fullTypeOf(original);
    PValue v = lookup(original);
    if (!full)
      return v.local;
    return reshard(loc, v, to, full);
  }

  /// `local` (a tile of `s`) with the padding of the last tile along `dim`
  /// replaced by `fill`.
  Value maskPadding(Location loc, Value local, ShardingAttr s,
                    RankedTensorType full, int64_t dim, Attribute fill) {
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
    Value inside = b.create<CompareOp>(loc, ComparisonDirection::LT, global,
                                       bound);
    auto predType = RankedTensorType::get(type.getShape(), b.getI1Type());
    (void)predType;
    return b.create<SelectOp>(loc, type, inside, local, splat(loc, type, fill));
  }

  //===--- Op handlers ------------------------------------------------===//

  /// Clones `op` with `operands`, results retyped to `types`, without the
  /// sharding attributes.
  Operation *cloneWith(Operation *op, ArrayRef<Value> operands,
                       ArrayRef<Type> types) {
    IRMapping mapping;
    for (auto [o, n] : llvm::zip(op->getOperands(), operands))
      mapping.map(o, n);
    Operation *clone = b.clone(*op, mapping);
    for (auto [r, t] : llvm::zip(clone->getResults(), types))
      r.setType(t);
    clone->removeAttr(kShardingAttrName);
    clone->removeAttr(kShardingOriginAttrName);
    return clone;
  }

  void setResult(Operation *op, unsigned r, Value local, ShardingAttr has) {
    ShardingAttr want = resultSharding(op, r);
    auto full = cast<RankedTensorType>(op->getResult(r).getType());
    values[op->getResult(r)] = {reshard(op->getLoc(), {local, has}, want, full),
                                want};
  }

  /// Every tensor operand replicated, the op on whole tensors, each result
  /// then sliced to its sharding.
  void partitionReplicated(Operation *op) {
    SmallVector<Value> operands;
    for (Value o : op->getOperands())
      operands.push_back(reshardOperand(op->getLoc(), o, replicated()));
    SmallVector<Type> types(op->getResultTypes());
    Operation *clone = cloneWith(op, operands, types);
    for (unsigned r = 0; r < op->getNumResults(); ++r)
      setResult(op, r, clone->getResult(r), replicated());
  }

  /// An op placed on one device: every device computes it on whole tensors
  /// (only the owner's result counts).
  void partitionMaximal(Operation *op, ShardingAttr maximal) {
    SmallVector<Value> operands;
    for (Value o : op->getOperands())
      operands.push_back(reshardOperand(op->getLoc(), o, maximal));
    SmallVector<Type> types(op->getResultTypes());
    Operation *clone = cloneWith(op, operands, types);
    for (unsigned r = 0; r < op->getNumResults(); ++r)
      setResult(op, r, clone->getResult(r), maximal);
  }

  /// Ops whose operand dimensions line up with result dimensions
  /// (elementwise, broadcast, transpose, slices, pads, concatenation,
  /// windows that tiles hold whole, argmax): operands in the result's
  /// tiling, the op on tiles.
  void partitionPassThrough(ShardingRuleOpInterface rule) {
    Operation *op = rule.getOperation();
    auto outFull = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t outRank = outFull.getRank();
    ShardingAttr want = resultSharding(op, 0);
    ShardingAttr mid =
        untile(want, rule.getBlockedResultDims(want), outRank, P);
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

  void partitionReshape(ReshapeOp op) {
    auto inFull = fullTypeOf(op.getOperand());
    auto outFull = op.getType();
    ShardingAttr want = resultSharding(op, 0);
    ShardingAttr req =
        reshapeSharding(want, outFull.getShape(), inFull.getShape(), P);
    ShardingAttr mid =
        reshapeSharding(req, inFull.getShape(), outFull.getShape(), P);
    if ((req && req.isUneven(inFull.getShape())) ||
        (mid && mid.isUneven(outFull.getShape()))) {
      req = replicated();
      mid = replicated();
    }
    Value in = reshardOperand(op.getLoc(), op.getOperand(), req);
    Operation *clone = cloneWith(op, {in}, {localType(outFull, mid)});
    setResult(op, 0, clone->getResult(0), mid);
  }

  /// The layout for an op that contracts (dot, convolution) or reduces:
  /// `mid` is the result's sharding while it is partial, `mesh` its tile
  /// array with the replication axis split into [contracting tiles...,
  /// rest], `scatterDim` the result dimension a reduce_scatter fills in
  /// (or -1 for an all_reduce, or nothing when `contracting` is all 1s).
  struct ContractionLayout {
    ShardingAttr mid;
    TileArray mesh;
    SmallVector<int64_t> contracting;
    int64_t scatterDim = -1;
    int64_t numContracting() const { return product(contracting); }
  };

  ContractionLayout planContraction(ShardingAttr want, RankedTensorType outFull,
                                    SmallVector<int64_t> contracting) {
    ContractionLayout plan;
    int64_t rank = outFull.getRank();
    plan.mid = want;
    int64_t c = product(contracting);
    if (c > 1) {
      int64_t rep = want.isTiled() ? want.getReplicationFactor() : P;
      if (rep % c != 0) {
        bool found = false;
        for (int64_t j = 0; j < rank && !found; ++j)
          if (tilesOf(want, j) == c && outFull.getDimSize(j) % c == 0) {
            plan.mid = untile(want, {j}, rank, P);
            plan.scatterDim = j;
            found = true;
          }
        if (!found)
          contracting.assign(contracting.size(), 1);
      }
    }
    plan.contracting = contracting;
    plan.mesh = tileArrayOf(plan.mid, rank, P);
    int64_t rep = plan.mesh.dims.back();
    SmallVector<int64_t> dims(plan.mesh.dims.begin(),
                              plan.mesh.dims.end() - 1);
    dims.append(contracting.begin(), contracting.end());
    dims.push_back(rep / plan.numContracting());
    plan.mesh = plan.mesh.reshape(dims);
    return plan;
  }

  /// Finishes a contraction computed on tiles: sums (or reduces by `kind`)
  /// the partial results over the contracting axes.
  void finishContraction(Operation *op, const ContractionLayout &plan,
                         Value partial, ReduceKind kind) {
    Location loc = op->getLoc();
    int64_t outRank = tensorTypeOf(op->getResult(0)).getRank();
    if (plan.numContracting() == 1) {
      setResult(op, 0, partial, plan.mid);
      return;
    }
    SmallVector<int64_t> axes;
    for (size_t k = 0; k < plan.contracting.size(); ++k)
      axes.push_back(outRank + k);
    auto groups = groupsAttr(plan.mesh.groupsAlong(axes));
    if (plan.scatterDim >= 0) {
      auto type = tensorTypeOf(partial);
      SmallVector<int64_t> shape(type.getShape());
      shape[plan.scatterDim] /= plan.numContracting();
      Value scattered = b.create<ReduceScatterOp>(
          loc, RankedTensorType::get(shape, type.getElementType()), kind,
          partial, plan.scatterDim, groups);
      setResult(op, 0, scattered, resultSharding(op, 0));
      return;
    }
    setResult(op, 0, allReduce(loc, kind, partial, groups), plan.mid);
  }

  /// Tiles of `s` on `dims`, in order.
  static SmallVector<int64_t> tilesOn(ShardingAttr s, ArrayRef<int64_t> dims) {
    SmallVector<int64_t> t;
    for (int64_t d : dims)
      t.push_back(tilesOf(s, d));
    return t;
  }

  void partitionDot(DotGeneralOp op) {
    Location loc = op.getLoc();
    auto outFull = op.getType();
    auto lhsFull = fullTypeOf(op.getLhs()), rhsFull = fullTypeOf(op.getRhs());
    ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(),
                      rb = op.getRhsBatchingDimensions(),
                      lc = op.getLhsContractingDimensions(),
                      rc = op.getRhsContractingDimensions();
    PValue lhs = lookup(op.getLhs()), rhs = lookup(op.getRhs());
    SmallVector<int64_t> contracting = tilesOn(lhs.sharding, lc);
    if (product(contracting) == 1)
      contracting = tilesOn(rhs.sharding, rc);
    ContractionLayout plan =
        planContraction(resultSharding(op, 0), outFull, contracting);
    int64_t outRank = outFull.getRank(), nb = lb.size();
    int64_t lhsFree = lhsFull.getRank() - nb - lc.size();
    auto axesFor = [&](int64_t rank, ArrayRef<int64_t> batch,
                       ArrayRef<int64_t> contract, int64_t freeStart) {
      SmallVector<int64_t> axisOfDim(rank, -1);
      int64_t next = freeStart;
      for (int64_t d = 0; d < rank; ++d) {
        if (const int64_t *it = llvm::find(batch, d); it != batch.end())
          axisOfDim[d] = it - batch.begin();
        else if (const int64_t *jt = llvm::find(contract, d);
                 jt != contract.end())
          axisOfDim[d] = outRank + (jt - contract.begin());
        else
          axisOfDim[d] = next++;
      }
      return axisOfDim;
    };
    ShardingAttr lhsReq = shardingFromMesh(
        ctx, plan.mesh, axesFor(lhsFull.getRank(), lb, lc, nb));
    ShardingAttr rhsReq = shardingFromMesh(
        ctx, plan.mesh, axesFor(rhsFull.getRank(), rb, rc, nb + lhsFree));
    Value l = reshard(loc, lhs, lhsReq, lhsFull);
    Value r = reshard(loc, rhs, rhsReq, rhsFull);
    Attribute zero = b.getZeroAttr(outFull.getElementType());
    for (size_t k = 0; k < lc.size(); ++k) {
      l = maskPadding(loc, l, lhsReq, lhsFull, lc[k], zero);
      r = maskPadding(loc, r, rhsReq, rhsFull, rc[k], zero);
    }
    Operation *dot = cloneWith(op, {l, r}, {localType(outFull, plan.mid)});
    finishContraction(op, plan, dot->getResult(0), ReduceKind::sum);
  }

  void partitionReduce(ReduceOp op) {
    Location loc = op.getLoc();
    auto outFull = op.getType();
    auto inFull = fullTypeOf(op.getOperand());
    ArrayRef<int64_t> dims = op.getDimensions();
    PValue in = lookup(op.getOperand());
    SmallVector<int64_t> contracting = tilesOn(in.sharding, dims);
    ReduceKind kind = op.getKind();
    if (kind == ReduceKind::And || kind == ReduceKind::Or ||
        inFull.getElementType().isInteger(1))
      contracting.assign(contracting.size(), 1);
    ContractionLayout plan =
        planContraction(resultSharding(op, 0), outFull, contracting);
    int64_t outRank = outFull.getRank();
    SmallVector<int64_t> axisOfDim;
    int64_t next = 0;
    for (int64_t d = 0; d < inFull.getRank(); ++d) {
      if (const int64_t *it = llvm::find(dims, d); it != dims.end())
        axisOfDim.push_back(outRank + (it - dims.begin()));
      else
        axisOfDim.push_back(next++);
    }
    ShardingAttr req = shardingFromMesh(ctx, plan.mesh, axisOfDim);
    Value x = reshard(loc, in, req, inFull);
    Attribute identity = reduceIdentity(kind, inFull.getElementType());
    for (int64_t d : dims)
      x = maskPadding(loc, x, req, inFull, d, identity);
    Operation *reduce = cloneWith(op, {x}, {localType(outFull, plan.mid)});
    finishContraction(op, plan, reduce->getResult(0), kind);
  }

  void partitionConvolution(ConvolutionOp op) {
    Location loc = op.getLoc();
    auto outFull = op.getType();
    auto inFull = fullTypeOf(op.getLhs()), kFull = fullTypeOf(op.getRhs());
    ConvDims dims = toConvDims(op.getDimensionNumbers());
    int64_t outRank = outFull.getRank();
    bool grouped = op.getFeatureGroupCount() != 1 || op.getBatchGroupCount() != 1;
    PValue in = lookup(op.getLhs()), kernel = lookup(op.getRhs());
    SmallVector<int64_t> contracting = {1};
    if (!grouped) {
      contracting = {tilesOf(in.sharding, dims.inputFeature)};
      if (contracting[0] == 1)
        contracting = {tilesOf(kernel.sharding, dims.kernelInputFeature)};
    }
    ShardingAttr want = resultSharding(op, 0);
    // Dimensions the tiles cannot compute on their own.
    SmallVector<int64_t> strides = op.getStrides();
    SmallVector<int64_t> lhsDil = op.getLhsDilationOr1();
    SmallVector<int64_t> rhsDil = op.getRhsDilationOr1();
    auto pads = op.getPaddingPairs();
    SmallVector<int64_t> blocked;
    if (grouped) {
      blocked.push_back(dims.outputFeature);
      if (op.getBatchGroupCount() != 1)
        blocked.push_back(dims.outputBatch);
    }
    struct Halo {
      int64_t left = 0, right = 0;
    };
    SmallVector<Halo> halos(dims.inputSpatial.size());
    for (size_t i = 0; i < dims.inputSpatial.size(); ++i) {
      int64_t t = tilesOf(want, dims.outputSpatial[i]);
      if (t == 1)
        continue;
      int64_t nIn = inFull.getDimSize(dims.inputSpatial[i]);
      int64_t nOut = outFull.getDimSize(dims.outputSpatial[i]);
      int64_t k = kFull.getDimSize(dims.kernelSpatial[i]);
      int64_t s = strides[i], d = rhsDil[i];
      int64_t lo = pads.empty() ? 0 : pads[i].first;
      bool ok = nIn % t == 0 && nOut % t == 0 && lhsDil[i] == 1 && lo >= 0;
      int64_t l = ok ? nIn / t : 0, m = ok ? nOut / t : 0;
      ok = ok && m * s == l;
      int64_t right = (k - 1) * d + 1 - s - lo;
      ok = ok && lo <= l && right <= l;
      if (!ok) {
        blocked.push_back(dims.outputSpatial[i]);
        continue;
      }
      halos[i] = {lo, right};
    }
    want = untile(want, blocked, outRank, P);
    ContractionLayout plan = planContraction(want, outFull, contracting);
    SmallVector<int64_t> inAxes(inFull.getRank(), -1),
        kAxes(kFull.getRank(), -1);
    inAxes[dims.inputBatch] = dims.outputBatch;
    inAxes[dims.inputFeature] = outRank;
    for (size_t i = 0; i < dims.inputSpatial.size(); ++i)
      inAxes[dims.inputSpatial[i]] = dims.outputSpatial[i];
    kAxes[dims.kernelOutputFeature] = dims.outputFeature;
    kAxes[dims.kernelInputFeature] = outRank;
    ShardingAttr inReq = shardingFromMesh(ctx, plan.mesh, inAxes);
    ShardingAttr kReq = shardingFromMesh(ctx, plan.mesh, kAxes);
    Value x = reshard(loc, in, inReq, inFull);
    Value w = reshard(loc, kernel, kReq, kFull);
    Attribute zero = b.getZeroAttr(outFull.getElementType());
    if (plan.numContracting() > 1) {
      x = maskPadding(loc, x, inReq, inFull, dims.inputFeature, zero);
      w = maskPadding(loc, w, kReq, kFull, dims.kernelInputFeature, zero);
    }
    // Halo exchange, one spatial dimension at a time (corners come with
    // the second exchange, which moves already extended tiles).
    SmallVector<std::pair<int64_t, int64_t>> newPads(pads.begin(), pads.end());
    if (newPads.empty())
      newPads.assign(dims.inputSpatial.size(), {0, 0});
    for (size_t i = 0; i < dims.inputSpatial.size(); ++i) {
      int64_t dim = dims.inputSpatial[i];
      if (tilesOf(inReq, dim) == 1)
        continue;
      auto groups = deviceGroupsAlong(inReq, {dim});
      auto pairs = [&](bool toRight) {
        SmallVector<int64_t> flat;
        for (int64_t r = 0; r < R; ++r)
          for (const auto &g : groups)
            for (size_t k = 0; k + 1 < g.size(); ++k) {
              int64_t src = toRight ? g[k] : g[k + 1];
              int64_t dst = toRight ? g[k + 1] : g[k];
              flat.push_back(r * P + src);
              flat.push_back(r * P + dst);
            }
        auto type = RankedTensorType::get(
            {static_cast<int64_t>(flat.size() / 2), 2}, b.getI64Type());
        return DenseIntElementsAttr::get(type, ArrayRef(flat));
      };
      auto type = tensorTypeOf(x);
      int64_t l = type.getDimSize(dim);
      auto strip = [&](int64_t start, int64_t size) {
        SmallVector<int64_t> lo(type.getRank(), 0), hi(type.getShape()),
            st(type.getRank(), 1);
        lo[dim] = start;
        hi[dim] = start + size;
        return b.create<SliceOp>(loc, x, lo, hi, st).getResult();
      };
      SmallVector<Value> parts;
      const Halo &h = halos[i];
      if (h.left > 0) {
        Value edge = strip(l - h.left, h.left);
        parts.push_back(b.create<CollectivePermuteOp>(
            loc, edge.getType(), edge, pairs(/*toRight=*/true)));
      }
      parts.push_back(x);
      if (h.right > 0) {
        Value edge = strip(0, h.right);
        parts.push_back(b.create<CollectivePermuteOp>(
            loc, edge.getType(), edge, pairs(/*toRight=*/false)));
      }
      if (parts.size() > 1)
        x = b.create<ConcatenateOp>(loc, parts, dim);
      newPads[i] = {0, std::min<int64_t>(h.right, 0)};
    }
    auto conv = cast<ConvolutionOp>(
        cloneWith(op, {x, w}, {localType(outFull, plan.mid)}));
    if (llvm::any_of(newPads, [](auto p) { return p.first || p.second; }))
      conv.setPaddingAttr(paddingAttr(ctx, newPads));
    else
      conv.removePaddingAttr();
    finishContraction(op, plan, conv.getResult(), ReduceKind::sum);
  }

  void partitionIota(IotaOp op) {
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

  void partitionConstant(ConstantOp op) {
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

  /// The user's collectives among replicas: each partition takes part with
  /// the same partition of the other replicas.
  void partitionUserCollective(Operation *op) {
    Location loc = op->getLoc();
    auto rewriteGroups = [&](Operation *clone) {
      if (P == 1)
        return;
      if (auto cp = dyn_cast<CollectivePermuteOp>(clone)) {
        SmallVector<int64_t> flat;
        SmallVector<int64_t> pairs(cp.getSourceTargetPairs().getValues<int64_t>());
        for (int64_t p = 0; p < P; ++p)
          for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
            flat.push_back(pairs[i] * P + p);
            flat.push_back(pairs[i + 1] * P + p);
          }
        auto type = RankedTensorType::get(
            {static_cast<int64_t>(flat.size() / 2), 2}, b.getI64Type());
        cp.setSourceTargetPairsAttr(DenseIntElementsAttr::get(type, ArrayRef(flat)));
        return;
      }
      auto groups =
          clone->getAttrOfType<DenseIntElementsAttr>("replica_groups");
      clone->setAttr("replica_groups",
                     replicaGroupsToDevices(ctx, groups, P, R));
    };
    if (isa<AllReduceOp, CollectivePermuteOp>(op)) {
      ShardingAttr want = resultSharding(op, 0);
      if (want.isMaximal())
        want = replicated();
      Value in = reshardOperand(loc, op->getOperand(0), want);
      Operation *clone =
          cloneWith(op, {in}, {localType(tensorTypeOf(op->getResult(0)), want)});
      rewriteGroups(clone);
      setResult(op, 0, clone->getResult(0), want);
      return;
    }
    Value in = reshardOperand(loc, op->getOperand(0), replicated());
    Operation *clone = cloneWith(op, {in}, {op->getResult(0).getType()});
    rewriteGroups(clone);
    setResult(op, 0, clone->getResult(0), replicated());
  }

  /// Partitions `src` into the empty block `dst` (whose arguments are
  /// already mapped); its terminator's operands are resharded to `yield`.
  void partitionRegionBlock(Block &src, Block &dst,
                            ArrayRef<ShardingAttr> yield) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&dst);
    for (Operation &op : src.without_terminator())
      partitionOp(&op);
    Operation *term = src.getTerminator();
    SmallVector<Value> operands;
    for (auto [i, v] : llvm::enumerate(term->getOperands()))
      operands.push_back(reshardOperand(term->getLoc(), v, yield[i]));
    b.create<ReturnOp>(term->getLoc(), operands);
  }

  void partitionControlFlow(Operation *op) {
    Location loc = op->getLoc();
    SmallVector<ShardingAttr> shardings;
    SmallVector<Type> types;
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      ShardingAttr s = resultSharding(op, r);
      if (s.isMaximal())
        s = replicated(); // Loop state on one device: keep it everywhere.
      shardings.push_back(s);
      types.push_back(localType(tensorTypeOf(op->getResult(r)), s));
    }
    if (auto w = dyn_cast<WhileOp>(op)) {
      SmallVector<Value> operands;
      for (unsigned i = 0; i < w->getNumOperands(); ++i)
        operands.push_back(reshardOperand(loc, w->getOperand(i), shardings[i]));
      auto nw = b.create<WhileOp>(loc, types, operands);
      for (Region *region : {&nw.getCond(), &nw.getBody()}) {
        Block *block = new Block();
        region->push_back(block);
        for (Type t : types)
          block->addArgument(t, loc);
      }
      for (unsigned i = 0; i < types.size(); ++i) {
        values[w.getCond().front().getArgument(i)] = {
            nw.getCond().front().getArgument(i), shardings[i]};
        values[w.getBody().front().getArgument(i)] = {
            nw.getBody().front().getArgument(i), shardings[i]};
      }
      partitionRegionBlock(w.getCond().front(), nw.getCond().front(),
                           {replicated()});
      partitionRegionBlock(w.getBody().front(), nw.getBody().front(),
                           shardings);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        setResult(op, r, nw->getResult(r), shardings[r]);
      return;
    }
    Value selector = reshardOperand(loc, op->getOperand(0), replicated());
    Operation *nop;
    if (isa<IfOp>(op))
      nop = b.create<IfOp>(loc, types, selector);
    else
      nop = b.create<CaseOp>(loc, types, selector, op->getNumRegions());
    for (auto [src, dst] : llvm::zip(op->getRegions(), nop->getRegions())) {
      dst.push_back(new Block());
      partitionRegionBlock(src.front(), dst.front(), shardings);
    }
    for (unsigned r = 0; r < op->getNumResults(); ++r)
      setResult(op, r, nop->getResult(r), shardings[r]);
  }

public:
  void partitionOp(Operation *op) {
    if (auto c = dyn_cast<ShardingConstraintOp>(op)) {
      values[c.getResult()] = {
          reshardOperand(c.getLoc(), c.getOperand(), c.getSharding()),
          c.getSharding()};
      return;
    }
    if (isa<PartitionIdOp, ReplicaIdOp>(op)) {
      SmallVector<Type> types(op->getResultTypes());
      Operation *clone = cloneWith(op, {}, types);
      values[op->getResult(0)] = {clone->getResult(0), replicated()};
      return;
    }
    if (isa<CallOp>(op)) {
      fail(op->getLoc()) << "torus.call must be inlined before partitioning "
                            "(run --torus-sharding-propagation first)";
      return;
    }
    if (llvm::any_of(op->getResultTypes(),
                     [](Type t) { return !isa<RankedTensorType>(t); })) {
      fail(op->getLoc()) << "cannot partition '" << op->getName()
                         << "': its results are not tensors";
      return;
    }
    if (isa<WhileOp, IfOp, CaseOp>(op))
      return partitionControlFlow(op);
    if (op->getNumRegions() != 0) {
      fail(op->getLoc()) << "cannot partition '" << op->getName() << "'";
      return;
    }
    if (op->getNumResults() == 0) {
      partitionReplicated(op);
      return;
    }
    ShardingAttr first = resultSharding(op, 0);
    if (first.isManual()) {
      SmallVector<Value> operands;
      for (Value o : op->getOperands())
        operands.push_back(reshardOperand(op->getLoc(), o, first));
      SmallVector<Type> types(op->getResultTypes());
      Operation *clone = cloneWith(op, operands, types);
      for (unsigned r = 0; r < op->getNumResults(); ++r)
        values[op->getResult(r)] = {clone->getResult(r), first};
      return;
    }
    if (isa<AllReduceOp, CollectivePermuteOp, AllGatherOp, ReduceScatterOp,
            AllToAllOp>(op))
      return partitionUserCollective(op);
    if (first.isMaximal())
      return partitionMaximal(op, first);
    if (auto iota = dyn_cast<IotaOp>(op))
      return partitionIota(iota);
    if (auto c = dyn_cast<ConstantOp>(op))
      return partitionConstant(c);
    if (auto reshape = dyn_cast<ReshapeOp>(op))
      return partitionReshape(reshape);
    if (auto dot = dyn_cast<DotGeneralOp>(op))
      return partitionDot(dot);
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return partitionReduce(reduce);
    if (auto conv = dyn_cast<ConvolutionOp>(op))
      return partitionConvolution(conv);
    if (auto rule = dyn_cast<ShardingRuleOpInterface>(op))
      if (op->getNumOperands() != 0 && rule.getOperandDimMap(0, 0))
        return partitionPassThrough(rule);
    partitionReplicated(op);
  }
};

LogicalResult Partitioner::run() {
  Block &entry = fn.getBody().front();
  // Dead code (a gradient nobody asked for) must not become collectives.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(entry)))
    if (isOpTriviallyDead(&op))
      op.erase();
  Location loc = fn.getLoc();
  b.setInsertionPointToStart(&entry);
  pid = b.create<PartitionIdOp>(loc, RankedTensorType::get({}, b.getI32Type()));
  prologue.setInsertionPointAfter(pid.getDefiningOp());

  // Arguments take their local types: new arguments replace the old ones
  // (which the original ops keep using until they are erased).
  unsigned numArgs = entry.getNumArguments();
  SmallVector<Type> argTypes;
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = entry.getArgument(i);
    auto full = dyn_cast<RankedTensorType>(arg.getType());
    ShardingAttr s =
        toShardingAttr(fn.getArgAttr(i, kShardingAttrName), ctx);
    if (!s)
      s = replicated();
    Type type = arg.getType();
    if (full) {
      if (failed(s.verifyFor(full.getShape(), P, [&] {
            return fn.emitError("argument ") << i << ": ";
          })))
        return failure();
      type = localType(full, s);
      fn.setArgAttr(i, kShardingAttrName, s);
    }
    values[arg] = {entry.addArgument(type, arg.getLoc()), s};
    argTypes.push_back(type);
  }

  SmallVector<Operation *> originals;
  for (Operation &op : entry)
    if (&op != pid.getDefiningOp())
      originals.push_back(&op);
  // Ops the prologue adds go before everything else.
  b.setInsertionPoint(originals.front());
  prologue.setInsertionPoint(originals.front());
  SmallVector<Type> resultTypes;
  for (Operation *op : originals) {
    b.setInsertionPoint(op);
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Value> operands;
      for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
        ShardingAttr s =
            toShardingAttr(fn.getResultAttr(i, kShardingAttrName), ctx);
        if (!s)
          s = replicated();
        fn.setResultAttr(i, kShardingAttrName, s);
        operands.push_back(reshardOperand(ret.getLoc(), v, s));
        resultTypes.push_back(operands.back().getType());
      }
      b.create<func::ReturnOp>(ret.getLoc(), operands);
      continue;
    }
    partitionOp(op);
    if (failed_)
      return failure();
  }
  if (failed_)
    return failure();
  for (Operation *op : llvm::reverse(originals)) {
    op->dropAllUses();
    op->erase();
  }
  entry.eraseArguments(0, numArgs);
  if (pid.use_empty())
    pid.getDefiningOp()->erase();
  fn.setFunctionType(FunctionType::get(ctx, argTypes, resultTypes));
  return success();
}

struct SpmdPartitionPass : impl::TorusSpmdPartitionBase<SpmdPartitionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t numPartitions = shardingPartitionCount(module, numPartitionsOpt);
    int64_t numReplicas = numReplicasOpt;
    if (numReplicas <= 0) {
      auto attr = module->getAttrOfType<IntegerAttr>(kNumReplicasAttrName);
      numReplicas = attr ? attr.getInt() : 1;
    }
    if (numPartitions <= 1) {
      // One logical device: annotations are identities.
      module.walk([](ShardingConstraintOp c) {
        c.getResult().replaceAllUsesWith(c.getOperand());
        c.erase();
      });
      return;
    }
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (fn.isExternal())
        continue;
      Partitioner partitioner(fn, numPartitions, numReplicas);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
    Builder b(&getContext());
    module->setAttr(kNumPartitionsAttrName,
                    b.getI64IntegerAttr(numPartitions));
    module->setAttr(kNumReplicasAttrName, b.getI64IntegerAttr(numReplicas));
  }
};

} // namespace
} // namespace mlir::torus
