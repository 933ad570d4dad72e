//===- Executor.h - Runs one SPMD program on every emulated core -*- C++
//-*-===//
//
// The executor owns the emulated cores of one host: a persistent worker
// thread and a capacity-limited memory per core. run() executes one compiled
// SPMD program on spec.numReplicas of them concurrently: each core copies its
// replica's inputs into its device buffers, calls the program's entry with
// its thread's CoreContext set (so __torus_replica_id and __torus_collective
// find it), and copies the outputs back. Collectives meet through an
// InProcessCommunicator created for the run.
//
// Replicas and cores: a program compiled for R replicas runs on R of the
// executor's N cores (R <= N); by default replica r on core r, or on the
// cores RunOptions::replicaToCore names (a device assignment). Idle cores do
// nothing.
//
// Every failure is a Status, never a hang: inputs are validated up front
// (naming replica, argument, expected and actual TensorSpec); a core that
// fails during the run (out of memory, a collective error, an exception)
// aborts the run, peers blocked in collectives return, and run() reports the
// first failure prefixed with its core and replica.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_EXECUTOR_H
#define TORUS_RUNTIME_EXECUTOR_EXECUTOR_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/Communicator.h"
#include "runtime/core/CoreMemory.h"
#include "runtime/executor/WorkerPool.h"
#include "torus/HostTensor.h"
#include "torus/Status.h"

#include "absl/time/time.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace torus::rt {

/// A compiled SPMD program: its contract and its entry point.
struct Program {
  ProgramSpec spec;
  EntryFn entry = nullptr;
};

struct ExecutorOptions {
  /// Emulated cores, 1..Executor::kMaxCores.
  int64_t numCores = 1;
  /// Memory capacity of every core, in bytes.
  size_t coreMemoryCapacity = kDefaultCoreMemoryCapacity;
  /// How long a core waits for its peers in a collective.
  absl::Duration collectiveTimeout = kDefaultCollectiveTimeout;
};

struct RunOptions {
  /// replicaToCore[r] is the core running replica r (distinct cores). Empty:
  /// replica r runs on core r.
  std::vector<int64_t> replicaToCore;
  /// Overrides ExecutorOptions::collectiveTimeout for this run.
  std::optional<absl::Duration> collectiveTimeout;
};

class Executor {
public:
  static constexpr int64_t kMaxCores = 1024;

  /// Starts one worker thread per core. InvalidArgument for a core count
  /// outside 1..kMaxCores or a non-positive timeout.
  static absl::StatusOr<std::unique_ptr<Executor>>
  create(const ExecutorOptions &options);
  static absl::StatusOr<std::unique_ptr<Executor>> create(int64_t numCores) {
    ExecutorOptions options;
    options.numCores = numCores;
    return create(options);
  }
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  int64_t numCores() const { return options_.numCores; }
  const ExecutorOptions &options() const { return options_; }
  CoreMemory &coreMemory(int64_t coreId) { return *memories_.at(coreId); }
  /// The OS thread emulating core `coreId` (the same for every run).
  std::thread::id coreThreadId(int64_t coreId) const {
    return pool_.threadId(coreId);
  }

  /// Runs `program` once on every replica: `inputs[replica][argument]`,
  /// returns `outputs[replica][result]`. Thread-safe; concurrent calls run
  /// one after another.
  absl::StatusOr<std::vector<std::vector<HostTensor>>>
  run(const Program &program,
      const std::vector<std::vector<HostTensor>> &inputs,
      const RunOptions &runOptions = {});

  /// The checks run() makes before starting any core: the program (entry,
  /// replica count, specs, collectives and their replica groups), the device
  /// assignment and every input's TensorSpec.
  absl::Status validate(const Program &program,
                        const std::vector<std::vector<HostTensor>> &inputs,
                        const RunOptions &runOptions = {}) const;

private:
  explicit Executor(const ExecutorOptions &options);

  ExecutorOptions options_;
  std::vector<std::unique_ptr<CoreMemory>> memories_;
  // Declared after the memories: threads stop before memories go away.
  WorkerPool pool_;
  std::mutex runMutex_;
  uint64_t nextRunId_ = 0;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_EXECUTOR_H
