//===- EmulatedMesh.cpp - A set of emulated TPU cores ---------------------===//

#include "torus/EmulatedMesh.h"
#include "api/ExecutableImpl.h"
#include "api/TraceFiles.h"
#include "runtime/executor/LoadedProgram.h"
#include "runtime/trace/TraceRecorder.h"

#include <fmt/format.h>

#include <optional>

namespace torus {

EmulatedMesh::EmulatedMesh(std::unique_ptr<rt::Executor> executor)
    : executor_(std::move(executor)) {}
EmulatedMesh::EmulatedMesh(EmulatedMesh &&) noexcept = default;
EmulatedMesh &EmulatedMesh::operator=(EmulatedMesh &&) noexcept = default;
EmulatedMesh::~EmulatedMesh() = default;

absl::StatusOr<EmulatedMesh> EmulatedMesh::create(int64_t numCores) {
  TORUS_ASSIGN_OR_RETURN(auto executor, rt::Executor::create(numCores));
  return EmulatedMesh(std::move(executor));
}

int64_t EmulatedMesh::numCores() const { return executor_->numCores(); }

absl::StatusOr<std::vector<std::vector<HostTensor>>>
EmulatedMesh::run(const Executable &exe,
                  const std::vector<std::vector<HostTensor>> &inputs) {
  return run(exe, inputs, MeshRunOptions{});
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
EmulatedMesh::run(const Executable &exe,
                  const std::vector<std::vector<HostTensor>> &inputs,
                  const MeshRunOptions &options) {
  rt::RunOptions runOptions;
  runOptions.numPartitions = exe.numPartitions();
  const std::string traceFile =
      traceFileFor(options.traceFile, TraceKind::Run, exe.name());
  if (traceFile.empty())
    return executor_->run(exe.impl().program, inputs, runOptions);

  rt::TraceRecorder trace;
  constexpr int64_t kHostPid = 1, kHostTid = 1;
  trace.nameProcess(kHostPid, "host", kHostPid);
  trace.nameThread(kHostPid, kHostTid, "EmulatedMesh::run");
  runOptions.trace = &trace;
  absl::StatusOr<std::vector<std::vector<HostTensor>>> outputs;
  {
    rt::TraceTrack track(&trace, kHostPid, kHostTid);
    rt::TraceSpan span("run " + exe.name(), "run");
    outputs = executor_->run(exe.impl().program, inputs, runOptions);
  }
  // A failed run's trace too; its own error comes first.
  absl::Status written = trace.writeFile(traceFile);
  if (!outputs.ok())
    return outputs;
  TORUS_RETURN_IF_ERROR(written);
  return outputs;
}

struct LoadedExecutable::Impl {
  /// Keeps the generated code loaded.
  std::optional<Executable> exe;
  std::unique_ptr<rt::LoadedProgram> program;
};

absl::StatusOr<LoadedExecutable>
EmulatedMesh::load(const Executable &exe,
                   const std::vector<std::vector<HostTensor>> &inputs,
                   const LoadOptions &options) {
  rt::RunOptions runOptions;
  runOptions.numPartitions = exe.numPartitions();
  runOptions.carried = options.carried;
  TORUS_ASSIGN_OR_RETURN(
      std::unique_ptr<rt::LoadedProgram> program,
      rt::LoadedProgram::load(*executor_, exe.impl().program, inputs,
                              runOptions));
  auto impl = std::make_unique<LoadedExecutable::Impl>();
  impl->exe = exe;
  impl->program = std::move(program);
  return LoadedExecutable(std::move(impl));
}

//===----------------------------------------------------------------------===//
// LoadedExecutable
//===----------------------------------------------------------------------===//


LoadedExecutable::LoadedExecutable(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
LoadedExecutable::LoadedExecutable(LoadedExecutable &&) noexcept = default;
LoadedExecutable &
LoadedExecutable::operator=(LoadedExecutable &&) noexcept = default;
LoadedExecutable::~LoadedExecutable() = default;

int64_t LoadedExecutable::numDevices() const {
  return impl_->program->numDevices();
}

absl::Status LoadedExecutable::step(int64_t steps) {
  if (steps < 1)
    return absl::InvalidArgumentError(
        fmt::format("LoadedExecutable::step: {} steps; at least 1", steps));
  return impl_->program->step(steps);
}

absl::Status LoadedExecutable::setInput(int64_t device, int argument,
                                        const HostTensor &value) {
  return impl_->program->setInput(device, argument, value);
}

absl::StatusOr<HostTensor> LoadedExecutable::output(int64_t device,
                                                    int result) const {
  const auto &outputs = impl_->program->spec().outputs;
  if (result < 0 || result >= static_cast<int>(outputs.size()))
    return absl::InvalidArgumentError(fmt::format(
        "no result {} of device {}: '{}' has {} results", result, device,
        impl_->program->spec().name, outputs.size()));
  HostTensor value(outputs[result]);
  TORUS_RETURN_IF_ERROR(impl_->program->copyOutput(device, result, value));
  return value;
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
LoadedExecutable::outputs() const {
  std::vector<std::vector<HostTensor>> all(numDevices());
  const int numResults =
      static_cast<int>(impl_->program->spec().outputs.size());
  for (int64_t d = 0; d < numDevices(); ++d)
    for (int r = 0; r < numResults; ++r) {
      TORUS_ASSIGN_OR_RETURN(HostTensor value, output(d, r));
      all[d].push_back(std::move(value));
    }
  return all;
}

} // namespace torus
