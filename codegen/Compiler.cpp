//===- Compiler.cpp - torus module to LLVM IR plus a ProgramSpec ----------===//

#include "codegen/Compiler.h"
#include "codegen/LLVMTranslation.h"
#include "codegen/PassTracing.h"
#include "codegen/Passes.h"
#include "codegen/Pipelines.h"
#include "ir/DiagnosticCollector.h"
#include "ir/Sharding.h"
#include "ir/TensorTypes.h"
#include "ir/TorusOps.h"
#include "runtime/trace/TraceRecorder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

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

/// The MLIR stages after the input, in order.
constexpr Stage kPipelineStages[] = {Stage::Sharded, Stage::Spmd,
                                     Stage::Linalg, Stage::Bufferized,
                                     Stage::LLVMDialect};

/// Adds the passes from the stage before `stage` to `stage`; false when
/// they are not built yet.
bool buildStagePipeline(OpPassManager &pm, Stage stage,
                        const CodegenOptions &codegen = {}) {
  switch (stage) {
  case Stage::Sharded:
    buildShardingPipeline(pm);
    return true;
  case Stage::Spmd:
    buildSpmdPipeline(pm);
    return true;
  case Stage::Linalg:
    buildLowerToLinalgPipeline(pm, codegen);
    return true;
  case Stage::Bufferized:
    buildBufferizePipeline(pm, codegen);
    return true;
  case Stage::LLVMDialect:
    buildBuffersToLLVMPipeline(pm, codegen);
    return true;
  default:
    return false;
  }
}

bool before(Stage a, Stage b) {
  return static_cast<int>(a) < static_cast<int>(b);
}

/// Runs `pm` on `module`, configured by `options`; errors are the
/// diagnostics.
absl::Status runPipeline(PassManager &pm, ModuleOp module,
                         const CompilerOptions &options,
                         DiagnosticCollector &diags) {
  if (options.configurePassManager)
    options.configurePassManager(pm);
  if (const auto *track = rt::TraceTrack::current())
    pm.addInstrumentation(createPassTracing(*track));
  if (failed(pm.run(module))) {
    std::string text = diags.take();
    if (text.empty())
      text = "a pass failed without a diagnostic";
    return absl::InvalidArgumentError(text);
  }
  return absl::OkStatus();
}

/// Replica groups of one collective, checked against the replica count:
/// HLO requires them to partition all replicas.
absl::StatusOr<std::vector<std::vector<int64_t>>>
readReplicaGroups(Attribute attr, int64_t numReplicas,
                  const std::string &where, std::string_view kind) {
  std::vector<std::vector<int64_t>> groups;
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(attr);
  if (!dense || dense.getNumElements() == 0)
    return groups;
  int64_t width = dense.getType().getDimSize(1);
  std::vector<int64_t> flat(dense.getValues<int64_t>().begin(),
                            dense.getValues<int64_t>().end());
  std::vector<bool> seen(numReplicas, false);
  for (size_t i = 0; i < flat.size(); i += width) {
    groups.emplace_back(flat.begin() + i, flat.begin() + i + width);
    for (int64_t id : groups.back()) {
      if (id < 0 || id >= numReplicas)
        return absl::InvalidArgumentError(fmt::format(
            "{}: {}: replica_groups name replica {}, but the program "
            "runs on {} replicas (ids 0 to {})",
            where, kind, id, numReplicas, numReplicas - 1));
      seen[id] = true;
    }
  }
  for (int64_t r = 0; r < numReplicas; ++r)
    if (!seen[r])
      return absl::InvalidArgumentError(fmt::format(
          "{}: {}: replica_groups leave out replica {} of {}; every "
          "replica must be in exactly one group",
          where, kind, r, numReplicas));
  return groups;
}

