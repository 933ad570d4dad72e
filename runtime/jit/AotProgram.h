//===- AotProgram.h - Ahead-of-time compiled programs, loaded ---*- C++ -*-===//
//
// Loads what `torusc --emit=obj -o step.o` writes (step.o and
// step.torus.json) into this process, ready for the Executor, with nothing
// of the compiler: LLVM's ORC links the object, the runtime ABI resolves to
// this process's runtime.
//
//   TORUS_ASSIGN_OR_RETURN(auto aot, rt::AotProgram::load("step.torus.json"));
//   TORUS_ASSIGN_OR_RETURN(auto exec, rt::Executor::create(8));
//   TORUS_ASSIGN_OR_RETURN(auto outs, exec->run(aot->program(), inputs));
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_AOTPROGRAM_H
#define TORUS_RUNTIME_JIT_AOTPROGRAM_H

#include "runtime/ProgramSpecIO.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/JitModule.h"
#include "torus/Status.h"

#include <memory>
#include <string>

namespace torus::rt {

/// The CPU `artifact` was compiled for, as its metadata records it.
inline CpuTarget targetOf(const ProgramArtifact &artifact) {
  return {artifact.targetTriple, artifact.targetCpu, artifact.targetFeatures,
          artifact.targetCpu};
}

class AotProgram {
public:
  /// Loads the program described by the metadata file at `metadataPath`
  /// (`*.torus.json`; a path to the `.o` finds the metadata beside it).
  /// Checks that this host can run the code (checkHostCanRun, CpuTarget.h).
  static absl::StatusOr<std::unique_ptr<AotProgram>>
  load(const std::string &metadataPath);

  const ProgramArtifact &artifact() const { return artifact_; }
  /// The spec and entry point, for Executor::run. Valid while this lives.
  const Program &program() const { return program_; }
  /// RunOptions with the partitions and the placement of every logical
  /// device recorded at compile time (device d on core d when none was).
  RunOptions runOptions() const;

private:
  AotProgram() = default;
  ProgramArtifact artifact_;
  std::unique_ptr<JitModule> code_;
  Program program_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_AOTPROGRAM_H
