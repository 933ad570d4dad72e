//===- Executor.h - Runs one SPMD program on every emulated core -*- C++ -*-===//
//
// The executor owns the emulated cores of one host: a persistent worker
// thread and a capacity-limited memory per core. run() executes one compiled
// SPMD program on numReplicas x numPartitions of them concurrently: each core
// copies its inputs into device buffers of its own memory (host-to-device
// transfer), runs `stepsPerRun` steps of the program's entry with its
// thread's CoreContext set (so __torus_replica_id, __torus_partition_id and
// __torus_collective find it), and copies the outputs back (device-to-host).
// Collectives meet through an InProcessCommunicator; when the executor was
// created from a Topology, its Auto algorithm follows the slice's rings and
// torus dimensions.
//
// Logical devices and cores: a program compiled for R replicas of P
// partitions runs as R*P logical devices d = r * P + p (XLA's global device
// id; with one partition, d is the replica). Device d runs on core d, or on
// the core RunOptions::replicaToCore names (a device assignment; see
// DeviceAssignmentCores.h to derive one from a DeviceAssignment). Idle cores
// do nothing. Collectives' replica groups and permute pairs name logical
// devices (HLO's flattened-id mode; replica ids when P = 1).
//
// Isolation: every device buffer is a separate allocation in its core's
// CoreMemory, and the C ABI hands a core only the pointers of its own buffers
// (the entry's `buffers` array, built on the core's own thread). Generated
// code has no way to name another core's memory; data crosses cores only
// through a collective (whose implementation reads the peers' buffers inside
// the rendezvous) or a host transfer.
//
// Every failure is a Status, never a hang: inputs are validated up front
// (naming device, argument, expected and actual TensorSpec); a core that
// fails during the run (out of memory, a collective error, an exception)
// aborts the run, peers blocked in collectives return, and run() reports the
// first failure prefixed with its core, replica (and partition).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_EXECUTOR_H
#define TORUS_RUNTIME_EXECUTOR_EXECUTOR_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/CollectiveAlgorithm.h"
#include "runtime/collectives/Communicator.h"
#include "runtime/core/CoreMemory.h"
#include "runtime/core/HostMemory.h"
#include "runtime/cost/CostModel.h"
#include "runtime/executor/WorkerPool.h"
#include "runtime/mesh/Topology.h"
#include "runtime/trace/TraceRecorder.h"
#include "torus/HostTensor.h"
#include "torus/Status.h"

#include "absl/time/time.h"

#include <array>
#include <functional>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace torus::rt {

struct RunMemory;

class InProcessCommunicator;

/// A compiled SPMD program: its contract and its entry point.
struct Program {
  ProgramSpec spec;
  EntryFn entry = nullptr;
};

struct ExecutorOptions {
  /// Emulated cores, 1..Executor::kMaxCores. Ignored by create(Topology).
  int64_t numCores = 1;
  /// Memory capacity of every core, in bytes. Unset: the HBM of one core of
  /// the topology's TPU generation when created from a Topology that has
  /// one, else kDefaultCoreMemoryCapacity.
  std::optional<size_t> coreMemoryCapacity;
  /// The host memory the emulated cores may use together, in bytes: a run
  /// whose buffers on every core plus the host's copies exceed it is
  /// refused with ResourceExhausted before anything is allocated. Unset:
  /// what this host has available at each run (availableHostMemory(),
  /// HostMemory.h). Tests set it to check the refusal.
  std::optional<size_t> hostMemoryBytes;
  /// How long a core waits for its peers in a collective.
  absl::Duration collectiveTimeout = kDefaultCollectiveTimeout;
  /// The schedule of collectives that have several (CollectiveAlgorithm.h).
  CollectiveAlgorithm collectiveAlgorithm = CollectiveAlgorithm::Auto;
  /// When set, each run's collectives go through the communicator this
  /// returns for the run's in-process one (which it may use and which
  /// outlives it): a multi-worker job wraps it into a
  /// CrossWorkerCommunicator (runtime/multiworker) spanning processes.
  /// Used by run() and by LoadedProgram alike.
  std::function<absl::StatusOr<std::unique_ptr<Communicator>>(
      InProcessCommunicator &local)>
      wrapCommunicator;
  /// The worker processes each run spans through wrapCommunicator (1: this
  /// process alone). With more, a collective other than all-reduce whose
  /// replica groups are empty or one group of every device spans every
  /// worker's devices (numWorkers x devices participants, worker-major ids,
  /// as collective-permute's pairs are): the program's collective types are
  /// checked against that group size.
  int64_t numWorkers = 1;
};

