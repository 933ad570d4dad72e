//===- StableHloCorpus.cpp - The public StableHLO corpus as a test --------===//
//
//   torus-stablehlo-corpus --corpus=../shared/corpora/stablehlo
//       --expected-failures=tests/stablehlo/expected-failures.txt
//       [--shard=I/N] [--filter=SUBSTRING] [--verbose]
//       [--update-expected-failures] [--mode=hlo|mlir]
//
// --mode=mlir runs the StableHLO originals instead (mlir/NAME.mlir, read by
// ir/stablehlo): @main's `check.expect_*(%result, %expected)` custom calls
// are replaced by returning each (result, expected) pair, judged as below
// with the check the call names. Their expected failures are a file of
// their own (expected-failures-mlir.txt).
//
// Runs the corpus's programs (hlo/NAME.hlo on hlo/NAME.inK.npy, one replica)
// in this process, through the library calls torus-run makes: import,
// compile, JIT, run on the emulated executor. Each program returns (result_0,
// expected_0, result_1, ...); hlo/NAME.expected<K>.npy, when present,
// replaces expected_K, and hlo/NAME.json names the check (CorpusJudge.h).
// Every failure (an import or compile error, a failed run, a wrong value) is
// recorded with a one-line reason; only a crash stops the run (LLVM's crash
// report then names the program).
//
// The test fails when a program fails that expected-failures.txt does not
// list, or passes although listed (remove its line), or when the file names
// a program the corpus does not have. --update-expected-failures rewrites the
// file from this run instead: the lines of the programs run are replaced,
// the others kept, sorted by name. docs/testing.md describes it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "ir/DiagnosticCollector.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloImport.h"
#include "ir/stablehlo/StablehloOps.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/CpuTarget.h"
#include "runtime/jit/JitModule.h"
#include "support/Npy.h"
#include "tests/stablehlo/CorpusJudge.h"
#include "tools/common/SourceProgram.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "absl/strings/match.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
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

cl::opt<std::string> corpusDir("corpus", cl::desc("The corpus (it holds hlo/)"),
                               cl::value_desc("dir"), cl::Required);
cl::opt<std::string> expectedFailuresPath(
    "expected-failures",
    cl::desc("The programs expected to fail, one `NAME  reason` a line"),
    cl::value_desc("file"), cl::Required);
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
cl::opt<std::string> mode("mode",
                          cl::desc("hlo: the hlo/ programs; mlir: the "
                                   "StableHLO originals in mlir/"),
                          cl::value_desc("hlo|mlir"), cl::init("hlo"));
cl::opt<bool> verbose("verbose",
                      cl::desc("Print every failing program, expected or "
                               "not"));

/// What every program shares: the CPU target, and the executor (replaced
/// after a failed run).
struct Runner {
  rt::CpuTarget target;
  std::unique_ptr<rt::Executor> executor;
};

/// The first line of a Status's message, with the corpus folder and the
/// program's file name taken out of locations.
std::string firstLine(const absl::Status &status, const std::string &hloPath) {
  std::string text =
      torus::tools::normalizeDiagnostics(std::string(status.message()));
  text = text.substr(0, text.find('\n'));
  for (size_t at; (at = text.find(hloPath + ":")) != std::string::npos;)
    text.replace(at, hloPath.size() + 1, "");
  for (size_t at; (at = text.find(hloPath)) != std::string::npos;)
    text.replace(at, hloPath.size(), "the program");
  return text;
}

/// Wraps a failure of `stage` as a Status whose message is the reason.
absl::Status failed(std::string_view stage, const absl::Status &status,
                    const std::string &hloPath) {
  return absl::AbortedError(
      fmt::format("{}: {}", stage, firstLine(status, hloPath)));
}

std::optional<std::string> existing(const fs::path &path) {
  std::error_code ec;
  return fs::exists(path, ec) ? std::optional(path.string()) : std::nullopt;
}