/// One entry of the `torus.collectives` table (see torus-lower-collectives)
/// as a CollectiveSpec, checked against the replica count.
absl::StatusOr<rt::CollectiveSpec> readCollective(DictionaryAttr entry,
                                                  int64_t numReplicas) {
  rt::CollectiveSpec spec;
  spec.location = entry.getAs<StringAttr>("loc").str();
  const std::string &where = spec.location;
  std::string kind = entry.getAs<StringAttr>("kind").str();
  static const std::pair<const char *, rt::CollectiveKind> kKinds[] = {
      {"all_reduce", rt::CollectiveKind::AllReduce},
      {"all_gather", rt::CollectiveKind::AllGather},
      {"reduce_scatter", rt::CollectiveKind::ReduceScatter},
      {"all_to_all", rt::CollectiveKind::AllToAll},
      {"collective_permute", rt::CollectiveKind::CollectivePermute}};
  auto known = llvm::find_if(kKinds, [&](auto &k) { return kind == k.first; });
  if (known == std::end(kKinds))
    return absl::InternalError(where + ": unknown collective kind " + kind);
  spec.kind = known->second;

  auto typeOf = [&](StringRef name) -> absl::StatusOr<::torus::TensorSpec> {
    auto attr = entry.getAs<TypeAttr>(name);
    auto type = attr ? ::torus::fromMlirType(attr.getValue()) : std::nullopt;
    if (!type)
      return absl::InvalidArgumentError(
          fmt::format("{}: {}: unsupported {}", where, kind, name.str()));
    return *type;
  };
  TORUS_ASSIGN_OR_RETURN(spec.operand, typeOf("type"));
  spec.result = spec.operand;
  if (entry.get("result_type")) {
    TORUS_ASSIGN_OR_RETURN(spec.result, typeOf("result_type"));
  }
  if (auto reduce = entry.getAs<StringAttr>("reduce")) {
    auto reduceKind = symbolizeReduceKind(reduce.getValue());
    if (!reduceKind || static_cast<int32_t>(*reduceKind) > 3)
      return absl::InvalidArgumentError(
          fmt::format("{}: {}: the runtime cannot reduce with '{}'", where,
                      kind, reduce.getValue().str()));
    spec.reduce = static_cast<rt::ReduceKind>(static_cast<int32_t>(*reduceKind));
  }
  TORUS_ASSIGN_OR_RETURN(spec.replicaGroups,
                         readReplicaGroups(entry.get("replica_groups"),
                                           numReplicas, where, kind));
  auto intAttr = [&](StringRef name) {
    auto attr = entry.getAs<IntegerAttr>(name);
    return attr ? attr.getInt() : 0;
  };
  int64_t groupSize = spec.replicaGroups.empty()
                          ? numReplicas
                          : static_cast<int64_t>(spec.replicaGroups[0].size());
  const ::torus::Shape &in = spec.operand.shape, &out = spec.result.shape;
  switch (spec.kind) {
  case rt::CollectiveKind::AllReduce:
    break;
  case rt::CollectiveKind::AllGather:
  case rt::CollectiveKind::ReduceScatter: {
    spec.dimension = intAttr("dimension");
    bool gather = spec.kind == rt::CollectiveKind::AllGather;
    int64_t whole = gather ? out[spec.dimension] : in[spec.dimension];
    int64_t part = gather ? in[spec.dimension] : out[spec.dimension];
    if (whole != part * groupSize)
      return absl::InvalidArgumentError(fmt::format(
          "{}: {}: dimension {} is {} in the {} but {} in the {}, which "
          "needs groups of {} replicas; the groups have {}",
          where, kind, spec.dimension, part, gather ? "operand" : "result",
          whole, gather ? "result" : "operand",
          part ? whole / std::max<int64_t>(part, 1) : 0, groupSize));
    break;
  }
  case rt::CollectiveKind::AllToAll:
    spec.splitDimension = intAttr("split_dimension");
    spec.concatDimension = intAttr("concat_dimension");
    spec.splitCount = intAttr("split_count");
    if (spec.splitCount != groupSize)
      return absl::InvalidArgumentError(fmt::format(
          "{}: all_to_all: split_count is {} but the replica groups have {} "
          "members",
          where, spec.splitCount, groupSize));
    break;
  case rt::CollectiveKind::CollectivePermute: {
    auto pairs = entry.getAs<DenseIntElementsAttr>("source_target_pairs");
    std::vector<int64_t> flat;
    if (pairs)
      flat.assign(pairs.getValues<int64_t>().begin(),
                  pairs.getValues<int64_t>().end());
    for (size_t i = 0; i + 1 < flat.size(); i += 2) {
      for (int64_t id : {flat[i], flat[i + 1]})
        if (id < 0 || id >= numReplicas)
          return absl::InvalidArgumentError(fmt::format(
              "{}: collective_permute: source_target_pairs name replica {}, "
              "but the program runs on {} replicas (ids 0 to {})",
              where, id, numReplicas, numReplicas - 1));
      spec.sourceTargetPairs.push_back({flat[i], flat[i + 1]});
    }
    break;
  }
  }
  return spec;
}

absl::StatusOr<std::vector<rt::CollectiveSpec>>
readCollectives(ModuleOp module, int64_t numReplicas) {
  std::vector<rt::CollectiveSpec> specs;
  ArrayAttr table =
      TorusDialect::CollectivesAttrHelper(module.getContext()).getAttr(module);
  if (!table)
    return specs;
  for (Attribute a : table) {
    TORUS_ASSIGN_OR_RETURN(
        rt::CollectiveSpec spec,
        readCollective(cast<DictionaryAttr>(a), numReplicas));
    specs.push_back(std::move(spec));
  }
  return specs;
}

} // namespace

