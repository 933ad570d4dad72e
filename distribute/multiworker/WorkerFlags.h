//===- WorkerFlags.h - The flags of the multi-worker programs ---*- C++ -*-===//
//
// torus-mlp-worker and torus-mp-worker take the same training flags
// (`--steps=N --out=F --timeout=S --checkpoint-dir=D --checkpoint-every=K`)
// and a few of their own:
//
//   WorkerFlags flags;
//   TORUS_ASSIGN_OR_RETURN(std::vector<std::string> rest,
//                          parseWorkerFlags(argc, argv, flags));
//   for (const std::string &arg : rest)
//     if (auto v = flagValue(arg, "devices")) ... else unknown
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_MULTIWORKER_WORKERFLAGS_H
#define TORUS_DISTRIBUTE_MULTIWORKER_WORKERFLAGS_H

#include "torus/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torus::distribute {

/// The training flags every worker program takes.
struct WorkerFlags {
  /// --steps: the step to train up to (a restored run continues to it).
  int64_t steps = 20;
  /// --out: where the final weights go; empty writes none.
  std::string out;
  /// --timeout: seconds a collective waits for the peers; unset takes the
  /// program's default.
  std::optional<double> timeout;
  /// --checkpoint-dir and --checkpoint-every: where checkpoints go and
  /// every how many steps (0: never).
  std::string checkpointDir;
  int64_t checkpointEvery = 0;
};

/// The value of `arg` if it is `--name=value`.
std::optional<std::string> flagValue(std::string_view arg,
                                     std::string_view name);

/// `text` as a positive number, else InvalidArgument naming `--name`.
absl::StatusOr<double> positiveFlag(const std::string &text,
                                    std::string_view name);

/// Parses argv[1..argc) into `flags` and returns the arguments that are not
/// training flags, in order, for the program to take or refuse. A training
/// flag with a bad value is InvalidArgument naming it.
absl::StatusOr<std::vector<std::string>>
parseWorkerFlags(int argc, char **argv, WorkerFlags &flags);

/// InvalidArgument "unknown argument 'arg'".
absl::Status unknownArgument(std::string_view arg);

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_MULTIWORKER_WORKERFLAGS_H
