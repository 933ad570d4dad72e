//===- ImportCustomCalls.cpp - HLO custom-calls to torus ------------------===//
//
// A custom-call names its meaning by `custom_call_target`. Torus reads the
// targets that XLA and JAX write for programs of its ops: sharding
// annotations (`Sharding`) and the top-k that XLA:CPU's optimized HLO calls
// (`TopK`). customCallTargets() maps each to its handler; any other target
// is an error naming it, since its meaning is code Torus does not have (a
// LAPACK or DUCC kernel, a Python callback, ...).
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::torus::hlo {

const llvm::StringMap<Importer::Handler> &Importer::customCallTargets() {
  static const llvm::StringMap<Handler> targets = {
      {"Sharding", &Importer::emitShardingCall},
      {"xla.sdy.Sharding", &Importer::emitShardingCall},
      {"TopK", &Importer::emitTopKCall},
      // A function result's sharding, which the ROOT's sharding states too.
      {"xla.sdy.FuncResultSharding", &Importer::emitPassThroughCall},
      // The edges of a manual computation (shard_map, pmap), which make
      // the program one per device (HloDeviceCounts.cpp).
      {"xla.sdy.GlobalToLocalShape", &Importer::emitManualEdgeCall},
      {"xla.sdy.LocalToGlobalShape", &Importer::emitManualEdgeCall},
      {"SPMDFullToShardShape", &Importer::emitManualEdgeCall},
      {"SPMDShardToFullShape", &Importer::emitManualEdgeCall},
  };
  return targets;
}

LogicalResult Importer::emitCustomCall(const Instruction &instr,
                                       Operands operands, HloValue &result) {
  const Attr *target = requireAttr(instr, "custom_call_target");
  if (!target)
    return failure();
  std::string name;
  if (failed(AttrParser(*target, locator_).string(name)))
    return failure();
  auto it = customCallTargets().find(name);
  if (it == customCallTargets().end()) {
    llvm::SmallVector<llvm::StringRef> known;
    for (const auto &entry : customCallTargets())
      known.push_back(entry.getKey());
    llvm::sort(known);
    error(target->valueLoc)
        << "unsupported custom-call target '" << name
        << "': it calls code outside HLO that Torus does not have; Torus "
           "reads the targets "
        << llvm::join(known, ", ");
    return failure();
  }
  return (this->*it->second)(instr, operands, result);
}

// XLA's sharding annotation (`Sharding`; Shardy's `xla.sdy.Sharding` with
// its GSPMD `sharding=` beside): the operand, constrained to the sharding.
LogicalResult Importer::emitShardingCall(const Instruction &instr,
                                         Operands operands, HloValue &result) {
  auto in = arrays(instr, operands, 1);
  // A per-device program has been partitioned by it already; Shardy's
  // annotation without a GSPMD sharding only repeats what propagation
  // finds.
  if (succeeded(in) && (perDevice_ || !instr.attr("sharding"))) {
    result.leaves.push_back(in->values[0]);
    return success();
  }
  const Attr *shardingText = requireAttr(instr, "sharding");
  if (failed(in) || !shardingText)
    return failure();
  Sharding s;
  if (failed(AttrParser(*shardingText, locator_).sharding(s)))
    return failure();
  auto attr = shardingAttr(*shardingText, s);
  if (failed(attr))
    return failure();
  result.leaves.push_back(b_.create<ShardingConstraintOp>(
      opLoc(instr), in->type, in->values[0], *attr));
  return success();
}

// The operands, unchanged.
LogicalResult Importer::emitPassThroughCall(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  for (const HloValue *v : operands)
    result.leaves.append(v->leaves.begin(), v->leaves.end());
  return success();
}

// The edges of a manual computation: GlobalToLocalShape/SPMDFullToShardShape
// take global arrays to each device's shard, LocalToGlobalShape/
// SPMDShardToFullShape put the shards together again. A program with a
// manual computation over every mesh axis is imported per device
// (isPerDeviceProgram): the entry's parameters that enter it are already
// the shards (parameterShards), and its results stay the shards, so both
// edges pass their values.
LogicalResult Importer::emitManualEdgeCall(const Instruction &instr,
                                           Operands operands,
                                           HloValue &result) {
  const Attr *target = instr.attr("custom_call_target");
  if (!perDevice_) {
    error(target->valueLoc)
        << "custom-call " << target->value
        << " outside a program Torus runs per device (a shard_map over all "
           "mesh axes)";
    return failure();
  }
  for (const HloValue *v : operands)
    result.leaves.append(v->leaves.begin(), v->leaves.end());
  llvm::SmallVector<const Shape *> shapes;
  instr.shape.leaves(shapes);
  bool toLocal = target->value.contains("GlobalToLocal") ||
                 target->value.contains("FullToShard");
  if (result.leaves.size() != shapes.size()) {
    error(instr.opcodeLoc) << "custom-call " << target->value << " of "
                           << result.leaves.size() << " arrays produces "
                           << shapeText(instr.shape);
    return failure();
  }
  for (auto [v, shape] : llvm::zip(result.leaves, shapes))
    if (toLocal && v.getType() != tensorType(ctx_, *shape)) {
      error(instr.operands.empty() ? instr.opcodeLoc : instr.operands[0].loc)
          << "custom-call " << target->value
          << ": Torus runs a shard_map whose inputs are the entry's "
             "parameters (each device given its shard "
          << shapeText(*shape) << "), not values computed before it";
      return failure();
    }
  return success();
}

// XLA's TopK (what its TopkRewriter makes of a sort whose first k elements
// are used): the k largest elements along the last dimension, and their
// indices. The comparator in `called_computations`, if any, must order by
// `>` (XLA's is a total-order `>`): that is top_k with largest=true.
LogicalResult Importer::emitTopKCall(const Instruction &instr,
                                     Operands operands, HloValue &result) {
  if (failed(checkOperandCount(instr, 1, operands.size())))
    return failure();
  auto x = array(instr, operands, 0);
  if (failed(x))
    return failure();
  llvm::SmallVector<const Shape *> leaves;
  instr.shape.leaves(leaves);
  if (!instr.shape.isTuple || leaves.size() != 2 || leaves[0]->dims.empty()) {
    error(instr.shape.loc) << "custom-call 'TopK' produces a (values, "
                              "indices) tuple of arrays, not "
                           << shapeText(instr.shape);
    return failure();
  }
  if (const Attr *called = instr.attr("called_computations")) {
    llvm::SmallVector<llvm::StringRef> names;
    if (failed(AttrParser(*called, locator_).computations(names)))
      return failure();
    for (llvm::StringRef name : names) {
      auto it = ast_.byName.find(name);
      if (it == ast_.byName.end()) {
        error(called->valueLoc) << "unknown computation '" << name << "'";
        return failure();
      }
      const Computation &comp = ast_.computations[it->second];
      std::optional<bool> greater = comparatorIsGreater(comp);
      if (!greater || !*greater) {
        error(called->valueLoc)
            << "custom-call 'TopK' with comparator '" << name << "' (line "
            << locator_.line(comp.loc)
            << "): Torus reads TopK with a comparator that orders by '>' "
               "(the largest first), as XLA writes it";
        return failure();
      }
    }
  }
  auto op = b_.create<TopKOp>(
      opLoc(instr), tensorType(ctx_, *leaves[0]), tensorType(ctx_, *leaves[1]),
      *x, b_.getI64IntegerAttr(leaves[0]->dims.back()), b_.getBoolAttr(true));
  result.leaves.assign(op->getResults().begin(), op->getResults().end());
  return success();
}

} // namespace mlir::torus::hlo
