//===- ConvertManualComputation.cpp - shard_map and pmap, per device ------===//
//
// JAX lowers `shard_map` and `pmap` to sdy.manual_computation: a body that
// each device runs on its shard of the operands, over the mesh axes it
// names. Torus runs a manual computation over every mesh axis (of more
// than one device) that makes up the whole entry as the program of each
// device, as the HLO importer does with Shardy's GlobalToLocalShape and
// LocalToGlobalShape custom calls (docs/hlo.md, "Programs already per
// device"):
//
//   func.func @main(%x: tensor<8x4xf32> {sdy.sharding = ...}) -> ... {
//     %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>]
//         out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"}
//         (%local: tensor<1x4xf32>) {
//       %y = stablehlo.negate %local : tensor<1x4xf32>
//       sdy.return %y : tensor<1x4xf32>
//     } : (tensor<8x4xf32>) -> tensor<8x4xf32>
//     return %r : tensor<8x4xf32>
//   }
//
// becomes, before the ops are converted (G: torus.global_type =
// tensor<8x4xf32>, torus.global_sharding = {devices=[8,1]<=[8]}),
//
//   func.func @main(%local: tensor<1x4xf32> {G}) -> (tensor<1x4xf32> {G}) {
//     %y = stablehlo.negate %local : tensor<1x4xf32>
//     return %y : tensor<1x4xf32>
//   }
//
// The collectives in the body are converted with the module's R replicas
// and P partitions (their groups name devices d = r * P + p); then the
// module runs as R x P replicas of one partition, device d as replica d,
// and partition_id and replica_id become d % P and d / P (runPerDevice).
//
//===----------------------------------------------------------------------===//

#include "ir/Sharding.h"
#include "ir/ops/HloForms.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/SdyOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::torus::stablehlo {

namespace sdy = ::mlir::sdy;

namespace {

/// The mesh axes of more than one device that `op` leaves automatic, as
/// `"x", "y"`; empty when it is manual over all of them.
FailureOr<std::string> automaticAxes(sdy::ManualComputationOp op) {
  ArrayRef<sdy::TensorShardingAttr> shardings =
      op.getInShardings().getShardings();
  if (shardings.empty())
    shardings = op.getOutShardings().getShardings();
  if (shardings.empty())
    return std::string();
  std::string error;
  FailureOr<sdy::MeshAttr> mesh = meshOf(op, shardings.front(), error);
  if (failed(mesh))
    return op.emitError() << "'sdy.manual_computation': " << error;
  SmallVector<std::string> automatic, manual;
  for (Attribute axis : op.getManualAxes())
    if (auto name = dyn_cast<StringAttr>(axis))
      manual.push_back(name.str());
  for (auto [name, size] :
       llvm::zip(mesh->getAxisNames(), mesh->getAxisSizes()))
    if (size > 1 && !llvm::is_contained(manual, name.str()))
      automatic.push_back("\"" + name.str() + "\"");
  return llvm::join(automatic, ", ");
}

/// Checks that `op` is a manual computation Torus runs per device: over
/// every mesh axis, on the entry's arguments, giving the entry's results.
LogicalResult checkPerDevice(sdy::ManualComputationOp op, func::FuncOp entry) {
  FailureOr<std::string> automatic = automaticAxes(op);
  if (failed(automatic))
    return failure();
  if (!automatic->empty())
    return op.emitError()
           << "a manual computation (shard_map) that leaves mesh axes {"
           << *automatic
           << "} automatic is not supported: Torus runs a shard_map over "
              "every mesh axis, as the program of each device";
  if (op->getParentOp() != entry)
    return op.emitError() << "a manual computation (shard_map, pmap) inside "
                             "a function other than the entry @"
                          << entry.getSymName()
                          << " or inside a region is not supported: Torus "
                             "runs it as the program of each device";
  for (auto [i, operand] : llvm::enumerate(op.getTensors())) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || arg.getOwner() != &entry.getBody().front())
      return op.emitError()
             << "operand " << i
             << " of a manual computation (shard_map, pmap) is not an "
                "argument of @"
             << entry.getSymName()
             << ": Torus runs a shard_map whose inputs are the entry's "
                "arguments (each device given its shard), not values "
                "computed before it";
    if (!arg.hasOneUse())
      return op.emitError() << "argument " << arg.getArgNumber() << " of @"
                            << entry.getSymName()
                            << " has uses besides the manual computation "
                               "(shard_map, pmap), which Torus runs as the "
                               "program of each device";
  }
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    for (Operation *user : result.getUsers())
      if (!isa<func::ReturnOp>(user))
        return user->emitError()
               << "uses result " << i
               << " of a manual computation (shard_map, pmap), which Torus "
                  "runs as the program of each device: its results must be "
                  "the entry's results";
  return success();
}

/// The entry: `main`, else the module's only public function.
func::FuncOp entryOf(ModuleOp module) {
  func::FuncOp only;
  int publicCount = 0;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.getSymName() == "main")
      return fn;
    if (fn.isPublic() && !fn.isExternal()) {
      only = fn;
      ++publicCount;
    }
  }
  return publicCount == 1 ? only : func::FuncOp();
}

} // namespace

