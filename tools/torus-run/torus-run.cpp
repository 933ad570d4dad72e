//===- torus-run.cpp - Run a program on an emulated TPU mesh --------------===//
//
//   torus-run step.mlir --replicas=8 --input x=x.npy --output-dir=out
//   torus-run step.torus.json --steps=10          (AOT, from torusc --emit=obj)
//
// Compiles a `.mlir` program (or loads an ahead-of-time compiled one), feeds
// it inputs from `.npy` files or seeded random values, runs it on every
// replica of an emulated mesh, prints the host time of each step and writes
// the outputs as `.npy` files. docs/torusc.md documents every flag. Exit
// codes: 0 success; 1 invalid program or inputs; 2 bad command line or I/O;
// 3 internal error; 4 the run failed or cannot fit (out of core memory, more
// memory than the host has, checked before anything is allocated; a
// collective).
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "codegen/ComputeCounts.h"
#include "ir/Sharding.h"
#include "ir/TensorTypes.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/ProgramSpecIO.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/AotProgram.h"
#include "runtime/jit/JitModule.h"
#include "runtime/trace/TraceRecorder.h"
#include "support/DTypeDispatch.h"
#include "support/Npy.h"
#include "tools/common/GlobalArrays.h"
#include "tools/common/MeshPlan.h"
#include "tools/common/Progress.h"
#include "tools/common/ProgramMesh.h"
#include "tools/common/SourceProgram.h"
#include "tools/common/StandardOutput.h"
#include "tools/common/StepTimes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include "absl/time/time.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <variant>

namespace cl = llvm::cl;
namespace rt = torus::rt;
using torus::DType;
using torus::HostTensor;
using torus::TensorSpec;

namespace {

constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 3;
constexpr int kExitRunFailed = 4;

cl::OptionCategory ioCategory("Program, inputs and outputs");
cl::OptionCategory targetCategory("Target mesh");
cl::OptionCategory runCategory("Running");

cl::list<std::string> positional(
    cl::Positional, cl::OneOrMore,
    cl::desc("<program: .mlir, or .torus.json / .o from torusc --emit=obj> "
             "[input .npy files, by argument index]"),
    cl::cat(ioCategory));
cl::list<std::string> inputs(
    "input",
    cl::desc("NAME=FILE.npy: the input for argument NAME (its name in the "
             "source, argN, or its index). An array of the argument's shape "
             "goes to every replica; one with an extra leading dimension of "
             "size --replicas is split, slice r to replica r. A partitioned "
             "program's inputs are global arrays, split over the partitions "
             "by the argument's sharding"),
    cl::value_desc("NAME=FILE"), cl::cat(ioCategory));
cl::opt<uint64_t> seed(
    "seed",
    cl::desc("Seed of the random values given to arguments without a file "
             "(default 0): floats uniform in [-1, 1), integers in "
             "[-100, 100], booleans fair; different on every replica"),
    cl::init(0), cl::cat(ioCategory));
cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Write result i of replica r as DIR/result<i>.replica<r>.npy"),
    cl::value_desc("dir"), cl::cat(ioCategory));
cl::opt<bool> deviceOutputs(
    "device-outputs",
    cl::desc("With --output-dir and a partitioned program: also write the "
             "tile of result i on device d as DIR/result<i>.device<d>.npy"),
    cl::cat(ioCategory));
cl::opt<bool> printOutputs("print-outputs",
                           cl::desc("Print every replica's results"),
                           cl::cat(ioCategory));

cl::opt<std::string> topology("topology",
                              cl::desc("TPU slice preset, e.g. v3-8"),
                              cl::value_desc("preset"), cl::cat(targetCategory));
cl::opt<std::string> meshShape(
    "mesh-shape", cl::desc("Custom slice XxYxZxC instead of --topology"),
    cl::value_desc("XxYxZxC"), cl::cat(targetCategory));
cl::opt<int64_t> replicas(
    "replicas",
    cl::desc("Replicas (default 1, or as many as fit the topology; an AOT "
             "program runs on the replicas it was compiled for)"),
    cl::cat(targetCategory));
cl::opt<std::string> computationShape(
    "computation-shape", cl::desc("Cores of one replica, XxYxZxC"),
    cl::value_desc("XxYxZxC"), cl::cat(targetCategory));
cl::opt<int64_t> numPartitions(
    "num-partitions",
    cl::desc("Partitions per replica (default: the program's, else 1): "
             "the program is partitioned by its shardings and runs on "
             "replicas x partitions devices"),
    cl::cat(targetCategory));

cl::opt<int64_t> steps("steps", cl::desc("Run the program N times"),
                       cl::init(1), cl::cat(runCategory));
cl::opt<int> optLevel("O", cl::desc("LLVM optimization level (0-3) for .mlir"),
                      cl::init(3), cl::Prefix, cl::cat(runCategory));
