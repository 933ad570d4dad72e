//===- SourceProgram.h - Reading a program the tools compile ----*- C++ -*-===//
//
// torusc and torus-run read programs by file extension: `.mlir` (the torus
// dialect, or StableHLO when the text names `stablehlo.` or `chlo.` ops,
// ir/stablehlo) and `.hlo` (XLA's HLO text, ir/hlo). Standard input and
// unknown extensions are read as HLO text if they start with `HloModule`
// (XLA's `--xla_dump_to` files end in `.txt`), else as `.mlir`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_SOURCEPROGRAM_H
#define TORUS_TOOLS_COMMON_SOURCEPROGRAM_H

#include "torus/Status.h"
#include "torus/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace torus::tools {

struct SourceProgram {
  /// The module (torus dialect, verified) in its own context.
  TracedFunction function;
  /// The entry function's argument names as written (`%w` gives "w";
  /// `argN` where the source has none).
  std::vector<std::string> argumentNames;
};

/// The largest program the tools read: 2 GiB.
inline constexpr int64_t kMaxProgramBytes = int64_t(2) << 30;

/// What the tools know of the program besides its text: the device counts
/// of their command line (--replicas, --num-partitions; 0 when not given),
/// which the HLO reader takes for a program that does not state its own.
struct SourceOptions {
  int64_t numReplicas = 0;
  int64_t numPartitions = 0;
  /// The largest program text read, in bytes (2 GiB): an endless input
  /// such as /dev/zero is an error rather than a process that grows
  /// without bound.
  int64_t maxProgramBytes = kMaxProgramBytes;
};

/// Parses `text`, read from `path` ("-" for standard input), by the
/// extension of `path`. InvalidArgument with `file:line:col: error: ...`
/// diagnostics for a bad program; Unimplemented for a format whose reader is
/// not built yet.
absl::StatusOr<SourceProgram>
parseSourceProgram(const std::string &path, const std::string &text,
                   const SourceOptions &options = {});

/// The text of the file at `path` ("-" for standard input): regular files,
/// pipes and devices alike. NotFound when it cannot be read or is larger
/// than `maxBytes`.
absl::StatusOr<std::string> readProgramText(const std::string &path,
                                            int64_t maxBytes);

/// Reads the file at `path` ("-" for standard input) and parses it.
/// NotFound when it cannot be read or is larger than
/// `options.maxProgramBytes`.
absl::StatusOr<SourceProgram>
readSourceProgram(const std::string &path, const SourceOptions &options = {});

/// True if `path` names a format the tools compile (`.mlir`, `.hlo`).
bool isSourceProgramPath(const std::string &path);

/// Adds `error: ` after a leading `file:line:col: ` of every line that has
/// no severity, so that every error reads `file:line:col: error: ...`.
std::string normalizeDiagnostics(std::string text);

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_SOURCEPROGRAM_H