FailureOr<bool> inlineManualComputations(ModuleOp module) {
  SmallVector<sdy::ManualComputationOp> manual;
  module.walk([&](sdy::ManualComputationOp op) { manual.push_back(op); });
  if (manual.empty())
    return false;
  func::FuncOp entry = entryOf(module);
  if (!entry)
    return manual.front().emitError()
           << "a manual computation (shard_map, pmap) in a module without "
              "one entry function (@main)";
  for (sdy::ManualComputationOp op : manual)
    if (failed(checkPerDevice(op, entry)))
      return failure();
  Block &body = entry.getBody().front();
  for (Operation &op : body.without_terminator())
    if (!isa<sdy::ManualComputationOp>(op))
      return op.emitError()
             << "'" << op.getName()
             << "' outside the manual computation (shard_map, pmap): Torus "
                "runs a program with one as the program of each device, so "
                "its entry may hold nothing else";

  MLIRContext *ctx = module.getContext();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<std::pair<unsigned, NamedAttrList>> resultAttrs;
  // What the global program's argument or result was: its type and
  // sharding over all devices.
  auto globalAttrs = [&](sdy::ManualComputationOp op, Type type,
                         sdy::TensorShardingAttr sharding,
                         NamedAttrList &attrs) -> LogicalResult {
    std::string error;
    FailureOr<ShardingAttr> global = toTorusSharding(op, sharding, error);
    if (failed(global))
      return op.emitError() << "'sdy.manual_computation': " << error;
    attrs.set(kGlobalTypeAttrName, TypeAttr::get(type));
    attrs.set(kGlobalShardingAttrName, *global);
    return success();
  };
  for (sdy::ManualComputationOp op : manual) {
    Block &local = op.getBody().front();
    ArrayRef<sdy::TensorShardingAttr> in = op.getInShardings().getShardings();
    ArrayRef<sdy::TensorShardingAttr> out =
        op.getOutShardings().getShardings();
    for (auto [i, operand, localArg] :
         llvm::enumerate(op.getTensors(), local.getArguments())) {
      auto arg = cast<BlockArgument>(operand);
      if (i < in.size()) {
        NamedAttrList attrs(entry.getArgAttrDict(arg.getArgNumber()));
        if (failed(globalAttrs(op, arg.getType(), in[i], attrs)))
          return failure();
        entry.setArgAttrs(arg.getArgNumber(), attrs.getDictionary(ctx));
      }
      arg.setType(localArg.getType());
      localArg.replaceAllUsesWith(arg);
    }
    for (OpOperand &use : ret->getOpOperands()) {
      auto result = dyn_cast<OpResult>(use.get());
      if (!result || result.getOwner() != op ||
          result.getResultNumber() >= out.size())
        continue;
      NamedAttrList attrs;
      if (failed(globalAttrs(op, result.getType(),
                             out[result.getResultNumber()], attrs)))
        return failure();
      resultAttrs.emplace_back(use.getOperandNumber(), std::move(attrs));
    }
    Operation *terminator = local.getTerminator();
    op.replaceAllUsesWith(terminator->getOperands());
    body.getOperations().splice(op->getIterator(), local.getOperations(),
                                local.begin(), terminator->getIterator());
    op.erase();
  }
  // The arguments and results are each device's now: their shardings,
  // which describe the global arrays, go.
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    entry.removeArgAttr(i, "sdy.sharding");
    entry.removeArgAttr(i, "mhlo.sharding");
  }
  entry.setFunctionType(FunctionType::get(module.getContext(),
                                          body.getArgumentTypes(),
                                          ret.getOperandTypes()));
  for (unsigned i = 0; i < entry.getNumResults(); ++i) {
    entry.removeResultAttr(i, StringAttr::get(module.getContext(),
                                              "sdy.sharding"));
    entry.removeResultAttr(i, StringAttr::get(module.getContext(),
                                              "mhlo.sharding"));
  }
  for (auto &[i, attrs] : resultAttrs)
    for (NamedAttribute attr : attrs)
      entry.setResultAttr(i, attr.getName(), attr.getValue());
  return true;
}

void runPerDevice(ModuleOp module) {
  auto count = [&](StringRef name) -> int64_t {
    auto attr = module->getAttrOfType<IntegerAttr>(name);
    return attr ? attr.getInt() : 1;
  };
  int64_t replicas = count(kNumReplicasAttrName);
  int64_t partitions = count(kNumPartitionsAttrName);
  if (partitions > 1) {
    SmallVector<Operation *> ids;
    module.walk([&](Operation *op) {
      if (isa<PartitionIdOp, ReplicaIdOp>(op))
        ids.push_back(op);
    });
    for (Operation *op : ids) {
      OpBuilder b(op);
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      op->getResult(0).replaceAllUsesWith(perDeviceId(
          b, op->getLoc(), type, isa<PartitionIdOp>(op), partitions));
      op->erase();
    }
  }
  Builder b(module.getContext());
  module->setAttr(kNumReplicasAttrName,
                  b.getI64IntegerAttr(replicas * partitions));
  module->setAttr(kNumPartitionsAttrName, b.getI64IntegerAttr(1));
}

} // namespace mlir::torus::stablehlo
