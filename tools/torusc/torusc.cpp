//===- torusc.cpp - The Torus compiler driver -----------------------------===//
//
//   torusc step.mlir --emit=llvm -o step.ll
//   torusc step.mlir --topology=v3-8 --emit=obj -o step.o   (+ step.torus.json)
//   torusc step.mlir --dump-dir=dumps --dump-dot
//
// Reads a module of the torus dialect and writes it lowered to the stage
// --emit names, optionally dumping every step of the way. docs/torusc.md
// documents every flag. Exit codes: 0 success; 1 the input program is
// invalid (diagnostics on stderr as file:line:col: error: ...); 2 bad command
// line, unreadable input or unwritable output; 3 internal compiler error.
//
//===----------------------------------------------------------------------===//

#include "codegen/CollectiveReport.h"
#include "codegen/Compiler.h"
#include "codegen/ComputeCounts.h"
#include "codegen/DotGraph.h"
#include "codegen/IRDumper.h"
#include "codegen/MemoryReport.h"
#include "codegen/Pipelines.h"
#include "ir/DiagnosticCollector.h"
#include "ir/hlo/HloExport.h"
#include "ir/hlo/HloImport.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/ProgramSpecIO.h"
#include "runtime/core/CoreMemory.h"
#include "runtime/cost/CostModel.h"
#include "runtime/cost/Roofline.h"
#include "runtime/jit/JitModule.h"
#include "runtime/trace/TraceRecorder.h"
#include "tools/common/MeshPlan.h"
#include "tools/common/Progress.h"
#include "tools/common/ProgramMesh.h"
#include "tools/common/SourceProgram.h"
#include "tools/common/StandardOutput.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

namespace cl = llvm::cl;
using mlir::torus::Stage;

