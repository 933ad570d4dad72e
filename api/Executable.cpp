//===- Executable.cpp - Compiled programs: run, save, load ----------------===//
//
// Runtime-only: nothing here needs the compiler, so programs saved by
// Executable::save or torusc --emit=obj run from Torus::runtime alone.
//
//===----------------------------------------------------------------------===//

#include "api/ExecutableImpl.h"
#include "runtime/CollectiveCalls.h"
#include "runtime/jit/AotObjectCheck.h"
#include "runtime/jit/AotProgram.h"
#include "runtime/RuntimeAbi.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace torus {

Executable::Executable(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}
const std::string &Executable::name() const { return impl_->program.spec.name; }
int64_t Executable::numReplicas() const {
  return impl_->program.spec.numReplicas;
}
int64_t Executable::numPartitions() const {
  return impl_->artifact.numPartitions;
}
const std::vector<TensorSpec> &Executable::inputs() const {
  return impl_->program.spec.inputs;
}
const std::vector<TensorSpec> &Executable::outputs() const {
  return impl_->program.spec.outputs;
}
absl::StatusOr<MemoryReport> Executable::memoryReport() const {
  return impl_->memory;
}
const CollectiveReport &Executable::collectiveReport() const {
  return impl_->collectives;
}

absl::StatusOr<Executable> loadExecutable(std::string object,
                                          rt::ProgramArtifact artifact,
                                          absl::StatusOr<MemoryReport> memory) {
  TORUS_RETURN_IF_ERROR(rt::checkHostCanRun(rt::targetOf(artifact)));
  auto impl = std::make_shared<Executable::Impl>();
  rt::JitOptions jit;
  jit.symbols = rt::runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(impl->code,
                         rt::JitModule::loadObject(object, artifact.spec.name,
                                                   jit));
  TORUS_ASSIGN_OR_RETURN(void *entry, impl->code->lookup(artifact.entrySymbol));
  impl->program.spec = artifact.spec;
  impl->program.entry = reinterpret_cast<rt::EntryFn>(entry);
  impl->object = std::move(object);
  impl->collectives =
      rt::collectiveReportOf(artifact.spec, artifact.numPartitions);
  impl->memory = std::move(memory);
  impl->artifact = std::move(artifact);
  return Executable(std::move(impl));
}

absl::Status Executable::save(const std::string &path) const {
  namespace fs = std::filesystem;
  std::string objectPath = path;
  const std::string suffix = ".torus.json";
  if (objectPath.size() > suffix.size() &&
      objectPath.compare(objectPath.size() - suffix.size(), suffix.size(),
                         suffix) == 0)
    objectPath.resize(objectPath.size() - suffix.size());
  objectPath += ".o";
  // Write both files beside their final names, then rename: a failure
  // leaves any previous program intact.
  std::string tmp = objectPath + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(impl_->object.data(),
              static_cast<std::streamsize>(impl_->object.size()));
    if (!out.good())
      return absl::UnavailableError(
          fmt::format("cannot write '{}'", tmp));
  }
  rt::ProgramArtifact artifact = impl_->artifact;
  artifact.objectFile = fs::path(objectPath).filename().string();
  std::error_code ec;
  fs::rename(tmp, objectPath, ec);
  if (ec)
    return absl::UnavailableError(fmt::format("cannot write '{}': {}",
                                              objectPath, ec.message()));
  return rt::writeProgramArtifact(path, artifact);
}

absl::StatusOr<Executable> Executable::load(const std::string &path) {
  TORUS_ASSIGN_OR_RETURN(rt::ProgramArtifact artifact,
                         rt::readProgramArtifact(path));
  std::string objectPath = rt::resolveObjectPath(path, artifact);
  std::ifstream in(objectPath, std::ios::binary);
  if (!in)
    return absl::NotFoundError(fmt::format(
        "cannot read the object file '{}' of '{}'", objectPath, path));
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::string object = bytes.str();
  // The metadata sizes the buffers the code writes: it must be the code's.
  TORUS_RETURN_IF_ERROR(rt::checkAotObject(object, objectPath, path, artifact));
  return loadExecutable(
      std::move(object), std::move(artifact),
      absl::FailedPreconditionError(fmt::format(
          "{}: a loaded program has no memory report (it is read from the "
          "bufferized program when compile() builds it)",
          path)));
}

} // namespace torus
