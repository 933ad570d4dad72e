//===- JaxCorpus.cpp - Torus's own JAX program corpus as a test -----------===//
//
//   torus-jax-corpus --corpus=tests/jax/programs
//       --expected-failures=tests/jax/expected-failures.txt
//       [--forms=hlo,dump,...] [--shard=I/N] [--filter=SUBSTRING]
//       [--verbose] [--update-expected-failures]
//
// Runs every program of tests/jax/programs (written by tests/jax/generate.py
// with JAX) in this process, in each of its forms, through the library
// calls torus-run makes: import, compile, JIT, run on the emulated executor.
// The forms of program NAME:
//
//   hlo        NAME/program.hlo: jax.jit(f).lower(...).compiler_ir('hlo')
//   dump       NAME/xla_dump/*.before_optimizations.txt: the module as
//              XLA_FLAGS=--xla_dump_to writes it (HLO text)
//   stablehlo  NAME/program.stablehlo.mlir: lowered.as_text()
//   gspmd      NAME/program.gspmd.hlo, programs over several devices only:
//              the HLO as JAX lowers it for GSPMD instead of Shardy
//   optimized  NAME/xla_dump/*.cpu_after_optimizations.txt: XLA:CPU's
//              optimized HLO, already partitioned: one device's program,
//              given each device's part of the inputs by JAX's shardings
//
// A program over several devices (meta.json: num_replicas x num_partitions,
// given to the compiler as torus-run's --replicas/--num-partitions would,
// since JAX's HLO header states neither) gets its global inputs split by the
// input shardings Torus compiled it with, runs on that many emulated cores,
// and is judged twice: the global results, assembled from the devices'
// tiles by Torus's output shardings, against outK.npy; and each device's
// result against JAX's value on that device (outK.deviceD.npy; outK.npy for
// a result JAX replicates), which fails when Torus lays a result out
// differently from JAX. Results are judged with the tolerance meta.json
// gives (CorpusJudge's `allclose`; integers exactly).
//
// Every failure (an import or compile error, a failed run, a wrong value)
// is recorded with a one-line reason; only a crash stops the run (LLVM's
// crash report then names the program and form). The test fails when a
// (program, form) fails that expected-failures.txt does not list, or passes
// although listed, or when the file names a program or form the corpus does
// not have. --update-expected-failures rewrites the file from this run
// instead. docs/testing.md describes it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/CpuTarget.h"
#include "runtime/jit/JitModule.h"
#include "support/Npy.h"
#include "tests/stablehlo/CorpusJudge.h"
#include "tools/common/GlobalArrays.h"
#include "tools/common/SourceProgram.h"
#include "torus/Sharding.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace cl = llvm::cl;
namespace fs = std::filesystem;
namespace rt = torus::rt;
using torus::HostTensor;
using torus::NpyArray;

