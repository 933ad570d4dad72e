//===- ReaderFuzzer.cpp - libFuzzer target for the program readers -------===//
//
// Feeds arbitrary bytes to the reader torusc and torus-run use for files
// with extension TORUS_FUZZ_EXTENSION (".mlir"; ".hlo" once the importer
// exists) and, when they parse and verify, compiles them for 4 replicas all
// the way to LLVM IR. Every outcome must be a Status with diagnostics
// (collected by the DiagnosticCollector, never printed), never a crash, a
// hang or a sanitizer report. docs/torusc.md says how to run it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "tools/common/SourceProgram.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef TORUS_FUZZ_EXTENSION
#define TORUS_FUZZ_EXTENSION ".mlir"
#endif

/// LLVM's BumpPtrAllocator poisons the unused part of its slabs for ASan, in
/// inline code: compiled into this instrumented binary it poisons, but the
/// same allocator used from the uninstrumented libMLIR.so never unpoisons
/// what it hands out, so reading MLIR's own attributes would be reported as
/// use-after-poison. Manual poisoning is turned off; every other check stays.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  auto program = torus::tools::parseSourceProgram(
      "fuzz" TORUS_FUZZ_EXTENSION, text);
  if (!program.ok())
    return 0;
  mlir::torus::CompilerOptions options;
  options.numReplicas = 4;
  auto compiled =
      mlir::torus::compileToLLVMIR(*program->function.impl().module, options);
  (void)compiled;
  return 0;
}
