//===- Partitioner.h - The SPMD partitioner's state and helpers -*- C++ -*-===//
//
// Private to passes/: what the SPMD partitioner's core (SpmdPartitioner.cpp,
// the pass and the dispatch) shares with its per-family handlers
// (passes/spmd/*Handler.cpp, as XLA splits spmd_partitioner.cc into
// dot_handler.cc, convolution_handler.cc, ...).
//
// The partitioner walks each function in order and keeps, for every
// original value, its local value and the sharding that local value has
// (PValue). Each op is rewritten by a handler that decides the shardings it
// wants its operands in, reshards them (Partitioner::reshard, Reshard.cpp:
// the only place collectives for data movement come from), computes
// locally, and fixes up what the local computation leaves partial (sums
// over a split contracting or reduced dimension, Contraction.cpp).
//
// Handlers are found by op in a HandlerTable that each family file fills
// (registerXxxHandlers); an op no handler claims runs on tiles when it has
// a sharding rule (ShardingRuleOpInterface, PassThroughHandler.cpp), and on
// whole tensors otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_PASSES_SPMD_PARTITIONER_H
#define TORUS_PASSES_SPMD_PARTITIONER_H

#include "ir/Sharding.h"
#include "ir/ShardingRuleOpInterface.h"
#include "ir/TorusOps.h"
#include "passes/ShardingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace mlir::torus::spmd {

inline RankedTensorType tensorTypeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// A value of the partitioned program and the sharding its local data has.
struct PValue {
  Value local;
  ShardingAttr sharding;
};

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
  int64_t numContracting() const;
};

/// Tiles of `s` on `dims`, in order.
SmallVector<int64_t> tilesOn(ShardingAttr s, ArrayRef<int64_t> dims);

class Partitioner;

/// How the partitioner rewrites one kind of op.
struct OpHandler {
  std::function<void(Partitioner &, Operation *)> partition;
  /// True: the handler takes the op whatever its sharding (annotations,
  /// control flow, collectives). False: only when its result is tiled or
  /// replicated (manual and maximal results are handled generically).
  bool anySharding = false;
};

/// Op → handler, filled once by the family files.
class HandlerTable {
public:
  /// The handler `fn` (a Partitioner member taking the op, or an
  /// Operation *) partitions ops of the types `Ops`.
  template <typename... Ops, typename Arg>
  void add(void (Partitioner::*fn)(Arg), bool anySharding = false) {
    (handlers.try_emplace(TypeID::get<Ops>(),
                          OpHandler{[fn](Partitioner &p, Operation *op) {
                                      (p.*fn)(cast<Ops>(op));
                                    },
                                    anySharding}),
     ...);
  }
  const OpHandler *lookup(Operation *op) const {
    auto it = handlers.find(op->getName().getTypeID());
    return it == handlers.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<TypeID, OpHandler> handlers;
};

// One per family file.
void registerReshardHandlers(HandlerTable &table);
void registerCreationHandlers(HandlerTable &table);
void registerShapeHandlers(HandlerTable &table);
void registerDotHandlers(HandlerTable &table);
void registerConvolutionHandlers(HandlerTable &table);
void registerReduceHandlers(HandlerTable &table);
void registerCollectiveHandlers(HandlerTable &table);
void registerControlFlowHandlers(HandlerTable &table);

class Partitioner {
public:
  Partitioner(func::FuncOp fn, int64_t numPartitions, int64_t numReplicas)
      : ctx(fn.getContext()), fn(fn), P(numPartitions), R(numReplicas),
        b(ctx), prologue(ctx) {}

  LogicalResult run();

  MLIRContext *ctx;
  func::FuncOp fn;
  /// Partitions per replica, replicas.
  int64_t P, R;
  /// Where the partitioned ops go.
  OpBuilder b;
  /// Where values computed once per function go (tile offsets).
  OpBuilder prologue;
  /// This device's partition id, an i32 scalar.
  Value pid;
  /// Original value → its partitioned value.
  llvm::DenseMap<Value, PValue> values;

  //===--- Dispatch and generic handling (SpmdPartitioner.cpp) ---------===//

