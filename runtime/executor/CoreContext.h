//===- CoreContext.h - The emulated core a thread is running ----*- C++ -*-===//
//
// While a core executes a program, its worker thread has a current
// CoreContext: which core, replica and partition it is, the run it belongs to
// and its memory. The C ABI that generated code calls (RuntimeAbi.h) finds its core
// here, so kernels stay plain functions of their buffers.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_CORECONTEXT_H
#define TORUS_RUNTIME_EXECUTOR_CORECONTEXT_H

#include "runtime/FloatMode.h"
#include "runtime/core/CoreMemory.h"
#include "runtime/executor/RunState.h"
#include "torus/Status.h"

#include <cstdint>
#include <vector>

namespace torus::rt {

class CoreContext {
public:
  /// Core `coreId` running partition `partitionId` of replica `replicaId`;
  /// its participant id in the run's collectives is the global device id
  /// `replicaId * numPartitions + partitionId` (the run's numPartitions).
  CoreContext(int64_t coreId, int64_t replicaId, int64_t partitionId,
              RunState &run, CoreMemory &memory);
  /// A core of a run without partitions (partition 0).
  CoreContext(int64_t coreId, int64_t replicaId, RunState &run,
              CoreMemory &memory)
      : CoreContext(coreId, replicaId, 0, run, memory) {}
  CoreContext(const CoreContext &) = delete;
  CoreContext &operator=(const CoreContext &) = delete;

  int64_t coreId() const { return coreId_; }
  int64_t replicaId() const { return replicaId_; }
  int64_t partitionId() const { return partitionId_; }
  /// The participant id in collectives: replica * numPartitions + partition.
  int64_t deviceId() const { return deviceId_; }
  RunState &run() { return run_; }
  CoreMemory &memory() { return memory_; }

  /// Executes collective `index` of the run's ProgramSpec with this core's
  /// operand `in` and result `out`: the kind and its parameters, the dtype
  /// and shapes come from the spec, the collective key from the run id, the
  /// index and how often this core executed it before. Replica groups and
  /// permute pairs name participant ids (global device ids; replica ids when
  /// the run has one partition). Errors are prefixed with the collective,
  /// e.g. `all_reduce #0 at step.mlir:4:8: `. Returns Aborted at once when
  /// the run is already aborted.
  absl::Status executeCollective(int64_t index, const void *in, void *out);

  /// The buffer plan's workspace of the program this core runs (see
  /// ProgramSpec::workspaceBytes), set by the executor before the steps.
  void setWorkspace(void *data, size_t bytes) {
    workspace_ = data;
    workspaceBytes_ = bytes;
  }
  /// The workspace if it holds at least `bytes`, else null.
  void *workspace(size_t bytes) const {
    return bytes <= workspaceBytes_ ? workspace_ : nullptr;
  }

  /// Records a failure of this core (the first one is kept) and fails the
  /// run, which aborts every peer's collectives.
  void fail(const absl::Status &status);
  /// OK, or this core's first failure (unprefixed).
  const absl::Status &error() const { return error_; }

  /// The context of the calling thread, or null outside a run.
  static CoreContext *current();

  /// Makes `context` the calling thread's current one for its lifetime,
  /// with subnormals flushed as generated code expects (FloatMode.h).
  class Scope {
  public:
    explicit Scope(CoreContext &context);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    CoreContext *previous_;
    ScopedFlushSubnormals floatMode_;
  };

private:
  const int64_t coreId_;
  const int64_t replicaId_;
  const int64_t partitionId_;
  const int64_t deviceId_;
  RunState &run_;
  CoreMemory &memory_;
  /// invocations_[i]: how many times this core executed collective i.
  std::vector<uint64_t> invocations_;
  absl::Status error_;
  void *workspace_ = nullptr;
  size_t workspaceBytes_ = 0;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_CORECONTEXT_H
