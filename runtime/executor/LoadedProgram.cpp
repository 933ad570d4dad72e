//===- LoadedProgram.cpp - A program resident on its cores ----------------===//

#include "runtime/executor/LoadedProgram.h"

#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/executor/CoreContext.h"
#include "runtime/executor/RunMemory.h"
#include "runtime/executor/RunState.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <exception>

namespace torus::rt {

struct LoadedProgram::Device {
  int64_t core = 0;
  std::vector<DeviceBuffer> buffers; // inputs, then outputs
  DeviceBuffer workspace;
  /// The entry's buffer array; carried pairs are swapped after each step.
  std::vector<void *> pointers;
  std::unique_ptr<CoreContext> context;
};

LoadedProgram::LoadedProgram(Executor &executor, const Program &program)
    : executor_(executor), program_(program) {}

LoadedProgram::~LoadedProgram() = default;

absl::StatusOr<std::unique_ptr<LoadedProgram>>
LoadedProgram::load(Executor &executor, const Program &program,
                    const std::vector<std::vector<HostTensor>> &inputs,
                    const RunOptions &runOptions) {
  const ProgramSpec &spec = program.spec;
  const int64_t numPartitions = runOptions.numPartitions;
  if (runOptions.numLocalDevices != 0 || runOptions.firstDevice != 0)
    return absl::UnimplementedError(
        "a resident program runs every device of its program: a share of "
        "them (RunOptions::firstDevice, numLocalDevices) runs through "
        "Executor::run");
  RunOptions checked;
  checked.numPartitions = numPartitions;
  checked.replicaToCore = runOptions.replicaToCore;
  checked.collectiveTimeout = runOptions.collectiveTimeout;
  checked.carried = runOptions.carried;
  const int64_t numDevices =
      std::max<int64_t>(1, spec.numReplicas) * std::max<int64_t>(1, numPartitions);
  // All cores together must fit the host, checked before the zeros are
  // made (a core's capacity is checked by its allocations, naming them).
  if (numDevices <= executor.numCores()) {
    RunMemory memory = planRunMemory(spec, numDevices, 1, {});
    if (checkCoreCapacity(spec, memory, executor.coreMemoryCapacity()).ok())
      TORUS_RETURN_IF_ERROR(
          executor.checkHostMemoryFor(spec, memory, inputs.empty()));
  }
  std::vector<std::vector<HostTensor>> zeros;
  if (inputs.empty() && numDevices <= executor.numCores()) {
    zeros.resize(numDevices);
    for (auto &device : zeros)
      for (const TensorSpec &input : spec.inputs) {
        device.emplace_back(input);
        if (device.back().sizeInBytes() > 0)
          std::memset(device.back().rawData(), 0, device.back().sizeInBytes());
      }
  }
  const auto &initial = inputs.empty() ? zeros : inputs;
  TORUS_RETURN_IF_ERROR(executor.validate(program, initial, checked));

  std::unique_ptr<LoadedProgram> loaded(new LoadedProgram(executor, program));
  loaded->carried_ = runOptions.carried;
  loaded->deviceToCore_ = runOptions.replicaToCore;
  if (loaded->deviceToCore_.empty())
    for (int64_t d = 0; d < numDevices; ++d)
      loaded->deviceToCore_.push_back(d);
  loaded->coreToDevice_.assign(executor.numCores(), -1);
  for (int64_t d = 0; d < numDevices; ++d)
    loaded->coreToDevice_[loaded->deviceToCore_[d]] = d;

  // A communicator of its own: the executor's changes with its runs.
  CommunicatorOptions options;
  options.algorithm = executor.options().collectiveAlgorithm;
  if (const Topology *topology = executor.topology()) {
    MeshPlacement placement;
    const auto &shape = topology->meshShape();
    placement.meshShape = {shape[0], shape[1], shape[2], shape[3]};
    for (int dim = 0; dim < 3; ++dim)
      placement.wraparound[dim] = topology->hasWraparound(dim);
    bool complete = true;
    for (int64_t core : loaded->deviceToCore_) {
      auto c = executor.coreCoordinates(core);
      if (!c) {
        complete = false;
        break;
      }
      placement.coordinates.push_back(*c);
    }
    if (complete)
      options.placement = std::move(placement);
  }
  TORUS_ASSIGN_OR_RETURN(loaded->communicator_,
                         InProcessCommunicator::create(numDevices,
                                                       std::move(options)));
  // In a multi-worker job the steps' collectives span the worker processes,
  // as run()'s do.
  Communicator *communicator = loaded->communicator_.get();
  if (executor.options().wrapCommunicator) {
    TORUS_ASSIGN_OR_RETURN(
        loaded->wrapped_,
        makeWrappedCommunicator(executor.options(), *loaded->communicator_));
    communicator = loaded->wrapped_.get();
  }
  loaded->state_ = std::make_unique<RunState>(
      /*runId=*/0, loaded->program_.spec, *communicator,
      runOptions.collectiveTimeout.value_or(
          executor.options().collectiveTimeout),
      numPartitions);

  // Every core's buffers, once.
  const size_t numInputs = spec.inputs.size();
  for (int64_t d = 0; d < numDevices; ++d) {
    auto device = std::make_unique<Device>();
    device->core = loaded->deviceToCore_[d];
    CoreMemory &memory = executor.coreMemory(device->core);
    const std::string who =
        numPartitions > 1
            ? fmt::format("replica {} partition {}", d / numPartitions,
                          d % numPartitions)
            : fmt::format("replica {}", d);
    size_t bytes = 0;
    for (size_t i = 0; i < numInputs + spec.outputs.size(); ++i) {
      const bool isInput = i < numInputs;
      const TensorSpec &t =
          isInput ? spec.inputs[i] : spec.outputs[i - numInputs];
      TORUS_ASSIGN_OR_RETURN(
          DeviceBuffer buffer,
          memory.allocate(t.sizeInBytes(),
                          fmt::format("{} {} {} of loaded '{}'", who,
                                      isInput ? "input" : "output",
                                      isInput ? i : i - numInputs,
                                      spec.name)));
      if (isInput && t.sizeInBytes() > 0)
        std::memcpy(buffer.data(), initial[d][i].rawData(), t.sizeInBytes());
      bytes += t.sizeInBytes();
      device->pointers.push_back(buffer.data());
      device->buffers.push_back(std::move(buffer));
    }
    device->context = std::make_unique<CoreContext>(
        device->core, d / numPartitions, d % numPartitions, *loaded->state_,
        memory);
    if (spec.workspaceBytes > 0) {
      TORUS_ASSIGN_OR_RETURN(
          device->workspace,
          memory.allocate(static_cast<size_t>(spec.workspaceBytes),
                          fmt::format("{} workspace (the temporaries of "
                                      "loaded '{}')",
                                      who, spec.name)));
      device->context->setWorkspace(device->workspace.data(),
                                    device->workspace.sizeInBytes());
      bytes += device->workspace.sizeInBytes();
    }
    loaded->bytesPerCore_ = std::max(loaded->bytesPerCore_, bytes);
    loaded->devices_.push_back(std::move(device));
  }
  LoadedProgram *self = loaded.get();
  loaded->task_ = [self](int64_t core) { self->runCore(core); };
  return loaded;
}

void LoadedProgram::runCore(int64_t core) {
  Device &device = *devices_[coreToDevice_[core]];
  CoreContext &context = *device.context;
  const size_t numInputs = program_.spec.inputs.size();
  try {
    for (int64_t s = 0; s < stepsToRun_; ++s) {
      {
        CoreContext::Scope scope(context);
        program_.entry(device.pointers.data());
      }
      if (!context.error().ok() || context.run().isAborted())
        return;
      for (const auto &[o, i] : carried_)
        std::swap(device.pointers[i], device.pointers[numInputs + o]);
    }
  } catch (const std::exception &e) {
    context.fail(
        absl::InternalError(fmt::format("uncaught exception: {}", e.what())));
  } catch (...) {
    context.fail(absl::InternalError("uncaught exception"));
  }
}

absl::Status LoadedProgram::step(int64_t steps) {
  if (!failed_.ok())
    return failed_;
  if (steps < 1)
    return absl::InvalidArgumentError(
        fmt::format("steps must be at least 1, got {}", steps));
  stepsToRun_ = steps;
  executor_.runOnCores(deviceToCore_, task_);
  if (state_->isAborted()) {
    failed_ = state_->status();
    return failed_;
  }
  return absl::OkStatus();
}

absl::Status LoadedProgram::setInput(int64_t device, int input,
                                     const HostTensor &tensor) {
  const ProgramSpec &spec = program_.spec;
  if (device < 0 || device >= numDevices() || input < 0 ||
      input >= static_cast<int>(spec.inputs.size()))
    return absl::InvalidArgumentError(fmt::format(
        "no input {} of device {}: '{}' has {} inputs on {} devices", input,
        device, spec.name, spec.inputs.size(), numDevices()));
  if (tensor.spec() != spec.inputs[input])
    return absl::InvalidArgumentError(fmt::format(
        "device {}, input {}: expected {}, got {}", device, input,
        spec.inputs[input].toString(), tensor.spec().toString()));
  if (tensor.sizeInBytes() > 0)
    std::memcpy(devices_[device]->pointers[input], tensor.rawData(),
                tensor.sizeInBytes());
  return absl::OkStatus();
}

absl::Status LoadedProgram::copyOutput(int64_t device, int output,
                                       HostTensor &tensor) const {
  const ProgramSpec &spec = program_.spec;
  if (device < 0 || device >= numDevices() || output < 0 ||
      output >= static_cast<int>(spec.outputs.size()))
    return absl::InvalidArgumentError(fmt::format(
        "no output {} of device {}: '{}' has {} outputs on {} devices", output,
        device, spec.name, spec.outputs.size(), numDevices()));
  if (tensor.spec() != spec.outputs[output])
    return absl::InvalidArgumentError(fmt::format(
        "device {}, output {}: expected {}, got {}", device, output,
        spec.outputs[output].toString(), tensor.spec().toString()));
  // A carried output's latest value was swapped into its input's slot.
  size_t slot = spec.inputs.size() + output;
  for (const auto &[o, i] : carried_)
    if (o == output)
      slot = i;
  if (tensor.sizeInBytes() > 0)
    std::memcpy(tensor.rawData(), devices_[device]->pointers[slot],
                tensor.sizeInBytes());
  return absl::OkStatus();
}

} // namespace torus::rt
