//===- Progress.h - One line per phase of a long compile (-v) ---*- C++ -*-===//
//
// `torusc -v` and `torus-run -v` print, on stderr, a line as each phase of
// the compile ends, with the time it took:
//
//   torusc: parsing step.mlir: 3.6 ms
//   torusc: running 14 passes (to linalg): 9.0 ms
//   torusc: codegen: 5 kernels, LLVM IR: 4.9 ms
//   torusc: LLVM optimization (-O3): 26.3 ms
//   torusc: machine code (object): 14.8 ms
//   torus-run: linking (JIT): 31.4 ms
//
// Disabled, every call does nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_PROGRESS_H
#define TORUS_TOOLS_COMMON_PROGRESS_H

#include "codegen/Compiler.h"

#include "mlir/Pass/PassManager.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace torus::tools {

class Progress {
public:
  /// Lines start with `<tool>: `; nothing is printed unless `enabled`.
  Progress(std::string tool, bool enabled);

  bool enabled() const { return enabled_; }

  /// Starts a phase; its line is printed by done() (or the next begin()).
  void begin(std::string what);
  /// Ends the current phase: prints `<tool>: <what>: <elapsed>`. `what`
  /// when not empty replaces the text begin() gave (to add what the phase
  /// found, e.g. a count).
  void done(std::string what = "");

  /// For CompilerOptions: counts the passes of every stage's pass manager
  /// and prints `running N passes (to <stage>)` as each stage ends. With
  /// `translates` (compileToLLVMIR), the LLVM dialect stage then begins
  /// `codegen: K kernels, LLVM IR` (the kernels torus-fusion named), which
  /// the caller ends with done() once it has the LLVM module. Chains to
  /// what `options` already had.
  void watch(mlir::torus::CompilerOptions &options, bool translates);

private:
  std::string tool_;
  bool enabled_;
  bool open_ = false;
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::shared_ptr<int64_t> passes_ = std::make_shared<int64_t>(0);
  int64_t kernels_ = -1;
};

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_PROGRESS_H