std::string_view stageName(Stage stage) {
  switch (stage) {
  case Stage::Torus:
    return "torus";
  case Stage::Sharded:
    return "sharded";
  case Stage::Spmd:
    return "spmd";
  case Stage::Linalg:
    return "linalg";
  case Stage::Bufferized:
    return "bufferized";
  case Stage::LLVMDialect:
    return "llvm-dialect";
  case Stage::LLVMIR:
    return "llvm";
  case Stage::Asm:
    return "asm";
  case Stage::Obj:
    return "obj";
  }
  return "?";
}

std::string_view stageDescription(Stage stage) {
  switch (stage) {
  case Stage::Torus:
    return "the verified torus dialect input";
  case Stage::Sharded:
    return "torus with a sharding on every value";
  case Stage::Spmd:
    return "one SPMD program for every partition, on local shapes, with its "
           "collectives";
  case Stage::Linalg:
    return "linalg on tensors, fused into named kernels, collectives as "
           "runtime calls";
  case Stage::Bufferized:
    return "linalg on buffers, temporaries carved from one workspace";
  case Stage::LLVMDialect:
    return "the MLIR LLVM dialect";
  case Stage::LLVMIR:
    return "LLVM IR, before LLVM's optimizations (default)";
  case Stage::Asm:
    return "host assembly, optimized";
  case Stage::Obj:
    return "host object file plus <name>.torus.json metadata (needs -o)";
  }
  return "?";
}

std::string defaultPipelineText(Stage stage) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (Stage next : kPipelineStages) {
    if (before(stage, next))
      break;
    OpPassManager pm("builtin.module");
    if (!buildStagePipeline(pm, next))
      continue;
    os << "// " << stageName(next) << "\n";
    pm.printAsTextualPipeline(os);
    os << "\n";
  }
  return text;
}

