//===- Compiler.cpp - torus module to LLVM IR plus a ProgramSpec ----------===//

#include "codegen/Compiler.h"
#include "codegen/LLVMTranslation.h"
#include "codegen/Passes.h"
#include "codegen/Pipelines.h"
#include "ir/DiagnosticCollector.h"
#include "ir/TorusOps.h"
#include "ir/trace/TracedFunctionImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mlir::torus {
namespace rt = ::torus::rt;

CompiledModule::CompiledModule() = default;
CompiledModule::CompiledModule(CompiledModule &&) noexcept = default;
CompiledModule::~CompiledModule() {
  llvmModule.reset(); // Before the context that owns its types.
}

namespace {

absl::StatusOr<func::FuncOp> entryOf(ModuleOp module) {
  func::FuncOp entry;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (entry)
      return absl::InvalidArgumentError(fmt::format(
          "module has more than one public function (@{} and @{})",
          entry.getName().str(), fn.getName().str()));
    entry = fn;
  }
  if (!entry)
    return absl::InvalidArgumentError("module has no public function");
  return entry;
}

/// Stage reached by each pipeline, in order.
void buildStagePipeline(OpPassManager &pm, Stage stage) {
  if (stage == Stage::Linalg)
    buildLowerToLinalgPipeline(pm);
  else if (stage == Stage::LLVMDialect)
    buildLowerToLLVMPipeline(pm);
}

/// Replica groups of one collective, checked against the replica count:
/// HLO requires them to partition all replicas.
absl::StatusOr<std::vector<std::vector<int64_t>>>
readReplicaGroups(Attribute attr, int64_t numReplicas,
                  const std::string &where) {
  std::vector<std::vector<int64_t>> groups;
  auto dense = dyn_cast<DenseIntElementsAttr>(attr);
  if (!dense || dense.getNumElements() == 0)
    return groups;
  int64_t width = dense.getType().getDimSize(1);
  std::vector<int64_t> flat(dense.getValues<int64_t>().begin(),
                            dense.getValues<int64_t>().end());
  std::vector<bool> seen(numReplicas, false);
  for (size_t i = 0; i < flat.size(); i += width) {
    groups.emplace_back(flat.begin() + i, flat.begin() + i + width);
    for (int64_t id : groups.back()) {
      if (id >= numReplicas)
        return absl::InvalidArgumentError(fmt::format(
            "{}: all_reduce: replica_groups name replica {}, but the program "
            "runs on {} replicas",
            where, id, numReplicas));
      seen[id] = true;
    }
  }
  for (int64_t r = 0; r < numReplicas; ++r)
    if (!seen[r])
      return absl::InvalidArgumentError(fmt::format(
          "{}: all_reduce: replica_groups leave out replica {} of {}; every "
          "replica must be in exactly one group",
          where, r, numReplicas));
  return groups;
}

absl::StatusOr<std::vector<rt::CollectiveSpec>>
readCollectives(ModuleOp module, int64_t numReplicas) {
  std::vector<rt::CollectiveSpec> specs;
  auto table = module->getAttrOfType<ArrayAttr>(kCollectivesAttrName);
  if (!table)
    return specs;
  for (Attribute a : table) {
    auto entry = cast<DictionaryAttr>(a);
    rt::CollectiveSpec spec;
    spec.location = entry.getAs<StringAttr>("loc").str();
    std::string reduce = entry.getAs<StringAttr>("reduce").str();
    auto kind = symbolizeReduceKind(reduce);
    if (!kind)
      return absl::InternalError("unknown reduction " + reduce);
    spec.reduce = static_cast<rt::ReduceKind>(static_cast<int32_t>(*kind));
    auto type = ::torus::fromMlirType(entry.getAs<TypeAttr>("type").getValue());
    if (!type)
      return absl::InvalidArgumentError(spec.location +
                                        ": unsupported all_reduce type");
    spec.operand = *type;
    TORUS_ASSIGN_OR_RETURN(spec.replicaGroups,
                           readReplicaGroups(entry.get("replica_groups"),
                                             numReplicas, spec.location));
    specs.push_back(std::move(spec));
  }
  return specs;
}

} // namespace

absl::Status lowerToStage(ModuleOp module, Stage stage,
                          const CompilerOptions &options) {
  MLIRContext *ctx = module->getContext();
  DialectRegistry registry;
  registerCodegenDialects(registry);
  ctx->appendDialectRegistry(registry);
  DiagnosticCollector diags(ctx);
  if (failed(verify(module)))
    return absl::InvalidArgumentError(diags.take());
  if (options.afterStage)
    options.afterStage(Stage::Torus, module);
  for (Stage next : {Stage::Linalg, Stage::LLVMDialect}) {
    if (static_cast<int>(next) > static_cast<int>(stage))
      break;
    PassManager pm(ctx);
    buildStagePipeline(pm, next);
    if (failed(pm.run(module)))
      return absl::InvalidArgumentError(diags.take());
    if (options.afterStage)
      options.afterStage(next, module);
  }
  return absl::OkStatus();
}

absl::StatusOr<CompiledModule> compileToLLVMIR(ModuleOp module,
                                               const CompilerOptions &options) {
  if (options.numReplicas < 1)
    return absl::InvalidArgumentError(fmt::format(
        "the replica count must be at least 1, got {}", options.numReplicas));
  CompiledModule result;
  TORUS_ASSIGN_OR_RETURN(func::FuncOp entry, entryOf(module));
  rt::ProgramSpec &spec = result.spec;
  spec.name = entry.getName().str();
  spec.numReplicas = options.numReplicas;
  for (Type t : entry.getArgumentTypes()) {
    auto s = ::torus::fromMlirType(t);
    if (!s)
      return absl::InvalidArgumentError(
          "@" + spec.name + ": arguments must be static tensors");
    spec.inputs.push_back(*s);
  }
  for (Type t : entry.getResultTypes()) {
    auto s = ::torus::fromMlirType(t);
    if (!s)
      return absl::InvalidArgumentError(
          "@" + spec.name + ": results must be static tensors");
    spec.outputs.push_back(*s);
  }

  TORUS_RETURN_IF_ERROR(lowerToStage(module, Stage::LLVMDialect, options));
  TORUS_ASSIGN_OR_RETURN(spec.collectives,
                         readCollectives(module, options.numReplicas));

  result.llvmContext = std::make_unique<llvm::LLVMContext>();
  TORUS_ASSIGN_OR_RETURN(
      result.llvmModule,
      translateToLLVMIR(module, *result.llvmContext, spec.name,
                        spec.inputs.size() + spec.outputs.size()));
  result.entrySymbol = packedEntryName(spec.name);
  return result;
}

} // namespace mlir::torus
