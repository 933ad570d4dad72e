//===- ShardingPropagation.cpp - GSPMD-style sharding propagation ---------===//
//
// Gives every tensor value of the program a sharding, starting from the
// user's annotations (sharding_constraint ops, `torus.sharding` on
// arguments, results and ops) and spreading them forward (operands →
// results) and backward (results → operands) through the ops, until nothing
// changes. See docs/sharding.md for the rules; in short:
//
//   1. User annotations are never changed.
//   2. A value keeps the first sharding it is given: each round is a
//      forward sweep in program order, then a backward sweep in reverse
//      program order, so forward wins over backward and earlier ops over
//      later ones.
//   3. When an op's operands offer different shardings for a result, the
//      one with the most tiles wins (then maximal over replicated, then the
//      lower operand index); the partitioner reshards the other operands.
//   4. Whatever nothing reaches is replicated.
//
// Each sharding the pass sets records its origin in `torus.sharding_origin`:
// the direction, the op it passed through and the user annotation it
// started from, so a debug dump can trace any sharding back.
//
//===----------------------------------------------------------------------===//

#include "ir/DiagnosticCollector.h"
#include "ir/Sharding.h"
#include "ir/ShardingRuleOpInterface.h"
#include "passes/Passes.h"
#include "passes/ShardingUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSHARDINGPROPAGATION
#include "passes/Passes.h.inc"

/// The partition count a sharding pass works with: its option when set,
/// else the module's `torus.num_partitions`, else 1.
int64_t shardingPartitionCount(ModuleOp module, int64_t option) {
  if (option > 0)
    return option;
  if (auto n = module->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName))
    return n.getInt();
  return 1;
}

/// Replaces every torus.call in `module`'s public functions by the callee's
/// body (recursively), and erases private functions nothing calls any more.
LogicalResult inlineTorusCalls(ModuleOp module) {
  SymbolTable symbols(module);
  for (int round = 0; round < 64; ++round) {
    SmallVector<CallOp> calls;
    module.walk([&](CallOp call) { calls.push_back(call); });
    if (calls.empty())
      break;
    for (CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return call.emitOpError("cannot inline @")
               << call.getCallee() << " for sharding: no body";
      Block &body = callee.getBody().front();
      IRMapping mapping;
      for (auto [arg, operand] :
           llvm::zip(body.getArguments(), call.getOperands()))
        mapping.map(arg, operand);
      OpBuilder b(call);
      for (Operation &op : body.without_terminator())
        b.clone(op, mapping);
      auto ret = cast<func::ReturnOp>(body.getTerminator());
      for (auto [result, value] :
           llvm::zip(call.getResults(), ret.getOperands()))
        result.replaceAllUsesWith(mapping.lookupOrDefault(value));
      call.erase();
    }
    if (round == 63)
      return module.emitError("torus.call nesting too deep to inline");
  }
  for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (fn.isPrivate() && !fn.isExternal() &&
        SymbolTable::symbolKnownUseEmpty(fn, module))
      fn.erase();
  return success();
}

namespace {

struct Propagation {
  MLIRContext *ctx;
  int64_t numPartitions;
  llvm::DenseMap<Value, ShardingAttr> sharding;
  llvm::DenseMap<Value, std::string> origin;
  llvm::DenseMap<Value, std::string> root;
  llvm::DenseSet<Value> fixed;
  /// Where a replicated candidate came from, for values left replicated.
  llvm::DenseMap<Value, std::string> weakOrigin;
  bool changed = false;

  static int64_t rankOf(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t ? t.getRank() : -1;
  }

  ShardingAttr get(Value v) const { return sharding.lookup(v); }

  void setUser(Value v, ShardingAttr s, std::string where) {
    sharding[v] = s;
    fixed.insert(v);
    origin[v] = "user: " + where;
    root[v] = where;
  }

  /// Sets `v`'s sharding to `s` unless it has one; `how` says why.
  void propose(Value v, ShardingAttr s, Value from, StringRef direction,
               Operation *through) {
    if (!s || rankOf(v) < 0 || sharding.count(v))
      return;
    // A tiled sharding must fit the value (it always does when the rules
    // are right; be safe with ranks).
    if (s.isTiled() &&
        static_cast<int64_t>(s.getDataTileDims().size()) != rankOf(v) &&
        !(rankOf(v) == 0 && s.isFullyReplicated()))
      return;
    std::string r = root.lookup(from);
    std::string how =
        (direction + " through " + through->getName().getStringRef() + " at " +
         formatLocation(through->getLoc()) + " from " + r)
            .str();
    if (s.isFullyReplicated()) {
      // Replicated is weak: it never blocks a tiling arriving later, and is
      // what a value gets anyway when nothing else reaches it.
      if (!weakOrigin.count(v))
        weakOrigin[v] = how;
      return;
    }
    sharding[v] = s;
    root[v] = r;
    origin[v] = how;
    changed = true;
  }