cl::opt<bool> verbose("v",
                      cl::desc("Print each phase of loading the program "
                               "(parsing, the passes of each stage, codegen, "
                               "linking) with its time on stderr"),
                      cl::cat(runCategory));
cl::opt<std::string> traceFile(
    "trace",
    cl::desc("Write a timeline of the run as Chrome/Perfetto trace JSON into "
             "this file: the compile's passes and LLVM stages, one track per "
             "emulated core (transfers, steps, kernels, collectives and their "
             "waits) and, on a TPU slice, the simulated TPU time beside it "
             "(open it in ui.perfetto.dev)"),
    cl::value_desc("file"), cl::cat(runCategory));
cl::opt<int64_t> coreMemoryMiB(
    "core-memory-mib",
    cl::desc("Memory capacity of every emulated core in MiB (default: the "
             "topology's HBM per core, else 16 GiB)"),
    cl::cat(runCategory));

/// The run's timeline, with --trace (written by main()).
std::unique_ptr<rt::TraceRecorder> trace;
constexpr int64_t kHostPid = 1, kHostTid = 1;

/// An error with its exit code.
struct Failure {
  int code;
  std::string message;
};

int report(const Failure &failure) {
  llvm::errs() << failure.message;
  if (failure.message.empty() || failure.message.back() != '\n')
    llvm::errs() << "\n";
  return failure.code;
}

Failure usage(std::string message) {
  return {kExitUsage, "torus-run: " + message};
}

Failure fromStatus(const absl::Status &status, int defaultCode) {
  std::string text =
      torus::tools::normalizeDiagnostics(std::string(status.message()));
  switch (status.code()) {
  case absl::StatusCode::kNotFound:
  case absl::StatusCode::kPermissionDenied:
  case absl::StatusCode::kUnimplemented:
  case absl::StatusCode::kDataLoss:
    return usage(text);
  case absl::StatusCode::kInternal:
    return {kExitInternal, "torus-run: internal error: " + text};
  default:
    return {defaultCode, text};
  }
}

bool endsWith(const std::string &s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A program ready to run, however it was obtained.
struct LoadedProgram {
  std::unique_ptr<rt::JitModule> code;     // JIT-compiled .mlir
  std::unique_ptr<rt::AotProgram> aot;     // or an AOT artifact
  rt::Program program;
  std::vector<std::string> argumentNames;
  torus::tools::MeshPlan plan;
  /// For the cost model, when known.
  std::optional<rt::ProgramCounts> counts;
  /// The CPU the code was compiled for, for the report.
  std::string target;
  /// A partitioned program, or one made per device that states its global
  /// arrays: those arrays and their shardings over the devices (the
  /// program's spec is one device's). Unset (numPartitions 1) otherwise.
  torus::tools::GlobalLayout layout;
  std::vector<TensorSpec> globalInputs;
  /// layout describes a program made per device (its devices run as
  /// replicas): an input may be given global or per device.
  bool perDeviceGlobals = false;
  /// The AOT artifact's device assignment, when it runs on its own mesh.
  std::vector<int64_t> replicaToCore;
};

/// A program made per device from a global one (a shard_map over every
/// mesh axis) states on its entry's arguments and results the global
/// arrays' types and shardings (kGlobalTypeAttrName); their layout, with the
/// devices as partitions of one replica, or nothing when it states none.
void readPerDeviceGlobals(mlir::ModuleOp module, const std::string &entry,
                          int64_t devices, LoadedProgram &loaded) {
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(entry);
  if (!fn || devices <= 1)
    return;
  auto globalOf = [](mlir::DictionaryAttr attrs, TensorSpec local,
                     TensorSpec &spec, std::string &sharding) {
    auto type = attrs ? attrs.getAs<mlir::TypeAttr>(
                            mlir::torus::kGlobalTypeAttrName)
                      : nullptr;
    auto global = attrs ? mlir::torus::toShardingAttr(
                              attrs.get(mlir::torus::kGlobalShardingAttrName),
                              attrs.getContext())
                        : nullptr;
    std::optional<TensorSpec> parsed =
        type ? torus::fromMlirType(type.getValue()) : std::nullopt;
    spec = parsed && global ? *parsed : local;
    sharding = parsed && global ? mlir::torus::formatShardingSpec(
                                      mlir::torus::toShardingSpec(global))
                                : "";
    return parsed && global;
  };
  torus::tools::GlobalLayout layout;
  layout.numPartitions = devices;
  std::vector<TensorSpec> inputs;
  bool any = false;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
    auto local = torus::fromMlirType(fn.getArgumentTypes()[i]);
    if (!local)
      return;
    inputs.emplace_back();
    layout.inputShardings.emplace_back();
    any |= globalOf(fn.getArgAttrDict(i), *local, inputs.back(),
                    layout.inputShardings.back());
  }
  for (unsigned i = 0; i < fn.getNumResults(); ++i) {
    auto local = torus::fromMlirType(fn.getResultTypes()[i]);
    if (!local)
      return;
    layout.globalOutputs.emplace_back();
    layout.outputShardings.emplace_back();
    // A result without a global array: each device's, not joined.
    if (!globalOf(fn.getResultAttrDict(i), *local,
                  layout.globalOutputs.back(),
                  layout.outputShardings.back()))
      return;
  }
  if (!any)
    return;
  loaded.layout = std::move(layout);
  loaded.globalInputs = std::move(inputs);
  loaded.perDeviceGlobals = true;
}

