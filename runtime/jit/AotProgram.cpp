//===- AotProgram.cpp - Ahead-of-time compiled programs, loaded -----------===//

#include "runtime/jit/AotProgram.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/jit/AotObjectCheck.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

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
  const std::string objectPath = resolveObjectPath(metadataPath, a);
  std::ifstream in(objectPath, std::ios::binary);
  if (!in)
    return absl::NotFoundError(
        fmt::format("cannot read '{}' (the object file of '{}'): {}",
                    objectPath, metadataPath, std::strerror(errno)));
  std::string bytes{std::istreambuf_iterator<char>(in),
                    std::istreambuf_iterator<char>()};
  // The metadata sizes the buffers the code writes: it must be the code's.
  TORUS_RETURN_IF_ERROR(checkAotObject(bytes, objectPath, metadataPath, a));
  JitOptions options;
  options.symbols = runtimeAbiSymbols();
  // What still fails to load or link is the file's fault, not ours.
  auto asInput = [&](const absl::Status &status) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: {}", objectPath, std::string(status.message())));
  };
  auto code = JitModule::loadObject(bytes, objectPath, options);
  if (!code.ok())
    return asInput(code.status());
  aot->code_ = std::move(*code);
  auto entry = aot->code_->lookup(a.entrySymbol);
  if (!entry.ok())
    return asInput(entry.status());
  aot->program_.spec = a.spec;
  aot->program_.entry = reinterpret_cast<EntryFn>(*entry);
  return aot;
}

RunOptions AotProgram::runOptions() const {
  RunOptions options;
  options.numPartitions = artifact_.numPartitions;
  options.replicaToCore = artifact_.replicaToCore;
  return options;
}

} // namespace torus::rt