namespace {

cl::opt<std::string> corpusDir("corpus",
                               cl::desc("The corpus (one folder per program)"),
                               cl::value_desc("dir"), cl::Required);
cl::opt<std::string> expectedFailuresPath(
    "expected-failures",
    cl::desc("The (program, form) pairs expected to fail, one `NAME  form  "
             "reason` a line"),
    cl::value_desc("file"), cl::Required);
cl::opt<std::string> formsSpec("forms",
                               cl::desc("The forms to run, comma-separated "
                                        "(default: all: hlo,dump,stablehlo,gspmd,"
                                        "optimized)"),
                               cl::value_desc("list"),
                               cl::init("hlo,dump,stablehlo,gspmd,optimized"));
cl::opt<std::string>
    shardSpec("shard",
              cl::desc("Run shard I of N (programs I, I+N, ... by name)"),
              cl::value_desc("I/N"), cl::init("0/1"));
cl::opt<std::string> filter("filter",
                            cl::desc("Run only programs whose name contains "
                                     "this"),
                            cl::value_desc("substring"));
cl::opt<bool> update("update-expected-failures",
                     cl::desc("Rewrite the expected-failures file from the "
                              "results of the programs run"));
cl::opt<bool> verbose("verbose",
                      cl::desc("Print every failing program, expected or "
                               "not"));

/// A form of a program: the file it is read from and how.
struct Form {
  std::string name;
  /// The program's file in this form, or why there is none.
  std::function<absl::StatusOr<fs::path>(const fs::path &programDir)> file;
  /// Reads and imports it.
  std::function<absl::StatusOr<torus::tools::SourceProgram>(
      const fs::path &file)>
      read;
  /// Only some programs have this form: where its file is missing, the
  /// program is not run in it (and not counted).
  bool optional = false;
  /// The program is already partitioned (XLA's optimized HLO): each device
  /// gets its part of the inputs by JAX's input shardings (meta.json), and
  /// JAX's output shardings join the results.
  bool perDevice = false;
};

/// HLO text whatever the file's extension (an XLA dump ends in `.txt`).
absl::StatusOr<torus::tools::SourceProgram> readHloText(const fs::path &file) {
  std::ifstream in(file);
  if (!in)
    return absl::NotFoundError(fmt::format("cannot open {}", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  // parseSourceProgram picks the reader by the name's extension; the
  // diagnostics name this path, which firstLine() strips again.
  fs::path asHlo = file;
  asHlo.replace_extension(".hlo");
  return torus::tools::parseSourceProgram(asHlo.string(), text.str());
}

/// StableHLO text. TODO(issue #19, StableHLO import): this build has no
/// `stablehlo` dialect importer; when one lands, call it here (or make
/// tools/common/SourceProgram.cpp read `.stablehlo.mlir` / StableHLO
/// modules, and this hook needs no change). Until then the MLIR reader
/// rejects the `stablehlo` dialect, and the reason says so.
absl::StatusOr<torus::tools::SourceProgram>
readStableHlo(const fs::path &file) {
  auto program = torus::tools::readSourceProgram(file.string());
  if (program.ok())
    return program;
  // MLIR's parser: "Dialect `stablehlo' not found for custom op
  // 'stablehlo.constant'" (or `sdy', `chlo').
  std::string message(program.status().message());
  if (absl::StrContains(message, "Dialect `stablehlo' not found") ||
      absl::StrContains(message, "Dialect `sdy' not found") ||
      absl::StrContains(message, "Dialect `chlo' not found"))
    return absl::UnimplementedError("StableHLO import is not in this build");
  return program;
}

/// The one file of `dir`/xla_dump whose name ends in `suffix`.
absl::StatusOr<fs::path> onlyDumpFile(const fs::path &dir,
                                      const std::string &suffix) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(dir / "xla_dump", ec))
    if (absl::EndsWith(entry.path().filename().string(), suffix))
      found.push_back(entry.path());
  if (found.size() != 1)
    return absl::NotFoundError(fmt::format(
        "{} *{} files in xla_dump/, expected 1", found.size(), suffix));
  return found.front();
}

std::vector<Form> allForms() {
  return {
      {"hlo",
       [](const fs::path &dir) -> absl::StatusOr<fs::path> {
         return dir / "program.hlo";
       },
       readHloText},
      {"dump",
       [](const fs::path &dir) -> absl::StatusOr<fs::path> {
         return onlyDumpFile(dir, ".before_optimizations.txt");
       },
       readHloText},
      {"stablehlo",
       [](const fs::path &dir) -> absl::StatusOr<fs::path> {
         return dir / "program.stablehlo.mlir";
       },
       readStableHlo},
      {"gspmd",
       [](const fs::path &dir) -> absl::StatusOr<fs::path> {
         return dir / "program.gspmd.hlo";
       },
       readHloText, /*optional=*/true},
      {"optimized",
       [](const fs::path &dir) -> absl::StatusOr<fs::path> {
         return onlyDumpFile(dir, ".cpu_after_optimizations.txt");
       },
       readHloText, /*optional=*/false, /*perDevice=*/true},
  };
}

/// What every program shares: the CPU target, and an executor per core
/// count (dropped after a failed run).
struct Runner {
  rt::CpuTarget target;
  std::map<int64_t, std::unique_ptr<rt::Executor>> executors;
};

/// The first line of a Status's message, with the program's path taken out
/// of locations.
std::string firstLine(const absl::Status &status, const fs::path &file) {
  std::string text =
      torus::tools::normalizeDiagnostics(std::string(status.message()));
  text = text.substr(0, text.find('\n'));
  fs::path asHlo = file;
  asHlo.replace_extension(".hlo");
  for (const std::string &path : {file.string(), asHlo.string()}) {
    for (size_t at; (at = text.find(path + ":")) != std::string::npos;)
      text.replace(at, path.size() + 1, "");
    for (size_t at; (at = text.find(path)) != std::string::npos;)
      text.replace(at, path.size(), "the program");
  }
  return text;
}

absl::Status failed(std::string_view stage, const absl::Status &status,
                    const fs::path &file) {
  return absl::AbortedError(
      fmt::format("{}: {}", stage, firstLine(status, file)));
}

std::optional<std::string> existing(const fs::path &path) {
  std::error_code ec;
  return fs::exists(path, ec) ? std::optional(path.string()) : std::nullopt;
}

/// meta.json, as far as the runner needs it.
struct Meta {
  int64_t numReplicas = 1, numPartitions = 1;
  struct Output {
    torus::stablehlo::Check check;
    /// "files" (outK.deviceD.npy), "replicated" (outK.npy on every
    /// device), or "" (one device).
    std::string perDevice;
  };
  std::vector<Output> outputs;
  /// JAX's shardings as HLO shardings ("" for one device).
  std::vector<std::string> inputShardings, outputShardings;
};

absl::StatusOr<Meta> readMeta(const fs::path &path) try {
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(fmt::format("cannot open {}", path.string()));
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    return absl::InvalidArgumentError(
        fmt::format("{}: not a JSON object", path.string()));
  Meta meta;
  meta.numReplicas = json.value("num_replicas", int64_t{1});
  meta.numPartitions = json.value("num_partitions", int64_t{1});
  if (meta.numReplicas < 1 || meta.numPartitions < 1 ||
      meta.numReplicas * meta.numPartitions > 1024)
    return absl::InvalidArgumentError(
        fmt::format("{}: {} replicas x {} partitions", path.string(),
                    meta.numReplicas, meta.numPartitions));
  for (const nlohmann::json &o :
       json.value("outputs", nlohmann::json::array())) {
    Meta::Output out;
    nlohmann::json tol = o.value("tolerance", nlohmann::json::object());
    out.check.kind = "allclose";
    out.check.rtol = tol.value("rtol", 0.0);
    out.check.atol = tol.value("atol", 0.0);
    std::string dtype = o.value("dtype", "");
    out.check.narrow = dtype == "bfloat16" || dtype == "float16";
    nlohmann::json perDevice = o.value("per_device", nlohmann::json());
    out.perDevice = perDevice.is_string() ? perDevice.get<std::string>() : "";
    meta.outputs.push_back(std::move(out));
    nlohmann::json sharding = o.value("hlo_sharding", nlohmann::json());
    meta.outputShardings.push_back(
        sharding.is_string() ? sharding.get<std::string>() : "");
  }
  for (const nlohmann::json &i :
       json.value("inputs", nlohmann::json::array())) {
    nlohmann::json sharding = i.value("hlo_sharding", nlohmann::json());
    meta.inputShardings.push_back(
        sharding.is_string() ? sharding.get<std::string>() : "");
  }
  return meta;
} catch (const nlohmann::json::exception &e) {
  return absl::InvalidArgumentError(
      fmt::format("{}: {}", path.string(), e.what()));
}

/// A result as the .npy bytes torus-run would write, so that any type
/// Npy.h can write is judged like JAX's files.
absl::StatusOr<NpyArray> asArray(const HostTensor &t) {
  TORUS_ASSIGN_OR_RETURN(std::string bytes, torus::serializeNpy(t));
  return torus::parseNpyArray(bytes);
}

/// Runs and judges one program in one form: OK when it passes, else the
/// reason.
absl::Status runProgram(Runner &runner, const fs::path &dir, const Form &form,
                        bool &runFailed) {
  auto meta = readMeta(dir / "meta.json");
  if (!meta.ok())
    return failed("corpus", meta.status(), dir);
  auto file = form.file(dir);
  if (!file.ok())
    return failed("corpus", file.status(), dir);
  int64_t numReplicas = meta->numReplicas, numPartitions = meta->numPartitions;
  int64_t numDevices = numReplicas * numPartitions;

  // Import and compile, as torus-run does, for the device counts JAX
  // lowered the program for (its --replicas and --num-partitions).
  auto source = form.read(*file);
  if (!source.ok())
    return failed("import", source.status(), *file);
  // A program the HLO importer runs per device (XLA's optimized HLO, or a
  // shard_map or pmap over every mesh axis; docs/hlo.md, "Programs already
  // per device") comes as one replica per device, its inputs and results
  // each device's part: JAX's shardings (meta.json) split and join them.
  bool runsPerDevice = form.perDevice;
  mlir::ModuleOp imported = *source->function.impl().module;
  auto moduleCount = [&](llvm::StringRef name) -> int64_t {
    auto n = imported->getAttrOfType<mlir::IntegerAttr>(name);
    return n ? n.getInt() : 0;
  };
  if (numDevices > 1 && moduleCount("torus.num_partitions") == 1 &&
      moduleCount("torus.num_replicas") == numDevices) {
    runsPerDevice = true;
    numReplicas = numDevices;
    numPartitions = 1;
  }
  // The devices an input is split over and a result joined from.
  int64_t splitCount = runsPerDevice ? numDevices : numPartitions;
  mlir::torus::CompilerOptions options;
  options.numReplicas = numReplicas;
  options.numPartitions = numPartitions;
  options.vectorBits = runner.target.vectorBits();
  auto compiled =
      mlir::torus::compileToLLVMIR(*source->function.impl().module, options);
  if (!compiled.ok())
    return failed("compile", compiled.status(), *file);
  rt::JitOptions jit;
  jit.optLevel = 3;
  jit.target = runner.target;
  jit.symbols = rt::runtimeAbiSymbols();
  std::vector<std::string> inputShardings = compiled->inputShardings;
  std::vector<std::string> outputShardings = compiled->outputShardings;
  if (runsPerDevice) {
    inputShardings = meta->inputShardings;
    outputShardings = meta->outputShardings;
  }
  int64_t partitions = compiled->numPartitions;
  auto code = rt::JitModule::load(std::move(compiled->llvmContext),
                                  std::move(compiled->llvmModule), jit);
  if (!code.ok())
    return failed("jit", code.status(), *file);
  auto entry = (*code)->lookup(compiled->entrySymbol);
  if (!entry.ok())
    return failed("jit", entry.status(), *file);
  rt::Program program;
  program.spec = std::move(compiled->spec);
  program.entry = reinterpret_cast<rt::EntryFn>(*entry);
  if (partitions != numPartitions)
    return absl::AbortedError(
        fmt::format("compile: compiled for {} partitions, meta.json says {}",
                    partitions, numPartitions));

  // inK.npy, global; split into each device's tile by the shardings Torus
  // compiled the program with.
  std::vector<HostTensor> global;
  while (auto in = existing(dir / fmt::format("in{}.npy", global.size()))) {
    auto array = torus::readNpy(*in);
    if (!array.ok())
      return failed("inputs", array.status(), *file);
    global.push_back(std::move(*array));
  }
  if (global.size() != program.spec.inputs.size())
    return absl::AbortedError(fmt::format(
        "inputs: the program takes {} arguments, the corpus has {} inputs",
        program.spec.inputs.size(), global.size()));
  for (size_t k = 0; k < global.size(); ++k)
    global[k] =
        asIntegerArgument(std::move(global[k]), program.spec.inputs[k].dtype);
  // Every replica is given the same global inputs, split over the devices
  // of a replica (splitCount of them).
  torus::tools::GlobalLayout layout;
  layout.numReplicas = numDevices / splitCount;
  layout.numPartitions = splitCount;
  layout.inputShardings = inputShardings;
  layout.outputShardings = outputShardings;
  auto split = torus::tools::splitGlobalInputs(
      layout, std::vector<std::vector<HostTensor>>(layout.numReplicas, global));
  if (!split.ok())
    return failed("inputs", split.status(), *file);
  std::vector<std::vector<HostTensor>> perDevice = std::move(*split);

  auto &executor = runner.executors[numDevices];
  if (!executor) {
    auto created = rt::Executor::create(numDevices);
    if (!created.ok())
      return failed("run", created.status(), *file);
    executor = std::move(*created);
  }
  rt::RunOptions runOptions;
  runOptions.numPartitions = numPartitions;
  if (absl::Status valid = executor->validate(program, perDevice, runOptions);
      !valid.ok())
    return failed("inputs", valid, *file);
  auto outputs = executor->run(program, perDevice, runOptions);
  if (!outputs.ok()) {
    runFailed = true;
    return failed("run", outputs.status(), *file);
  }

  size_t numResults = outputs->front().size();
  size_t expectedResults = 0;
  while (existing(dir / fmt::format("out{}.npy", expectedResults)))
    ++expectedResults;
  if (numResults != expectedResults)
    return absl::AbortedError(fmt::format(
        "results: the program returns {} results, JAX returned {}",
        numResults, expectedResults));
  for (size_t k = 0; k < numResults; ++k) {
    torus::stablehlo::Check check;
    std::string layout;
    if (k < meta->outputs.size()) {
      check = meta->outputs[k].check;
      layout = meta->outputs[k].perDevice;
    }
    auto want = torus::readNpyArray(
        (dir / fmt::format("out{}.npy", k)).string());
    if (!want.ok())
      return failed(fmt::format("expected {}", k), want.status(), *file);
    // The global result: device 0's, or the tiles of replica 0 joined.
    absl::StatusOr<HostTensor> whole = (*outputs)[0][k];
    std::string outSharding =
        k < outputShardings.size() && !outputShardings[k].empty()
            ? outputShardings[k]
            : "{replicated}";
    if (splitCount > 1) {
      std::vector<HostTensor> tiles;
      for (int64_t p = 0; p < splitCount; ++p)
        tiles.push_back((*outputs)[p][k]);
      whole = torus::unshard(tiles, outSharding, want->shape);
      if (!whole.ok())
        return failed(fmt::format("result {} sharding {}", k, outSharding),
                      whole.status(), *file);
    }
    auto got = asArray(*whole);
    if (!got.ok())
      return failed(fmt::format("result {}", k), got.status(), *file);
    if (auto wrong = torus::stablehlo::judge(*got, *want, check))
      return absl::AbortedError(
          fmt::format("wrong values: result {}: {}", k, *wrong));
    if (layout.empty() || numDevices == 1)
      continue;
    // Device by device, against what JAX left on each device.
    for (int64_t d = 0; d < numDevices; ++d) {
      absl::StatusOr<NpyArray> deviceWant =
          layout == "replicated"
              ? *want
              : torus::readNpyArray(
                    (dir / fmt::format("out{}.device{}.npy", k, d)).string());
      if (!deviceWant.ok())
        return failed(fmt::format("expected {} device {}", k, d),
                      deviceWant.status(), *file);
      auto deviceGot = asArray((*outputs)[d][k]);
      if (!deviceGot.ok())
        return failed(fmt::format("result {} device {}", k, d),
                      deviceGot.status(), *file);
      if (auto wrong = torus::stablehlo::judge(*deviceGot, *deviceWant, check))
        return absl::AbortedError(fmt::format(
            "wrong values: result {} on device {} (Torus's sharding {}): {}",
            k, d, outSharding, *wrong));
    }
  }
  return absl::OkStatus();
}

/// expected-failures.txt: `NAME  form  reason` lines; `#` comments and
/// blank lines. The comment block at the top is kept when the file is
/// rewritten.
using Key = std::pair<std::string, std::string>; // (program, form)
struct ExpectedFailures {
  std::vector<std::string> header;
  std::map<Key, std::string> reasons;
};

absl::StatusOr<ExpectedFailures> readExpectedFailures(const std::string &path) {
  ExpectedFailures out;
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(fmt::format("cannot open {}", path));
  std::string line;
  int lineNumber = 0;
  while (std::getline(in, line)) {
    ++lineNumber;
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') {
      if (out.reasons.empty())
        out.header.push_back(line);
      continue;
    }
    // NAME, form, then the reason (the rest of the line).
    std::string fields[2];
    size_t at = start;
    for (std::string &field : fields) {
      size_t end = line.find_first_of(" \t", at);
      field = line.substr(at, end - at);
      at = end == std::string::npos ? end : line.find_first_not_of(" \t", end);
      if (at == std::string::npos)
        break;
    }
    if (fields[1].empty())
      return absl::InvalidArgumentError(fmt::format(
          "{}:{}: expected `NAME  form  reason`", path, lineNumber));
    std::string reason = at == std::string::npos ? "" : line.substr(at);
    if (!out.reasons.emplace(Key{fields[0], fields[1]}, reason).second)
      return absl::InvalidArgumentError(
          fmt::format("{}:{}: '{} {}' is listed twice", path, lineNumber,
                      fields[0], fields[1]));
  }
  while (!out.header.empty() &&
         out.header.back().find_first_not_of(" \t") == std::string::npos)
    out.header.pop_back();
  return out;
}

