//===- StepRunner.h - Trace, compile, cache and run replica steps -*- C++ -*-===//
//
// Strategy::run's engine. A replica function is traced into one SPMD step
// whose inputs are the arguments (this replica's components), optionally
// the replica id, then the value of every variable the function uses; its
// outputs are the function's results, then the new value of every variable
// it assigned. The step is compiled for the strategy's replicas and cached
// per input signature in the Function; running it feeds each replica its
// components and stores the variables' new values back.
//
// Replicas whose inputs have different shapes (a partial batch split into
// uneven per-replica batches) cannot share one static-shape program: they
// run as groups, one program per shape, with the replica id as an input.
// Such a step must not contain collectives (they could not meet across
// programs); that is reported as Unimplemented.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_STEPRUNNER_H
#define TORUS_DISTRIBUTE_STEPRUNNER_H

#include "distribute/StrategyState.h"
#include "distribute/VariableImpl.h"
#include "torus/Compile.h"
#include "torus/distribute/Strategy.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute::detail {

struct CompiledStep {
  std::optional<Executable> exe;
  int64_t numArgs = 0;
  bool replicaIdInput = false;
  /// The variables, in input order.
  std::vector<std::weak_ptr<Variable::Impl>> vars;
  /// Indices into `vars` of the variables the step assigns, in output
  /// order after the user's outputs.
  std::vector<int> written;
  int64_t numUserOutputs = 0;
  bool hasCollectives = false;
  /// Logical devices per replica, and how inputs and outputs are split
  /// over them (when more than one).
  int64_t numPartitions = 1;
  std::vector<std::string> inputShardings, outputShardings;
  /// The whole (per replica) output types.
  std::vector<TensorSpec> outputSpecs;
};

struct FunctionImpl {
  std::string name;
  ReplicaFn fn;
  /// Tensor parameters of a typed function; -1: the vector form.
  int64_t arity = -1;
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<CompiledStep>> cache;
  int64_t numCompiles = 0;
};

/// Traces `fn` until the variables it uses are all inputs (twice when it
/// uses any) and compiles it for `numReplicas` replicas with argument specs
/// `argSpecs`.
absl::StatusOr<std::shared_ptr<CompiledStep>>
buildStep(const std::shared_ptr<StrategyState> &state, const std::string &name,
          const ReplicaFn &fn, const std::vector<TensorSpec> &argSpecs,
          int64_t numReplicas, bool replicaIdInput);

/// Options of one execution.
struct StepExecution {
  /// >1: the on-device loop (TPUStrategyV1); arguments listed in
  /// perStepArgs carry [steps, ...] values, assigned variables are carried
  /// from step to step.
  int64_t steps = 1;
  std::vector<int> perStepArgs;
};

/// The replica function run() calls: its name, its flat form and the
/// number of Tensor parameters it takes (-1: the vector form).
struct ReplicaCallable {
  const std::string &name;
  const ReplicaFn &fn;
  int64_t arity = -1;
};

/// Strategy::run: validates arguments (their count against `callable`'s
/// arity), looks the step up in `cacheOwner` (null: no cache), builds it if
/// needed and runs it on every replica.
absl::StatusOr<std::vector<PerReplica>>
runReplicaFunction(const std::shared_ptr<StrategyState> &state,
                   FunctionImpl *cacheOwner, const ReplicaCallable &callable,
                   const Values &args, const StepExecution &execution = {});

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_STEPRUNNER_H