  /// Orders candidate shardings: most tiles, then maximal, then the rest.
  static int64_t score(ShardingAttr s) {
    if (!s)
      return -1;
    if (s.isManual())
      return 1 << 30;
    if (s.isMaximal())
      return 1;
    int64_t tiles = numTiles(s);
    return tiles > 1 ? 1 + tiles : 0;
  }

  /// Operand `i`'s dimension map to result `r` by `op`'s sharding rule.
  static std::optional<SmallVector<int64_t>>
  dimMap(ShardingRuleOpInterface rule, unsigned i, unsigned r) {
    if (!rule)
      return std::nullopt; // No rule: nothing passes through.
    return rule.getOperandDimMap(i, r);
  }

  /// Forward: the best candidate for result `r` of `op` from its operands.
  void forward(Operation *op) {
    if (isa<ShardingConstraintOp>(op))
      return;
    auto rule = dyn_cast<ShardingRuleOpInterface>(op);
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      Value result = op->getResult(r);
      if (sharding.count(result) || rankOf(result) < 0)
        continue;
      ShardingAttr best;
      Value bestFrom;
      for (unsigned i = 0; i < op->getNumOperands(); ++i) {
        Value operand = op->getOperand(i);
        ShardingAttr s = get(operand);
        if (!s)
          continue;
        ShardingAttr candidate;
        if (s.isMaximal() || s.isManual()) {
          if (dimMap(rule, i, r))
            candidate = s;
        } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
          candidate = reshapeSharding(
              s, cast<RankedTensorType>(operand.getType()).getShape(),
              reshape.getType().getShape(), numPartitions);
        } else if (auto map = dimMap(rule, i, r)) {
          candidate = mapDims(s, rankOf(operand), *map, rankOf(result),
                              numPartitions);
        }
        if (candidate && score(candidate) > score(best)) {
          best = candidate;
          bestFrom = operand;
        }
      }
      if (best)
        propose(result, best, bestFrom, "forward", op);
    }
  }

  /// Backward: candidates for `op`'s operands from its results.
  void backward(Operation *op) {
    auto rule = dyn_cast<ShardingRuleOpInterface>(op);
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Value operand = op->getOperand(i);
      if (sharding.count(operand) || rankOf(operand) < 0)
        continue;
      if (auto c = dyn_cast<ShardingConstraintOp>(op)) {
        propose(operand, c.getSharding(), c.getResult(), "backward", op);
        continue;
      }
      ShardingAttr best;
      Value bestFrom;
      for (unsigned r = 0; r < op->getNumResults(); ++r) {
        Value result = op->getResult(r);
        ShardingAttr s = get(result);
        if (!s)
          continue;
        ShardingAttr candidate;
        if (s.isMaximal() || s.isManual()) {
          if (dimMap(rule, i, r))
            candidate = s;
        } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
          candidate = reshapeSharding(
              s, reshape.getType().getShape(),
              cast<RankedTensorType>(operand.getType()).getShape(),
              numPartitions);
        } else if (auto map = dimMap(rule, i, r)) {
          candidate = mapDims(s, rankOf(result),
                              invertDimMap(*map, rankOf(result)),
                              rankOf(operand), numPartitions);
        }
        if (candidate && score(candidate) > score(best)) {
          best = candidate;
          bestFrom = result;
        }
      }
      if (best)
        propose(operand, best, bestFrom, "backward", op);
    }
  }

  /// Values that must share one sharding: a loop's operand, result, the
  /// region arguments and what the body returns; a conditional's result and
  /// what each branch returns; a function's returned values and its result
  /// annotations.
  void tie(ArrayRef<Value> values, Operation *op) {
    Value src;
    for (Value v : values)
      if (fixed.contains(v)) {
        src = v;
        break;
      }
    if (!src)
      for (Value v : values)
        if (sharding.count(v)) {
          src = v;
          break;
        }
    if (!src)
      return;
    for (Value v : values)
      propose(v, sharding.lookup(src), src, "loop/branch", op);
  }

  void tieRegions(Operation *op) {
    if (auto w = dyn_cast<WhileOp>(op)) {
      auto condArgs = w.getCond().front().getArguments();
      auto bodyArgs = w.getBody().front().getArguments();
      Operation *yield = w.getBody().front().getTerminator();
      for (unsigned i = 0; i < w.getNumResults(); ++i)
        tie({w->getOperand(i), w->getResult(i), condArgs[i], bodyArgs[i],
             yield->getOperand(i)},
            op);
    } else if (isa<IfOp, CaseOp>(op)) {
      for (unsigned i = 0; i < op->getNumResults(); ++i) {
        SmallVector<Value> values{op->getResult(i)};
        for (Region &region : op->getRegions())
          values.push_back(region.front().getTerminator()->getOperand(i));
        tie(values, op);
      }
    }
  }
};

