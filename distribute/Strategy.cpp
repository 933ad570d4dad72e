//===- Strategy.cpp - tf.distribute.Strategy ------------------------------===//

#include "torus/distribute/Strategy.h"
#include "distribute/DistributedInput.h"
#include "distribute/HostOps.h"
#include "distribute/Reduce.h"
#include "distribute/StepRunner.h"
#include "distribute/StepTrace.h"
#include "distribute/VariableImpl.h"
#include "torus/distribute/MultiWorkerUtil.h"

#include <cstdio>

namespace torus::distribute {

using detail::StepTrace;
using detail::StrategyKind;
using detail::StrategyState;

//===----------------------------------------------------------------------===//
// Function
//===----------------------------------------------------------------------===//

Function::Function(std::string name, ReplicaFn fn, int64_t arity)
    : impl_(std::make_shared<detail::FunctionImpl>()) {
  impl_->name = std::move(name);
  impl_->fn = std::move(fn);
  impl_->arity = arity;
}
const std::string &Function::name() const { return impl_->name; }
int64_t Function::arity() const { return impl_->arity; }
int64_t Function::numCompiles() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->numCompiles;
}

//===----------------------------------------------------------------------===//
// Scope and context queries
//===----------------------------------------------------------------------===//

Scope::Scope(std::shared_ptr<StrategyState> state) : state_(std::move(state)) {
  detail::scopeStack().push_back(state_);
}
Scope::Scope(Scope &&other) noexcept : state_(std::move(other.state_)) {}
Scope::~Scope() {
  if (!state_)
    return;
  auto &stack = detail::scopeStack();
  // Scopes end in reverse order of entry (RAII); remove the innermost entry
  // of this strategy.
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (*it == state_) {
      stack.erase(std::next(it).base());
      break;
    }
}

Strategy defaultStrategy() { return Strategy(detail::defaultStrategyState()); }

Strategy getStrategy() {
  auto state = detail::currentStrategyState();
  return Strategy(state ? state : detail::defaultStrategyState());
}

bool hasStrategy() {
  auto state = detail::currentStrategyState();
  return state && state->kind != StrategyKind::Default;
}

bool inCrossReplicaContext() {
  if (StepTrace *t = StepTrace::current())
    return t->crossReplicaDepth > 0;
  return !detail::scopeStack().empty();
}

namespace {
thread_local std::shared_ptr<StrategyState> setStrategyState;
} // namespace

absl::Status experimentalSetStrategy(const std::optional<Strategy> &strategy) {
  auto &stack = detail::scopeStack();
  bool onlySet = stack.empty() ||
                 (stack.size() == 1 && setStrategyState &&
                  stack[0] == setStrategyState);
  if (!onlySet || StepTrace::current())
    return absl::FailedPreconditionError(
        "Must not be called inside a `tf.distribute.Strategy` scope.");
  stack.clear();
  setStrategyState = nullptr;
  if (strategy && strategy->state()->kind != StrategyKind::Default) {
    setStrategyState = strategy->state();
    stack.push_back(setStrategyState);
  }
  return absl::OkStatus();
}

namespace {

/// Enters `state`'s scope for the duration of an API call that TensorFlow
/// wraps in `with self.scope()`.
absl::Status checkScope(const std::shared_ptr<StrategyState> &state,
                        const std::string &repr) {
  auto &stack = detail::scopeStack();
  if (!stack.empty() && stack.back() != state) {
    Strategy current(stack.back());
    return absl::FailedPreconditionError(
        "Mixing different tf.distribute.Strategy objects: " + current.repr() +
        " is not " + repr);
  }
  return absl::OkStatus();
}

absl::Status requireCrossReplica() {
  if (StepTrace *t = StepTrace::current(); t && t->crossReplicaDepth == 0)
    return absl::FailedPreconditionError(
        "Method requires being in cross-replica context, use "
        "get_replica_context().merge_call()");
  return absl::OkStatus();
}

} // namespace

//===----------------------------------------------------------------------===//
// Strategy
//===----------------------------------------------------------------------===//

int64_t Strategy::numReplicasInSync() const {
  return state_->numReplicasInSync();
}
StrategyExtended Strategy::extended() const { return StrategyExtended(state_); }
std::shared_ptr<ClusterResolver> Strategy::clusterResolver() const {
  return state_->resolver;
}
const std::string &Strategy::className() const { return state_->className; }