absl::Status writeExpectedFailures(const std::string &path,
                                   const ExpectedFailures &failures) {
  std::ofstream out(path, std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(fmt::format("cannot write {}", path));
  for (const std::string &line : failures.header)
    out << line << "\n";
  if (!failures.header.empty())
    out << "\n";
  for (const auto &[key, reason] : failures.reasons)
    out << key.first << "  " << key.second << "  " << reason << "\n";
  out.close();
  if (!out)
    return absl::DataLossError(fmt::format("writing {} failed", path));
  return absl::OkStatus();
}

int run() {
  int shard = 0, numShards = 1;
  if (std::sscanf(shardSpec.c_str(), "%d/%d", &shard, &numShards) != 2 ||
      numShards < 1 || shard < 0 || shard >= numShards) {
    llvm::errs() << fmt::format("--shard={}: expected I/N with 0 <= I < N\n",
                                shardSpec.getValue());
    return 2;
  }
  std::vector<Form> forms;
  std::vector<Form> known = allForms();
  for (const std::string &name :
       std::vector<std::string>(absl::StrSplit(formsSpec.getValue(), ','))) {
    auto it = std::find_if(known.begin(), known.end(),
                           [&](const Form &f) { return f.name == name; });
    if (it == known.end()) {
      llvm::errs() << fmt::format("--forms: unknown form '{}' (forms: hlo, "
                                  "dump, stablehlo, gspmd, optimized)\n",
                                  name);
      return 2;
    }
    forms.push_back(*it);
  }

  fs::path root(corpusDir.getValue());
  std::vector<std::string> all;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(root, ec))
    if (entry.is_directory() && fs::exists(entry.path() / "meta.json"))
      all.push_back(entry.path().filename().string());
  if (ec || all.empty()) {
    llvm::errs() << fmt::format("{}: no programs (folders with meta.json){}\n",
                                root.string(),
                                ec ? " (" + ec.message() + ")" : "");
    return 2;
  }
  std::sort(all.begin(), all.end());
  auto expected = readExpectedFailures(expectedFailuresPath);
  if (!expected.ok()) {
    llvm::errs() << std::string(expected.status().message()) << "\n";
    return 2;
  }

  auto target = rt::defaultCpuTarget();
  if (!target.ok() || !rt::checkHostCanRun(*target).ok()) {
    absl::Status why =
        target.ok() ? rt::checkHostCanRun(*target) : target.status();
    llvm::errs() << "no CPU target to run on: " << std::string(why.message())
                 << "\n";
    return 2;
  }
  Runner runner{*target, {}};

  std::vector<std::string> selected;
  for (size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % numShards) == shard &&
        all[i].find(filter.getValue()) != std::string::npos)
      selected.push_back(all[i]);
  if (selected.empty() && numShards == 1) {
    llvm::errs() << fmt::format("no program's name contains '{}'\n",
                                filter.getValue());
    return 2;
  }

  auto start = std::chrono::steady_clock::now();
  std::vector<Key> runs;
  std::map<Key, std::string> failures;
  std::map<std::string, int64_t> passesByForm, runsByForm;
  for (const std::string &name : selected)
    for (const Form &form : forms) {
      llvm::PrettyStackTraceFormat crashNote("JAX corpus program %s, form %s",
                                             name.c_str(), form.name.c_str());
      Key key{name, form.name};
      if (form.optional) {
        auto file = form.file(root / name);
        if (file.ok() && !existing(*file))
          continue;
      }
      runs.push_back(key);
      ++runsByForm[form.name];
      bool runFailed = false;
      absl::Status status = runProgram(runner, root / name, form, runFailed);
      if (status.ok()) {
        ++passesByForm[form.name];
        continue;
      }
      failures[key] = std::string(status.message());
      // A failed run may leave the executor in any state: fresh ones.
      if (runFailed)
        runner.executors.clear();
    }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::string label =
      numShards > 1 ? fmt::format("JAX corpus shard {}/{}", shard, numShards)
                    : std::string("JAX corpus");
  std::string perForm;
  for (const Form &form : forms)
    perForm += fmt::format("{}{} {}/{}", perForm.empty() ? "" : ", ",
                           form.name, passesByForm[form.name],
                           runsByForm[form.name]);
  std::set<std::string> knownPrograms(all.begin(), all.end());
  // Why (program, form) names nothing to run, or "" when it does.
  auto notInCorpus = [&](const Key &key) -> std::string {
    if (!knownPrograms.count(key.first))
      return "the corpus has no such program";
    auto form = std::find_if(known.begin(), known.end(), [&](const Form &f) {
      return f.name == key.second;
    });
    if (form == known.end())
      return "there is no such form";
    if (form->optional) {
      auto file = form->file(root / key.first);
      if (file.ok() && !existing(*file))
        return "the program has no such form";
    }
    return "";
  };
  if (update) {
    for (const Key &key : runs)
      expected->reasons.erase(key);
    for (const auto &[key, reason] : failures)
      expected->reasons[key] = reason;
    std::erase_if(expected->reasons, [&](const auto &entry) {
      return !notInCorpus(entry.first).empty();
    });
    if (absl::Status s = writeExpectedFailures(expectedFailuresPath, *expected);
        !s.ok()) {
      llvm::errs() << std::string(s.message()) << "\n";
      return 2;
    }
    llvm::outs() << fmt::format(
        "{}: {} programs, {} runs in {} forms, {} pass, {} fail (pass by "
        "form: {}), in {:.1f} s; wrote {} ({} expected failures in all)\n",
        label, selected.size(), runs.size(), forms.size(),
        runs.size() - failures.size(),
        failures.size(), perForm, seconds, expectedFailuresPath.getValue(),
        expected->reasons.size());
    return 0;
  }

  int64_t expectedFailures = 0;
  std::vector<std::string> problems;
  for (const Key &key : runs) {
    auto failure = failures.find(key);
    bool listed = expected->reasons.count(key) != 0;
    if (failure != failures.end() && listed) {
      ++expectedFailures;
      if (verbose)
        llvm::outs() << fmt::format("expected failure {} {}: {}\n", key.first,
                                    key.second, failure->second);
    } else if (failure != failures.end()) {
      problems.push_back(fmt::format("UNEXPECTED FAILURE {} {}: {}", key.first,
                                     key.second, failure->second));
    } else if (listed) {
      problems.push_back(fmt::format(
          "UNEXPECTED PASS {} {}: it passes now; remove its line from {} (or "
          "rerun with --update-expected-failures)",
          key.first, key.second, expectedFailuresPath.getValue()));
    }
  }
  if (shard == 0 && filter.empty()) {
    for (const auto &[key, reason] : expected->reasons)
      if (std::string why = notInCorpus(key); !why.empty())
        problems.push_back(fmt::format(
            "STALE ENTRY {} {}: {} lists it, but {}; remove its line",
            key.first, key.second, expectedFailuresPath.getValue(), why));
  }
  for (const std::string &p : problems)
    llvm::outs() << p << "\n";
  int64_t unexpectedFailures = 0, unexpectedPasses = 0;
  for (const std::string &p : problems) {
    unexpectedFailures += absl::StartsWith(p, "UNEXPECTED FAILURE");
    unexpectedPasses += absl::StartsWith(p, "UNEXPECTED PASS");
  }
  llvm::outs() << fmt::format(
      "{}: {} programs, {} runs in {} forms: {} pass ({}), {} expected "
      "failures, {} unexpected failures, {} unexpected passes, in {:.1f} s\n",
      label, selected.size(), runs.size(), forms.size(),
      runs.size() - failures.size(),
      perForm, expectedFailures, unexpectedFailures, unexpectedPasses,
      seconds);
  if (!problems.empty())
    llvm::outs() << fmt::format(
        "FAILED: the results differ from {} (after landing a fix, rerun "
        "with --update-expected-failures to rewrite it)\n",
        expectedFailuresPath.getValue());
  return problems.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "torus-jax-corpus: run the JAX corpus (tests/jax) in process and "
      "compare with the expected failures\n");
  return run();
}