/// The steps of propagating through one function: read the user's
/// annotations, sweep to a fixed point, write every value's sharding down.
class FunctionPropagation {
public:
  FunctionPropagation(func::FuncOp fn, int64_t numPartitions)
      : fn(fn), entry(fn.getBody().front()),
        ret(cast<func::ReturnOp>(entry.getTerminator())) {
    p.ctx = fn.getContext();
    p.numPartitions = numPartitions;
  }

  LogicalResult run() {
    if (failed(readArgumentAnnotations()) || failed(readOpAnnotations()) ||
        failed(readResultAnnotations()))
      return failure();
    sweepToFixedPoint();
    writeArguments();
    writeResults();
    writeOps();
    return success();
  }

private:
  func::FuncOp fn;
  Block &entry;
  func::ReturnOp ret;
  Propagation p;
  /// The function's ops in pre-order (nested regions included).
  SmallVector<Operation *> ops;
  /// The annotations on the function's results (null: none).
  SmallVector<ShardingAttr> resultShardings;

  std::string fnName() { return fn.getName().str(); }

  LogicalResult check(ShardingAttr s, Value v,
                      function_ref<InFlightDiagnostic()> emitError) {
    auto type = cast<RankedTensorType>(v.getType());
    return s.verifyFor(type.getShape(), p.numPartitions, emitError);
  }

  /// The sharding an argument or result attribute spells, or an error
  /// about `what` (`argument 0`, `result 1`) when it is none.
  FailureOr<ShardingAttr> annotation(Attribute attr, StringRef what,
                                     unsigned i) {
    std::string error;
    ShardingAttr s = toShardingAttr(attr, p.ctx, &error);
    if (!s)
      return fn.emitError(what)
             << " " << i << ": " << (error.empty() ? "not a sharding" : error);
    return s;
  }