std::string Strategy::repr() const {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%p", static_cast<void *>(state_.get()));
  return "<" + state_->cppClass + " object at " + buf + ">";
}

absl::StatusOr<Scope> Strategy::scope() const {
  if (StepTrace::current())
    return absl::FailedPreconditionError(
        "strategy.scope() cannot be entered inside a replica function");
  TORUS_RETURN_IF_ERROR(checkScope(state_, repr()));
  return Scope(state_);
}

absl::StatusOr<std::vector<PerReplica>>
Strategy::run(const Function &fn, const Values &args,
              const RunOptions &options) const {
  (void)options;
  TORUS_RETURN_IF_ERROR(checkScope(state_, repr()));
  Scope scope(state_);
  return detail::runReplicaFunction(
      state_, fn.impl().get(), {fn.name(), fn.impl()->fn, fn.arity()}, args);
}

absl::StatusOr<std::vector<PerReplica>>
Strategy::runEager(const ReplicaFn &fn, int64_t arity, const Values &args,
                   const RunOptions &options) const {
  if (state_->kind == StrategyKind::TPU)
    return absl::UnimplementedError(
        "TPUStrategy.run(fn, ...) does not support pure eager execution. "
        "please make sure the function passed into `strategy.run` is a "
        "`tf.function` or `strategy.run` is called inside a `tf.function` if "
        "eager behavior is enabled.");
  (void)options;
  TORUS_RETURN_IF_ERROR(checkScope(state_, repr()));
  Scope scope(state_);
  static const std::string kName = "replica_fn";
  return detail::runReplicaFunction(state_, nullptr, {kName, fn, arity}, args);
}

absl::StatusOr<HostTensor> Strategy::reduce(ReduceOp op, const Value &value,
                                            std::optional<int64_t> axis) const {
  TORUS_RETURN_IF_ERROR(requireCrossReplica());
  std::optional<std::vector<int64_t>> axes;
  if (axis)
    axes = std::vector<int64_t>{*axis};
  return detail::reduceValue(*state_, op, value, axes);
}

absl::StatusOr<HostTensor>
Strategy::reduce(ReduceOp op, const Value &value,
                 const std::vector<int64_t> &axes) const {
  TORUS_RETURN_IF_ERROR(requireCrossReplica());
  return detail::reduceValue(*state_, op, value, axes);
}

absl::StatusOr<HostTensor> Strategy::reduce(std::string_view op,
                                            const Value &value,
                                            std::optional<int64_t> axis) const {
  TORUS_ASSIGN_OR_RETURN(ReduceOp parsed, parseReduceOp(op));
  return reduce(parsed, value, axis);
}

std::vector<HostTensor>
Strategy::experimentalLocalResults(const Value &value) const {
  if (value.isDistributed())
    return value.perReplica().values();
  return {value.tensor()};
}

std::vector<HostTensor>
Strategy::experimentalLocalResults(const Variable &v) const {
  return v.components();
}

absl::StatusOr<PerReplica> Strategy::experimentalDistributeValuesFromFunction(
    const ValueFn &valueFn) const {
  std::vector<HostTensor> values;
  for (int64_t r = 0; r < state_->numReplicas; ++r) {
    // Replica ids in sync: worker w's replicas come after the others'.
    const int64_t id = state_->workerId * state_->numReplicas + r;
    TORUS_ASSIGN_OR_RETURN(
        HostTensor v,
        valueFn(ValueContext(id, state_->numReplicasInSync())));
    values.push_back(std::move(v));
  }
  return PerReplica(std::move(values));
}

absl::StatusOr<Dataset>
Strategy::experimentalMakeNumpyDataset(std::vector<HostTensor> arrays) const {
  TORUS_RETURN_IF_ERROR(requireCrossReplica());
  return Dataset::fromTensorSlices(std::move(arrays));
}

absl::StatusOr<DistributedDataset>
Strategy::experimentalDistributeDataset(const Dataset &dataset,
                                        std::optional<InputOptions> options) const {
  return detail::distributeDataset(state_, dataset, options);
}

absl::StatusOr<DistributedDataset>
Strategy::distributeDatasetsFromFunction(const DatasetFn &datasetFn,
                                         std::optional<InputOptions> options) const {
  return detail::distributeDatasetsFromFunction(state_, datasetFn, options);
}

absl::StatusOr<DistributedIterator>
Strategy::makeDatasetIterator(const Dataset &dataset) const {
  TORUS_ASSIGN_OR_RETURN(DistributedDataset d,
                         experimentalDistributeDataset(dataset));
  return d.makeIterator();
}