torus::tools::MeshRequest meshRequest() {
  torus::tools::MeshRequest request;
  request.topology = topology;
  request.meshShape = meshShape;
  if (replicas.getNumOccurrences())
    request.replicas = replicas;
  request.computationShape = computationShape;
  if (numPartitions.getNumOccurrences())
    request.numPartitions = numPartitions;
  return request;
}

/// AOT artifacts do not record the shardings that split global arrays.
constexpr const char *kNoAotPartitions =
    "torus-run runs an AOT program with one partition per replica: its "
    "artifact does not record the shardings that split global inputs; run "
    "the partitioned program's source instead";

absl::StatusOr<LoadedProgram> loadAot(const std::string &path) {
  LoadedProgram loaded;
  auto aot = rt::AotProgram::load(path);
  // Code this host's CPU cannot run is a program that is invalid here
  // (exit 1), not a bad command line.
  if (aot.status().code() == absl::StatusCode::kFailedPrecondition)
    return absl::InvalidArgumentError(aot.status().message());
  TORUS_ASSIGN_OR_RETURN(loaded.aot, std::move(aot));
  const rt::ProgramArtifact &artifact = loaded.aot->artifact();
  loaded.target = artifact.targetCpu;
  int64_t compiled = artifact.spec.numReplicas;
  torus::tools::MeshRequest request = meshRequest();
  if (request.replicas && *request.replicas != compiled)
    return absl::FailedPreconditionError(fmt::format(
        "{} was compiled for {} replicas; --replicas={} needs a recompile",
        path, compiled, *request.replicas));
  request.replicas = compiled;
  const bool ownMesh = request.topology.empty() && request.meshShape.empty();
  if (ownMesh && !artifact.topology.empty()) {
    bool isMesh = std::isdigit(static_cast<unsigned char>(artifact.topology[0]));
    (isMesh ? request.meshShape : request.topology) = artifact.topology;
    if (artifact.numPartitions > 1 && request.computationShape.empty())
      request.numPartitions = artifact.numPartitions;
  }
  if (artifact.numPartitions > 1)
    return absl::FailedPreconditionError(kNoAotPartitions);
  auto plan = torus::tools::planMesh(request);
  if (!plan.ok())
    return absl::FailedPreconditionError(std::string(plan.status().message()));
  loaded.plan = std::move(*plan);
  // The recorded device assignment must name distinct cores of the mesh.
  std::vector<int64_t> owner(loaded.plan.numCores, -1);
  for (size_t d = 0; d < artifact.replicaToCore.size(); ++d) {
    int64_t core = artifact.replicaToCore[d];
    if (core < 0 || core >= loaded.plan.numCores)
      return absl::InvalidArgumentError(fmt::format(
          "{}: 'device_assignment.replica_to_core' puts replica {} on core "
          "{}, but {} has cores 0 to {}",
          path, d, core,
          loaded.plan.topologyName.empty() ? std::string("the mesh")
                                           : loaded.plan.topologyName,
          loaded.plan.numCores - 1));
    if (owner[core] >= 0)
      return absl::InvalidArgumentError(fmt::format(
          "{}: 'device_assignment.replica_to_core' puts replicas {} and {} "
          "on core {}",
          path, owner[core], d, core));
    owner[core] = static_cast<int64_t>(d);
  }
  if (ownMesh)
    loaded.replicaToCore = artifact.replicaToCore;
  loaded.program = loaded.aot->program();
  loaded.argumentNames = artifact.inputNames;
  if (artifact.hasCounts) {
    loaded.counts.emplace();
    loaded.counts->bf16Flops = artifact.bf16Flops;
    loaded.counts->f32Flops = artifact.f32Flops;
    loaded.counts->hbmBytes = artifact.hbmBytes;
  }
  return loaded;
}

