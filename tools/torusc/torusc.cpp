//===- torusc.cpp - The Torus compiler driver -----------------------------===//
//
//   torusc step.mlir --emit=llvm -o step.ll
//
// Reads a module of the torus dialect and prints it lowered to the stage
// --emit names. Exit codes: 0 success, 1 the input is invalid (diagnostics
// on stderr as file:line:col: error: ...), 2 bad command line or I/O error.
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using mlir::torus::Stage;

namespace {
cl::OptionCategory category("torusc options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir file>"),
                               cl::init("-"), cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(category));
cl::opt<Stage> emit(
    "emit", cl::desc("How far to lower before printing"), cl::init(Stage::LLVMIR),
    cl::values(
        clEnumValN(Stage::Torus, "torus", "the verified torus dialect input"),
        clEnumValN(Stage::Linalg, "linalg",
                   "linalg on tensors, collectives as runtime calls"),
        clEnumValN(Stage::LLVMDialect, "llvm-dialect", "the MLIR LLVM dialect"),
        clEnumValN(Stage::LLVMIR, "llvm", "LLVM IR (default)")),
    cl::cat(category));
cl::opt<int64_t> replicas("replicas",
                          cl::desc("Number of replicas the program runs on"),
                          cl::init(1), cl::cat(category));

int fail(const std::string &message, int code) {
  llvm::errs() << message << "\n";
  return code;
}
} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "torusc: compile a torus dialect module to linalg, the LLVM dialect or "
      "LLVM IR\n");

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    return fail("torusc: cannot read '" + inputFile +
                    "': " + buffer.getError().message(),
                2);
  std::string sourceName = inputFile == "-" ? "<stdin>" : inputFile.getValue();
  auto parsed = torus::parseModule((*buffer)->getBuffer().str(), sourceName);
  if (!parsed.ok())
    return fail(std::string(parsed.status().message()), 1);
  mlir::ModuleOp module = *parsed->impl().module;

  std::error_code ec;
  llvm::ToolOutputFile out(outputFile, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("torusc: cannot write '" + outputFile + "': " + ec.message(),
                2);

  mlir::torus::CompilerOptions options;
  options.numReplicas = replicas;
  if (emit == Stage::LLVMIR) {
    auto compiled = mlir::torus::compileToLLVMIR(module, options);
    if (!compiled.ok())
      return fail(std::string(compiled.status().message()), 1);
    compiled->llvmModule->print(out.os(), nullptr);
  } else {
    absl::Status status = mlir::torus::lowerToStage(module, emit, options);
    if (!status.ok())
      return fail(std::string(status.message()), 1);
    module.print(out.os());
    out.os() << "\n";
  }
  out.keep();
  return 0;
}