/// The checks of NAME.json, one per result (the last repeats), as
/// scripts/stablehlo-corpus.py reads them.
absl::StatusOr<std::vector<torus::stablehlo::Check>>
readChecks(const std::string &path) try {
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(fmt::format("cannot open {}", path));
  nlohmann::json meta = nlohmann::json::parse(in, nullptr, false);
  if (meta.is_discarded() || !meta.is_object())
    return absl::InvalidArgumentError(
        fmt::format("{}: not a JSON object", path));
  nlohmann::json checks = meta.value("checks", nlohmann::json::array());
  if (!checks.is_array() || checks.empty())
    checks = nlohmann::json::array(
        {{{"check", meta.value("check", "expect_eq")},
          {"result_types",
           meta.value("result_types", nlohmann::json::array())}}});
  std::vector<torus::stablehlo::Check> out;
  for (const nlohmann::json &c : checks) {
    if (!c.is_object())
      return absl::InvalidArgumentError(fmt::format("{}: a check is not an "
                                                    "object",
                                                    path));
    torus::stablehlo::Check check;
    check.kind = c.value("check", "expect_eq");
    // "bf16" contains "f16": the script's test on the types' text.
    check.narrow =
        c.value("result_types", nlohmann::json()).dump().find("f16") !=
        std::string::npos;
    out.push_back(std::move(check));
  }
  return out;
} catch (const nlohmann::json::exception &e) {
  // A value of the wrong type, e.g. a "check" that is not a string.
  return absl::InvalidArgumentError(fmt::format("{}: {}", path, e.what()));
}

/// Replaces @main's `check.expect_*(%result, %expected)` custom calls by
/// returning the pairs, in order; returns the checks they name.
absl::StatusOr<std::vector<torus::stablehlo::Check>>
checksToResults(mlir::ModuleOp module) {
  mlir::func::FuncOp main;
  for (auto fn : module.getOps<mlir::func::FuncOp>())
    if (fn.getName() == "main")
      main = fn;
  if (!main || main.isExternal())
    return absl::InvalidArgumentError("the program has no @main");
  std::vector<torus::stablehlo::Check> checks;
  llvm::SmallVector<mlir::Value> results;
  llvm::SmallVector<mlir::Operation *> calls;
  main.walk([&](mlir::stablehlo::CustomCallOp call) {
    llvm::StringRef target = call.getCallTargetName();
    if (!target.consume_front("check.") || call.getInputs().size() != 2)
      return;
    torus::stablehlo::Check check;
    check.kind = target.str();
    mlir::Type et = mlir::getElementTypeOrSelf(call.getInputs()[0].getType());
    if (auto complex = mlir::dyn_cast<mlir::ComplexType>(et))
      et = complex.getElementType();
    check.narrow = et.isF16() || et.isBF16();
    checks.push_back(check);
    results.append(call.getInputs().begin(), call.getInputs().end());
    calls.push_back(call);
  });
  if (checks.empty())
    return absl::InvalidArgumentError("@main checks nothing");
  for (mlir::Operation *call : calls)
    call->erase();
  mlir::Operation *ret = main.getBody().front().getTerminator();
  ret->setOperands(results);
  main.setType(mlir::FunctionType::get(module.getContext(),
                                       main.getArgumentTypes(),
                                       mlir::ValueRange(results).getTypes()));
  main.removeResAttrsAttr();
  return checks;
}

/// Imports mlir/NAME.mlir with its checks as results.
absl::StatusOr<torus::TracedFunction>
importStablehloProgram(const std::string &path,
                       std::vector<torus::stablehlo::Check> &checks) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return absl::NotFoundError(fmt::format("cannot read {}", path));
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  auto context = torus::createTorusContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    mlir::torus::DiagnosticCollector diags(context.get());
    module = mlir::torus::stablehlo::parseStablehloText(sourceMgr,
                                                        context.get());
    if (!module)
      return absl::InvalidArgumentError(diags.take());
    auto found = checksToResults(*module);
    if (!found.ok())
      return found.status();
    checks = std::move(*found);
    if (mlir::failed(mlir::torus::stablehlo::convertStablehloToTorus(*module)) ||
        mlir::failed(mlir::verify(*module)))
      return absl::InvalidArgumentError(diags.take());
  }
  return torus::makeTracedFunction(std::move(context), std::move(module));
}

