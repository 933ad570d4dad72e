//===- RunMemory.h - The memory a run needs, before it allocates -*- C++ -*-===//
//
// What one run of a program takes: every logical device's buffers in its
// core's memory (inputs, per-step input queues, outputs, the workspace) and
// the host's copies (the inputs handed to run(), the outputs it returns).
// Computed from the ProgramSpec alone, with sizes saturating instead of
// wrapping around, so that the executor refuses a run that does not fit a
// core, or all cores together do not fit the host, before any allocation.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_RUNMEMORY_H
#define TORUS_RUNTIME_EXECUTOR_RUNMEMORY_H

#include "runtime/ProgramSpec.h"
#include "runtime/core/HostMemory.h"
#include "torus/Status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace torus::rt {

struct RunMemory {
  int64_t numDevices = 1;
  /// One device's buffers in its core's memory, each rounded up to
  /// kDeviceBufferAlignment as CoreMemory charges them.
  size_t inputBytes = 0;  // with every step of the per-step inputs
  size_t outputBytes = 0;
  size_t workspaceBytes = 0;
  size_t deviceBytesPerCore() const;
  /// One device's buffers in the order a core allocates them.
  std::vector<size_t> deviceBuffers;
  /// What a core allocates before its capacity refuses a buffer: the
  /// longest prefix of deviceBuffers within `coreCapacity`.
  size_t deviceBytesWithin(size_t coreCapacity) const;
  /// One device's host tensors: its inputs (per-step inputs hold every
  /// step) and its outputs.
  size_t hostInputBytes = 0;
  size_t hostOutputBytes = 0;
  /// The host memory of the whole run: every device's core buffers and
  /// host outputs, plus its host inputs when `withHostInputs`.
  size_t hostBytes(bool withHostInputs) const;
};

/// The memory of running `spec` as `numDevices` logical devices for
/// `steps` steps, `perStep[i]` set for the inputs fed every step.
RunMemory planRunMemory(const ProgramSpec &spec, int64_t numDevices,
                        int64_t steps, const std::vector<char> &perStep);

/// ResourceExhausted when one device's buffers exceed `coreCapacity`,
/// naming the program, the sizes and the capacity.
absl::Status checkCoreCapacity(const ProgramSpec &spec, const RunMemory &run,
                               size_t coreCapacity);

/// ResourceExhausted when the whole run (with the host inputs when
/// `withHostInputs`: they are yet to be made) exceeds `host`, naming the
/// program, what it needs across cores and what the host has.
absl::Status checkHostMemory(const ProgramSpec &spec, const RunMemory &run,
                             bool withHostInputs, const HostMemory &host);

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_RUNMEMORY_H
