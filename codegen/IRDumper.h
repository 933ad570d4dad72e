//===- IRDumper.h - Numbered IR dumps into a directory ----------*- C++ -*-===//
//
// What `torusc --dump-dir=DIR` writes, XLA-style: one file per step of the
// compilation, numbered in order, named
//
//   module_0000.<name>.0000.input.mlir
//   module_0000.<name>.0001.after_torus-lower-collectives.mlir
//   module_0000.<name>.0002.after_torus-to-linalg.mlir
//   ...
//   module_0000.<name>.0031.llvm.ll
//
// and unnumbered reports (`module_0000.<name>.memory.txt`). A
// PassInstrumentation (createInstrumentation) writes the whole module after
// every pass, so file N-1 is the module before the pass of file N; when a
// pass fails, the module it left is written as `failed_<pass>`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_IRDUMPER_H
#define TORUS_CODEGEN_IRDUMPER_H

#include "torus/Status.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::torus {

struct IRDumperOptions {
  /// Also write the module before every pass (`before_<pass>`), not only
  /// after.
  bool beforePasses = false;
  /// How modules are printed (locations, elided constants, ...).
  OpPrintingFlags printingFlags;
};

class IRDumper {
public:
  /// Creates `directory` if needed. `moduleName` (the entry function's name)
  /// is part of every file name; `moduleId` numbers modules compiled by one
  /// process.
  static absl::StatusOr<std::unique_ptr<IRDumper>>
  create(std::string directory, std::string moduleName, int moduleId = 0,
         IRDumperOptions options = {});

  /// `DIR/module_0000.<name>.<what>.<extension>`, for reports.
  std::string path(std::string_view what, std::string_view extension) const;
  /// Writes `text` to path(what, extension).
  absl::Status write(std::string_view what, std::string_view extension,
                     std::string_view text);
  /// Writes `text` as the next numbered file
  /// (`DIR/module_0000.<name>.<NNNN>.<what>.<extension>`).
  absl::Status writeNumbered(std::string_view what, std::string_view extension,
                             std::string_view text);
  /// Prints the module holding `op` (its outermost ancestor) as the next
  /// numbered `.mlir` file.
  absl::Status writeNumberedModule(std::string_view what, Operation *op);

  /// Instrumentation writing the module after (and, if asked, before) every
  /// pass. The dumper must outlive the PassManager it is added to.
  std::unique_ptr<PassInstrumentation> createInstrumentation();

  /// The first error writing a file from the instrumentation (which cannot
  /// return one), or OK.
  absl::Status status() const { return status_; }
  /// Every file written, in order.
  const std::vector<std::string> &files() const { return files_; }
  const std::string &directory() const { return directory_; }

  /// Records `status` if no error was recorded before.
  void recordError(absl::Status status);
  const IRDumperOptions &options() const { return options_; }

private:
  IRDumper(std::string directory, std::string moduleName, int moduleId,
           IRDumperOptions options);
  absl::Status writeFile(const std::string &path, std::string_view text);

  std::string directory_;
  std::string prefix_; // module_0000.<name>
  IRDumperOptions options_;
  int counter_ = 0;
  absl::Status status_;
  std::vector<std::string> files_;
};

/// `name` with every character other than letters, digits, `.`, `-` and `_`
/// replaced by `_`, for file names.
std::string sanitizeFileName(std::string_view name);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_IRDUMPER_H