  void partitionOp(Operation *op);
  ShardingAttr replicated() { return ShardingAttr::getReplicated(ctx); }
  PValue lookup(Value original);
  ShardingAttr resultSharding(Operation *op, unsigned r);
  RankedTensorType localType(RankedTensorType full, ShardingAttr s);
  RankedTensorType fullTypeOf(Value original) {
    return dyn_cast<RankedTensorType>(original.getType());
  }
  InFlightDiagnostic fail(Location loc);
  Operation *cloneWith(Operation *op, ArrayRef<Value> operands,
                       ArrayRef<Type> types);
  void setResult(Operation *op, unsigned r, Value local, ShardingAttr has);
  void partitionReplicated(Operation *op);
  void partitionMaximal(Operation *op, ShardingAttr maximal);
  void partitionManual(Operation *op, ShardingAttr manual);

  //===--- Small builders and resharding (Reshard.cpp) -----------------===//

  Value constantI32(OpBuilder &builder, Location loc, int64_t v);
  Value splat(Location loc, RankedTensorType type, Attribute value);
  Value zeros(Location loc, RankedTensorType type);
  Value tileOffset(ShardingAttr s, int64_t dim, int64_t localSize);
  Value zeroIndex();
  DenseIntElementsAttr groupsAttr(ArrayRef<SmallVector<int64_t>> groups);
  DenseIntElementsAttr allPartitions();
  Value allReduce(Location loc, ReduceKind kind, Value x,
                  DenseIntElementsAttr groups);
  Value broadcastFromOwner(Location loc, Value x, int64_t owner);
  Value sliceTiles(Location loc, Value x, ShardingAttr to,
                   RankedTensorType full, ArrayRef<int64_t> dims);
  Value gatherDim(Location loc, Value x, ShardingAttr cur,
                  RankedTensorType full, int64_t d);
  Value tryAllToAll(Location loc, Value x, ShardingAttr from, ShardingAttr to,
                    RankedTensorType full);
  bool refines(ShardingAttr to, ShardingAttr cur, int64_t rank,
               SmallVectorImpl<int64_t> &extra);
  Value reshard(Location loc, PValue v, ShardingAttr to,
                RankedTensorType full);
  Value reshardOperand(Location loc, Value original, ShardingAttr to);
  Value maskPadding(Location loc, Value local, ShardingAttr s,
                    RankedTensorType full, int64_t dim, Attribute fill);

  //===--- Contractions (Contraction.cpp) ------------------------------===//

  ContractionLayout planContraction(ShardingAttr want, RankedTensorType outFull,
                                    SmallVector<int64_t> contracting);
  void finishContraction(Operation *op, const ContractionLayout &plan,
                         Value partial, ReduceKind kind);

  //===--- Ops with a sharding rule (PassThroughHandler.cpp) -----------===//

  void partitionPassThrough(ShardingRuleOpInterface rule);

  //===--- Handlers, one file per family --------------------------------===//

  // Reshard.cpp: the user's annotation is a reshard.
  void partitionShardingConstraint(ShardingConstraintOp op);
  // CreationHandler.cpp: values made from nothing.
  void partitionDeviceId(Operation *op);
  void partitionIota(IotaOp op);
  void partitionConstant(ConstantOp op);
  // ShapeHandler.cpp
  void partitionReshape(ReshapeOp op);
  // DotHandler.cpp
  void partitionDot(DotGeneralOp op);
  // ConvolutionHandler.cpp
  void partitionConvolution(ConvolutionOp op);
  // ReduceHandler.cpp
  void partitionReduce(ReduceOp op);
  // CollectiveHandler.cpp: the user's collectives among replicas.
  void partitionUserCollective(Operation *op);
  // ControlFlowHandler.cpp
  void partitionControlFlow(Operation *op);
  void partitionCall(CallOp op);
  void partitionRegionBlock(Block &src, Block &dst,
                            ArrayRef<ShardingAttr> yield);

private:
  llvm::DenseMap<std::pair<Attribute, int64_t>, Value> offsetCache;
  Value zeroIndex_;
  bool failed_ = false;
};

} // namespace mlir::torus::spmd

#endif // TORUS_PASSES_SPMD_PARTITIONER_H