absl::StatusOr<LoadedProgram> compileSource(const std::string &path) {
  LoadedProgram loaded;
  torus::tools::Progress progress("torus-run", verbose);
  progress.begin(fmt::format("parsing {}", path));
  // The device counts given on the command line are the HLO importer's for
  // a program that does not state its own.
  torus::tools::SourceOptions sourceOptions;
  if (replicas.getNumOccurrences())
    sourceOptions.numReplicas = replicas;
  if (numPartitions.getNumOccurrences())
    sourceOptions.numPartitions = numPartitions;
  TORUS_ASSIGN_OR_RETURN(auto source,
                         torus::tools::readSourceProgram(path, sourceOptions));
  progress.done();
  // The device counts the program states are the defaults of --replicas
  // and --num-partitions, exactly as for torusc.
  auto plan = torus::tools::planMeshForProgram(
      meshRequest(), *source.function.impl().module, path);
  if (!plan.ok())
    return plan.status();
  loaded.plan = std::move(*plan);
  loaded.argumentNames = source.argumentNames;
  // The global arrays, before partitioning makes the entry one device's.
  loaded.globalInputs = source.function.inputs();
  loaded.layout.globalOutputs = source.function.outputs();
  if (loaded.plan.numPartitions == 1)
    readPerDeviceGlobals(*source.function.impl().module,
                         source.function.impl().name,
                         loaded.plan.numReplicas, loaded);
  if (auto counts = mlir::torus::countCompute(*source.function.impl().module);
      counts.ok()) {
    loaded.counts.emplace();
    loaded.counts->bf16Flops = counts->bf16Flops;
    loaded.counts->f32Flops = counts->f32Flops;
    loaded.counts->hbmBytes = counts->hbmBytes;
  }
  TORUS_ASSIGN_OR_RETURN(rt::CpuTarget target, rt::defaultCpuTarget());
  TORUS_RETURN_IF_ERROR(rt::checkHostCanRun(target));
  loaded.target = target.cpu;
  mlir::torus::CompilerOptions options;
  options.numReplicas = loaded.plan.numReplicas;
  options.numPartitions = loaded.plan.numPartitions;
  options.vectorBits = target.vectorBits();
  // A traced run shows the kernels on the cores' tracks.
  options.traceKernels = !traceFile.empty();
  progress.watch(options, /*translates=*/true);
  TORUS_ASSIGN_OR_RETURN(
      auto compiled,
      mlir::torus::compileToLLVMIR(*source.function.impl().module, options));
  progress.done();
  progress.begin(fmt::format("LLVM optimization (-O{})", optLevel.getValue()));
  rt::JitOptions jit;
  jit.optLevel = optLevel;
  jit.target = target;
  jit.symbols = rt::runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(loaded.code,
                         rt::JitModule::load(std::move(compiled.llvmContext),
                                             std::move(compiled.llvmModule),
                                             jit));
  progress.begin("machine code and linking (JIT)");
  TORUS_ASSIGN_OR_RETURN(void *entry, loaded.code->lookup(compiled.entrySymbol));
  progress.done();
  loaded.program.spec = std::move(compiled.spec);
  loaded.program.entry = reinterpret_cast<rt::EntryFn>(entry);
  if (compiled.numPartitions > 1) {
    loaded.layout.numReplicas = loaded.plan.numReplicas;
    loaded.layout.numPartitions = compiled.numPartitions;
    loaded.layout.inputShardings = std::move(compiled.inputShardings);
    loaded.layout.outputShardings = std::move(compiled.outputShardings);
  }
  return loaded;
}

/// Loads the program by its file name. To add a format, add a line.
absl::StatusOr<LoadedProgram> loadProgram(const std::string &path) {
  if (endsWith(path, ".torus.json") || endsWith(path, ".o"))
    return loadAot(path);
  return compileSource(path); // .mlir, .hlo (when imported), stdin
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent <= 0)
    return static_cast<uint16_t>(sign); // Flush tiny values to zero.
  if (exponent >= 31)
    return static_cast<uint16_t>(sign | 0x7c00);
  return static_cast<uint16_t>(sign | (exponent << 10) | (mantissa >> 13));
}

HostTensor randomTensor(const TensorSpec &spec, uint64_t seedValue,
                        int64_t replica, int64_t argument) {
  std::seed_seq sequence{seedValue, static_cast<uint64_t>(replica),
                         static_cast<uint64_t>(argument)};
  std::mt19937_64 gen(sequence);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> integer(-100, 100);
  HostTensor t(spec);
  int64_t n = t.numElements();
  void *data = t.rawData();
  for (int64_t i = 0; i < n; ++i) {
    switch (spec.dtype) {
    case DType::F32:
      static_cast<float *>(data)[i] = static_cast<float>(real(gen));
      break;
    case DType::F64:
      static_cast<double *>(data)[i] = real(gen);
      break;
    case DType::F16:
      static_cast<uint16_t *>(data)[i] =
          floatToHalf(static_cast<float>(real(gen)));
      break;
    case DType::BF16: {
      float f = static_cast<float>(real(gen));
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      static_cast<uint16_t *>(data)[i] = static_cast<uint16_t>(bits >> 16);
      break;
    }
    case DType::I1:
      static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(gen() & 1);
      break;
    case DType::F8E4M3FN:
    case DType::F8E5M2:
      // Any sign and mantissa, exponent field at most the bias: finite
      // values in (-2, 2) in both formats.
      static_cast<uint8_t *>(data)[i] = static_cast<uint8_t>(gen() & 0xBF);
      break;
    case DType::C64: {
      float re = static_cast<float>(real(gen));
      static_cast<std::complex<float> *>(data)[i] = {
          re, static_cast<float>(real(gen))};
      break;
    }
    case DType::C128: {
      double re = real(gen);
      static_cast<std::complex<double> *>(data)[i] = {re, real(gen)};
      break;
    }
    default: // integers in [-100, 100], or [0, 100] when unsigned
      visitDType(spec.dtype, [&]<typename T>(T) {
        if constexpr (!torus::IsComplex<T>) {
          int64_t v = integer(gen);
          static_cast<T *>(data)[i] =
              static_cast<T>(std::is_unsigned_v<T> && v < 0 ? -v : v);
        }
      });
    }
  }
  return t;
}

