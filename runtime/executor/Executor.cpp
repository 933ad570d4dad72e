//===- Executor.cpp - Runs one SPMD program on every emulated core --------===//

#include "runtime/executor/Executor.h"

#include "runtime/collectives/CollectiveOp.h"
#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/collectives/ReplicaGroups.h"
#include "runtime/executor/CoreContext.h"
#include "runtime/executor/RunMemory.h"
#include "runtime/executor/RunState.h"
#include "runtime/mesh/TpuGeneration.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

namespace torus::rt {

namespace {

absl::Status checkShape(const TensorSpec &spec, std::string_view what) {
  for (int64_t d : spec.shape)
    if (d < 0)
      return absl::InvalidArgumentError(fmt::format(
          "{} has a negative dimension: {}", what, spec.toString()));
  return absl::OkStatus();
}

std::string describeCollective(const CollectiveSpec &c, size_t index) {
  std::string out = fmt::format("{} #{}", collectiveKindName(c.kind), index);
  if (!c.location.empty())
    out += " at " + c.location;
  return out;
}

bool isKnownKind(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
  case CollectiveKind::AllToAll:
  case CollectiveKind::CollectivePermute:
    return true;
  }
  return false;
}

/// Checks one collective of a program run as `numDevices` logical devices
/// on each of `numWorkers` worker processes (ExecutorOptions::numWorkers).
absl::Status checkCollective(const CollectiveSpec &collective, size_t index,
                             int64_t numDevices, int64_t numWorkers) {
  const std::string where = describeCollective(collective, index);
  auto fail = [&](const absl::Status &status) {
    return absl::Status(status.code(), fmt::format("{}: {}", where,
                                                   std::string(status.message())));
  };
  if (!isKnownKind(collective.kind))
    return absl::InvalidArgumentError(
        fmt::format("collective #{}: unknown collective kind {}", index,
                    static_cast<int32_t>(collective.kind)));
  TORUS_RETURN_IF_ERROR(checkShape(collective.operand, where + " operand"));
  const bool permute = collective.kind == CollectiveKind::CollectivePermute;
  int64_t groupSize = numDevices;
  if (!permute) {
    absl::Status groups =
        validateReplicaGroups(collective.replicaGroups, numDevices);
    if (!groups.ok())
      return fail(groups);
    if (!collective.replicaGroups.empty())
      groupSize = static_cast<int64_t>(collective.replicaGroups[0].size());
    // One program has one result type: ops whose result shape depends on
    // the group size need groups of one size (HLO's rule).
    if (collective.kind != CollectiveKind::AllReduce)
      for (const auto &group : collective.replicaGroups)
        if (static_cast<int64_t>(group.size()) != groupSize)
          return absl::InvalidArgumentError(fmt::format(
              "{}: replica groups {} differ in size", where,
              replicaGroupsToString(collective.replicaGroups)));
  }
  // Across workers, a group of every device means every worker's.
  int64_t numParticipants = numDevices;
  if (numWorkers > 1 && collective.kind != CollectiveKind::AllReduce &&
      (permute || groupSize == numDevices)) {
    groupSize = numDevices * numWorkers;
    numParticipants = groupSize;
  }
  CollectiveOp op = collectiveOpFromSpec(collective);
  absl::Status check = op.check(groupSize, numParticipants);
  if (!check.ok())
    return fail(check);
  // The compiler states the result type; a default TensorSpec means "not
  // given" (all-reduce specs written before the field existed).
  TensorSpec expected{op.dtype, op.resultShape(groupSize)};
  if (collective.result != TensorSpec{} && collective.result != expected)
    return absl::InvalidArgumentError(fmt::format(
        "{}: the result type {} does not match the {} of {} over groups of "
        "{}, which gives {}",
        where, collective.result.toString(), collectiveKindName(collective.kind),
        collective.operand.toString(), groupSize, expected.toString()));
  return absl::OkStatus();
}

/// What every core needs to run its steps.
struct StepPlan {
  int64_t steps = 1;
  const std::vector<std::pair<int, int>> *carried = nullptr;
  /// perStep[i]: input i gets a new slice every step.
  std::vector<char> perStep;
};

/// Everything one core does for its logical device in a run.
void runDevice(const Program &program, const std::vector<HostTensor> &inputs,
               std::vector<HostTensor> &outputs, CoreContext &context,
               const StepPlan &plan) {
  const ProgramSpec &spec = program.spec;
  CoreMemory &memory = context.memory();
  const size_t numInputs = spec.inputs.size();
  // Buffer labels for error messages, formatted only when allocating.
  auto who = [&] {
    return context.run().numPartitions() > 1
               ? fmt::format("replica {} partition {}", context.replicaId(),
                             context.partitionId())
               : fmt::format("replica {}", context.replicaId());
  };
  std::vector<DeviceBuffer> buffers;
  std::vector<DeviceBuffer> queues(numInputs); // per-step inputs, all steps
  std::vector<void *> pointers;
  buffers.reserve(numInputs + spec.outputs.size());
  pointers.reserve(numInputs + spec.outputs.size());

  // Host-to-device transfer, on the core's own thread.
  std::optional<TraceSpan> transfer(std::in_place, "host to device",
                                    "transfer");
  for (size_t i = 0; i < numInputs; ++i) {
    const size_t bytes = spec.inputs[i].sizeInBytes();
    if (plan.perStep[i]) {
      auto queue =
          memory.allocate(bytes * plan.steps,
                          fmt::format("{} input {} ({} steps)", who(), i,
                                      plan.steps));
      if (!queue.ok())
        return context.fail(queue.status());
      if (queue->sizeInBytes() > 0)
        std::memcpy(queue->data(), inputs[i].rawData(), queue->sizeInBytes());
      queues[i] = std::move(*queue);
    }
    auto buffer = memory.allocate(bytes, fmt::format("{} input {}", who(), i));
    if (!buffer.ok())
      return context.fail(buffer.status());
    if (!plan.perStep[i] && bytes > 0)
      std::memcpy(buffer->data(), inputs[i].rawData(), bytes);
    pointers.push_back(buffer->data());
    buffers.push_back(std::move(*buffer));
  }
  for (size_t o = 0; o < spec.outputs.size(); ++o) {
    auto buffer = memory.allocate(spec.outputs[o].sizeInBytes(),
                                  fmt::format("{} output {}", who(), o));
    if (!buffer.ok())
      return context.fail(buffer.status());
    pointers.push_back(buffer->data());
    buffers.push_back(std::move(*buffer));
  }
  transfer.reset();
  // The buffer plan's workspace: once per run, not per step.
  DeviceBuffer workspace;
  if (spec.workspaceBytes > 0) {
    auto buffer = memory.allocate(
        static_cast<size_t>(spec.workspaceBytes),
        fmt::format("{} workspace (the temporaries of '{}')", who(),
                    spec.name));
    if (!buffer.ok())
      return context.fail(buffer.status());
    workspace = std::move(*buffer);
    context.setWorkspace(workspace.data(), workspace.sizeInBytes());
  }
  // A peer already failed: the run's result is that failure; skip the work.
  if (context.run().isAborted())
    return;

  for (int64_t step = 0; step < plan.steps; ++step) {
    TraceSpan stepSpan(TraceTrack::current()
                           ? fmt::format("step {}", step)
                           : std::string(),
                       "step");
    if (step > 0)
      for (const auto &[o, i] : *plan.carried)
        std::swap(pointers[i], pointers[numInputs + o]);
    for (size_t i = 0; i < numInputs; ++i)
      if (plan.perStep[i]) {
        const size_t bytes = spec.inputs[i].sizeInBytes();
        if (bytes > 0)
          std::memcpy(pointers[i],
                      static_cast<const char *>(queues[i].data()) +
                          bytes * step,
                      bytes);
      }
    {
      CoreContext::Scope scope(context);
      program.entry(pointers.data());
    }
    if (!context.error().ok() || context.run().isAborted())
      return;
  }

  // Device-to-host transfer.
  TraceSpan toHost("device to host", "transfer");
  outputs.clear();
  outputs.reserve(spec.outputs.size());
  for (size_t o = 0; o < spec.outputs.size(); ++o) {
    HostTensor tensor(spec.outputs[o]);
    if (tensor.sizeInBytes() > 0)
      std::memcpy(tensor.rawData(), pointers[numInputs + o],
                  tensor.sizeInBytes());
    outputs.push_back(std::move(tensor));
  }
}

std::vector<std::unique_ptr<CoreMemory>> makeMemories(int64_t numCores,
                                                      size_t capacity) {
  std::vector<std::unique_ptr<CoreMemory>> memories;
  memories.reserve(numCores);
  for (int64_t c = 0; c < numCores; ++c)
    memories.push_back(std::make_unique<CoreMemory>(c, capacity));
  return memories;
}

absl::Status checkOptions(const ExecutorOptions &options, int64_t numCores) {
  if (numCores < 1 || numCores > Executor::kMaxCores)
    return absl::InvalidArgumentError(
        fmt::format("an executor needs 1 to {} cores, got {}",
                    Executor::kMaxCores, numCores));
  if (options.numWorkers < 1)
    return absl::InvalidArgumentError(
        fmt::format("ExecutorOptions::numWorkers must be at least 1, got {}",
                    options.numWorkers));
  if (options.collectiveTimeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError(
        fmt::format("the collective timeout must be positive, got {}",
                    absl::FormatDuration(options.collectiveTimeout)));
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<std::unique_ptr<Communicator>>
makeWrappedCommunicator(const ExecutorOptions &options,
                        InProcessCommunicator &local) {
  TORUS_ASSIGN_OR_RETURN(std::unique_ptr<Communicator> wrapped,
                         options.wrapCommunicator(local));
  if (!wrapped)
    return absl::InvalidArgumentError(
        "ExecutorOptions::wrapCommunicator returned no communicator");
  return wrapped;
}

Executor::Executor(const ExecutorOptions &options, int64_t numCores,
                   size_t capacity, std::optional<Topology> topology)
    : options_(options), numCores_(numCores), capacity_(capacity),
      topology_(std::move(topology)),
      memories_(makeMemories(numCores, capacity)), pool_(numCores) {
  if (topology_)
    for (const auto &task : topology_->deviceCoordinates())
      for (const Coordinates &c : task)
        coordinates_.push_back(c);
}

absl::StatusOr<std::unique_ptr<Executor>>
Executor::create(const ExecutorOptions &options) {
  TORUS_RETURN_IF_ERROR(checkOptions(options, options.numCores));
  return std::unique_ptr<Executor>(new Executor(
      options, options.numCores,
      options.coreMemoryCapacity.value_or(kDefaultCoreMemoryCapacity),
      std::nullopt));
}

absl::StatusOr<std::unique_ptr<Executor>>
Executor::create(const Topology &topology, ExecutorOptions options) {
  const int64_t numCores =
      static_cast<int64_t>(topology.numTasks()) * topology.numTpusPerTask();
  if (numCores > kMaxCores)
    return absl::InvalidArgumentError(fmt::format(
        "topology {} has {} TPU devices; an executor emulates at most {} "
        "cores (the cost model prices larger slices without running them)",
        topology.name().empty() ? topology.toString() : topology.name(),
        numCores, kMaxCores));
  options.numCores = numCores;
  TORUS_RETURN_IF_ERROR(checkOptions(options, numCores));
  size_t capacity = kDefaultCoreMemoryCapacity;
  if (options.coreMemoryCapacity)
    capacity = *options.coreMemoryCapacity;
  else if (topology.generation())
    capacity = static_cast<size_t>(topology.generation()->hbmBytesPerCore);
  return std::unique_ptr<Executor>(
      new Executor(options, numCores, capacity, topology));
}

Executor::~Executor() = default;

std::optional<std::array<int32_t, 4>>
Executor::coreCoordinates(int64_t coreId) const {
  if (coreId < 0 || coreId >= static_cast<int64_t>(coordinates_.size()))
    return std::nullopt;
  return coordinates_[coreId];
}

absl::Status
Executor::validate(const Program &program,
                   const std::vector<std::vector<HostTensor>> &inputs,
                   const RunOptions &runOptions) const {
  TORUS_RETURN_IF_ERROR(validateProgram(program, runOptions));
  return checkInputs(program.spec, inputs, runOptions);
}

absl::Status Executor::validateProgram(const Program &program,
                                       const RunOptions &runOptions) const {
  const ProgramSpec &spec = program.spec;
  const std::string name = spec.name.empty() ? "<unnamed>" : spec.name;
  if (!program.entry)
    return absl::InvalidArgumentError(
        fmt::format("program '{}' has no entry function", name));
  const int64_t numReplicas = spec.numReplicas;
  if (numReplicas < 1)
    return absl::InvalidArgumentError(fmt::format(
        "program '{}' has an invalid replica count {}", name, numReplicas));
  const int64_t numPartitions = runOptions.numPartitions;
  if (numPartitions < 1)
    return absl::InvalidArgumentError(
        fmt::format("invalid partition count {}", numPartitions));
  const int64_t numDevices = numReplicas * numPartitions;
  // A share of a program spread over several workers: the devices this run
  // executes (local) among the program's (global).
  const bool share = runOptions.numLocalDevices != 0 ||
                     runOptions.firstDevice != 0;
  if (share && (runOptions.numLocalDevices < 1 ||
                runOptions.firstDevice < 0 ||
                runOptions.firstDevice + runOptions.numLocalDevices >
                    numDevices))
    return absl::InvalidArgumentError(fmt::format(
        "this run's devices {}..{} (RunOptions::firstDevice {}, "
        "numLocalDevices {}) are not a range of program '{}''s {} devices",
        runOptions.firstDevice,
        runOptions.firstDevice + runOptions.numLocalDevices - 1,
        runOptions.firstDevice, runOptions.numLocalDevices, name, numDevices));
  if (share && !options_.wrapCommunicator)
    return absl::InvalidArgumentError(fmt::format(
        "a run of devices {}..{} of program '{}''s {} needs a communicator "
        "spanning the workers that run the others "
        "(ExecutorOptions::wrapCommunicator)",
        runOptions.firstDevice,
        runOptions.firstDevice + runOptions.numLocalDevices - 1, name,
        numDevices));
  const int64_t localDevices = share ? runOptions.numLocalDevices : numDevices;
  const int64_t firstDevice = share ? runOptions.firstDevice : 0;
  if (share && localDevices > numCores())
    return absl::InvalidArgumentError(fmt::format(
        "this run's {} devices of program '{}' need {} cores but the executor "
        "has only {}",
        localDevices, name, localDevices, numCores()));
  if (!share && numDevices > numCores()) {
    if (numPartitions == 1)
      return absl::InvalidArgumentError(fmt::format(
          "program '{}' is compiled for {} replicas but the executor has only "
          "{} core{}",
          name, numReplicas, numCores(), numCores() == 1 ? "" : "s"));
    return absl::InvalidArgumentError(fmt::format(
        "program '{}' needs {} replicas x {} partitions = {} cores but the "
        "executor has only {}",
        name, numReplicas, numPartitions, numDevices, numCores()));
  }

  // Device assignment.
  const std::vector<int64_t> &assignment = runOptions.replicaToCore;
  const char *unit = numPartitions == 1 ? "replica" : "device";
  if (!assignment.empty()) {
    if (static_cast<int64_t>(assignment.size()) != localDevices)
      return absl::InvalidArgumentError(fmt::format(
          "the device assignment has {} entries for {} {}s", assignment.size(),
          localDevices, unit));
    std::vector<int64_t> owner(numCores(), -1);
    for (int64_t d = 0; d < localDevices; ++d) {
      int64_t core = assignment[d];
      if (core < 0 || core >= numCores())
        return absl::InvalidArgumentError(fmt::format(
            "the device assignment puts {} {} on core {}, outside [0, {})",
            unit, firstDevice + d, core, numCores()));
      if (owner[core] >= 0)
        return absl::InvalidArgumentError(
            fmt::format("the device assignment puts {}s {} and {} on core {}",
                        unit, owner[core], firstDevice + d, core));
      owner[core] = firstDevice + d;
    }
  }
  if (runOptions.collectiveTimeout &&
      *runOptions.collectiveTimeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError(
        fmt::format("the collective timeout must be positive, got {}",
                    absl::FormatDuration(*runOptions.collectiveTimeout)));

  // The program's own specs.
  for (size_t i = 0; i < spec.inputs.size(); ++i)
    TORUS_RETURN_IF_ERROR(checkShape(
        spec.inputs[i], fmt::format("program '{}' input {}", name, i)));
  for (size_t o = 0; o < spec.outputs.size(); ++o)
    TORUS_RETURN_IF_ERROR(checkShape(
        spec.outputs[o], fmt::format("program '{}' output {}", name, o)));
  for (size_t c = 0; c < spec.collectives.size(); ++c)
    TORUS_RETURN_IF_ERROR(checkCollective(
        spec.collectives[c], c, numDevices,
        options_.wrapCommunicator && !share ? options_.numWorkers : 1));

  // The on-device loop.
  const int64_t steps = runOptions.stepsPerRun;
  if (steps < 1)
    return absl::InvalidArgumentError(
        fmt::format("steps per run must be at least 1, got {}", steps));
  const int64_t numInputs = static_cast<int64_t>(spec.inputs.size());
  const int64_t numOutputs = static_cast<int64_t>(spec.outputs.size());
  std::vector<char> perStep(numInputs, 0);
  for (int i : runOptions.perStepInputs) {
    if (i < 0 || i >= numInputs)
      return absl::InvalidArgumentError(fmt::format(
          "per-step input {} is out of range: program '{}' has {} input{}", i,
          name, numInputs, numInputs == 1 ? "" : "s"));
    if (perStep[i])
      return absl::InvalidArgumentError(
          fmt::format("input {} is listed twice as a per-step input", i));
    perStep[i] = 1;
  }
  std::vector<int> carriedFrom(numInputs, -1), carriedTo(numOutputs, -1);
  for (const auto &[o, i] : runOptions.carried) {
    if (o < 0 || o >= numOutputs)
      return absl::InvalidArgumentError(fmt::format(
          "carried output {} is out of range: program '{}' has {} output{}", o,
          name, numOutputs, numOutputs == 1 ? "" : "s"));
    if (i < 0 || i >= numInputs)
      return absl::InvalidArgumentError(fmt::format(
          "output {} is carried to input {}, out of range: program '{}' has "
          "{} input{}",
          o, i, name, numInputs, numInputs == 1 ? "" : "s"));
    if (spec.outputs[o] != spec.inputs[i])
      return absl::InvalidArgumentError(fmt::format(
          "output {} ({}) cannot be carried to input {} ({}): the types "
          "differ",
          o, spec.outputs[o].toString(), i, spec.inputs[i].toString()));
    if (carriedFrom[i] >= 0)
      return absl::InvalidArgumentError(fmt::format(
          "input {} is carried from two outputs ({} and {})", i,
          carriedFrom[i], o));
    if (carriedTo[o] >= 0)
      return absl::InvalidArgumentError(fmt::format(
          "output {} is carried to two inputs ({} and {})", o, carriedTo[o],
          i));
    if (perStep[i])
      return absl::InvalidArgumentError(fmt::format(
          "input {} is both carried and fed per step", i));
    carriedFrom[i] = o;
    carriedTo[o] = i;
  }
  return absl::OkStatus();
}

/// validate()'s checks of the inputs, for a program and run options
/// validateProgram() accepts.
absl::Status
Executor::checkInputs(const ProgramSpec &spec,
                      const std::vector<std::vector<HostTensor>> &inputs,
                      const RunOptions &runOptions) {
  const std::string name = spec.name.empty() ? "<unnamed>" : spec.name;
  const int64_t numReplicas = spec.numReplicas;
  const int64_t numPartitions = runOptions.numPartitions;
  const int64_t numDevices = numReplicas * numPartitions;
  const char *unit = numPartitions == 1 ? "replica" : "device";
  const int64_t steps = runOptions.stepsPerRun;
  std::vector<char> perStep(spec.inputs.size(), 0);
  for (int i : runOptions.perStepInputs)
    perStep[i] = 1;
  // A share of the devices (validateProgram checked the range).
  const bool share =
      runOptions.numLocalDevices != 0 || runOptions.firstDevice != 0;
  const int64_t localDevices = share ? runOptions.numLocalDevices : numDevices;
  const int64_t firstDevice = share ? runOptions.firstDevice : 0;
  if (share && static_cast<int64_t>(inputs.size()) != localDevices)
    return absl::InvalidArgumentError(fmt::format(
        "this run executes devices {}..{} of program '{}' but inputs were "
        "given for {}",
        firstDevice, firstDevice + localDevices - 1, name, inputs.size()));
  if (!share && static_cast<int64_t>(inputs.size()) != numDevices) {
    if (numPartitions == 1)
      return absl::InvalidArgumentError(fmt::format(
          "program '{}' has {} replica{} but inputs were given for {}", name,
          numReplicas, numReplicas == 1 ? "" : "s", inputs.size()));
    return absl::InvalidArgumentError(fmt::format(
        "program '{}' runs as {} replicas x {} partitions = {} devices but "
        "inputs were given for {}",
        name, numReplicas, numPartitions, numDevices, inputs.size()));
  }
  for (int64_t d = 0; d < localDevices; ++d) {
    if (inputs[d].size() != spec.inputs.size())
      return absl::InvalidArgumentError(fmt::format(
          "{} {}: expected {} argument{}, got {}", unit, firstDevice + d,
          spec.inputs.size(),
          spec.inputs.size() == 1 ? "" : "s", inputs[d].size()));
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      const HostTensor &tensor = inputs[d][i];
      TensorSpec expected = spec.inputs[i];
      if (perStep[i])
        expected.shape.insert(expected.shape.begin(), steps);
      if (tensor.spec() != expected)
        return absl::InvalidArgumentError(fmt::format(
            "{} {}, argument {}: expected {}{}, got {}", unit, firstDevice + d,
            i,
            expected.toString(),
            perStep[i] ? " (a per-step input: one slice per step)" : "",
            tensor.spec().toString()));
      if (!tensor.rawData() && tensor.sizeInBytes() > 0)
        return absl::InvalidArgumentError(fmt::format(
            "{} {}, argument {}: the tensor has no storage", unit,
            firstDevice + d, i));
    }
  }
  return absl::OkStatus();
}

HostMemory Executor::hostMemory() const {
  if (options_.hostMemoryBytes)
    return {*options_.hostMemoryBytes, "ExecutorOptions::hostMemoryBytes"};
  return availableHostMemory();
}

absl::Status Executor::checkHostMemoryFor(const ProgramSpec &spec,
                                          const RunMemory &memory,
                                          bool withHostInputs) const {
  absl::Status fits =
      checkHostMemory(spec, memory, withHostInputs, hostMemory());
  if (fits.ok())
    return fits;
  size_t released = 0;
  for (const auto &core : memories_)
    released += core->releaseCachedBlocks();
  if (released == 0)
    return fits;
  return checkHostMemory(spec, memory, withHostInputs, hostMemory());
}

namespace {

/// Names the processes of a run's trace and the track of every core used.
void nameTraceTracks(TraceRecorder &trace, const ProgramSpec &spec,
                     const std::vector<int64_t> &deviceToCore,
                     int64_t numPartitions, int64_t firstDevice) {
  trace.nameProcess(kTraceCoresPid, "emulated cores (host time)",
                    kTraceCoresPid);
  for (size_t d = 0; d < deviceToCore.size(); ++d) {
    const int64_t core = deviceToCore[d];
    const int64_t device = firstDevice + static_cast<int64_t>(d);
    std::string who =
        numPartitions > 1
            ? fmt::format("core {} (replica {} partition {})", core,
                          device / numPartitions, device % numPartitions)
            : fmt::format("core {} (replica {})", core, device);
    trace.nameThread(kTraceCoresPid, core + 1, who, core);
  }
}

/// The cost model's `cost` of one step as spans on every core used:
/// `steps` steps back to back from `startNs`, each its compute (the
/// roofline of FLOPs and HBM bytes) then its collectives, in program order.
void traceSimulatedSteps(TraceRecorder &trace, const StepCost &cost,
                         const std::vector<int64_t> &deviceToCore,
                         int64_t startNs, int64_t steps) {
  trace.nameProcess(kTraceSimulatedPid,
                    fmt::format("simulated TPU {} (cost model)", cost.slice),
                    kTraceSimulatedPid);
  auto toNs = [](double seconds) {
    return static_cast<int64_t>(seconds * 1e9 + 0.5);
  };
  const int64_t stepNs = toNs(cost.totalSeconds);
  for (int64_t core : deviceToCore) {
    trace.nameThread(kTraceSimulatedPid, core + 1,
                     fmt::format("core {}", core), core);
    for (int64_t step = 0; step < steps; ++step) {
      int64_t t = startNs + step * stepNs;
      trace.addSpan(kTraceSimulatedPid, core + 1, fmt::format("step {}", step),
                    "step", t, stepNs,
                    {{"seconds", cost.totalSeconds},
                     {"generation", cost.generation}});
      const int64_t compute = toNs(cost.computeSeconds);
      trace.addSpan(kTraceSimulatedPid, core + 1, "compute", "compute", t,
                    compute,
                    {{"flop_seconds", cost.flopSeconds},
                     {"hbm_seconds", cost.memorySeconds}});
      t += compute;
      for (const CollectiveStepCost &c : cost.collectives) {
        // Rounded to whole nanoseconds, clamped into the step.
        const int64_t ns =
            std::min(toNs(c.seconds()), startNs + (step + 1) * stepNs - t);
        trace.addSpan(kTraceSimulatedPid, core + 1, c.name, "collective", t,
                      ns,
                      {{"seconds", c.seconds()},
                       {"invocations", c.invocations},
                       {"bytes", c.cost.bytes},
                       {"detail", c.cost.detail}});
        t += ns;
      }
    }
  }
}

RunMemory planFor(const ProgramSpec &spec, const RunOptions &runOptions) {
  std::vector<char> perStep(spec.inputs.size(), 0);
  for (int i : runOptions.perStepInputs)
    if (i >= 0 && static_cast<size_t>(i) < perStep.size())
      perStep[i] = 1;
  // A share of the devices (RunOptions::numLocalDevices) is what this
  // process holds.
  return planRunMemory(spec,
                       runOptions.numLocalDevices > 0
                           ? runOptions.numLocalDevices
                           : spec.numReplicas * runOptions.numPartitions,
                       runOptions.stepsPerRun, perStep);
}

} // namespace

absl::Status Executor::checkMemory(const ProgramSpec &spec,
                                   const RunOptions &runOptions,
                                   bool hostInputsExist) const {
  RunMemory memory = planFor(spec, runOptions);
  TORUS_RETURN_IF_ERROR(checkCoreCapacity(spec, memory, capacity_));
  return checkHostMemoryFor(spec, memory, !hostInputsExist);
}

absl::StatusOr<Communicator *>
Executor::communicatorFor(const std::vector<int64_t> &deviceToCore) {
  if (communicator_ && !communicator_->isAborted() &&
      communicatorCores_ == deviceToCore &&
      communicator_->numPendingRendezvous() == 0)
    return wrapped_ ? wrapped_.get()
                    : static_cast<Communicator *>(communicator_.get());
  wrapped_.reset();
  communicator_.reset();
  CommunicatorOptions options;
  options.algorithm = options_.collectiveAlgorithm;
  if (!coordinates_.empty()) {
    MeshPlacement placement;
    const auto &shape = topology_->meshShape();
    placement.meshShape = {shape[0], shape[1], shape[2], shape[3]};
    for (int dim = 0; dim < 3; ++dim)
      placement.wraparound[dim] = topology_->hasWraparound(dim);
    for (int64_t core : deviceToCore)
      placement.coordinates.push_back(coordinates_[core]);
    options.placement = std::move(placement);
  }
  TORUS_ASSIGN_OR_RETURN(
      communicator_,
      InProcessCommunicator::create(
          static_cast<int64_t>(deviceToCore.size()), std::move(options)));
  communicatorCores_ = deviceToCore;
  if (options_.wrapCommunicator) {
    TORUS_ASSIGN_OR_RETURN(wrapped_,
                           makeWrappedCommunicator(options_, *communicator_));
    return wrapped_.get();
  }
  return communicator_.get();
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
Executor::run(const Program &program,
              const std::vector<std::vector<HostTensor>> &inputs,
              const RunOptions &runOptions) {
  const auto start = std::chrono::steady_clock::now();
  TORUS_RETURN_IF_ERROR(validate(program, inputs, runOptions));
  {
    // The host's memory, before any allocation. A program that does not fit
    // a core is refused by the core's memory, naming the buffer, unless
    // what every core allocates up to its capacity exceeds the host too.
    RunMemory memory = planFor(program.spec, runOptions);
    absl::Status fitsCore = checkCoreCapacity(program.spec, memory, capacity_);
    if (fitsCore.ok())
      TORUS_RETURN_IF_ERROR(checkHostMemoryFor(program.spec, memory, false));
    else if (saturatingMul(memory.deviceBytesWithin(capacity_),
                           static_cast<size_t>(memory.numDevices)) >
             hostMemory().availableBytes)
      return fitsCore;
  }
  std::lock_guard<std::mutex> runLock(runMutex_);

  const int64_t numPartitions = runOptions.numPartitions;
  // The devices this process runs: all, or a share (RunOptions::firstDevice);
  // local device d is global device firstDevice + d.
  const int64_t firstDevice = runOptions.firstDevice;
  const int64_t numDevices = runOptions.numLocalDevices > 0
                                 ? runOptions.numLocalDevices
                                 : program.spec.numReplicas * numPartitions;
  std::vector<int64_t> deviceToCore = runOptions.replicaToCore;
  if (deviceToCore.empty())
    for (int64_t d = 0; d < numDevices; ++d)
      deviceToCore.push_back(d);
  std::vector<int64_t> coreToDevice(numCores(), -1);
  for (int64_t d = 0; d < numDevices; ++d)
    coreToDevice[deviceToCore[d]] = d;

  StepPlan plan;
  plan.steps = runOptions.stepsPerRun;
  plan.carried = &runOptions.carried;
  plan.perStep.assign(program.spec.inputs.size(), 0);
  for (int i : runOptions.perStepInputs)
    plan.perStep[i] = 1;

  // One communicator per run, reused while runs succeed: an aborted run
  // must not poison the next, but a good one leaves nothing behind.
  TORUS_ASSIGN_OR_RETURN(Communicator * communicator,
                         communicatorFor(deviceToCore));
  const int64_t allDevices = program.spec.numReplicas * numPartitions;
  if (numDevices != allDevices && communicator->numReplicas() != allDevices)
    return absl::InvalidArgumentError(fmt::format(
        "a run of devices {}..{} of program '{}''s {} needs a communicator "
        "spanning all {} (global device ids); ExecutorOptions::"
        "wrapCommunicator gave one of {} participants",
        firstDevice, firstDevice + numDevices - 1, program.spec.name,
        allDevices, allDevices, communicator->numReplicas()));
  RunState state(
      nextRunId_++, program.spec, *communicator,
      runOptions.collectiveTimeout.value_or(options_.collectiveTimeout),
      numPartitions);

  TraceRecorder *trace = runOptions.trace;
  if (trace)
    nameTraceTracks(*trace, program.spec, deviceToCore, numPartitions,
                    firstDevice);
  const int64_t traceStart = trace ? trace->now() : 0;

  std::vector<std::vector<HostTensor>> outputs(numDevices);
  pool_.run(deviceToCore, [&](int64_t core) {
    const int64_t device = coreToDevice[core];
    TraceTrack track(trace, kTraceCoresPid, core + 1);
    CoreMemory &memory = *memories_[core];
    memory.resetPeak();
    const int64_t global = firstDevice + device;
    CoreContext context(core, global / numPartitions, global % numPartitions,
                        state, memory);
    try {
      runDevice(program, inputs[device], outputs[device], context, plan);
    } catch (const std::exception &e) {
      context.fail(
          absl::InternalError(fmt::format("uncaught exception: {}", e.what())));
    } catch (...) {
      context.fail(absl::InternalError("uncaught exception"));
    }
  });
  absl::Status status = state.status();
  if (!status.ok()) {
    wrapped_.reset();
    communicator_.reset();
    return status;
  }
  std::optional<StepCost> simulated;
  absl::Status simulationStatus;
  if (runOptions.costCounts && numDevices != allDevices) {
    simulationStatus = absl::UnimplementedError(
        "no simulated time for a share of the program's devices "
        "(RunOptions::firstDevice): the cost model prices whole programs");
  } else if ((runOptions.stats || trace) && runOptions.costCounts &&
             topology_) {
    CostModelOptions costOptions;
    costOptions.numPartitions = numPartitions;
    costOptions.deviceToCore = deviceToCore;
    costOptions.algorithm = options_.collectiveAlgorithm;
    auto estimate = estimateStepCost(program.spec, *runOptions.costCounts,
                                     *topology_, costOptions);
    if (estimate.ok())
      simulated = std::move(*estimate);
    else
      simulationStatus = estimate.status();
  } else if (runOptions.costCounts) {
    simulationStatus = absl::FailedPreconditionError(
        "no simulated time: the executor was not created from a topology");
  }
  if (trace && simulated)
    traceSimulatedSteps(*trace, *simulated, deviceToCore, traceStart,
                        runOptions.stepsPerRun);
  if (runOptions.stats) {
    RunStats &stats = *runOptions.stats;
    stats.hostTime = absl::FromChrono(std::chrono::steady_clock::now() - start);
    stats.steps = runOptions.stepsPerRun;
    stats.peakCoreBytes = 0;
    for (int64_t core : deviceToCore)
      stats.peakCoreBytes =
          std::max(stats.peakCoreBytes, memories_[core]->peakBytesInUse());
    stats.simulated = std::move(simulated);
    stats.simulationStatus = simulationStatus;
  }
  return outputs;
}

void Executor::runOnCores(std::span<const int64_t> cores,
                          const std::function<void(int64_t)> &task) {
  std::lock_guard<std::mutex> lock(runMutex_);
  pool_.run(cores, task);
}

} // namespace torus::rt