/// Runs and judges one program: OK when it passes, else the reason.
absl::Status runProgram(Runner &runner, const fs::path &hloDir,
                        const std::string &name) {
  bool fromMlir = mode == "mlir";
  std::string hloPath =
      fromMlir ? (hloDir.parent_path() / "mlir" / (name + ".mlir")).string()
               : (hloDir / (name + ".hlo")).string();
  absl::StatusOr<std::vector<torus::stablehlo::Check>> checks;
  std::optional<torus::TracedFunction> function;
  if (fromMlir) {
    std::vector<torus::stablehlo::Check> found;
    auto fn = importStablehloProgram(hloPath, found);
    if (!fn.ok())
      return failed("import", fn.status(), hloPath);
    function = std::move(*fn);
    checks = std::move(found);
  } else {
    checks = readChecks((hloDir / (name + ".json")).string());
    if (!checks.ok())
      return failed("corpus", checks.status(), hloPath);
    // Import and compile, as torus-run does for one replica.
    auto source = torus::tools::readSourceProgram(hloPath);
    if (!source.ok())
      return failed("import", source.status(), hloPath);
    function = std::move(source->function);
  }
  mlir::torus::CompilerOptions options;
  options.numReplicas = 1;
  options.vectorBits = runner.target.vectorBits();
  auto compiled =
      mlir::torus::compileToLLVMIR(*function->impl().module, options);
  if (!compiled.ok())
    return failed("compile", compiled.status(), hloPath);
  rt::JitOptions jit;
  jit.optLevel = 3;
  jit.target = runner.target;
  jit.symbols = rt::runtimeAbiSymbols();
  auto code = rt::JitModule::load(std::move(compiled->llvmContext),
                                  std::move(compiled->llvmModule), jit);
  if (!code.ok())
    return failed("jit", code.status(), hloPath);
  auto entry = (*code)->lookup(compiled->entrySymbol);
  if (!entry.ok())
    return failed("jit", entry.status(), hloPath);
  rt::Program program;
  program.spec = std::move(compiled->spec);
  program.entry = reinterpret_cast<rt::EntryFn>(*entry);

  // NAME.in0.npy, NAME.in1.npy, ... by argument index.
  std::vector<HostTensor> inputs;
  while (auto file = fromMlir ? std::nullopt
                              : existing(hloDir / fmt::format("{}.in{}.npy",
                                                              name,
                                                              inputs.size()))) {
    auto array = torus::readNpy(*file);
    if (!array.ok())
      return failed("inputs", array.status(), hloPath);
    size_t k = inputs.size();
    inputs.push_back(k < program.spec.inputs.size()
                         ? asIntegerArgument(std::move(*array),
                                             program.spec.inputs[k].dtype)
                         : std::move(*array));
  }
  if (inputs.size() != program.spec.inputs.size())
    return absl::AbortedError(fmt::format(
        "inputs: the program takes {} arguments, the corpus has {} inputs",
        program.spec.inputs.size(), inputs.size()));
  std::vector<std::vector<HostTensor>> perReplica{std::move(inputs)};
  if (absl::Status valid = runner.executor->validate(program, perReplica);
      !valid.ok())
    return failed("inputs", valid, hloPath);
  auto outputs = runner.executor->run(program, perReplica);
  if (!outputs.ok())
    return failed("run", outputs.status(), hloPath);
  const std::vector<HostTensor> &results = outputs->front();

  if (results.size() < 2 || results.size() % 2)
    return absl::AbortedError(fmt::format(
        "results: {} results, not pairs (result, expected)", results.size()));
  // Results go through the .npy bytes torus-run would write, so that any
  // type Npy.h can write is judged like the expected files.
  auto asArray = [&](const HostTensor &t) -> absl::StatusOr<NpyArray> {
    TORUS_ASSIGN_OR_RETURN(std::string bytes, torus::serializeNpy(t));
    return torus::parseNpyArray(bytes);
  };
  for (size_t r = 0; r < results.size() / 2; ++r) {
    auto got = asArray(results[2 * r]);
    if (!got.ok())
      return failed(fmt::format("result {}", r), got.status(), hloPath);
    absl::StatusOr<NpyArray> want;
    if (auto file = fromMlir ? std::nullopt
                             : existing(hloDir / fmt::format(
                                                     "{}.expected{}.npy", name,
                                                     r ? std::to_string(r)
                                                       : "")))
      want = torus::readNpyArray(*file);
    else
      want = asArray(results[2 * r + 1]);
    if (!want.ok())
      return failed(fmt::format("expected {}", r), want.status(), hloPath);
    const auto &check = (*checks)[std::min(r, checks->size() - 1)];
    if (auto wrong = torus::stablehlo::judge(*got, *want, check))
      return absl::AbortedError(
          fmt::format("wrong values: result {}: {}", r, *wrong));
  }
  return absl::OkStatus();
}