namespace {

// Exit codes (docs/torusc.md).
constexpr int kExitInvalidInput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 3;

cl::OptionCategory ioCategory("Input and output");
cl::OptionCategory targetCategory("Target mesh");
cl::OptionCategory passCategory("Pass control");
cl::OptionCategory dumpCategory("Dumps");
cl::OptionCategory reportCategory("Reports");
cl::OptionCategory mlirCategory("MLIR printing and timing");

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<input .mlir or .hlo file, or - for stdin>"),
                               cl::init("-"), cl::cat(ioCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(ioCategory));

/// `--emit=hlo`: the input module as XLA HLO text (ir/hlo), not a stage of
/// the compiler.
constexpr Stage kEmitHlo = static_cast<Stage>(-1);

struct StageParser : cl::parser<Stage> {
  explicit StageParser(cl::Option &o) : cl::parser<Stage>(o) {
    for (Stage s : mlir::torus::kAllStages)
      addLiteralOption(mlir::torus::stageName(s), s,
                       mlir::torus::stageDescription(s));
    addLiteralOption("hlo", kEmitHlo,
                     "the input program as XLA HLO text (docs/hlo.md)");
  }
};
cl::opt<Stage, false, StageParser>
    emit("emit", cl::desc("How far to lower before writing the output"),
         cl::init(Stage::LLVMIR), cl::cat(ioCategory));
cl::opt<int> optLevel("O",
                      cl::desc("LLVM optimization level for asm and obj, and "
                               "for the optimized IR dump (0-3, default 3)"),
                      cl::init(3), cl::Prefix, cl::cat(ioCategory));

cl::opt<std::string> topology(
    "topology",
    cl::desc("TPU slice to compile for, e.g. v3-8, v4-32 (a preset); sets "
             "the cores replicas are placed on. With --report, several "
             "presets separated by commas price the program on each"),
    cl::value_desc("preset[,preset...]"), cl::cat(targetCategory));
cl::opt<std::string> meshShape(
    "mesh-shape",
    cl::desc("Custom slice XxYxZxC (chips along x, y, z; cores per chip), "
             "e.g. 2x2x1x2; instead of --topology"),
    cl::value_desc("XxYxZxC"), cl::cat(targetCategory));
cl::opt<int64_t> replicas(
    "replicas",
    cl::desc("Replicas the program runs on (default 1, or as many as fit "
             "the topology)"),
    cl::cat(targetCategory));
cl::opt<std::string> computationShape(
    "computation-shape",
    cl::desc("Cores of one replica on the mesh, XxYxZxC (default 1x1x1x1)"),
    cl::value_desc("XxYxZxC"), cl::cat(targetCategory));
cl::opt<int64_t> numPartitions(
    "num-partitions",
    cl::desc("Logical devices (partitions) per replica: the sharding and "
             "SPMD stages partition the program over them"),
    cl::cat(targetCategory));

cl::opt<std::string> targetCpu(
    "target-cpu",
    cl::desc("CPU the code is compiled for: host (default, or TORUS_TARGET "
             "when set), an x86-64 level (x86-64-v2, x86-64-v3, x86-64-v4) "
             "or a CPU name (haswell, znver1, skylake-avx512, "
             "sapphirerapids, ...)"),
    cl::value_desc("cpu"), cl::cat(targetCategory));
cl::opt<std::string> targetFeatures(
    "target-features",
    cl::desc("CPU features added to or removed from --target-cpu's, e.g. "
             "+avx512bf16,+avx512fp16 or -fma"),
    cl::value_desc("+f,-g"), cl::cat(targetCategory));

cl::opt<bool> verbose("v",
                      cl::desc("Print each phase of the compile (parsing, "
                               "the passes of each stage, codegen, LLVM) "
                               "with its time on stderr"),
                      cl::cat(ioCategory));

cl::opt<std::string> passPipeline(
    "pass-pipeline",
    cl::desc("Run this textual pipeline, e.g. "
             "'builtin.module(torus-lower-to-linalg)', instead of the "
             "default ones (see --print-pipeline)"),
    cl::value_desc("pipeline"), cl::cat(passCategory));
cl::opt<bool> printPipeline(
    "print-pipeline",
    cl::desc("Print the default pass pipeline up to --emit and exit"),
    cl::cat(passCategory));
cl::opt<bool> printIRAfterAll("print-ir-after-all",
                              cl::desc("Print the module after every pass "
                                       "(to stderr)"),
                              cl::cat(passCategory));
cl::opt<bool> printIRBeforeAll("print-ir-before-all",
                               cl::desc("Print the module before every pass "
                                        "(to stderr)"),
                               cl::cat(passCategory));
cl::list<std::string> printIRAfter(
    "print-ir-after",
    cl::desc("Print the module after the named passes (comma-separated "
             "pass arguments, e.g. torus-to-linalg,canonicalize)"),
    cl::value_desc("pass"), cl::CommaSeparated, cl::cat(passCategory));
cl::list<std::string> printIRBefore(
    "print-ir-before",
    cl::desc("Print the module before the named passes"),
    cl::value_desc("pass"), cl::CommaSeparated, cl::cat(passCategory));

cl::opt<std::string> dumpDir(
    "dump-dir",
    cl::desc("Write the module after every pass, the LLVM IR before and "
             "after optimization, a memory report and a collective report "
             "into this directory"),
    cl::value_desc("dir"), cl::cat(dumpCategory));
cl::opt<bool> dumpDot(
    "dump-dot",
    cl::desc("Also write a Graphviz graph of the torus-level program "
             "(needs --dump-dir)"),
    cl::cat(dumpCategory));
cl::opt<std::string> traceFile(
    "trace",
    cl::desc("Write a timeline of the compile (every pass, the LLVM stages) "
             "as Chrome/Perfetto trace JSON into this file (open it in "
             "ui.perfetto.dev)"),
    cl::value_desc("file"), cl::cat(dumpCategory));
cl::opt<bool> kernelSpans(
    "kernel-spans",
    cl::desc("Compile a span per kernel into the code, so that a traced run "
             "of it (torus-run --trace on the artifact) shows every kernel "
             "on its core's track"),
    cl::cat(dumpCategory));
cl::opt<bool> dumpBeforePasses(
    "dump-before-passes",
    cl::desc("Also write the module before every pass (needs --dump-dir)"),
    cl::cat(dumpCategory));

enum class Report { None, Roofline };
cl::opt<Report> report(
    "report",
    cl::desc("Write a report instead of --emit's output (to -o, default "
             "stdout)"),
    cl::values(clEnumValN(Report::Roofline, "roofline",
                          "per op and per step: FLOPs, HBM and ICI bytes, "
                          "their times on the --topology slice, the bound "
                          "and the model FLOP utilisation; with several "
                          "slices, one what-if table (docs/cost-model.md)")),
    cl::init(Report::None), cl::cat(reportCategory));

/// MLIR's own options shown in --help (the rest stay usable, unlisted).
constexpr const char *kVisibleMlirOptions[] = {
    "mlir-print-debuginfo",   "mlir-pretty-debuginfo",
    "mlir-print-local-scope", "mlir-elide-elementsattrs-if-larger",
    "mlir-print-op-generic",  "mlir-timing",
    "mlir-pass-statistics",   "mlir-disable-threading",
};

/// The compile's timeline, with --trace (written by main()).
std::unique_ptr<torus::rt::TraceRecorder> trace;
constexpr int64_t kTracePid = 1, kTraceTid = 1;

int fail(std::string_view message, int code) {
  llvm::errs() << message;
  if (message.empty() || message.back() != '\n')
    llvm::errs() << "\n";
  return code;
}

int usageError(std::string_view message) {
  return fail(fmt::format("torusc: {}", message), kExitUsage);
}
int usageError(const absl::Status &status) {
  return usageError(std::string(status.message()));
}

/// A compiler error: diagnostics (file:line:col: error: ...) as they are,
/// anything else prefixed with "torusc: ".
int compileError(const absl::Status &status) {
  std::string text =
      torus::tools::normalizeDiagnostics(std::string(status.message()));
  if (status.code() == absl::StatusCode::kInternal && passPipeline.empty())
    return fail(fmt::format("torusc: internal compiler error: {}\nPlease "
                            "report it with the input file.",
                            text),
                kExitInternal);
  if (status.code() == absl::StatusCode::kUnimplemented ||
      status.code() == absl::StatusCode::kNotFound ||
      status.code() == absl::StatusCode::kPermissionDenied)
    return usageError(text);
  return fail(text, kExitInvalidInput);
}

bool isMlirStage(Stage s) {
  return static_cast<int>(s) <= static_cast<int>(Stage::LLVMDialect);
}

/// Checks pass names given to --print-ir-after/before against the registry.
std::optional<std::string> unknownPass(const cl::list<std::string> &names) {
  for (const std::string &name : names)
    if (!mlir::PassInfo::lookup(name) && !mlir::PassPipelineInfo::lookup(name))
      return name;
  return std::nullopt;
}

bool matches(const cl::list<std::string> &names, mlir::Pass *pass) {
  for (const std::string &name : names)
    if (pass->getArgument() == name || pass->getName() == name)
      return true;
  return false;
}

/// Writes `bytes` to `path` ("-" for stdout). A write that fails (a full
/// disk, /dev/full, a closed pipe) is a PermissionDenied status naming the
/// file: the stream's error is cleared so that LLVM does not abort with
/// "IO failure on output stream" when the stream is destroyed.
absl::Status writeOutput(const std::string &path, std::string_view bytes) {
  const std::string shown =
      path == "-" ? "standard output" : fmt::format("'{}'", path);
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return absl::PermissionDeniedError(
        fmt::format("cannot write {}: {}", shown, ec.message()));
  out.os() << bytes;
  out.os().flush();
  if (out.os().has_error()) {
    std::error_code error = out.os().error();
    out.os().clear_error();
    return absl::PermissionDeniedError(
        fmt::format("cannot write {}: {}", shown, error.message()));
  }
  out.keep();
  return absl::OkStatus();
}

absl::Status writeText(const std::string &path, std::string_view text) {
  return writeOutput(path, text);
}

absl::Status writeBinary(const std::string &path, std::string_view bytes) {
  return writeOutput(path, bytes);
}

/// The compiler's counts as the cost model takes them.
torus::rt::ProgramCounts
programCounts(const std::optional<mlir::torus::ComputeCounts> &counts) {
  torus::rt::ProgramCounts programCounts;
  if (!counts)
    return programCounts;
  programCounts.bf16Flops = counts->bf16Flops;
  programCounts.f32Flops = counts->f32Flops;
  programCounts.hbmBytes = counts->hbmBytes;
  for (const mlir::torus::OpCount &op : counts->ops)
    programCounts.ops.push_back(
        {op.name, op.location, op.bf16Flops, op.f32Flops, op.hbmBytes});
  return programCounts;
}

/// The placement of the plan's logical devices, for the cost model.
torus::rt::CostModelOptions costOptions(const torus::tools::MeshPlan &plan) {
  torus::rt::CostModelOptions options;
  options.numPartitions = plan.numPartitions;
  for (const auto &cores : plan.coresOf)
    options.deviceToCore.insert(options.deviceToCore.end(), cores.begin(),
                                cores.end());
  return options;
}

/// The cost model's price of a step of `spec` on the plan's slice, or why
/// there is none.
struct Pricing {
  std::optional<torus::rt::StepCost> cost;
  std::string reason;
};

Pricing price(const torus::rt::ProgramSpec &spec,
              const std::optional<mlir::torus::ComputeCounts> &counts,
              const torus::tools::MeshPlan &plan) {
  if (!plan.topology)
    return {std::nullopt, "no TPU slice given (--topology or --mesh-shape)"};
  if (!plan.topology->generation())
    return {std::nullopt, fmt::format("{} has no TPU generation (use a "
                                      "preset such as v3-8)",
                                      plan.topologyName)};
  auto cost = torus::rt::estimateStepCost(spec, programCounts(counts),
                                         *plan.topology, costOptions(plan));
  if (!cost.ok())
    return {std::nullopt, std::string(cost.status().message())};
  return {std::move(*cost), ""};
}

std::string collectiveReport(const torus::rt::ProgramSpec &spec,
                             const Pricing &pricing,
                             const torus::tools::MeshPlan &plan) {
  std::vector<mlir::torus::CollectiveTiming> timings;
  if (pricing.cost)
    for (const auto &c : pricing.cost->collectives)
      timings.push_back({c.seconds(), c.cost.detail});
  return mlir::torus::formatCollectiveReport(spec, timings, plan.topologyName,
                                             pricing.reason,
                                             plan.numPartitions);
}

/// The roofline of `spec` on the plan's slice, or why there is none.
absl::StatusOr<torus::rt::Roofline>
roofline(const torus::rt::ProgramSpec &spec,
         const std::optional<mlir::torus::ComputeCounts> &counts,
         const torus::tools::MeshPlan &plan) {
  if (!plan.topology || !plan.topology->generation())
    return absl::FailedPreconditionError(fmt::format(
        "{} has no TPU generation (use a preset such as v4-8)",
        plan.topologyName.empty() ? std::string("the mesh")
                                  : plan.topologyName));
  return torus::rt::computeRoofline(spec, programCounts(counts),
                                    *plan.topology, costOptions(plan));
}

/// What the program counts' estimates are, if anything.
std::string countNotes(const std::optional<mlir::torus::ComputeCounts> &counts) {
  if (!counts)
    return "no FLOP or byte counts (the program could not be counted)\n";
  std::string out;
  for (const std::string &note : counts->notes)
    out += fmt::format("estimate: {}\n", note);
  return out;
}

/// `--report=roofline`: the roofline on one slice, or with several slices
/// the what-if table pricing the same program (replicas, partitions,
/// computation shape) on each.
absl::StatusOr<std::string>
rooflineReport(const torus::rt::ProgramSpec &spec,
               const std::optional<mlir::torus::ComputeCounts> &counts,
               const torus::tools::MeshPlan &plan,
               const torus::tools::MeshRequest &request,
               const std::vector<std::string> &slices) {
  const std::string program = fmt::format(
      "@{} ({} replica{} x {} partition{})", spec.name, spec.numReplicas,
      spec.numReplicas == 1 ? "" : "s", plan.numPartitions,
      plan.numPartitions == 1 ? "" : "s");
  if (slices.size() <= 1) {
    auto r = roofline(spec, counts, plan);
    if (!r.ok())
      return r.status();
    return fmt::format("{}\n{}", program, countNotes(counts)) +
           torus::rt::formatRoofline(*r);
  }
  std::vector<torus::rt::WhatIfEntry> entries;
  for (const std::string &slice : slices) {
    torus::tools::MeshRequest each = request;
    each.topology = slice;
    each.replicas = plan.numReplicas;
    each.numPartitions = plan.numPartitions;
    torus::rt::WhatIfEntry entry;
    entry.slice = slice;
    auto placed = torus::tools::planMesh(each);
    auto r = placed.ok() ? roofline(spec, counts, *placed)
                         : absl::StatusOr<torus::rt::Roofline>(placed.status());
    if (r.ok())
      entry.roofline = std::move(*r);
    else
      entry.error = std::string(r.status().message());
    entries.push_back(std::move(entry));
  }
  return fmt::format("What-if: {} on {} slices\n{}\n", program,
                     slices.size(), countNotes(counts)) +
         torus::rt::formatWhatIf(entries);
}

/// "a,b,c" -> {"a", "b", "c"}.
std::vector<std::string> splitCommas(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma == std::string_view::npos
                                              ? std::string_view::npos
                                              : comma - start));
    if (comma == std::string_view::npos)
      return parts;
    start = comma + 1;
  }
}

