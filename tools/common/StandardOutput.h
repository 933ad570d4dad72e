//===- StandardOutput.h - Write errors on the tools' stdout -----*- C++ -*-===//
//
// LLVM's `outs()` aborts the process ("LLVM ERROR: IO failure on output
// stream") when it is destroyed with an unreported write error, as when
// stdout is /dev/full or a closed pipe. The tools flush it before they exit
// and turn a write error into their own "cannot write" message (exit 2).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_STANDARDOUTPUT_H
#define TORUS_TOOLS_COMMON_STANDARDOUTPUT_H

#include "torus/Status.h"

namespace torus::tools {

/// Flushes llvm::outs(). PermissionDenied "cannot write standard output:
/// <reason>" if anything written to it was lost; the stream's error is
/// cleared so that its destruction does not abort.
absl::Status flushStandardOutput();

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_STANDARDOUTPUT_H