/// Slice `index` of the leading dimension of `stacked`.
HostTensor slice(const HostTensor &stacked, int64_t index) {
  torus::Shape shape(stacked.shape().begin() + 1, stacked.shape().end());
  HostTensor t(stacked.dtype(), shape);
  size_t bytes = t.sizeInBytes();
  if (bytes)
    std::memcpy(t.rawData(),
                static_cast<const char *>(stacked.rawData()) + index * bytes,
                bytes);
  return t;
}

/// inputs[device][argument] from the files and the seed: each replica's
/// (global) inputs, split over its partitions when partitioned.
std::variant<std::vector<std::vector<HostTensor>>, Failure>
prepareInputs(const LoadedProgram &loaded) {
  const rt::ProgramSpec &spec = loaded.program.spec;
  bool partitioned =
      loaded.layout.numPartitions > 1 && !loaded.perDeviceGlobals;
  const std::vector<TensorSpec> &wanted =
      partitioned ? loaded.globalInputs : spec.inputs;
  int64_t numArgs = static_cast<int64_t>(wanted.size());
  int64_t numReplicas =
      partitioned ? loaded.layout.numReplicas : spec.numReplicas;
  auto nameOf = [&](int64_t i) {
    std::string name = i < static_cast<int64_t>(loaded.argumentNames.size())
                           ? loaded.argumentNames[i]
                           : fmt::format("arg{}", i);
    return fmt::format("argument {} ({})", i, name);
  };

  // Which file feeds which argument.
  std::map<int64_t, std::string> files;
  for (size_t p = 1; p < positional.size(); ++p) {
    int64_t index = static_cast<int64_t>(p) - 1;
    if (index >= numArgs)
      return usage(fmt::format("{} input files given, but @{} takes {} "
                               "arguments",
                               positional.size() - 1, spec.name, numArgs));
    files[index] = positional[p];
  }
  for (const std::string &binding : inputs) {
    size_t eq = binding.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == binding.size())
      return usage(fmt::format("--input {}: expected NAME=FILE.npy", binding));
    std::string name = binding.substr(0, eq);
    int64_t index = -1;
    for (int64_t i = 0; i < numArgs; ++i)
      if ((i < static_cast<int64_t>(loaded.argumentNames.size()) &&
           loaded.argumentNames[i] == name) ||
          name == fmt::format("arg{}", i) || name == std::to_string(i))
        index = i;
    if (index < 0) {
      std::string known;
      for (int64_t i = 0; i < numArgs; ++i)
        known += fmt::format("{}{}", i ? ", " : "",
                             i < static_cast<int64_t>(
                                     loaded.argumentNames.size())
                                 ? loaded.argumentNames[i]
                                 : fmt::format("arg{}", i));
      return usage(fmt::format("--input {}: @{} has no argument '{}' "
                               "(arguments: {})",
                               binding, spec.name, name, known));
    }
    if (files.count(index))
      return usage(fmt::format("--input {}: {} already has the input '{}'",
                               binding, nameOf(index), files[index]));
    files[index] = binding.substr(eq + 1);
  }

  std::vector<std::vector<HostTensor>> perReplica(numReplicas);
  for (int64_t i = 0; i < numArgs; ++i) {
    const TensorSpec &want = wanted[i];
    auto file = files.find(i);
    // A program made per device also takes the global array it states,
    // split over the devices by its sharding.
    std::string globalSharding =
        loaded.perDeviceGlobals ? loaded.layout.inputShardings[i] : "";
    auto giveGlobal = [&](const HostTensor &global)
        -> std::optional<Failure> {
      auto tiles = torus::tools::splitGlobalArray(global, globalSharding,
                                                  numReplicas);
      if (!tiles.ok())
        return Failure{kExitInvalid,
                       fmt::format("torus-run: {} (global sharding {}): {}",
                                   nameOf(i), globalSharding,
                                   std::string(tiles.status().message()))};
      for (int64_t d = 0; d < numReplicas; ++d)
        perReplica[d].push_back(std::move((*tiles)[d]));
      return std::nullopt;
    };
    if (file == files.end() && !globalSharding.empty()) {
      const TensorSpec &global = loaded.globalInputs[i];
      llvm::errs() << fmt::format(
          "torus-run: {} {}: random values, seed {}, split over {} devices\n",
          nameOf(i), global.toString(), seed.getValue(), numReplicas);
      if (auto failure = giveGlobal(randomTensor(global, seed, 0, i)))
        return *failure;
      continue;
    }
    if (file == files.end()) {
      llvm::errs() << fmt::format("torus-run: {} {}: random values, seed {}\n",
                                  nameOf(i), want.toString(), seed.getValue());
      for (int64_t r = 0; r < numReplicas; ++r)
        perReplica[r].push_back(randomTensor(want, seed, r, i));
      continue;
    }
    auto array = torus::readNpy(file->second);
    if (!array.ok())
      return array.status().code() == absl::StatusCode::kNotFound
                 ? usage(std::string(array.status().message()))
                 : Failure{kExitInvalid,
                           fmt::format("torus-run: {}: {}", nameOf(i),
                                       std::string(array.status().message()))};
    TensorSpec stacked = want;
    stacked.shape.insert(stacked.shape.begin(), numReplicas);
    *array = asIntegerArgument(std::move(*array), want.dtype);
    if (array->dtype() != want.dtype)
      return Failure{
          kExitInvalid,
          fmt::format("torus-run: {}: expects {}, but {} holds {}{}", nameOf(i),
                      want.toString(), file->second, array->spec().toString(),
                      array->dtype() == DType::F64 && want.dtype == DType::F32
                          ? " (save it with .astype(np.float32))"
                          : "")};
    if (!globalSharding.empty() &&
        array->spec() == loaded.globalInputs[i] && !(array->spec() == want)) {
      if (auto failure = giveGlobal(*array))
        return *failure;
    } else if (array->spec() == want) {
      for (int64_t r = 0; r < numReplicas; ++r)
        perReplica[r].push_back(*array);
    } else if (array->spec() == stacked) {
      for (int64_t r = 0; r < numReplicas; ++r)
        perReplica[r].push_back(slice(*array, r));
    } else {
      return Failure{
          kExitInvalid,
          fmt::format("torus-run: {}: expects {} (the same for every "
                      "replica) or {} (one slice per replica){}, but {} "
                      "holds {}",
                      nameOf(i), want.toString(), stacked.toString(),
                      globalSharding.empty()
                          ? ""
                          : fmt::format(" or the global {} (split by {})",
                                        loaded.globalInputs[i].toString(),
                                        globalSharding),
                      file->second, array->spec().toString())};
    }
  }
  if (!partitioned)
    return perReplica;
  auto devices = torus::tools::splitGlobalInputs(loaded.layout, perReplica);
  if (!devices.ok())
    return Failure{kExitInvalid,
                   "torus-run: " + std::string(devices.status().message())};
  return std::move(*devices);
}

