//===- EmulatedMesh.h - A set of emulated TPU cores -------------*- C++ -*-===//
//
// Emulated cores, each with its own memory and host thread, that run
// compiled SPMD programs concurrently and meet in collectives:
//
//   TORUS_ASSIGN_OR_RETURN(auto mesh, torus::EmulatedMesh::create(8));
//   TORUS_ASSIGN_OR_RETURN(auto outs, mesh.run(exe, perReplicaInputs));
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_EMULATEDMESH_H
#define TORUS_EMULATEDMESH_H

#include "torus/Compile.h"
#include "torus/HostTensor.h"
#include "torus/LoadedExecutable.h"
#include "torus/Status.h"

#include <memory>
#include <string>
#include <vector>

namespace torus {

namespace rt {
class Executor;
} // namespace rt

/// How EmulatedMesh::run runs.
struct MeshRunOptions {
  /// Write a timeline of the run into this file as Chrome/Perfetto trace
  /// JSON (open it in ui.perfetto.dev): one track per core with its
  /// transfers, its step, its kernels (when compiled with
  /// CompileOptions::kernelSpans), its collectives and the time it waited
  /// in them for its peers. Empty: `run_<NNNN>.<name>.trace.json` in the
  /// directory in the environment variable TORUS_TRACE_TO when it is set,
  /// else no trace. A trace that cannot be written fails the run.
  std::string traceFile;
};

/// An emulated TPU system of `numCores` cores in this process: each core has
/// its own thread and memory, and collectives run between them. Runs
/// Executables; owns its threads, which stop when it is destroyed. Movable,
/// not copyable.
class EmulatedMesh {
public:
  /// A mesh of `numCores` emulated cores (1 to 1024).
  static absl::StatusOr<EmulatedMesh> create(int64_t numCores);

  ///@{
  /// Moves take over the cores; destruction stops their threads and frees
  /// their memory.
  EmulatedMesh(EmulatedMesh &&) noexcept;
  EmulatedMesh &operator=(EmulatedMesh &&) noexcept;
  ~EmulatedMesh();
  ///@}

  /// The number of emulated cores.
  int64_t numCores() const;

  /// Runs `exe` once on each of its replicas (replica r on core r):
  /// `inputs[replica][argument]` in, `outputs[replica][result]` out. A
  /// program with P > 1 partitions runs on devices d = replica * P +
  /// partition (core d), and both lists are indexed by device.
  /// Mismatched inputs, exhausted core memory and failed collectives are
  /// errors naming the core, replica and argument.
  absl::StatusOr<std::vector<std::vector<HostTensor>>>
  run(const Executable &exe,
      const std::vector<std::vector<HostTensor>> &inputs);
  /// As above, with `options`.
  absl::StatusOr<std::vector<std::vector<HostTensor>>>
  run(const Executable &exe,
      const std::vector<std::vector<HostTensor>> &inputs,
      const MeshRunOptions &options);
  /// Loads `exe` on the cores with `inputs` (indexed as run() takes them;
  /// empty: zeros) to run step after step without copying (LoadedExecutable.h).
  /// The errors of run() for the inputs, InvalidArgument for a bad carried
  /// pair, ResourceExhausted when the buffers do not fit a core.
  absl::StatusOr<LoadedExecutable>
  load(const Executable &exe,
       const std::vector<std::vector<HostTensor>> &inputs = {},
       const LoadOptions &options = {});

private:
  explicit EmulatedMesh(std::unique_ptr<rt::Executor> executor);
  std::unique_ptr<rt::Executor> executor_;
};

} // namespace torus

#endif // TORUS_EMULATEDMESH_H
