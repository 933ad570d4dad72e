//===- AotProgram.cpp - Ahead-of-time compiled programs, loaded -----------===//

#include "runtime/jit/AotProgram.h"

#include "runtime/RuntimeAbi.h"

#include <fmt/format.h>

namespace torus::rt {

absl::StatusOr<std::unique_ptr<AotProgram>>
AotProgram::load(const std::string &path) {
  std::string metadataPath = path;
  if (metadataPath.size() > 2 &&
      metadataPath.compare(metadataPath.size() - 2, 2, ".o") == 0)
    metadataPath = metadataPathForObject(metadataPath);
  auto aot = std::unique_ptr<AotProgram>(new AotProgram());
  TORUS_ASSIGN_OR_RETURN(aot->artifact_, readProgramArtifact(metadataPath));
  const ProgramArtifact &a = aot->artifact_;
  if (!a.targetTriple.empty()) {
    absl::Status runnable = checkHostCanRun(targetOf(a));
    if (!runnable.ok())
      return absl::Status(runnable.code(), fmt::format("{}: {}", metadataPath,
                                                       std::string(runnable.message())));
  }
  JitOptions options;
  options.symbols = runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(
      aot->code_,
      JitModule::loadObjectFile(resolveObjectPath(metadataPath, a), options));
  TORUS_ASSIGN_OR_RETURN(void *entry, aot->code_->lookup(a.entrySymbol));
  aot->program_.spec = a.spec;
  aot->program_.entry = reinterpret_cast<EntryFn>(entry);
  return aot;
}

RunOptions AotProgram::runOptions() const {
  RunOptions options;
  options.numPartitions = artifact_.numPartitions;
  options.replicaToCore = artifact_.replicaToCore;
  return options;
}

} // namespace torus::rt