std::variant<int, Failure> run() {
  const std::string &programPath = positional.front();
  if (steps < 1)
    return usage(fmt::format("--steps must be at least 1, got {}",
                             steps.getValue()));
  if (optLevel < 0 || optLevel > 3)
    return usage(fmt::format("-O{} is not a level; use -O0 to -O3",
                             optLevel.getValue()));
  // The capacity in bytes, MiB << 20, must fit a size_t (0 is a core with
  // no memory, for trying out the out-of-memory error).
  constexpr int64_t kMaxCoreMemoryMiB = (int64_t(1) << 44) - 1;
  if (coreMemoryMiB.getNumOccurrences() &&
      (coreMemoryMiB < 0 || coreMemoryMiB > kMaxCoreMemoryMiB))
    return usage(fmt::format("--core-memory-mib={}: the capacity must be a "
                             "whole number of MiB from 0 to {}",
                             coreMemoryMiB.getValue(), kMaxCoreMemoryMiB));

  std::optional<rt::TraceTrack> track;
  if (!traceFile.empty()) {
    auto recorder = std::make_unique<rt::TraceRecorder>();
    // An unwritable file fails now, not after the compile and the run.
    if (absl::Status s = recorder->writeFile(traceFile); !s.ok())
      return fromStatus(s, kExitUsage);
    trace = std::move(recorder);
    trace->nameProcess(kHostPid, "torus-run", kHostPid);
    trace->nameThread(kHostPid, kHostTid, "host");
    track.emplace(trace.get(), kHostPid, kHostTid);
  }
  std::optional<rt::TraceSpan> loadSpan(std::in_place, "load program",
                                        "compile");
  loadSpan->addArg("program", std::string_view(programPath));
  auto loaded = loadProgram(programPath);
  loadSpan.reset();
  if (!loaded.ok()) {
    if (loaded.status().code() == absl::StatusCode::kFailedPrecondition)
      return usage(std::string(loaded.status().message()));
    return fromStatus(loaded.status(), kExitInvalid);
  }
  const rt::ProgramSpec &spec = loaded->program.spec;
  const torus::tools::MeshPlan &plan = loaded->plan;

  int64_t partitions = plan.numPartitions;
  rt::ExecutorOptions executorOptions;
  executorOptions.numCores = plan.numCores;
  if (coreMemoryMiB.getNumOccurrences())
    executorOptions.coreMemoryCapacity =
        static_cast<size_t>(coreMemoryMiB.getValue()) << 20;
  // On a topology: its cores, HBM per core and torus-aware collectives.
  auto executor = plan.topology
                      ? rt::Executor::create(*plan.topology, executorOptions)
                      : rt::Executor::create(executorOptions);
  if (!executor.ok())
    return fromStatus(executor.status(), kExitUsage);
  rt::RunOptions runOptions;
  runOptions.numPartitions = partitions;
  if (!loaded->replicaToCore.empty())
    runOptions.replicaToCore = loaded->replicaToCore;
  else if (plan.topology)
    for (const std::vector<int64_t> &cores : plan.coresOf)
      runOptions.replicaToCore.insert(runOptions.replicaToCore.end(),
                                      cores.begin(),
                                      cores.begin() + partitions);
  // The program and the run options first, so that an invalid program is
  // named as such even when it would not fit either.
  if (absl::Status valid =
          (*executor)->validateProgram(loaded->program, runOptions);
      !valid.ok())
    return fromStatus(valid, kExitInvalid);
  // Every core's buffers and the host's copies must fit this host: checked
  // before the inputs are read or generated, which may be large themselves.
  if (absl::Status fits = (*executor)->checkMemory(spec, runOptions,
                                                   /*hostInputsExist=*/false);
      !fits.ok())
    return Failure{kExitRunFailed,
                   "torus-run: " + std::string(fits.message())};

  auto prepared = prepareInputs(*loaded);
  if (auto *failure = std::get_if<Failure>(&prepared))
    return *failure;
  auto &perDevice =
      std::get<std::vector<std::vector<HostTensor>>>(prepared);
  if (absl::Status valid =
          (*executor)->validate(loaded->program, perDevice, runOptions);
      !valid.ok())
    return fromStatus(valid, kExitInvalid);

  llvm::outs() << fmt::format(
      "@{}: {} replica{}{} on {} emulated core{}{}, code for CPU {}\n",
      spec.name, spec.numReplicas, spec.numReplicas == 1 ? "" : "s",
      partitions > 1 ? fmt::format(" x {} partitions", partitions) : "",
      plan.numCores, plan.numCores == 1 ? "" : "s",
      plan.topology ? " of " + plan.topologyName : "", loaded->target);
  std::vector<std::vector<HostTensor>> outputs;
  torus::tools::StepTimes times;
  size_t peakCoreBytes = 0;
  // The cost model prices a step on the slice when there is one.
  rt::ProgramCounts noCounts;
  if (plan.topology)
    runOptions.costCounts = loaded->counts ? &*loaded->counts : &noCounts;
  std::optional<rt::StepCost> simulated;
  std::string noSimulation =
      plan.topology ? "" : "no TPU slice given (--topology or --mesh-shape)";
  runOptions.trace = trace.get();
  for (int64_t step = 0; step < steps; ++step) {
    rt::RunStats stats;
    runOptions.stats = &stats;
    rt::TraceSpan runSpan(trace ? fmt::format("run {}", step) : std::string(),
                          "run");
    auto result = (*executor)->run(loaded->program, perDevice, runOptions);
    if (!result.ok())
      return Failure{kExitRunFailed,
                     fmt::format("torus-run: step {} failed: {}", step,
                                 std::string(result.status().message()))};
    double ms = absl::ToDoubleMilliseconds(stats.hostTime);
    times.add(ms);
    peakCoreBytes = std::max(peakCoreBytes, stats.peakCoreBytes);
    if (stats.simulated)
      simulated = stats.simulated;
    else if (plan.topology)
      noSimulation = std::string(stats.simulationStatus.message());
    llvm::outs() << fmt::format(
        "step {}: {:.3f} ms host{}\n", step, ms,
        stats.simulated
            ? fmt::format(", {} simulated on {} (MFU {})",
                          rt::formatSeconds(stats.simulated->totalSeconds),
                          plan.topologyName,
                          rt::formatPercent(stats.simulated->mfu()))
            : "");
    outputs = std::move(*result);
  }
  if (steps > 1)
    llvm::outs() << fmt::format(
        "median of {} steps: {:.3f} ms host{}\n", steps.getValue(),
        times.median(),
        times.exact() ? ""
                      : fmt::format(" (within {:g}%)",
                                    100 * torus::tools::StepTimes::
                                              kMedianRelativeError));
  llvm::outs() << fmt::format("peak device memory of a core: {} bytes (of "
                              "{})\n",
                              peakCoreBytes,
                              (*executor)->coreMemoryCapacity());
  if (simulated) {
    llvm::outs() << rt::formatStepCost(*simulated,
                                       absl::Milliseconds(times.median()));
  } else {
    llvm::outs() << fmt::format("simulated time: not available ({})\n",
                                noSimulation);
  }

  // A partitioned program's results, each replica's tiles joined; those
  // of a program made per device (whose devices are its replicas) joined
  // beside them.
  std::vector<std::vector<HostTensor>> tiles, global;
  if (loaded->layout.numPartitions > 1) {
    auto joined = torus::tools::joinGlobalOutputs(loaded->layout, outputs);
    if (!joined.ok())
      return Failure{kExitInvalid, "torus-run: " +
                                       std::string(joined.status().message())};
    if (loaded->perDeviceGlobals)
      global = std::move(*joined);
    else
      tiles = std::exchange(outputs, std::move(*joined));
  }
  if (deviceOutputs && tiles.empty())
    return usage("--device-outputs: the program is not partitioned (its "
                 "results are the replicas' own)");
  if (deviceOutputs && outputDir.empty())
    return usage("--device-outputs needs --output-dir");

  if (printOutputs)
    for (size_t r = 0; r < outputs.size(); ++r)
      for (size_t i = 0; i < outputs[r].size(); ++i)
        llvm::outs() << fmt::format("replica {} result {}: {}\n", r, i,
                                    outputs[r][i].toString());
  if (printOutputs && !global.empty())
    for (size_t i = 0; i < global[0].size(); ++i)
      llvm::outs() << fmt::format("global result {}: {}\n", i,
                                  global[0][i].toString());
  if (!outputDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(outputDir.getValue(), ec);
    if (ec)
      return usage(fmt::format("cannot create '{}': {}", outputDir.getValue(),
                               ec.message()));
    // sets[k][i] as DIR/result<i>.<name of set k>.npy.
    auto writeAll = [&](const std::vector<std::vector<HostTensor>> &sets,
                        auto nameOf) -> absl::Status {
      for (size_t k = 0; k < sets.size(); ++k)
        for (size_t i = 0; i < sets[k].size(); ++i) {
          std::string path = (std::filesystem::path(outputDir.getValue()) /
                              fmt::format("result{}.{}.npy", i, nameOf(k)))
                                 .string();
          TORUS_RETURN_IF_ERROR(torus::writeNpy(path, sets[k][i]));
        }
      return absl::OkStatus();
    };
    if (absl::Status s = writeAll(
            outputs, [](size_t r) { return fmt::format("replica{}", r); });
        !s.ok())
      return fromStatus(s, kExitUsage);
    llvm::outs() << fmt::format("wrote {} results x {} replicas to {}\n",
                                spec.outputs.size(), outputs.size(),
                                outputDir.getValue());
    if (!global.empty()) {
      if (absl::Status s =
              writeAll(global, [](size_t) { return std::string("global"); });
          !s.ok())
        return fromStatus(s, kExitUsage);
      llvm::outs() << fmt::format("wrote {} global results (the devices' "
                                  "joined) to {}\n",
                                  global[0].size(), outputDir.getValue());
    }
    if (deviceOutputs) {
      if (absl::Status s = writeAll(
              tiles, [](size_t d) { return fmt::format("device{}", d); });
          !s.ok())
        return fromStatus(s, kExitUsage);
      llvm::outs() << fmt::format("wrote {} results x {} devices' tiles to "
                                  "{}\n",
                                  spec.outputs.size(), tiles.size(),
                                  outputDir.getValue());
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions({&ioCategory, &targetCategory, &runCategory});
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "torus-run: run a Torus program on an emulated TPU mesh\n\n"
          "  torus-run step.mlir --replicas=8 --input x=x.npy "
          "--output-dir=out\n"
          "  torus-run step.torus.json --steps=10      (from torusc "
          "--emit=obj)\n\n"
          "Exit codes: 0 ok, 1 invalid program or inputs, 2 bad command line "
          "or I/O, 3 internal error, 4 the run failed (or does not fit the "
          "cores or the host's memory).\nMore: "
          "docs/torusc.md\n",
          &errorStream))
    return report(Failure{kExitUsage, errors});
  auto result = run();
  // The timeline of a failed run too: where it stopped.
  if (trace)
    if (absl::Status s = trace->writeFile(traceFile); !s.ok())
      if (std::holds_alternative<int>(result))
        result = fromStatus(s, kExitUsage);
  absl::Status written = torus::tools::flushStandardOutput();
  if (auto *failure = std::get_if<Failure>(&result))
    return report(*failure);
  if (!written.ok())
    return report(usage(std::string(written.message())));
  return std::get<int>(result);
}
