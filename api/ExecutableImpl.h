//===- ExecutableImpl.h - What an Executable holds --------------*- C++ -*-===//
#ifndef TORUS_API_EXECUTABLEIMPL_H
#define TORUS_API_EXECUTABLEIMPL_H

#include "runtime/ProgramSpecIO.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/JitModule.h"
#include "torus/Compile.h"

namespace torus {

struct Executable::Impl {
  std::unique_ptr<rt::JitModule> code; // Owns the memory program.entry is in.
  rt::Program program;
  /// The object code the JIT loaded, and what describes it, for save().
  std::string object;
  rt::ProgramArtifact artifact;
  /// What memoryReport() and collectiveReport() return.
  absl::StatusOr<MemoryReport> memory;
  CollectiveReport collectives;
};

/// Loads `object` (host machine code described by `artifact`) into a JIT and
/// finds its entry point: how compile() and Executable::load() both end.
/// `memory` is what memoryReport() returns.
absl::StatusOr<Executable> loadExecutable(std::string object,
                                          rt::ProgramArtifact artifact,
                                          absl::StatusOr<MemoryReport> memory);

} // namespace torus

#endif // TORUS_API_EXECUTABLEIMPL_H