std::string printModule(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  os << "\n";
  return text;
}

std::string printLLVM(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

void registerAndCategorizeMlirOptions() {
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  auto &options = cl::getRegisteredOptions();
  for (const char *name : kVisibleMlirOptions) {
    auto it = options.find(name);
    if (it != options.end()) {
      it->second->addCategory(mlirCategory);
      it->second->setHiddenFlag(cl::NotHidden);
    }
  }
}

/// The compiler driver; main() adds the check of what went to stdout.
int compile(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAndCategorizeMlirOptions();
  mlir::torus::registerCompilerPasses();
  cl::HideUnrelatedOptions({&ioCategory, &targetCategory, &passCategory,
                            &dumpCategory, &reportCategory, &mlirCategory});
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "torusc (Torus 0.1.0), built with LLVM/MLIR " << LLVM_VERSION_STRING
       << "\n";
    auto target = torus::rt::defaultCpuTarget();
    if (target.ok())
      os << "  default target: " << target->cpu << " (" << target->spec
         << ", " << target->vectorBits() << "-bit vectors) on "
         << target->triple << "\n";
    else
      os << "  default target: " << std::string(target.status().message())
         << "\n";
    auto host = torus::rt::hostCpuTarget();
    if (host.ok())
      os << "  host CPU: " << host->cpu << "\n";
  });
  std::string parseErrors;
  llvm::raw_string_ostream parseErrorStream(parseErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "torusc: compile a torus dialect module for an emulated TPU mesh\n\n"
          "  torusc step.mlir --emit=linalg          print the program "
          "lowered to linalg\n"
          "  torusc step.mlir --replicas=8 -o step.ll   LLVM IR for 8 "
          "replicas\n"
          "  torusc step.mlir --topology=v3-8 --emit=obj -o step.o\n"
          "                        object file + step.torus.json for "
          "torus-run\n"
          "  torusc step.mlir --dump-dir=dumps --dump-dot   every step of "
          "the way\n\n"
          "Exit codes: 0 ok, 1 invalid program, 2 bad command line or "
          "I/O, 3 internal error.\nMore: docs/torusc.md\n",
          &parseErrorStream))
    return fail(parseErrors, kExitUsage);

  // --- The command line, checked before reading anything -----------------
  // With --pass-pipeline and no --emit, the pipeline's result is printed.
  Stage stage = emit;
  if (!passPipeline.empty() && !emit.getNumOccurrences())
    stage = Stage::LLVMDialect;
  if (printPipeline) {
    Stage last =
        isMlirStage(stage) && stage != kEmitHlo ? stage : Stage::LLVMDialect;
    llvm::outs() << mlir::torus::defaultPipelineText(last);
    return 0;
  }
  if (stage == Stage::Obj && outputFile == "-")
    return usageError("--emit=obj writes an object file and its metadata; "
                      "give the object's path with -o (e.g. -o step.o)");
  if ((dumpDot || dumpBeforePasses) && dumpDir.empty())
    return usageError(fmt::format("--{} writes into the dump directory; add "
                                  "--dump-dir=DIR",
                                  dumpDot ? "dump-dot" : "dump-before-passes"));
  if (optLevel < 0 || optLevel > 3)
    return usageError(fmt::format("-O{} is not a level; use -O0 to -O3",
                                  optLevel.getValue()));
  if (!targetFeatures.empty() && targetCpu.empty())
    return usageError("--target-features modifies a CPU: give --target-cpu "
                      "too (--target-cpu=host for this one)");
  absl::StatusOr<torus::rt::CpuTarget> target =
      targetCpu.empty()
          ? torus::rt::defaultCpuTarget()
          : torus::rt::resolveCpuTarget(targetCpu, targetFeatures);
  if (!target.ok())
    return usageError(fmt::format("{}{}",
                                  targetCpu.empty() ? "" : "--target-cpu: ",
                                  std::string(target.status().message())));
  if (auto name = unknownPass(printIRAfter))
    return usageError(fmt::format("--print-ir-after: unknown pass '{}' "
                                  "(--print-pipeline lists the passes run)",
                                  *name));
  if (auto name = unknownPass(printIRBefore))
    return usageError(fmt::format("--print-ir-before: unknown pass '{}' "
                                  "(--print-pipeline lists the passes run)",
                                  *name));
  if (!passPipeline.empty()) {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    auto parsed = mlir::parsePassPipeline(passPipeline, os);
    if (mlir::failed(parsed))
      return usageError("--pass-pipeline: " + problems);
    if (parsed->getOpAnchorName() != "builtin.module")
      return usageError(fmt::format(
          "--pass-pipeline: the pipeline must be anchored on builtin.module, "
          "as in 'builtin.module({})'",
          passPipeline.getValue()));
  }

  // --topology=a,b,c: the program is compiled for the first slice and, with
  // --report, priced on every one.
  std::vector<std::string> slices;
  if (!topology.empty())
    slices = splitCommas(topology);
  for (const std::string &slice : slices) {
    if (slice.empty())
      return usageError(fmt::format("--topology={}: an empty slice name in "
                                    "the comma-separated list",
                                    topology.getValue()));
    if (slices.size() > 1)
      if (auto known = torus::rt::Topology::fromPreset(slice); !known.ok())
        return usageError(fmt::format("--topology: {}",
                                      std::string(known.status().message())));
  }
  if (slices.size() > 1 && report == Report::None)
    return usageError(fmt::format(
        "--topology={} names {} slices; pricing a program on several slices "
        "is a report: add --report=roofline",
        topology.getValue(), slices.size()));
  if (report != Report::None) {
    if (slices.empty())
      return usageError(fmt::format(
          "--report=roofline prices the program on a TPU slice: give "
          "--topology (a preset such as v4-8, or several separated by "
          "commas){}",
          meshShape.empty() ? ""
                            : "; a custom --mesh-shape has no TPU "
                              "generation to price with"));
    if (emit.getNumOccurrences())
      return usageError("--report writes the report instead of --emit's "
                        "output; drop --emit (or compile twice)");
    if (!passPipeline.empty())
      return usageError("--report compiles with the default pipeline; drop "
                        "--pass-pipeline");
    stage = Stage::Linalg;
  }

  torus::tools::MeshRequest request;
  request.topology = slices.empty() ? std::string() : slices[0];
  request.meshShape = meshShape;
  if (replicas.getNumOccurrences())
    request.replicas = replicas;
  request.computationShape = computationShape;
  if (numPartitions.getNumOccurrences())
    request.numPartitions = numPartitions;
  auto plan = torus::tools::planMesh(request);
  if (!plan.ok())
    return usageError(plan.status());

  // --- The timeline (--trace): everything below on the "compile" track ----
  std::optional<torus::rt::TraceTrack> track;
  if (!traceFile.empty()) {
    auto recorder = std::make_unique<torus::rt::TraceRecorder>();
    // An unwritable file fails now, not after the compile.
    if (absl::Status s = recorder->writeFile(traceFile); !s.ok())
      return usageError(s);
    trace = std::move(recorder);
    trace->nameProcess(kTracePid, "torusc");
    trace->nameThread(kTracePid, kTraceTid, "compile");
    track.emplace(trace.get(), kTracePid, kTraceTid);
  }
  torus::rt::TraceSpan compileSpan("torusc", "compile");
  compileSpan.addArg("input", std::string_view(inputFile.getValue()));

  // --- Read and verify ------------------------------------------------------
  // The device counts of the command line are the HLO reader's for a
  // program that does not state its own (docs/hlo.md, "Device counts").
  torus::tools::SourceOptions sourceOptions;
  if (replicas.getNumOccurrences())
    sourceOptions.numReplicas = replicas;
  if (numPartitions.getNumOccurrences())
    sourceOptions.numPartitions = numPartitions;
  torus::tools::Progress progress("torusc", verbose);
  progress.begin(fmt::format("parsing {}", inputFile.getValue()));
  std::optional<torus::rt::TraceSpan> parseSpan(std::in_place, "parse",
                                                "compile");
  auto source = torus::tools::readSourceProgram(inputFile, sourceOptions);
  parseSpan.reset();
  if (source.ok())
    progress.done();
  if (!source.ok())
    return compileError(source.status());
  torus::TracedFunction &fn = source->function;
  mlir::ModuleOp module = *fn.impl().module;
  const std::string name = fn.name();

  // The device counts the program states are the defaults of --replicas
  // and --num-partitions (shared with torus-run).
  plan = torus::tools::planMeshForProgram(request, module, inputFile);
  if (!plan.ok())
    return usageError(plan.status());

  if (stage == kEmitHlo) {
    std::string text;
    llvm::raw_string_ostream os(text);
    mlir::torus::DiagnosticCollector diags(module.getContext());
    if (mlir::failed(mlir::torus::hlo::exportHloText(module, os)))
      return compileError(absl::InvalidArgumentError(diags.take()));
    if (absl::Status s = writeText(outputFile, text); !s.ok())
      return usageError(s);
    return 0;
  }
  const int64_t numInputs = static_cast<int64_t>(fn.inputs().size());

  std::unique_ptr<mlir::torus::IRDumper> dumper;
  if (!dumpDir.empty()) {
    mlir::torus::IRDumperOptions dumpOptions;
    dumpOptions.beforePasses = dumpBeforePasses;
    auto created = mlir::torus::IRDumper::create(dumpDir, name, 0, dumpOptions);
    if (!created.ok())
      return usageError(created.status());
    dumper = std::move(*created);
  }
  absl::Status dumpStatus;
  auto record = [&](absl::Status s) {
    if (dumpStatus.ok() && !s.ok())
      dumpStatus = std::move(s);
  };

  // --- Compile ----------------------------------------------------------------
  mlir::DefaultTimingManager timing;
  mlir::applyDefaultTimingManagerCLOptions(timing);
  mlir::TimingScope rootTiming = timing.getRootScope();

  mlir::torus::CompilerOptions options;
  options.numReplicas = plan->numReplicas;
  options.numPartitions = plan->numPartitions;
  options.passPipeline = passPipeline;
  options.vectorBits = target->vectorBits();
  options.traceKernels = kernelSpans;
  bool wroteCollectives = false;
  std::optional<torus::rt::ProgramSpec> linalgSpec;
  std::optional<mlir::torus::ComputeCounts> counts;
  options.afterStage = [&](Stage stage, mlir::ModuleOp m) {
    // What one core computes: the input's ops, or once partitioned, the
    // SPMD program's (local shapes).
    if (stage == Stage::Torus || stage == Stage::Spmd) {
      auto counted = mlir::torus::countCompute(m);
      if (counted.ok())
        counts = std::move(*counted);
    }
    // The collective table, for the reports and the runtime's spec.
    if (stage == Stage::Linalg) {
      auto collectives =
          mlir::torus::readCollectiveTable(m, plan->numReplicas);
      if (collectives.ok()) {
        torus::rt::ProgramSpec spec;
        spec.name = name;
        spec.numReplicas = plan->numReplicas;
        spec.inputs = fn.inputs();
        spec.outputs = fn.outputs();
        spec.collectives = std::move(*collectives);
        linalgSpec = std::move(spec);
      }
    }
    if (!dumper)
      return;
    if (stage == Stage::Torus)
      record(dumper->writeNumberedModule("input", m));
    if (dumpDot && (stage == Stage::Torus || stage == Stage::Sharded ||
                    stage == Stage::Spmd)) {
      auto dot = mlir::torus::dotGraph(m);
      if (dot.ok())
        record(dumper->write(mlir::torus::stageName(stage), "dot", *dot));
    }
    if (stage == Stage::Linalg && linalgSpec) {
      const torus::rt::ProgramSpec &spec = *linalgSpec;
      Pricing pricing = price(spec, counts, *plan);
      record(dumper->write("collectives", "txt",
                           collectiveReport(spec, pricing, *plan)));
      if (pricing.cost)
        record(dumper->write("cost", "txt",
                             torus::rt::formatStepCost(*pricing.cost)));
      if (auto r = roofline(spec, counts, *plan); pricing.cost && r.ok())
        record(dumper->write("roofline", "txt",
                             torus::rt::formatRoofline(*r)));
      wroteCollectives = true;
    }
    if (stage == Stage::Bufferized) {
      auto memory = mlir::torus::analyzeMemory(m, numInputs);
      if (memory.ok())
        record(dumper->write(
            "memory", "txt",
            mlir::torus::formatMemoryReport(
                *memory, plan->numReplicas * plan->numPartitions,
                plan->coreMemoryBytes.value_or(
                    static_cast<int64_t>(torus::rt::kDefaultCoreMemoryCapacity)))));
      else
        record(memory.status());
    }
  };
  options.configurePassManager = [&](mlir::PassManager &pm) {
    if (dumper)
      pm.addInstrumentation(dumper->createInstrumentation());
    if (printIRAfterAll || printIRBeforeAll || !printIRAfter.empty() ||
        !printIRBefore.empty()) {
      bool before = printIRBeforeAll, after = printIRAfterAll;
      // Function passes also run on declarations; nothing to see there.
      auto isDeclaration = [](mlir::Operation *op) {
        return op->getNumRegions() > 0 && op->getRegion(0).empty();
      };
      pm.enableIRPrinting(
          [before, isDeclaration](mlir::Pass *pass, mlir::Operation *op) {
            return !isDeclaration(op) &&
                   (before || matches(printIRBefore, pass));
          },
          [after, isDeclaration](mlir::Pass *pass, mlir::Operation *op) {
            return !isDeclaration(op) && (after || matches(printIRAfter, pass));
          },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
          /*printAfterOnlyOnFailure=*/false, llvm::errs());
    }
    (void)mlir::applyPassManagerCLOptions(pm);
    pm.enableTiming(rootTiming);
  };
  progress.watch(options, !isMlirStage(stage));

  std::string outputText;
  if (isMlirStage(stage)) {
    absl::Status status = mlir::torus::lowerToStage(module, stage, options);
    if (!status.ok())
      return compileError(status);
    outputText = printModule(module);
    if (report == Report::Roofline) {
      if (!linalgSpec)
        return compileError(absl::InternalError(
            "the collective table of the linalg stage was not read"));
      auto text =
          rooflineReport(*linalgSpec, counts, *plan, request, slices);
      if (!text.ok())
        return usageError(fmt::format("--report=roofline: {}",
                                      std::string(text.status().message())));
      outputText = std::move(*text);
    }
  } else {
    auto compiled = mlir::torus::compileToLLVMIR(module, options);
    if (!compiled.ok())
      return compileError(compiled.status());
    progress.done();
    llvm::Module &llvmModule = *compiled->llvmModule;
    if (dumper && !wroteCollectives) {
      Pricing pricing = price(compiled->spec, counts, *plan);
      record(dumper->write("collectives", "txt",
                           collectiveReport(compiled->spec, pricing, *plan)));
      if (pricing.cost)
        record(dumper->write("cost", "txt",
                             torus::rt::formatStepCost(*pricing.cost)));
    }
    if (dumper)
      record(dumper->writeNumbered("llvm", "ll", printLLVM(llvmModule)));
    if (stage == Stage::LLVMIR)
      outputText = printLLVM(llvmModule);

    if (dumper || stage == Stage::Asm || stage == Stage::Obj) {
      progress.begin(fmt::format("LLVM optimization (-O{})",
                                 optLevel.getValue()));
      absl::Status optimized =
          torus::rt::JitModule::optimizeFor(llvmModule, *target, optLevel);
      if (!optimized.ok())
        return compileError(optimized);
      progress.done();
      if (dumper)
        record(dumper->writeNumbered("llvm-opt", "ll", printLLVM(llvmModule)));
    }
    if (stage == Stage::Asm || (dumper && stage == Stage::Obj)) {
      // Code generation changes the module; the object is made from a copy.
      std::unique_ptr<llvm::Module> copy = llvm::CloneModule(llvmModule);
      progress.begin("machine code (assembly)");
      auto assembly = torus::rt::JitModule::compileFor(
          *copy, *target, torus::rt::CodeFileType::Assembly, optLevel);
      if (!assembly.ok())
        return compileError(assembly.status());
      progress.done();
      if (dumper)
        record(dumper->writeNumbered("asm", "s", *assembly));
      if (stage == Stage::Asm)
        outputText = std::move(*assembly);
    }
    if (stage == Stage::Obj) {
      progress.begin("machine code (object)");
      auto object = torus::rt::JitModule::compileFor(
          llvmModule, *target, torus::rt::CodeFileType::Object, optLevel);
      if (!object.ok())
        return compileError(object.status());
      progress.done();
      torus::rt::ProgramArtifact artifact;
      artifact.spec = compiled->spec;
      artifact.entrySymbol = compiled->entrySymbol;
      artifact.objectHash = torus::rt::objectHash(*object);
      artifact.objectFile =
          std::filesystem::path(outputFile.getValue()).filename().string();
      artifact.targetTriple = target->triple;
      artifact.targetCpu = target->cpu;
      artifact.targetFeatures = target->features;
      artifact.inputNames = source->argumentNames;
      artifact.topology = plan->topologyName;
      artifact.numPartitions = compiled->numPartitions;
      // The core of every logical device d = replica * partitions + p.
      if (plan->topology)
        for (const auto &cores : plan->coresOf)
          artifact.replicaToCore.insert(artifact.replicaToCore.end(),
                                        cores.begin(), cores.end());
      if (counts) {
        artifact.hasCounts = true;
        artifact.bf16Flops = counts->bf16Flops;
        artifact.f32Flops = counts->f32Flops;
        artifact.hbmBytes = counts->hbmBytes;
      }
      if (absl::Status s = writeBinary(outputFile, *object); !s.ok())
        return usageError(s);
      std::string metadata =
          torus::rt::metadataPathForObject(outputFile.getValue());
      if (absl::Status s = torus::rt::writeProgramArtifact(metadata, artifact);
          !s.ok())
        return usageError(s);
    }
  }

  if (dumper && !dumper->status().ok())
    record(dumper->status());
  if (!dumpStatus.ok())
    return usageError(dumpStatus);
  if (stage != Stage::Obj)
    if (absl::Status s = writeText(outputFile, outputText); !s.ok())
      return usageError(s);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int code = compile(argc, argv);
  // The timeline of a failed compile too: where it stopped.
  if (trace)
    if (absl::Status s = trace->writeFile(traceFile); !s.ok() && code == 0)
      code = usageError(s);
  absl::Status written = torus::tools::flushStandardOutput();
  if (code == 0 && !written.ok())
    return usageError(written);
  return code;
}