absl::Status lowerToStage(ModuleOp module, Stage stage,
                          const CompilerOptions &options) {
  MLIRContext *ctx = module->getContext();
  DialectRegistry registry;
  registerCodegenDialects(registry);
  ctx->appendDialectRegistry(registry);
  DiagnosticCollector diags(ctx);
  if (failed(verify(module)))
    return absl::InvalidArgumentError(diags.take());
  // The sharding and SPMD passes read the device counts from the module.
  TORUS_ASSIGN_OR_RETURN(int64_t numPartitions,
                         resolvePartitionCount(module, options));
  if (numPartitions > 1) {
    Builder b(ctx);
    TorusDialect::NumPartitionsAttrHelper(ctx).setAttr(
        module, b.getI64IntegerAttr(numPartitions));
    TorusDialect::NumReplicasAttrHelper(ctx).setAttr(
        module, b.getI64IntegerAttr(options.numReplicas));
  }
  if (options.afterStage)
    options.afterStage(Stage::Torus, module);

  if (!options.passPipeline.empty()) {
    // `builtin.module(a,b)`: the anchor is checked, the passes added.
    std::string problems;
    llvm::raw_string_ostream errors(problems);
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(options.passPipeline, errors);
    if (failed(parsed))
      return absl::InvalidArgumentError("bad pass pipeline: " + problems);
    if (parsed->getOpAnchorName() != ModuleOp::getOperationName())
      return absl::InvalidArgumentError(
          "bad pass pipeline: it must be anchored on builtin.module, as in "
          "'builtin.module(torus-lower-to-linalg)'");
    StringRef text = StringRef(options.passPipeline).trim();
    text = text.drop_front(text.find('(') + 1).drop_back();
    PassManager pm(ctx);
    if (failed(parsePassPipeline(text, pm, errors)))
      return absl::InvalidArgumentError("bad pass pipeline: " + problems);
    return runPipeline(pm, module, options, diags);
  }

  for (Stage next : kPipelineStages) {
    if (before(stage, next))
      break;
    PassManager pm(ctx);
    CodegenOptions codegen;
    codegen.fuse = options.fuse;
    codegen.planBuffers = options.planBuffers;
    codegen.vectorBits = options.vectorBits;
    codegen.traceKernels = options.traceKernels;
    if (!buildStagePipeline(pm, next, codegen))
      continue; // Not built yet, and not the stage asked for.
    {
      rt::TraceSpan span(fmt::format("stage {}", stageName(next)), "stage");
      TORUS_RETURN_IF_ERROR(runPipeline(pm, module, options, diags));
    }
    if (options.afterStage)
      options.afterStage(next, module);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<rt::CollectiveSpec>>
readCollectiveTable(ModuleOp module, int64_t numReplicas) {
  int64_t numPartitions = 1;
  if (IntegerAttr p = TorusDialect::NumPartitionsAttrHelper(module.getContext())
                          .getAttr(module))
    numPartitions = std::max<int64_t>(1, p.getInt());
  return readCollectives(module, numReplicas * numPartitions);
}

absl::StatusOr<int64_t> resolvePartitionCount(ModuleOp module,
                                              const CompilerOptions &options) {
  IntegerAttr attr =
      TorusDialect::NumPartitionsAttrHelper(module.getContext()).getAttr(module);
  if (options.numPartitions < 0)
    return absl::InvalidArgumentError(fmt::format(
        "the partition count must be at least 1, got {}",
        options.numPartitions));
  if (options.numPartitions == 0)
    return attr ? attr.getInt() : 1;
  if (attr && attr.getInt() != options.numPartitions)
    return absl::InvalidArgumentError(fmt::format(
        "the program was traced for {} logical devices per replica but is "
        "compiled for {} partitions",
        attr.getInt(), options.numPartitions));
  return options.numPartitions;
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
  TORUS_ASSIGN_OR_RETURN(result.numPartitions,
                         resolvePartitionCount(module, options));
  // The entry's buffers, read from the input and again after partitioning
  // (which gives them their per-device shapes).
  absl::Status signature;
  auto readSignature = [&](func::FuncOp fn) {
    spec.inputs.clear();
    spec.outputs.clear();
    for (Type t : fn.getArgumentTypes()) {
      auto s = ::torus::fromMlirType(t);
      if (!s)
        return absl::InvalidArgumentError(
            "@" + spec.name + ": arguments must be static tensors");
      spec.inputs.push_back(*s);
    }
    for (Type t : fn.getResultTypes()) {
      auto s = ::torus::fromMlirType(t);
      if (!s)
        return absl::InvalidArgumentError(
            "@" + spec.name + ": results must be static tensors");
      spec.outputs.push_back(*s);
    }
    return absl::OkStatus();
  };
  TORUS_RETURN_IF_ERROR(readSignature(entry));
  CompilerOptions staged = options;
  staged.afterStage = [&](Stage stage, ModuleOp m) {
    if (stage == Stage::Spmd && signature.ok()) {
      auto fn = m.lookupSymbol<func::FuncOp>(spec.name);
      signature = fn ? readSignature(fn)
                     : absl::InternalError("@" + spec.name +
                                           " disappeared in partitioning");
      if (fn && result.numPartitions > 1) {
        auto text = [&](Attribute attr) {
          ShardingAttr s = toShardingAttr(attr, m.getContext());
          return s ? s.toString() : std::string("{replicated}");
        };
        for (unsigned i = 0; i < fn.getNumArguments(); ++i)
          result.inputShardings.push_back(
              text(fn.getArgAttr(i, kShardingAttrName)));
        for (unsigned i = 0; i < fn.getNumResults(); ++i)
          result.outputShardings.push_back(
              text(fn.getResultAttr(i, kShardingAttrName)));
      }
    }
    if (options.afterStage)
      options.afterStage(stage, m);
  };

  TORUS_RETURN_IF_ERROR(lowerToStage(module, Stage::LLVMDialect, staged));
  TORUS_RETURN_IF_ERROR(signature);
  TORUS_ASSIGN_OR_RETURN(
      spec.collectives,
      readCollectives(module, options.numReplicas * result.numPartitions));

  // The buffer plan's workspace, the entry's last argument when there is
  // one (torus-plan-buffers).
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(spec.name))
    if (IntegerAttr bytes =
            TorusDialect::WorkspaceBytesAttrHelper(fn.getContext()).getAttr(fn))
      spec.workspaceBytes = std::max<int64_t>(0, bytes.getInt());

  result.llvmContext = std::make_unique<llvm::LLVMContext>();
  rt::TraceSpan translation("translate to LLVM IR", "llvm");
  TORUS_ASSIGN_OR_RETURN(
      result.llvmModule,
      translateToLLVMIR(module, *result.llvmContext, spec.name,
                        spec.inputs.size() + spec.outputs.size(),
                        spec.workspaceBytes));
  result.entrySymbol = packedEntryName(spec.name);
  // What the code was compiled for, in the code: an AOT loader checks the
  // metadata against it (programSignature, ProgramSpec.h).
  std::string programText = rt::programSignature(spec, result.numPartitions);
  auto *text = llvm::ConstantDataArray::getString(*result.llvmContext,
                                                  programText, /*AddNull=*/true);
  auto *global = new llvm::GlobalVariable(
      *result.llvmModule, text->getType(), /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage, text,
      rt::signatureSymbolFor(result.entrySymbol));
  global->setAlignment(llvm::Align(1));
  return result;
}

} // namespace mlir::torus
