//===- Executor.cpp - Runs one SPMD program on every emulated core --------===//

#include "runtime/executor/Executor.h"

#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/collectives/ReplicaGroups.h"
#include "runtime/executor/CoreContext.h"
#include "runtime/executor/RunState.h"

#include <fmt/format.h>

#include <cstring>
#include <exception>

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

/// Everything one core does for its replica in a run.
void runReplica(const Program &program, const std::vector<HostTensor> &inputs,
                std::vector<HostTensor> &outputs, CoreContext &context) {
  const ProgramSpec &spec = program.spec;
  CoreMemory &memory = context.memory();
  const int64_t replica = context.replicaId();
  std::vector<DeviceBuffer> buffers;
  std::vector<void *> pointers;
  buffers.reserve(spec.inputs.size() + spec.outputs.size());
  pointers.reserve(spec.inputs.size() + spec.outputs.size());

  // Host-to-device transfer, on the core's own thread.
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    auto buffer =
        memory.allocate(spec.inputs[i].sizeInBytes(),
                        fmt::format("replica {} input {}", replica, i));
    if (!buffer.ok())
      return context.fail(buffer.status());
    if (buffer->sizeInBytes() > 0)
      std::memcpy(buffer->data(), inputs[i].rawData(), buffer->sizeInBytes());
    pointers.push_back(buffer->data());
    buffers.push_back(std::move(*buffer));
  }
  for (size_t o = 0; o < spec.outputs.size(); ++o) {
    auto buffer =
        memory.allocate(spec.outputs[o].sizeInBytes(),
                        fmt::format("replica {} output {}", replica, o));
    if (!buffer.ok())
      return context.fail(buffer.status());
    pointers.push_back(buffer->data());
    buffers.push_back(std::move(*buffer));
  }
  // A peer already failed: the run's result is that failure; skip the work.
  if (context.run().isAborted())
    return;

  {
    CoreContext::Scope scope(context);
    program.entry(pointers.data());
  }
  if (!context.error().ok() || context.run().isAborted())
    return;

  // Device-to-host transfer.
  outputs.clear();
  outputs.reserve(spec.outputs.size());
  for (size_t o = 0; o < spec.outputs.size(); ++o) {
    HostTensor tensor(spec.outputs[o]);
    const DeviceBuffer &buffer = buffers[spec.inputs.size() + o];
    if (buffer.sizeInBytes() > 0)
      std::memcpy(tensor.rawData(), buffer.data(), buffer.sizeInBytes());
    outputs.push_back(std::move(tensor));
  }
}

} // namespace

namespace {
std::vector<std::unique_ptr<CoreMemory>>
makeMemories(const ExecutorOptions &options) {
  std::vector<std::unique_ptr<CoreMemory>> memories;
  memories.reserve(options.numCores);
  for (int64_t c = 0; c < options.numCores; ++c)
    memories.push_back(
        std::make_unique<CoreMemory>(c, options.coreMemoryCapacity));
  return memories;
}
} // namespace

Executor::Executor(const ExecutorOptions &options)
    : options_(options), memories_(makeMemories(options)),
      pool_(options.numCores) {}