/// What a run measured.
struct RunStats {
  /// Wall time of the whole run() call: validation, host-to-device
  /// transfers, every step and device-to-host transfers.
  absl::Duration hostTime;
  int64_t steps = 0;
  /// Highest device memory in use during the run, over the cores used.
  size_t peakCoreBytes = 0;
  /// The cost model's price of one step on the emulated slice, when
  /// RunOptions::costCounts was given and the executor has a topology
  /// (else the reason in simulationStatus). Print both with
  /// formatStepCost(*simulated, hostTimePerStep()).
  std::optional<StepCost> simulated;
  absl::Status simulationStatus;
  absl::Duration hostTimePerStep() const {
    return steps > 0 ? hostTime / steps : absl::ZeroDuration();
  }
};

struct RunOptions {
  /// Partitions (logical cores) per replica: the program runs as
  /// numReplicas * numPartitions logical devices.
  int64_t numPartitions = 1;
  /// replicaToCore[d] is the core running logical device d (distinct cores);
  /// with one partition, d is the replica. Empty: device d on core d.
  std::vector<int64_t> replicaToCore;
  /// A program whose logical devices are spread over several worker
  /// processes (XLA's multi-host model: a program partitioned across
  /// workers): this run executes only devices firstDevice ..
  /// firstDevice + numLocalDevices - 1 of its numReplicas * numPartitions.
  /// `inputs` and the outputs are those devices', in order; local device i
  /// runs on core i (or replicaToCore[i]); each keeps its global device id,
  /// replica and partition, and collectives get global device ids, so the
  /// communicator must span every device (ExecutorOptions::wrapCommunicator
  /// returning a CrossWorkerCommunicator with global ids). 0: every device
  /// (the program runs in this process alone).
  int64_t firstDevice = 0;
  int64_t numLocalDevices = 0;
  /// Overrides ExecutorOptions::collectiveTimeout for this run.
  std::optional<absl::Duration> collectiveTimeout;

  /// The on-device loop: the program's entry runs this many times per run()
  /// on every core, with no host transfer in between.
  int64_t stepsPerRun = 1;
  /// Loop-carried values: (output o, input i) makes output o of step k the
  /// input i of step k + 1 (their TensorSpecs must be equal; each input and
  /// each output at most once). The device buffers are swapped, not copied.
  std::vector<std::pair<int, int>> carried;
  /// Inputs fed a new value every step, like an infeed queue: the host
  /// tensor given for such an input has an extra leading dimension of
  /// stepsPerRun (`[steps, ...spec]`); all steps are transferred to the core
  /// (and charged to its memory) up front, and slice k is copied into the
  /// input's buffer before step k. Inputs neither carried nor per-step are
  /// transferred once and hold the same value in every step.
  std::vector<int> perStepInputs;
  /// When set, receives the run's measurements.
  RunStats *stats = nullptr;
  /// The program's per-core FLOP and byte counts (from the compiler): with
  /// `stats`, the run also reports the simulated step time.
  const ProgramCounts *costCounts = nullptr;
  /// When set, the run records its timeline here (docs/runtime.md,
  /// "Traces"): process kTraceCoresPid has one track per core used (tid
  /// core + 1, "core N") with its host-to-device and device-to-host
  /// transfers, its steps, the kernels of programs compiled with kernel
  /// spans, its collectives and, inside them, the time spent waiting for
  /// peers and moving data; with costCounts and a topology, process
  /// kTraceSimulatedPid has the cost model's step on the same cores, laid
  /// from the start of the first step. Off (null): one branch per hook.
  TraceRecorder *trace = nullptr;
};

/// The trace processes of a run (RunOptions::trace).
inline constexpr int64_t kTraceCoresPid = 2;
inline constexpr int64_t kTraceSimulatedPid = 3;

