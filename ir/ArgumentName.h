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

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

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

} // namespace mlir::torus

#endif // TORUS_IR_ARGUMENTNAME_H