/// expected-failures.txt: `NAME  reason` lines; `#` comments and blank
/// lines. The comment block at the top is kept when the file is rewritten.
struct ExpectedFailures {
  std::vector<std::string> header;
  std::map<std::string, std::string> reasons;
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
    size_t end = line.find_first_of(" \t", start);
    std::string name = line.substr(start, end - start);
    std::string reason;
    if (end != std::string::npos) {
      size_t r = line.find_first_not_of(" \t", end);
      if (r != std::string::npos)
        reason = line.substr(r);
    }
    if (!out.reasons.emplace(name, reason).second)
      return absl::InvalidArgumentError(
          fmt::format("{}:{}: '{}' is listed twice", path, lineNumber, name));
  }
  // Blank lines between the header and the first entry are not header.
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
  for (const auto &[name, reason] : failures.reasons)
    out << name << "  " << reason << "\n";
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
  if (mode != "hlo" && mode != "mlir") {
    llvm::errs() << fmt::format("--mode={}: expected hlo or mlir\n",
                                mode.getValue());
    return 2;
  }
  fs::path hloDir = fs::path(corpusDir.getValue()) / "hlo";
  std::string extension = mode == "mlir" ? ".mlir" : ".hlo";
  fs::path programDir = fs::path(corpusDir.getValue()) / mode.getValue();
  std::vector<std::string> all;
  std::error_code ec;
  for (const auto &entry : fs::directory_iterator(programDir, ec))
    if (entry.path().extension() == extension)
      all.push_back(entry.path().stem().string());
  if (ec || all.empty()) {
    llvm::errs() << fmt::format("{}: no {} programs{}\n", programDir.string(),
                                extension, ec ? " (" + ec.message() + ")" : "");
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
  Runner runner{*target, nullptr};

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
  std::map<std::string, std::string> failures; // name -> reason
  for (const std::string &name : selected) {
    llvm::PrettyStackTraceFormat crashNote("StableHLO corpus program %s",
                                           name.c_str());
    if (!runner.executor) {
      auto executor = rt::Executor::create(1);
      if (!executor.ok()) {
        llvm::errs() << std::string(executor.status().message()) << "\n";
        return 2;
      }
      runner.executor = std::move(*executor);
    }
    absl::Status status = runProgram(runner, hloDir, name);
    if (status.ok())
      continue;
    failures[name] = std::string(status.message());
    // A failed run may leave the executor in any state: a fresh one.
    if (absl::StartsWith(status.message(), "run:"))
      runner.executor.reset();
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::string label =
      numShards > 1
          ? fmt::format("StableHLO corpus shard {}/{}", shard, numShards)
          : std::string("StableHLO corpus");
  if (update) {
    for (const std::string &name : selected)
      expected->reasons.erase(name);
    for (const auto &[name, reason] : failures)
      expected->reasons[name] = reason;
    std::set<std::string> known(all.begin(), all.end());
    std::erase_if(expected->reasons,
                  [&](const auto &entry) { return !known.count(entry.first); });
    if (absl::Status s = writeExpectedFailures(expectedFailuresPath, *expected);
        !s.ok()) {
      llvm::errs() << std::string(s.message()) << "\n";
      return 2;
    }
    llvm::outs() << fmt::format(
        "{}: {} programs, {} pass, {} fail, in {:.1f} s; wrote {} ({} "
        "expected failures in all)\n",
        label, selected.size(), selected.size() - failures.size(),
        failures.size(), seconds, expectedFailuresPath.getValue(),
        expected->reasons.size());
    return 0;
  }

  int64_t expectedFailures = 0;
  std::vector<std::string> problems;
  for (const std::string &name : selected) {
    auto failure = failures.find(name);
    bool listed = expected->reasons.count(name) != 0;
    if (failure != failures.end() && listed) {
      ++expectedFailures;
      if (verbose)
        llvm::outs() << fmt::format("expected failure {}: {}\n", name,
                                    failure->second);
    } else if (failure != failures.end()) {
      problems.push_back(
          fmt::format("UNEXPECTED FAILURE {}: {}", name, failure->second));
    } else if (listed) {
      problems.push_back(fmt::format(
          "UNEXPECTED PASS {}: it passes now; remove its line from {} (or "
          "rerun with --update-expected-failures)",
          name, expectedFailuresPath.getValue()));
    }
  }
  // Names that are not in the corpus, reported once (by shard 0).
  if (shard == 0 && filter.empty()) {
    std::set<std::string> known(all.begin(), all.end());
    for (const auto &[name, reason] : expected->reasons)
      if (!known.count(name))
        problems.push_back(fmt::format(
            "STALE ENTRY {}: {} lists it, but the corpus has no such program; "
            "remove its line",
            name, expectedFailuresPath.getValue()));
  }
  for (const std::string &p : problems)
    llvm::outs() << p << "\n";
  int64_t unexpectedFailures = 0, unexpectedPasses = 0;
  for (const std::string &p : problems) {
    unexpectedFailures += absl::StartsWith(p, "UNEXPECTED FAILURE");
    unexpectedPasses += absl::StartsWith(p, "UNEXPECTED PASS");
  }
  llvm::outs() << fmt::format(
      "{}: {} programs: {} pass, {} expected failures, {} unexpected "
      "failures, {} unexpected passes, in {:.1f} s\n",
      label, selected.size(), selected.size() - failures.size(),
      expectedFailures, unexpectedFailures, unexpectedPasses, seconds);
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
      "torus-stablehlo-corpus: run the StableHLO corpus in process and "
      "compare with the expected failures\n");
  return run();
}
