//===- SpmdPartitioner.cpp - One program for every logical device ---------===//
//
// GSPMD's partitioner on the torus dialect. Input: a module whose values
// carry shardings (after --torus-sharding-propagation). Output: the same
// functions computing on local data — every value takes the shape of the
// tile its sharding gives a device — with the collectives that moving data
// between layouts needs, and `torus.partition_id` as the only thing that
// differs between devices. See docs/sharding.md.
//
// This file is the core: the pass, the walk over each function, and the
// dispatch of each op to its family's handler (passes/spmd/, see
// passes/spmd/Partitioner.h) or to the generic handling of ops placed on
// one device, manual ops and ops without a handler.
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/ShardingRuleOpInterface.h"
#include "passes/Passes.h"
#include "passes/spmd/Partitioner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSPMDPARTITION
#include "passes/Passes.h.inc"

int64_t shardingPartitionCount(ModuleOp module, int64_t option);

namespace spmd {
namespace {
const HandlerTable &handlerTable() {
  static const HandlerTable table = [] {
    HandlerTable t;
    registerReshardHandlers(t);
    registerCreationHandlers(t);
    registerShapeHandlers(t);
    registerDotHandlers(t);
    registerConvolutionHandlers(t);
    registerReduceHandlers(t);
    registerCollectiveHandlers(t);
    registerControlFlowHandlers(t);
    return t;
  }();
  return table;
}
} // namespace

void Partitioner::partitionOp(Operation *op) {
  const OpHandler *handler = handlerTable().lookup(op);
  if (handler && handler->anySharding)
    return handler->partition(*this, op);
  if (llvm::any_of(op->getResultTypes(),
                   [](Type t) { return !isa<RankedTensorType>(t); })) {
    fail(op->getLoc()) << "cannot partition '" << op->getName()
                       << "': its results are not tensors";
    return;
  }
  if (op->getNumRegions() != 0) {
    fail(op->getLoc()) << "cannot partition '" << op->getName() << "'";
    return;
  }
  if (op->getNumResults() == 0)
    return partitionReplicated(op);
  ShardingAttr first = resultSharding(op, 0);
  if (first.isManual())
    return partitionManual(op, first);
  if (first.isMaximal())
    return partitionMaximal(op, first);
  if (handler)
    return handler->partition(*this, op);
  if (auto rule = dyn_cast<ShardingRuleOpInterface>(op))
    if (op->getNumOperands() != 0 && rule.getOperandDimMap(0, 0))
      return partitionPassThrough(rule);
  partitionReplicated(op);
}

PValue Partitioner::lookup(Value original) {
  auto it = values.find(original);
  if (it != values.end())
    return it->second;
  // Not tensor-valued or defined outside what we partition.
  return {original, replicated()};
}

ShardingAttr Partitioner::resultSharding(Operation *op, unsigned r) {
  ShardingAttr s = getResultSharding(op, r);
  return s ? s : replicated();
}

RankedTensorType Partitioner::localType(RankedTensorType full, ShardingAttr s) {
  if (!s || !s.isTiled())
    return full;
  return RankedTensorType::get(s.getLocalShape(full.getShape()),
                               full.getElementType());
}

InFlightDiagnostic Partitioner::fail(Location loc) {
  failed_ = true;
  return emitError(loc);
}

/// Clones `op` with `operands`, results retyped to `types`, without the
/// sharding attributes.
Operation *Partitioner::cloneWith(Operation *op, ArrayRef<Value> operands,
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

void Partitioner::setResult(Operation *op, unsigned r, Value local, ShardingAttr has) {
  ShardingAttr want = resultSharding(op, r);
  auto full = cast<RankedTensorType>(op->getResult(r).getType());
  values[op->getResult(r)] = {reshard(op->getLoc(), {local, has}, want, full),
                              want};
}

/// Every tensor operand replicated, the op on whole tensors, each result
/// then sliced to its sharding.
void Partitioner::partitionReplicated(Operation *op) {
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
void Partitioner::partitionMaximal(Operation *op, ShardingAttr maximal) {
  SmallVector<Value> operands;
  for (Value o : op->getOperands())
    operands.push_back(reshardOperand(op->getLoc(), o, maximal));
  SmallVector<Type> types(op->getResultTypes());
  Operation *clone = cloneWith(op, operands, types);
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    setResult(op, r, clone->getResult(r), maximal);
}

/// Manual data is per device already: the op runs as it is.
void Partitioner::partitionManual(Operation *op, ShardingAttr manual) {
  SmallVector<Value> operands;
  for (Value o : op->getOperands())
    operands.push_back(reshardOperand(op->getLoc(), o, manual));
  SmallVector<Type> types(op->getResultTypes());
  Operation *clone = cloneWith(op, operands, types);
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    values[op->getResult(r)] = {clone->getResult(r), manual};
}

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

} // namespace spmd

namespace {
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
      spmd::Partitioner partitioner(fn, numPartitions, numReplicas);
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