absl::StatusOr<std::unique_ptr<Executor>>
Executor::create(const ExecutorOptions &options) {
  if (options.numCores < 1 || options.numCores > kMaxCores)
    return absl::InvalidArgumentError(
        fmt::format("an executor needs 1 to {} cores, got {}", kMaxCores,
                    options.numCores));
  if (options.collectiveTimeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError(
        fmt::format("the collective timeout must be positive, got {}",
                    absl::FormatDuration(options.collectiveTimeout)));
  return std::unique_ptr<Executor>(new Executor(options));
}

Executor::~Executor() = default;

absl::Status
Executor::validate(const Program &program,
                   const std::vector<std::vector<HostTensor>> &inputs,
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
  if (numReplicas > numCores())
    return absl::InvalidArgumentError(fmt::format(
        "program '{}' is compiled for {} replicas but the executor has only "
        "{} core{}",
        name, numReplicas, numCores(), numCores() == 1 ? "" : "s"));

  // Device assignment.
  const std::vector<int64_t> &assignment = runOptions.replicaToCore;
  if (!assignment.empty()) {
    if (static_cast<int64_t>(assignment.size()) != numReplicas)
      return absl::InvalidArgumentError(
          fmt::format("the device assignment has {} entries for {} replicas",
                      assignment.size(), numReplicas));
    std::vector<int64_t> owner(numCores(), -1);
    for (int64_t r = 0; r < numReplicas; ++r) {
      int64_t core = assignment[r];
      if (core < 0 || core >= numCores())
        return absl::InvalidArgumentError(fmt::format(
            "the device assignment puts replica {} on core {}, outside [0, {})",
            r, core, numCores()));
      if (owner[core] >= 0)
        return absl::InvalidArgumentError(fmt::format(
            "the device assignment puts replicas {} and {} on core {}",
            owner[core], r, core));
      owner[core] = r;
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
  for (size_t c = 0; c < spec.collectives.size(); ++c) {
    const CollectiveSpec &collective = spec.collectives[c];
    std::string where = describeCollective(collective, c);
    if (collective.kind != CollectiveKind::AllReduce)
      return absl::InvalidArgumentError(
          fmt::format("{}: unknown collective kind {}", where,
                      static_cast<int32_t>(collective.kind)));
    TORUS_RETURN_IF_ERROR(checkShape(collective.operand, where + " operand"));
    absl::Status groups =
        validateReplicaGroups(collective.replicaGroups, numReplicas);
    if (!groups.ok())
      return absl::InvalidArgumentError(
          fmt::format("{}: {}", where, std::string(groups.message())));
  }

  // The inputs.
  if (static_cast<int64_t>(inputs.size()) != numReplicas)
    return absl::InvalidArgumentError(fmt::format(
        "program '{}' has {} replica{} but inputs were given for {}", name,
        numReplicas, numReplicas == 1 ? "" : "s", inputs.size()));
  for (int64_t r = 0; r < numReplicas; ++r) {
    if (inputs[r].size() != spec.inputs.size())
      return absl::InvalidArgumentError(fmt::format(
          "replica {}: expected {} argument{}, got {}", r, spec.inputs.size(),
          spec.inputs.size() == 1 ? "" : "s", inputs[r].size()));
    for (size_t i = 0; i < spec.inputs.size(); ++i) {
      const HostTensor &tensor = inputs[r][i];
      if (tensor.spec() != spec.inputs[i])
        return absl::InvalidArgumentError(
            fmt::format("replica {}, argument {}: expected {}, got {}", r, i,
                        spec.inputs[i].toString(), tensor.spec().toString()));
      if (!tensor.rawData() && tensor.sizeInBytes() > 0)
        return absl::InvalidArgumentError(fmt::format(
            "replica {}, argument {}: the tensor has no storage", r, i));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
Executor::run(const Program &program,
              const std::vector<std::vector<HostTensor>> &inputs,
              const RunOptions &runOptions) {
  TORUS_RETURN_IF_ERROR(validate(program, inputs, runOptions));
  std::lock_guard<std::mutex> runLock(runMutex_);

  const int64_t numReplicas = program.spec.numReplicas;
  std::vector<int64_t> replicaToCore = runOptions.replicaToCore;
  if (replicaToCore.empty())
    for (int64_t r = 0; r < numReplicas; ++r)
      replicaToCore.push_back(r);
  std::vector<int64_t> coreToReplica(numCores(), -1);
  for (int64_t r = 0; r < numReplicas; ++r)
    coreToReplica[replicaToCore[r]] = r;

  // A fresh communicator per run: an aborted run must not poison the next.
  TORUS_ASSIGN_OR_RETURN(std::unique_ptr<InProcessCommunicator> communicator,
                         InProcessCommunicator::create(numReplicas));
  RunState state(
      nextRunId_++, program.spec, *communicator,
      runOptions.collectiveTimeout.value_or(options_.collectiveTimeout));

  std::vector<std::vector<HostTensor>> outputs(numReplicas);
  pool_.run(replicaToCore, [&](int64_t core) {
    const int64_t replica = coreToReplica[core];
    CoreContext context(core, replica, state, *memories_[core]);
    try {
      runReplica(program, inputs[replica], outputs[replica], context);
    } catch (const std::exception &e) {
      context.fail(
          absl::InternalError(fmt::format("uncaught exception: {}", e.what())));
    } catch (...) {
      context.fail(absl::InternalError("uncaught exception"));
    }
  });
  TORUS_RETURN_IF_ERROR(state.status());
  return outputs;
}

} // namespace torus::rt
