//===- LoadedProgram.h - A program resident on its cores --------*- C++ -*-===//
//
// For a training loop: LoadedProgram::load validates a program as
// Executor::run would, then allocates, once, every core's input, output and
// workspace buffers in the core's memory, its CoreContext and a communicator
// of its own (wrapped by ExecutorOptions::wrapCommunicator when the executor
// has one, so a multi-worker job's resident steps reduce across the worker
// processes like its run() calls). A step is then one call into the
// generated code per core (the
// packed entry, which runs the whole program), started with one wake of the
// executor's worker threads; nothing is allocated, formatted or locked
// beyond the executor's run mutex (tested with an allocation hook in
// api/SteadyStateTest.cpp). Inputs and outputs stay on the cores between
// steps; setInput/copyOutput move single tensors without allocating.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_EXECUTOR_LOADEDPROGRAM_H
#define TORUS_RUNTIME_EXECUTOR_LOADEDPROGRAM_H

#include "runtime/executor/Executor.h"

#include <functional>
#include <memory>
#include <vector>

namespace torus::rt {

class CoreContext;
class RunState;

class LoadedProgram {
public:
  /// Loads `program` on `executor`'s cores. Checks what run() checks
  /// (RunOptions' partitions, device assignment, collective timeout and
  /// carried pairs are used; stepsPerRun, perStepInputs and stats are
  /// ignored); a buffer or workspace that does not fit a core's memory is
  /// ResourceExhausted naming the core and the buffer. The inputs start as
  /// `inputs[device][argument]`, or zeros when `inputs` is empty. Must be
  /// destroyed before `executor`.
  static absl::StatusOr<std::unique_ptr<LoadedProgram>>
  load(Executor &executor, const Program &program,
       const std::vector<std::vector<HostTensor>> &inputs = {},
       const RunOptions &runOptions = {});
  ~LoadedProgram();
  LoadedProgram(const LoadedProgram &) = delete;
  LoadedProgram &operator=(const LoadedProgram &) = delete;

  const ProgramSpec &spec() const { return program_.spec; }
  int64_t numDevices() const { return static_cast<int64_t>(devices_.size()); }
  /// Copies `tensor` into input `input` of logical device `device` (its spec
  /// must be the program's). Takes effect at the next step.
  absl::Status setInput(int64_t device, int input, const HostTensor &tensor);
  /// Copies output `output` of `device` after the last step into `tensor`,
  /// which must already have the output's spec (no allocation).
  absl::Status copyOutput(int64_t device, int output,
                          HostTensor &tensor) const;
  /// Runs `steps` steps on every core; after each, every carried output
  /// becomes its input (the buffers are swapped). A failed step (a
  /// collective error) leaves the program unusable: later steps return the
  /// same error.
  absl::Status step(int64_t steps = 1);
  /// Bytes this program holds on each core: inputs, outputs, workspace.
  size_t bytesPerCore() const { return bytesPerCore_; }

private:
  struct Device;
  LoadedProgram(Executor &executor, const Program &program);
  void runCore(int64_t core);

  Executor &executor_;
  const Program program_;
  std::vector<std::pair<int, int>> carried_;
  std::vector<int64_t> deviceToCore_;
  std::vector<int64_t> coreToDevice_;
  std::unique_ptr<InProcessCommunicator> communicator_;
  /// ExecutorOptions::wrapCommunicator's communicator over communicator_
  /// (declared after it: destroyed first), or null.
  std::unique_ptr<Communicator> wrapped_;
  std::unique_ptr<RunState> state_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::function<void(int64_t)> task_;
  int64_t stepsToRun_ = 0;
  size_t bytesPerCore_ = 0;
  absl::Status failed_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_EXECUTOR_LOADEDPROGRAM_H
