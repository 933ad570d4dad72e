//===- RunMemory.cpp - The memory a run needs, before it allocates --------===//

#include "runtime/executor/RunMemory.h"

#include "runtime/core/CoreMemory.h"

#include <fmt/format.h>

#include <limits>

namespace torus::rt {

namespace {

/// Bytes of a dense buffer of `spec`, saturating (a hostile shape must not
/// wrap around to a small size).
size_t bytesOf(const TensorSpec &spec) {
  size_t n = byteWidth(spec.dtype);
  for (int64_t d : spec.shape)
    n = saturatingMul(n, d < 0 ? 0 : static_cast<size_t>(d));
  return n;
}

/// What CoreMemory charges for a buffer of `bytes`.
size_t charged(size_t bytes) {
  size_t rounded = saturatingAdd(bytes, kDeviceBufferAlignment - 1);
  if (rounded == std::numeric_limits<size_t>::max())
    return rounded; // saturated: stays "too much"
  return rounded / kDeviceBufferAlignment * kDeviceBufferAlignment;
}

std::string programName(const ProgramSpec &spec) {
  return spec.name.empty() ? "<unnamed>" : spec.name;
}

} // namespace

size_t RunMemory::deviceBytesPerCore() const {
  return saturatingAdd(saturatingAdd(inputBytes, outputBytes), workspaceBytes);
}

size_t RunMemory::deviceBytesWithin(size_t coreCapacity) const {
  size_t total = 0;
  for (size_t bytes : deviceBuffers) {
    size_t next = saturatingAdd(total, bytes);
    if (next > coreCapacity)
      break;
    total = next;
  }
  return total;
}

size_t RunMemory::hostBytes(bool withHostInputs) const {
  size_t perDevice = saturatingAdd(deviceBytesPerCore(), hostOutputBytes);
  if (withHostInputs)
    perDevice = saturatingAdd(perDevice, hostInputBytes);
  return saturatingMul(perDevice, static_cast<size_t>(numDevices));
}

RunMemory planRunMemory(const ProgramSpec &spec, int64_t numDevices,
                        int64_t steps, const std::vector<char> &perStep) {
  RunMemory run;
  run.numDevices = numDevices < 1 ? 1 : numDevices;
  const size_t stepCount = steps < 1 ? 1 : static_cast<size_t>(steps);
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    size_t bytes = bytesOf(spec.inputs[i]);
    bool fedPerStep = i < perStep.size() && perStep[i];
    size_t host = fedPerStep ? saturatingMul(bytes, stepCount) : bytes;
    if (fedPerStep) // the queue of every step, then the step's buffer
      run.deviceBuffers.push_back(charged(host));
    run.deviceBuffers.push_back(charged(bytes));
    run.inputBytes = saturatingAdd(run.inputBytes, charged(bytes));
    if (fedPerStep)
      run.inputBytes = saturatingAdd(run.inputBytes, charged(host));
    run.hostInputBytes = saturatingAdd(run.hostInputBytes, host);
  }
  for (const TensorSpec &output : spec.outputs) {
    size_t bytes = bytesOf(output);
    run.outputBytes = saturatingAdd(run.outputBytes, charged(bytes));
    run.deviceBuffers.push_back(charged(bytes));
    run.hostOutputBytes = saturatingAdd(run.hostOutputBytes, bytes);
  }
  if (spec.workspaceBytes > 0) {
    run.workspaceBytes = charged(static_cast<size_t>(spec.workspaceBytes));
    run.deviceBuffers.push_back(run.workspaceBytes);
  }
  return run;
}

absl::Status checkCoreCapacity(const ProgramSpec &spec, const RunMemory &run,
                               size_t coreCapacity) {
  const size_t need = run.deviceBytesPerCore();
  if (need <= coreCapacity)
    return absl::OkStatus();
  return absl::ResourceExhaustedError(fmt::format(
      "program '{}' needs {} ({} bytes) of device memory on each core "
      "(inputs {}, outputs {}, workspace {}), more than a core's capacity of "
      "{}",
      programName(spec), formatBytes(need), need, formatBytes(run.inputBytes),
      formatBytes(run.outputBytes), formatBytes(run.workspaceBytes),
      formatBytes(coreCapacity)));
}

absl::Status checkHostMemory(const ProgramSpec &spec, const RunMemory &run,
                             bool withHostInputs, const HostMemory &host) {
  const size_t need = run.hostBytes(withHostInputs);
  if (need <= host.availableBytes)
    return absl::OkStatus();
  std::string hostCopies =
      withHostInputs
          ? fmt::format("{} of host inputs and {} of host outputs",
                        formatBytes(run.hostInputBytes),
                        formatBytes(run.hostOutputBytes))
          : fmt::format("{} of host outputs", formatBytes(run.hostOutputBytes));
  return absl::ResourceExhaustedError(fmt::format(
      "program '{}' needs {} ({} bytes) of host memory across its {} "
      "emulated core{} ({} of device memory and {} per core), but the host "
      "has {} available ({}); run fewer replicas, smaller shapes, or on a "
      "bigger host",
      programName(spec), formatBytes(need), need, run.numDevices,
      run.numDevices == 1 ? "" : "s", formatBytes(run.deviceBytesPerCore()),
      hostCopies, formatBytes(host.availableBytes), host.limit));
}

} // namespace torus::rt