  LogicalResult readArgumentAnnotations() {
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      Attribute attr = fn.getArgAttr(i, kShardingAttrName);
      if (!attr)
        continue;
      FailureOr<ShardingAttr> s = annotation(attr, "argument", i);
      if (failed(s) || failed(check(*s, entry.getArgument(i), [&] {
            return fn.emitError("argument ") << i << ": ";
          })))
        return failure();
      p.setUser(entry.getArgument(i), *s,
                "the annotation on argument " + std::to_string(i) + " of @" +
                    fnName());
    }
    return success();
  }

  /// Collects `ops` and takes the user's sharding_constraint ops and
  /// `torus.sharding` op attributes.
  LogicalResult readOpAnnotations() {
    bool failedCheck = false;
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == fn)
        return;
      ops.push_back(op);
      if (failed(readOpAnnotation(op)))
        failedCheck = true;
    });
    return failure(failedCheck);
  }

  LogicalResult readOpAnnotation(Operation *op) {
    if (auto c = dyn_cast<ShardingConstraintOp>(op)) {
      p.setUser(c.getResult(), c.getSharding(),
                "the torus.sharding_constraint at " +
                    formatLocation(op->getLoc()));
      return check(c.getSharding(), c.getResult(),
                   [&] { return c.emitOpError(); });
    }
    if (!op->hasAttr(kShardingAttrName))
      return success();
    bool ok = true;
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      ShardingAttr s = getResultSharding(op, r);
      if (!s)
        return op->emitOpError("has a torus.sharding attribute that is not a "
                               "sharding (or not one per result)");
      ok &= succeeded(
          check(s, op->getResult(r), [&] { return op->emitOpError(); }));
      p.setUser(op->getResult(r), s,
                "the torus.sharding of " + op->getName().getStringRef().str() +
                    " at " + formatLocation(op->getLoc()));
    }
    return success(ok);
  }

  /// Result annotations: what the function returns must end up so laid out
  /// (the partitioner reshards at the return); they reach the returned
  /// values in the backward sweep, after anything coming forward.
  LogicalResult readResultAnnotations() {
    resultShardings.assign(fn.getNumResults(), ShardingAttr());
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      Attribute attr = fn.getResultAttr(i, kShardingAttrName);
      if (!attr)
        continue;
      FailureOr<ShardingAttr> s = annotation(attr, "result", i);
      if (failed(s) || failed(check(*s, ret.getOperand(i), [&] {
            return fn.emitError("result ") << i << ": ";
          })))
        return failure();
      resultShardings[i] = *s;
    }
    return success();
  }

  void proposeResultAnnotations() {
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      Value v = ret.getOperand(i);
      if (!resultShardings[i] || p.sharding.count(v))
        continue;
      std::string where = "the annotation on result " + std::to_string(i) +
                          " of @" + fnName();
      if (resultShardings[i].isFullyReplicated()) {
        if (!p.weakOrigin.count(v))
          p.weakOrigin[v] = "backward from " + where;
        continue;
      }
      p.sharding[v] = resultShardings[i];
      p.root[v] = where;
      p.origin[v] = "backward from " + where;
      p.changed = true;
    }
  }

  void sweepToFixedPoint() {
    for (int round = 0; round < 1000; ++round) {
      p.changed = false;
      for (Operation *op : ops) {
        p.tieRegions(op);
        p.forward(op);
      }
      proposeResultAnnotations();
      for (Operation *op : llvm::reverse(ops)) {
        p.tieRegions(op);
        p.backward(op);
      }
      if (!p.changed)
        break;
    }
  }

  ShardingAttr shardingOfValue(Value v) const {
    ShardingAttr s = p.get(v);
    return s ? s : ShardingAttr::getReplicated(p.ctx);
  }

  std::string originOf(Value v) const {
    if (auto it = p.origin.find(v); it != p.origin.end())
      return it->second;
    if (auto it = p.weakOrigin.find(v); it != p.weakOrigin.end())
      return it->second;
    return "default: no annotation reaches this value";
  }

  void writeArguments() {
    Builder b(p.ctx);
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      Value arg = entry.getArgument(i);
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      fn.setArgAttr(i, kShardingAttrName, shardingOfValue(arg));
      if (!p.fixed.contains(arg))
        fn.setArgAttr(i, kShardingOriginAttrName,
                      b.getStringAttr(originOf(arg)));
    }
  }

  void writeResults() {
    for (unsigned i = 0; i < fn.getNumResults(); ++i)
      fn.setResultAttr(i, kShardingAttrName,
                       resultShardings[i]
                           ? resultShardings[i]
                           : shardingOfValue(ret.getOperand(i)));
  }

  void writeOps() {
    Builder b(p.ctx);
    for (Operation *op : ops) {
      if (isa<ShardingConstraintOp>(op) || op->getNumResults() == 0)
        continue;
      if (llvm::any_of(op->getResultTypes(), [](Type t) {
            return !isa<RankedTensorType>(t);
          }))
        continue;
      SmallVector<ShardingAttr> shardings;
      SmallVector<Attribute> origins;
      bool anyPropagated = false;
      for (Value r : op->getResults()) {
        shardings.push_back(shardingOfValue(r));
        origins.push_back(b.getStringAttr(
            p.fixed.contains(r) ? "user: " + p.root.lookup(r)
                                : originOf(r)));
        anyPropagated |= !p.fixed.contains(r);
      }
      setResultShardings(op, shardings);
      if (anyPropagated)
        op->setAttr(kShardingOriginAttrName,
                    origins.size() == 1 ? origins[0]
                                        : Attribute(b.getArrayAttr(origins)));
    }
  }
};

struct ShardingPropagationPass
    : impl::TorusShardingPropagationBase<ShardingPropagationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t numPartitions = shardingPartitionCount(module, numPartitionsOpt);
    if (failed(inlineTorusCalls(module)))
      return signalPassFailure();
    if (numPartitions <= 1)
      return; // One logical device: every sharding is trivial.
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() &&
          failed(FunctionPropagation(fn, numPartitions).run()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::torus
