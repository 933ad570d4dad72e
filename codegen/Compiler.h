//===- Compiler.h - torus module to LLVM IR plus a ProgramSpec --*- C++ -*-===//
//
// The whole compiler, top to bottom, in one place (Compiler.cpp): verify,
// lower to linalg, lower to the LLVM dialect, translate to LLVM IR, and
// describe the result to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_COMPILER_H
#define TORUS_CODEGEN_COMPILER_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ModuleOp;
class PassManager;
} // namespace mlir

namespace mlir::torus {

/// How far to lower, in order: the `--emit=` ladder of torusc. The MLIR
/// stages run the pipelines of Pipelines.h; LLVMIR is compileToLLVMIR's
/// result; Asm and Obj are machine code for the host, which the tools make
/// from LLVMIR (runtime/jit's JitModule::compileFor).
enum class Stage {
  Torus,       // the verified input
  Sharded,     // every value has a sharding
  Spmd,        // one SPMD program for every partition, local shapes
  Linalg,      // linalg on tensors, collectives as runtime calls
  Bufferized,  // linalg on buffers, temporaries carved from a workspace
  LLVMDialect, // the MLIR LLVM dialect
  LLVMIR,      // LLVM IR
  Asm,         // host assembly
  Obj,         // host object file
};

/// Every stage, in order.
inline constexpr Stage kAllStages[] = {
    Stage::Torus,      Stage::Sharded,     Stage::Spmd,
    Stage::Linalg,     Stage::Bufferized,  Stage::LLVMDialect,
    Stage::LLVMIR,     Stage::Asm,         Stage::Obj};

/// `torus`, `sharded`, `spmd`, `linalg`, `bufferized`, `llvm-dialect`,
/// `llvm`, `asm`, `obj`: the `--emit=` spelling.
std::string_view stageName(Stage stage);
/// One line saying what the stage's output is.
std::string_view stageDescription(Stage stage);

struct CompilerOptions {
  /// Replicas the program runs on (HLO replica_count).
  int64_t numReplicas = 1;
  /// Logical devices (partitions) per replica (HLO num_partitions); the
  /// program runs on numReplicas x numPartitions devices. 0: the module's
  /// `torus.num_partitions` (set when it was traced under a
  /// LogicalDeviceScope), else 1. With more than one, the sharding and SPMD
  /// stages partition the program and its inputs and outputs are tiles.
  int64_t numPartitions = 0;
  /// Called with the module after each stage is reached (for dumps).
  std::function<void(Stage, ModuleOp)> afterStage;
  /// Called with every PassManager before it runs, to add instrumentation
  /// (IR dumps, IR printing, timing).
  std::function<void(PassManager &)> configurePassManager;
  /// A textual pass pipeline (`builtin.module(...)`) to run instead of the
  /// stage pipelines. lowerToStage then ignores its `stage`; compileToLLVMIR
  /// needs the pipeline to end in the LLVM dialect.
  std::string passPipeline;
  /// Fuse elementwise ops into kernels (torus-fusion); false gives the
  /// naive one-op-per-loop-nest lowering, for comparisons.
  bool fuse = true;
  /// Carve the entry's temporaries from one workspace allocated once per
  /// core (torus-plan-buffers); false allocates and frees them per call.
  bool planBuffers = true;
  /// The target CPU's vector width in bits (rt::CpuTarget::vectorBits),
  /// which sizes the kernels; 0: the default target's (defaultVectorBits).
  int64_t vectorBits = 0;
  /// Compile a span per kernel into the code (torus-trace-kernels): a run
  /// traced with RunOptions::trace then shows every kernel on its core's
  /// track. Off, the code has no such calls.
  bool traceKernels = false;
};

/// An LLVM IR module ready for a JIT, with what the runtime must know.
struct CompiledModule {
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  /// Symbol of the packed `void(void**)` entry point in llvmModule.
  std::string entrySymbol;
  /// Inputs and outputs are per device: tiles when partitioned.
  ::torus::rt::ProgramSpec spec;
  /// Partitions per replica the program was compiled for.
  int64_t numPartitions = 1;
  /// When partitioned: how each input and output is split over the
  /// partitions (HLO text, `{devices=[2,1]<=[2]}`); empty otherwise.
  std::vector<std::string> inputShardings, outputShardings;

  CompiledModule();
  CompiledModule(CompiledModule &&) noexcept;
  ~CompiledModule();
};

/// Lowers `module` (in place) to `stage` (LLVMDialect for any later one).
/// Stages whose passes are not built are skipped, unless `stage` is one of
/// them: Unimplemented then. Errors carry `file:line:col` diagnostics.
absl::Status lowerToStage(ModuleOp module, Stage stage,
                          const CompilerOptions &options);

/// The collective table of a module lowered to Linalg or further (its
/// `torus.collectives` attribute), checked against the device count
/// (replicas x partitions: groups name flattened device ids).
absl::StatusOr<std::vector<::torus::rt::CollectiveSpec>>
readCollectiveTable(ModuleOp module, int64_t numReplicas);

/// The partition count `module` is compiled for: `options.numPartitions`
/// when set (InvalidArgument if the module's `torus.num_partitions` says
/// otherwise), else the module's, else 1.
absl::StatusOr<int64_t> resolvePartitionCount(ModuleOp module,
                                              const CompilerOptions &options);

/// The default pipeline from the verified input to `stage`, as text
/// (`builtin.module(...)`, one line per stage), for `--pass-pipeline`.
std::string defaultPipelineText(Stage stage);

/// Compiles `module` (in place, it ends in the LLVM dialect) to LLVM IR.
absl::StatusOr<CompiledModule> compileToLLVMIR(ModuleOp module,
                                               const CompilerOptions &options);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_COMPILER_H
