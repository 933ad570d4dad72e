//===- StandardOutput.cpp - Write errors on the tools' stdout -------------===//

#include "tools/common/StandardOutput.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace torus::tools {

absl::Status flushStandardOutput() {
  llvm::raw_fd_ostream &out = llvm::outs();
  out.flush();
  if (!out.has_error())
    return absl::OkStatus();
  std::error_code error = out.error();
  out.clear_error();
  return absl::PermissionDeniedError(
      fmt::format("cannot write standard output: {}", error.message()));
}

} // namespace torus::tools