absl::StatusOr<DistributedIterator>
Strategy::makeInputFnIterator(const DatasetFn &inputFn,
                              InputReplicationMode replicationMode) const {
  if (replicationMode != InputReplicationMode::PerWorker)
    return absl::InvalidArgumentError(
        "Input replication mode not supported: <" +
        inputReplicationModeName(replicationMode) + ": '" +
        (replicationMode == InputReplicationMode::PerReplica ? "PER_REPLICA"
                                                             : "PER_WORKER") +
        "'>");
  TORUS_ASSIGN_OR_RETURN(DistributedDataset d,
                         distributeDatasetsFromFunction(inputFn));
  return d.makeIterator();
}

absl::StatusOr<std::vector<PerReplica>>
Strategy::experimentalRun(const Function &fn,
                          DistributedIterator *inputIterator) const {
  if (!inputIterator)
    return run(fn);
  Values next;
  {
    // The get_next happens inside the scope.
    TORUS_RETURN_IF_ERROR(checkScope(state_, repr()));
    Scope scope(state_);
    TORUS_ASSIGN_OR_RETURN(next, inputIterator->next());
  }
  return run(fn, next);
}

absl::StatusOr<ConfigProto>
Strategy::updateConfigProto(const ConfigProto &config) const {
  ConfigProto out = config;
  switch (state_->kind) {
  case StrategyKind::TPU: {
    out.isolateSessionState = true;
    if (state_->resolver) {
      TORUS_ASSIGN_OR_RETURN(ClusterSpec spec, state_->resolver->clusterSpec());
      if (!spec.empty())
        out.clusterDef = spec;
    }
    break;
  }
  case StrategyKind::CentralStorage:
    out.isolateSessionState = true;
    break;
  case StrategyKind::MultiWorkerMirrored:
    out.scopedAllocatorOptimization = true;
    out.scopedAllocatorEnableOps = {"CollectiveReduce"};
    // With a cluster spec: the collective group leader, and device filters
    // that keep this worker from talking to the others' devices (spec §5.5).
    if (!state_->clusterSpec.empty() && state_->taskType && state_->taskId) {
      out.collectiveGroupLeader = multi_worker_util::collectiveLeader(
          state_->clusterSpec, state_->taskType);
      out.deviceFilters = {"/job:" + *state_->taskType +
                           "/task:" + std::to_string(*state_->taskId)};
    }
    break;
  default:
    break;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// StrategyExtended
//===----------------------------------------------------------------------===//

namespace {
/// tpu_devices[:, k] of a TPU strategy inside experimental_logical_device(k).
std::optional<std::vector<std::string>>
logicalDeviceColumn(const detail::StrategyState &state) {
  if (state.currentLogicalDevice == 0 || state.logicalCoreDevices.empty())
    return std::nullopt;
  std::vector<std::string> column;
  for (const auto &cores : state.logicalCoreDevices)
    column.push_back(cores[state.currentLogicalDevice]);
  return column;
}
} // namespace

std::vector<std::string> StrategyExtended::workerDevices() const {
  if (auto column = logicalDeviceColumn(*state_))
    return *column;
  return state_->workerDevices;
}
// TPUStrategy: parameter_devices = worker_devices.
std::vector<std::string> StrategyExtended::parameterDevices() const {
  if (auto column = logicalDeviceColumn(*state_))
    return *column;
  return state_->parameterDevices;
}

LogicalDeviceGuard::LogicalDeviceGuard(
    std::shared_ptr<detail::StrategyState> state, int64_t logicalDevice)
    : state_(std::move(state)), previous_(state_->currentLogicalDevice) {
  state_->currentLogicalDevice = logicalDevice;
}

LogicalDeviceGuard::LogicalDeviceGuard(LogicalDeviceGuard &&other) noexcept
    : state_(std::move(other.state_)), previous_(other.previous_) {}

LogicalDeviceGuard::~LogicalDeviceGuard() {
  if (state_)
    state_->currentLogicalDevice = previous_;
}

absl::StatusOr<LogicalDeviceGuard>
StrategyExtended::experimentalLogicalDevice(int64_t logicalDeviceId) const {
  if (state_->kind != StrategyKind::TPU)
    return absl::UnimplementedError(
        "experimental_logical_device is a method of TPUStrategy's extended; " +
        state_->className + " has no logical devices");
  const int64_t L = state_->numCoresPerReplica;
  // tpu_strategy.py checks only the upper bound (spec §12 quirk 5); a
  // negative id indexes tpu_devices[:, k] from the end, as numpy does.
  if (logicalDeviceId >= L)
    return absl::InvalidArgumentError(
        "`logical_device_id` not in range (was " +
        std::to_string(logicalDeviceId) + ", but there are only " +
        std::to_string(L) + " logical devices per replica).");
  if (logicalDeviceId < -L)
    return absl::InvalidArgumentError(
        "index " + std::to_string(logicalDeviceId) +
        " is out of bounds for axis 1 with size " + std::to_string(L));
  return LogicalDeviceGuard(state_, logicalDeviceId < 0 ? logicalDeviceId + L
                                                        : logicalDeviceId);
}
bool StrategyExtended::experimentalBetweenGraph() const {
  return state_->betweenGraph;
}
bool StrategyExtended::experimentalShouldInit() const { return true; }
// MWMS: only the chief (spec §5.3); every other strategy is its own chief.
bool StrategyExtended::shouldCheckpoint() const { return state_->isChief; }
bool StrategyExtended::shouldSaveSummary() const { return state_->isChief; }
bool StrategyExtended::experimentalEnableGetNextAsOptional() const {
  return state_->enableGetNextAsOptional;
}
int64_t StrategyExtended::stepsPerRun() const { return state_->stepsPerRun; }

bool StrategyExtended::variableCreatedInScope(const Variable &v) const {
  return v.valid() && v.impl()->strategy == state_;
}

absl::Status StrategyExtended::colocateVarsWith(const Variable &v) const {
  if (!variableCreatedInScope(v))
    return absl::InvalidArgumentError(
        "`colocate_vars_with` must only be passed a variable created in this "
        "tf.distribute.Strategy.scope(), not: " +
        (v.valid() ? v.toString() : std::string("None")));
  return absl::OkStatus();
}

absl::StatusOr<HostTensor>
StrategyExtended::reduceTo(ReduceOp op, const Value &value,
                           const std::string &destination) const {
  (void)destination;
  TORUS_RETURN_IF_ERROR(requireCrossReplica());
  return detail::reduceValue(*state_, op, value, std::nullopt);
}

absl::StatusOr<HostTensor>
StrategyExtended::reduceTo(std::string_view op, const Value &value,
                           const std::string &destination) const {
  TORUS_ASSIGN_OR_RETURN(ReduceOp parsed, parseReduceOp(op));
  return reduceTo(parsed, value, destination);
}

absl::StatusOr<std::vector<HostTensor>>
StrategyExtended::batchReduceTo(std::string_view op,
                                const std::vector<Value> &values) const {
  TORUS_ASSIGN_OR_RETURN(ReduceOp parsed, parseReduceOp(op));
  return batchReduceTo(parsed, values);
}

absl::StatusOr<std::vector<HostTensor>>
StrategyExtended::batchReduceTo(ReduceOp op,
                                const std::vector<Value> &values) const {
  std::vector<HostTensor> out;
  for (const Value &v : values) {
    TORUS_ASSIGN_OR_RETURN(HostTensor r, reduceTo(op, v));
    out.push_back(std::move(r));
  }
  return out;
}

absl::StatusOr<std::vector<HostTensor>>
StrategyExtended::update(const Variable &var, const UpdateFn &fn,
                         const Values &args, bool group) const {
  (void)group;
  TORUS_RETURN_IF_ERROR(requireCrossReplica());
  auto &components = var.impl()->components;
  std::vector<HostTensor> results;
  // A central variable is updated once, with the primary components.
  for (size_t i = 0; i < components.size(); ++i) {
    std::vector<HostTensor> a;
    for (const Value &v : args)
      a.push_back(v.isDistributed()
                      ? v.perReplica()[std::min(i, v.perReplica().size() - 1)]
                      : v.tensor());
    TORUS_ASSIGN_OR_RETURN(HostTensor r, fn(components[i], a));
    if (r.spec() != components[i].spec())
      return absl::InvalidArgumentError(
          "update: fn returned " + r.spec().toString() + " for a variable of " +
          components[i].spec().toString());
    results.push_back(r);
  }
  for (size_t i = 0; i < components.size(); ++i)
    components[i] = results[i];
  return results;
}

} // namespace torus::distribute
