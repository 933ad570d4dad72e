//===- LoadedExecutable.h - A program resident on emulated cores -*- C++ -*-===//
//
// EmulatedMesh::run copies every input to the cores and every result back:
// right for one call, wasteful in a loop. A LoadedExecutable is JAX's
// device-resident arrays for a training loop: the program's inputs, results
// and workspace are allocated on the cores once, a step is one call into
// the generated code per core, and values cross to the host only when asked
// (setInput, output). Results can be carried: result o of one step becomes
// argument i of the next (the buffers are swapped, not copied), which is how
// weights stay on the cores step after step.
//
//   TORUS_ASSIGN_OR_RETURN(LoadedExecutable loaded,
//                          mesh.load(exe, inputs, {.carried = {{1, 0}}}));
//   for (int i = 0; i < 100; ++i) {
//     TORUS_RETURN_IF_ERROR(loaded.setInput(0, 1, batches[i]));
//     TORUS_RETURN_IF_ERROR(loaded.step());     // new weights become arg 0
//   }
//   TORUS_ASSIGN_OR_RETURN(HostTensor loss, loaded.output(0, 0));
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_LOADEDEXECUTABLE_H
#define TORUS_LOADEDEXECUTABLE_H

#include "torus/HostTensor.h"
#include "torus/Status.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace torus {

/// How EmulatedMesh::load places a program.
struct LoadOptions {
  /// (result o, argument i): after each step, result o becomes argument i
  /// of the next (their types must be equal; each result and each argument
  /// at most once).
  std::vector<std::pair<int, int>> carried;
};

/// An Executable loaded on an EmulatedMesh's cores (see the top of this
/// file). Move-only; must be destroyed before the mesh it was loaded on.
/// Not safe to use from several threads at once.
class LoadedExecutable {
public:
  ///@{
  /// Move-only.
  LoadedExecutable(LoadedExecutable &&) noexcept;
  LoadedExecutable &operator=(LoadedExecutable &&) noexcept;
  ~LoadedExecutable();
  ///@}

  /// Devices the program runs on (replicas x partitions), as run() indexes
  /// them.
  int64_t numDevices() const;
  /// Runs `steps` steps on every device (carrying results as asked). A
  /// failed step (a collective error) is returned, and later steps return it
  /// too.
  absl::Status step(int64_t steps = 1);
  /// Copies `value` into argument `argument` of device `device`, for the
  /// next step. InvalidArgument for an index out of range or another type.
  absl::Status setInput(int64_t device, int argument, const HostTensor &value);
  /// Result `result` of device `device` after the last step (a carried one:
  /// its value, now the next step's argument). InvalidArgument for an index
  /// out of range.
  absl::StatusOr<HostTensor> output(int64_t device, int result) const;
  /// Every result of every device, as run() returns them.
  absl::StatusOr<std::vector<std::vector<HostTensor>>> outputs() const;

  /// Internal: the loaded program and what keeps its code alive.
  struct Impl;
  /// Internal: EmulatedMesh::load makes them.
  explicit LoadedExecutable(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl_;
};

} // namespace torus

#endif // TORUS_LOADEDEXECUTABLE_H
