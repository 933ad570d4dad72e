//===- EmulatedMesh.cpp - A set of emulated TPU cores ---------------------===//

#include "torus/EmulatedMesh.h"
#include "api/ExecutableImpl.h"
#include "api/TraceFiles.h"
#include "runtime/trace/TraceRecorder.h"

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

} // namespace torus