/// `options.wrapCommunicator(local)` (which must be set), with a null
/// result turned into an InvalidArgument error.
absl::StatusOr<std::unique_ptr<Communicator>>
makeWrappedCommunicator(const ExecutorOptions &options,
                        InProcessCommunicator &local);

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
  /// One core per TPU device of `topology`: core c is TPU ordinal o of task
  /// t with c = t * numTpusPerTask + o (TensorFlow's device order). Each
  /// core's capacity is the generation's HBM per core unless the options
  /// set one; collectives know every core's mesh coordinates.
  static absl::StatusOr<std::unique_ptr<Executor>>
  create(const Topology &topology, ExecutorOptions options = {});
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  int64_t numCores() const { return numCores_; }
  const ExecutorOptions &options() const { return options_; }
  /// The capacity every core was created with.
  size_t coreMemoryCapacity() const { return capacity_; }
  CoreMemory &coreMemory(int64_t coreId) { return *memories_.at(coreId); }
  /// The OS thread emulating core `coreId` (the same for every run).
  std::thread::id coreThreadId(int64_t coreId) const {
    return pool_.threadId(coreId);
  }
  /// The slice this executor emulates, if created from one.
  const Topology *topology() const {
    return topology_ ? &*topology_ : nullptr;
  }
  /// Mesh coordinates (x, y, z, core) of core `coreId` (topology only).
  std::optional<std::array<int32_t, 4>> coreCoordinates(int64_t coreId) const;

  /// Runs `program` on every logical device: `inputs[device][argument]`,
  /// returns `outputs[device][result]` after the last step. Thread-safe;
  /// concurrent calls run one after another.
  absl::StatusOr<std::vector<std::vector<HostTensor>>>
  run(const Program &program,
      const std::vector<std::vector<HostTensor>> &inputs,
      const RunOptions &runOptions = {});

  /// Runs `task(core)` on the thread of every core in `cores` (distinct,
  /// in range) under the run mutex, one run at a time like run(), and
  /// returns when every one has returned. `task` must not throw. What
  /// LoadedProgram's steps use: nothing is allocated.
  void runOnCores(std::span<const int64_t> cores,
                  const std::function<void(int64_t)> &task);

  /// The checks run() makes before starting any core: the program (entry,
  /// replica count, specs, every collective's kind, shapes, groups and
  /// pairs), the run options (partitions, device assignment, steps, carried
  /// and per-step inputs) and every input's TensorSpec.
  absl::Status validate(const Program &program,
                        const std::vector<std::vector<HostTensor>> &inputs,
                        const RunOptions &runOptions = {}) const;
  /// validate() without the inputs: the program and the run options, for
  /// a caller that checks them before it makes the inputs (and before
  /// checkMemory()).
  absl::Status validateProgram(const Program &program,
                               const RunOptions &runOptions = {}) const;

  /// ResourceExhausted, before anything is allocated, when running
  /// `program` with `runOptions` does not fit: one logical device's buffers
  /// in a core's capacity, or every device's buffers and the host's copies
  /// of inputs and outputs in hostMemory(). `hostInputsExist`: false when
  /// the caller has yet to make the inputs (torus-run checks before it
  /// generates or reads them), so that they count too. Expects a program
  /// validateProgram() accepts (its replica count and run options).
  absl::Status checkMemory(const ProgramSpec &spec,
                           const RunOptions &runOptions = {},
                           bool hostInputsExist = true) const;
  /// ExecutorOptions::hostMemoryBytes, else availableHostMemory().
  HostMemory hostMemory() const;
  /// checkHostMemory() against hostMemory(). When the run does not fit, the
  /// blocks the cores keep from freed buffers (CoreMemory::cachedBytes())
  /// go back to the host and the check is made again: kept blocks never
  /// make a run fail that would fit without them.
  absl::Status checkHostMemoryFor(const ProgramSpec &spec,
                                  const RunMemory &memory,
                                  bool withHostInputs) const;

private:
  static absl::Status
  checkInputs(const ProgramSpec &spec,
              const std::vector<std::vector<HostTensor>> &inputs,
              const RunOptions &runOptions);

  Executor(const ExecutorOptions &options, int64_t numCores, size_t capacity,
           std::optional<Topology> topology);
  /// The communicator for a run on `deviceToCore`: the previous run's when
  /// it succeeded on the same cores (no per-run allocation), else new.
  absl::StatusOr<Communicator *>
  communicatorFor(const std::vector<int64_t> &deviceToCore);

  const ExecutorOptions options_;
  const int64_t numCores_;
  const size_t capacity_;
  const std::optional<Topology> topology_;
  /// (x, y, z, core) per core, when created from a topology.
  std::vector<std::array<int32_t, 4>> coordinates_;
  std::vector<std::unique_ptr<CoreMemory>> memories_;
  // Declared after the memories: threads stop before memories go away.
  WorkerPool pool_;
  std::mutex runMutex_;
  uint64_t nextRunId_ = 0;
  std::unique_ptr<InProcessCommunicator> communicator_;
  /// ExecutorOptions::wrapCommunicator's communicator over communicator_
  /// (declared after it: destroyed first).
  std::unique_ptr<Communicator> wrapped_;
  std::vector<int64_t> communicatorCores_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_EXECUTOR_H
