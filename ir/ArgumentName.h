//===- ArgumentName.h - The names of a function's arguments -----*- C++ -*-===//
//
// An argument's name is what a user calls it: `x` for `%x` in torus text,
// the parameter's name in HLO text, the name given to a traced function's
// argument. It lives in the argument's location as `loc("x"(file:line:col))`
// (a NameLoc around where the argument was written), so it survives
// printing with debug info, the HLO export and the HLO reader, and
// `torus-run --input x=...` finds it. An argument without one is `arg<i>`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_ARGUMENTNAME_H
#define TORUS_IR_ARGUMENTNAME_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class ParserConfig;
} // namespace mlir

namespace mlir::torus {

/// The name recorded on `arg` (a NameLoc around a FileLineColLoc), if any.
/// Other NameLocs (the tracer marks unknown places with the function's
/// name) are not names.
std::optional<std::string> argumentName(BlockArgument arg);

/// argumentName(arg), else `arg<i>` (its position).
std::string argumentNameOrPosition(BlockArgument arg);

/// Records `name` on `arg`, around the first file location in its present
/// location, else in `fallback`'s, else at `<name>:0:0`.
void setArgumentName(BlockArgument arg, llvm::StringRef name,
                     Location fallback);

/// Whether `name` is a valid argument name: `[A-Za-z_][A-Za-z0-9_.-]*`, the
/// names HLO text keeps as they are.
bool isValidArgumentName(llvm::StringRef name);

/// Parses the main buffer of `sourceMgr` into a module, as
/// parseSourceFile<ModuleOp> does, and records the names of the public
/// functions' arguments as they were written: `%x` is named `x`; `%0`, and
/// arguments whose location already names them (text printed with debug
/// info), are left as they are. The readers of torus and StableHLO text
/// use it, so that `torus-run --input x=...` finds `%x`. Null when parsing
/// fails, the error reported to the context's diagnostic handler.
OwningOpRef<ModuleOp> parseNamingArguments(const llvm::SourceMgr &sourceMgr,
                                           const ParserConfig &config);

} // namespace mlir::torus

#endif // TORUS_IR_ARGUMENTNAME_H
