//===- Strategy.h - tf.distribute.Strategy ----------------------*- C++ -*-===//
//
// The API every strategy shares (spec §2). A Strategy is a cheap handle:
// copies refer to the same strategy, as Python references do.
//
//   Function step("train_step", [&](const std::vector<Tensor> &in) {
//     ...                                   // replica context: traced
//     return std::vector<Tensor>{loss};
//   });
//   auto perReplica = strategy.run(step, next);       // StatusOr
//   auto total = strategy.reduce(ReduceOp::Sum, (*perReplica)[0], std::nullopt);
//
// run() traces the function (torus::trace) and compiles it (torus::compile)
// once per input signature, then runs it on every replica of the emulated
// devices. Variables the function reads or assigns become inputs and
// outputs of the compiled step (see Variable.h and docs/strategy.md).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_STRATEGY_H
#define TORUS_DISTRIBUTE_STRATEGY_H

#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/Tensor.h"
#include "torus/Trace.h"
#include "torus/distribute/ClusterResolver.h"
#include "torus/distribute/Contexts.h"
#include "torus/distribute/Dataset.h"
#include "torus/distribute/DistributedDataset.h"
#include "torus/distribute/Enums.h"
#include "torus/distribute/Nest.h"
#include "torus/distribute/ReplicaContext.h"
#include "torus/distribute/Values.h"
#include "torus/distribute/Variable.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torus::distribute {

namespace detail {
struct StrategyState;
struct FunctionImpl;
} // namespace detail

/// The function `run` executes on every replica: it receives one traced
/// Tensor per argument (this replica's component) and returns tensors.
using ReplicaFn = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// tf.function: a replica function with a cache of compiled steps, one per
/// strategy and input signature. TPUStrategy::run requires one (spec §8.3).
///
/// The function takes trace()'s forms (Trace.h): one Tensor parameter per
/// argument, `[](Tensor x, Tensor y) {...}`, whose count run() checks
/// (InvalidArgument "train_step() takes 2 positional arguments but 1 was
/// given", TensorFlow's TypeError), or one `const std::vector<Tensor> &`
/// holding all of them. It may return any structure of tensors (a Tensor, a
/// tuple, vectors, a struct with TORUS_TENSOR_FIELDS), flattened depth first
/// into run()'s results.
class Function {
public:
  /// A function named "fn".
  explicit Function(ReplicaFn fn) : Function("fn", std::move(fn)) {}
  /// `fn` under `name`, which names the traced step and its errors. Copies
  /// share the cache.
  Function(std::string name, ReplicaFn fn) : Function(std::move(name), std::move(fn), -1) {}
  ///@{
  /// The same for trace()'s typed and structured forms.
  template <torus::detail::StructuredTraceFn Fn>
  explicit Function(Fn fn) : Function("fn", std::move(fn)) {}
  template <torus::detail::StructuredTraceFn Fn>
  Function(std::string name, Fn fn)
      : Function(std::move(name),
                 torus::detail::flatTraceFn<torus::detail::tensorArity<Fn>()>(
                     std::move(fn)),
                 torus::detail::tensorArity<Fn>()) {}
  ///@}

  /// The name given at construction.
  const std::string &name() const;
  /// The number of Tensor parameters of a typed function; -1 for the vector
  /// form, which run() cannot check (read its arguments with `at()`: reading
  /// past them is InvalidArgument "train_step() read an argument it was not
  /// given (1 given): ...").
  int64_t arity() const;
  /// How many times the function has been traced and compiled (a cache
  /// miss each).
  int64_t numCompiles() const;

  /// Internal: the cache and the callable, shared by copies.
  const std::shared_ptr<detail::FunctionImpl> &impl() const { return impl_; }

private:
  Function(std::string name, ReplicaFn fn, int64_t arity);
  std::shared_ptr<detail::FunctionImpl> impl_;
};

/// A replica function over nested structures: Python's step taking and
/// returning tuples, lists and dicts of tensors. It receives this replica's
/// arguments in the shape they were given to run() and returns any nest;
/// run() returns the same nest of PerReplica values. Compiled steps are
/// cached per argument structure and signature, as in a Function.
class NestedFunction {
public:
  /// The callable: this replica's arguments in, any nest of tensors out.
  using Fn = std::function<Nest<Tensor>(const Nest<Tensor> &)>;
  /// `fn` under `name`, which names the traced step and its errors. Copies
  /// share the cache.
  NestedFunction(std::string name, Fn fn);
  /// The name given at construction.
  const std::string &name() const;
  /// How many times the function has been traced and compiled.
  int64_t numCompiles() const;

  /// Internal: the flat Functions per argument structure.
  struct Impl;
  /// Internal: the implementation, shared by copies.
  const std::shared_ptr<Impl> &impl() const { return impl_; }

private:
  std::shared_ptr<Impl> impl_;
};

/// tf.distribute.RunOptions (spec §1.5). Read only by TPUStrategy.
struct RunOptions {
  /// experimental_enable_dynamic_batch_size.
  bool experimentalEnableDynamicBatchSize = true;
  /// experimental_bucketizing_dynamic_shape.
  bool experimentalBucketizingDynamicShape = false;
};

/// The parts of tf.compat.v1.ConfigProto that update_config_proto touches.
struct ConfigProto {
  /// isolate_session_state (set by TPUStrategy and CentralStorageStrategy).
  bool isolateSessionState = false;
  /// cluster_def (TPUStrategy sets its resolver's cluster).
  ClusterSpec clusterDef;
  /// graph_options.rewrite_options.scoped_allocator_optimization
  /// (MultiWorkerMirroredStrategy turns it on).
  bool scopedAllocatorOptimization = false;
  /// scoped_allocator_opts.enable_op ({"CollectiveReduce"} under
  /// MultiWorkerMirroredStrategy).
  std::vector<std::string> scopedAllocatorEnableOps;
  /// experimental.collective_nccl.
  bool collectiveNccl = false;
  /// experimental.collective_group_leader.
  std::string collectiveGroupLeader;
  /// device_filters.
  std::vector<std::string> deviceFilters;
  /// Every field equal.
  friend bool operator==(const ConfigProto &, const ConfigProto &) = default;
};

class Strategy;

/// strategy.scope(): while alive, the strategy is current, host code is in
/// its cross-replica context and variables are created by it. Move-only.
class Scope {
public:
  ///@{
  /// Move-only. Destruction leaves the scope: the strategy stops being current
  /// (the enclosing scope's, if any, is current again).
  Scope(Scope &&other) noexcept;
  Scope &operator=(Scope &&) = delete;
  Scope(const Scope &) = delete;
  ~Scope();
  ///@}

  /// Internal: enters the scope of the strategy `state`; use Strategy::scope().
  explicit Scope(std::shared_ptr<detail::StrategyState> state);

private:
  std::shared_ptr<detail::StrategyState> state_;
};

/// The outputs of TPUStrategyV1::experimentalRunStepsOnIterator.
struct MultiStepContext {
  /// Last-step outputs set with no reduce op, per replica.
  std::map<std::string, PerReplica> perReplicaOutputs;
  /// Last-step outputs set with a reduce op: replica 0's (reduced) value.
  std::map<std::string, HostTensor> reducedOutputs;
  /// Steps actually run.
  int64_t stepsRun = 0;
};

/// The `ctx` a multi-step function receives (tf.distribute's
/// MultiStepContext in replica context).
class StepContext {
public:
  /// set_last_step_output(name, output, reduce_op): with a reduce op the
  /// value is all-reduced and replica 0's is returned.
  void setLastStepOutput(const std::string &name, const Tensor &output,
                         std::optional<ReduceOp> reduceOp = std::nullopt);

  /// One setLastStepOutput() call.
  struct Entry {
    /// The name the output is returned under.
    std::string name;
    /// The output, a tensor of the step being traced.
    Tensor value;
    /// The reduction across replicas, if any.
    std::optional<ReduceOp> reduceOp;
  };
  /// The outputs set so far, in call order.
  const std::vector<Entry> &entries() const { return entries_; }

private:
  std::vector<Entry> entries_;
};

/// What extended.experimental_logical_device(k) returns: while alive, the
/// strategy's worker and parameter devices are logical core k's
/// (tpu_devices[:, k]); destruction restores the previous logical device.
/// Move-only.
class LogicalDeviceGuard {
public:
  ///@{
  /// Move-only; the moved-from guard restores nothing.
  LogicalDeviceGuard(LogicalDeviceGuard &&other) noexcept;
  LogicalDeviceGuard &operator=(LogicalDeviceGuard &&) = delete;
  LogicalDeviceGuard(const LogicalDeviceGuard &) = delete;
  ~LogicalDeviceGuard();
  ///@}

  /// Internal: use StrategyExtended::experimentalLogicalDevice().
  LogicalDeviceGuard(std::shared_ptr<detail::StrategyState> state,
                     int64_t logicalDevice);

private:
  std::shared_ptr<detail::StrategyState> state_;
  int64_t previous_ = 0;
};

/// tf.distribute.StrategyExtended: the operations of spec §2.7.
class StrategyExtended {
public:
  /// Canonical device names of the replicas' (logical core 0) devices.
  std::vector<std::string> workerDevices() const;
  /// Canonical names of the devices that hold variables.
  std::vector<std::string> parameterDevices() const;
  /// experimental_between_graph: true for MultiWorkerMirroredStrategy and
  /// CentralStorageStrategy, false for the others.
  bool experimentalBetweenGraph() const;
  /// Whether this worker initializes variables: always true here.
  bool experimentalShouldInit() const;
  /// Whether this worker should save checkpoints (under multi-worker training
  /// only the chief does).
  bool shouldCheckpoint() const;
  /// Whether this worker should write summaries (under multi-worker training
  /// only the chief does).
  bool shouldSaveSummary() const;
  /// Whether partial batches get dummy batches (spec §3.8).
  bool experimentalEnableGetNextAsOptional() const;
  /// TPUStrategyV1's steps_per_run (1 elsewhere).
  int64_t stepsPerRun() const;

  /// experimental_logical_device(k) (TPUStrategy, spec §8.7): until the
  /// guard is destroyed, workerDevices() and parameterDevices() are each
  /// replica's logical core k. Like TensorFlow, only k >= the logical
  /// devices per replica is checked: InvalidArgument "`logical_device_id`
  /// not in range (was 2, but there are only 2 logical devices per
  /// replica)."; a negative k counts from the end (numpy indexing; below
  /// -L numpy's "index -3 is out of bounds for axis 1 with size 2").
  /// Unimplemented for strategies other than TPUStrategy (TensorFlow's have
  /// no such method).
  absl::StatusOr<LogicalDeviceGuard>
  experimentalLogicalDevice(int64_t logicalDeviceId) const;

  /// variable_created_in_scope(v): whether `v` was created by this strategy
  /// (false for an invalid one).
  bool variableCreatedInScope(const Variable &v) const;
  /// InvalidArgument "`colocate_vars_with` must only be passed a variable
  /// created in this tf.distribute.Strategy.scope(), not: ..." for a
  /// foreign variable.
  absl::Status colocateVarsWith(const Variable &v) const;

  ///@{
  /// reduce_to(op, value, destination) and batch_reduce_to(op, values): the
  /// per-replica values reduced across replicas (Strategy::reduce() with axis
  /// None; `destination` is ignored, every device is host memory here).
  /// FailedPrecondition "Method requires being in cross-replica context, use
  /// get_replica_context().merge_call()" inside a replica function.
  /// InvalidArgument for replicas' values of different shapes, or for a
  /// non-distributed value reduced with SUM over more than one replica
  /// (under a MultiWorkerMirroredStrategy of several workers such a value is
  /// summed over the workers instead, as in TensorFlow). The op may be named
  /// ("SUM", "mean", any case): InvalidArgument "'MAX' is not a valid
  /// ReduceOp" otherwise.
  absl::StatusOr<HostTensor> reduceTo(ReduceOp op, const Value &value,
                                      const std::string &destination = "") const;
  absl::StatusOr<HostTensor> reduceTo(std::string_view op, const Value &value,
                                      const std::string &destination = "") const;
  absl::StatusOr<std::vector<HostTensor>>
  batchReduceTo(ReduceOp op, const std::vector<Value> &values) const;
  absl::StatusOr<std::vector<HostTensor>>
  batchReduceTo(std::string_view op, const std::vector<Value> &values) const;
  ///@}

  /// The update function of update(): the new value of one component.
  using UpdateFn = std::function<absl::StatusOr<HostTensor>(
      const HostTensor &component, const std::vector<HostTensor> &args)>;
  /// update(var, fn, args, group): each component becomes fn(component,
  /// args unwrapped for its replica); a central variable is updated once
  /// with the primary components. Returns fn's results per component.
  /// Errors: FailedPrecondition "Method requires being in cross-replica
  /// context, use get_replica_context().merge_call()" inside a replica
  /// function. InvalidArgument "update: fn returned <spec> for a variable of
  /// <spec>" when fn changes the dtype or shape; fn's own errors are returned
  /// as they are. `group` is accepted for familiarity and ignored.
  absl::StatusOr<std::vector<HostTensor>>
  update(const Variable &var, const UpdateFn &fn, const Values &args = {},
         bool group = true) const;

  /// Internal: use Strategy::extended().
  explicit StrategyExtended(std::shared_ptr<detail::StrategyState> state)
      : state_(std::move(state)) {}

private:
  std::shared_ptr<detail::StrategyState> state_;
};

/// tf.distribute.Strategy: the API every strategy shares (spec §2). A cheap
/// handle: copies refer to the same strategy, as Python references do. Create
/// one with the subclasses' create() functions (MirroredStrategy, TPUStrategy,
/// ...) or defaultStrategy(); getStrategy() returns the current one.
class Strategy {
public:
  /// num_replicas_in_sync: how many replicas a step runs on.
  int64_t numReplicasInSync() const;
  /// strategy.extended: the less common operations.
  StrategyExtended extended() const;
  /// The cluster resolver, or null (Python's None).
  std::shared_ptr<ClusterResolver> clusterResolver() const;

  /// Enters the strategy's scope. FailedPrecondition "Mixing different
  /// tf.distribute.Strategy objects: ... is not ..." inside another
  /// strategy's scope.
  absl::StatusOr<Scope> scope() const;

  /// Runs `fn` on every replica (spec §2.2): returns one PerReplica per
  /// output of fn. Arguments are HostTensors (given to every replica) or
  /// PerReplica values (component i to replica i).
  absl::StatusOr<std::vector<PerReplica>>
  run(const Function &fn, const Values &args = {},
      const RunOptions &options = {}) const;
  /// The same with a plain callable, traced and compiled at every call
  /// (TensorFlow's eager `run`); TPUStrategy rejects it as TensorFlow
  /// rejects pure eager functions.
  absl::StatusOr<std::vector<PerReplica>>
  run(const ReplicaFn &fn, const Values &args = {},
      const RunOptions &options = {}) const {
    return runEager(fn, -1, args, options);
  }
  /// run() of a function over nested structures: `args` keep their shape
  /// (dicts, lists, values), and so do the results. Errors are those of
  /// run(Function, Values) on the flattened arguments (dict entries in
  /// sorted key order, as tf.nest flattens).
  absl::StatusOr<Nest<PerReplica>> run(const NestedFunction &fn,
                                       const Nest<Value> &args,
                                       const RunOptions &options = {}) const;
  /// The same with trace()'s typed and structured forms (see Function).
  template <torus::detail::StructuredTraceFn Fn>
    requires(!std::is_same_v<std::remove_cvref_t<Fn>, Function>)
  absl::StatusOr<std::vector<PerReplica>>
  run(Fn &&fn, const Values &args = {}, const RunOptions &options = {}) const {
    constexpr int64_t arity = torus::detail::tensorArity<std::decay_t<Fn>>();
    return runEager(torus::detail::flatTraceFn<arity>(std::ref(fn)), arity,
                    args, options);
  }

  ///@{
  /// reduce(op, value, axis) (spec §2.3). `axis` nullopt is Python's None.
  /// Reduces a per-replica value across replicas and, with an axis (or axes),
  /// within each value along it. The op may be named ("SUM", "MEAN", any case:
  /// InvalidArgument "'MAX' is not a valid ReduceOp" otherwise). A
  /// non-distributed value with axis None is returned as it is for MEAN and is
  /// InvalidArgument for SUM over more than one replica ("A
  /// non-DistributedValues value tf.Tensor(1.0, shape=(), dtype=float32)
  /// cannot be reduced with the given reduce op ReduceOp.SUM."); under a
  /// MultiWorkerMirroredStrategy of several workers it is summed over the
  /// workers, one contribution each (MEAN: divided by their number). Errors:
  /// FailedPrecondition "Method requires being in cross-replica context, use
  /// get_replica_context().merge_call()" inside a replica function;
  /// InvalidArgument "Incompatible shapes: ..." for replicas' values of
  /// different shapes, "Invalid reduction dimension 2 for input with 1
  /// dimensions." for a bad axis.
  absl::StatusOr<HostTensor> reduce(ReduceOp op, const Value &value,
                                    std::optional<int64_t> axis) const;
  absl::StatusOr<HostTensor> reduce(ReduceOp op, const Value &value,
                                    const std::vector<int64_t> &axes) const;
  absl::StatusOr<HostTensor> reduce(std::string_view op, const Value &value,
                                    std::optional<int64_t> axis) const;
  ///@}

  ///@{
  /// experimental_local_results: the components, or {value}.
  std::vector<HostTensor> experimentalLocalResults(const Value &value) const;
  std::vector<HostTensor> experimentalLocalResults(const Variable &v) const;
  ///@}

  /// Computes one replica's value from its ValueContext.
  using ValueFn = std::function<absl::StatusOr<HostTensor>(const ValueContext &)>;
  /// Calls valueFn once per replica; always a PerReplica (spec §2.8).
  absl::StatusOr<PerReplica>
  experimentalDistributeValuesFromFunction(const ValueFn &valueFn) const;

  /// Rebatches and auto-shards `dataset` over the replicas (spec §3.1).
  absl::StatusOr<DistributedDataset>
  experimentalDistributeDataset(const Dataset &dataset,
                                std::optional<InputOptions> options = {}) const;
  /// Builds one input worker's dataset from its InputContext.
  using DatasetFn = std::function<absl::StatusOr<Dataset>(const InputContext &)>;
  /// Calls datasetFn once per input worker; its per-replica batches are
  /// used as they are (spec §3.9).
  absl::StatusOr<DistributedDataset>
  distributeDatasetsFromFunction(const DatasetFn &datasetFn,
                                 std::optional<InputOptions> options = {}) const;
  /// Deprecated alias of distributeDatasetsFromFunction.
  absl::StatusOr<DistributedDataset>
  experimentalDistributeDatasetsFromFunction(
      const DatasetFn &datasetFn,
      std::optional<InputOptions> options = {}) const {
    return distributeDatasetsFromFunction(datasetFn, options);
  }
  /// experimental_make_numpy_dataset: a dataset of the rows of the arrays
  /// (cross-replica only).
  absl::StatusOr<Dataset>
  experimentalMakeNumpyDataset(std::vector<HostTensor> arrays) const;

  //===--- TensorFlow 1 (StrategyV1) APIs, spec §2.10 -----------------===//

  /// make_dataset_iterator(dataset): experimentalDistributeDataset's
  /// rebatching and sharding, as an iterator.
  absl::StatusOr<DistributedIterator>
  makeDatasetIterator(const Dataset &dataset) const;
  /// make_input_fn_iterator(input_fn, replication_mode): the input function
  /// gets an InputContext and returns per-replica batches; only PER_WORKER
  /// is supported (InvalidArgument "Input replication mode not supported:
  /// <InputReplicationMode.PER_REPLICA: 'PER_REPLICA'>" otherwise).
  absl::StatusOr<DistributedIterator>
  makeInputFnIterator(const DatasetFn &inputFn,
                      InputReplicationMode replicationMode =
                          InputReplicationMode::PerWorker) const;
  /// experimental_run(fn, input_iterator): run(fn, next(iterator)), or
  /// run(fn) without an iterator.
  absl::StatusOr<std::vector<PerReplica>>
  experimentalRun(const Function &fn,
                  DistributedIterator *inputIterator = nullptr) const;

  /// update_config_proto: a modified copy (spec §5.5, §7.3, §8.8).
  absl::StatusOr<ConfigProto> updateConfigProto(const ConfigProto &config) const;

  /// "<torus.distribute.MirroredStrategy object at 0x...>", the repr that
  /// TensorFlow's messages interpolate.
  std::string repr() const;
  /// TensorFlow's class name: "TPUStrategyV2", "MirroredStrategy", ...
  const std::string &className() const;

  /// The same strategy (copies of one handle compare equal).
  friend bool operator==(const Strategy &a, const Strategy &b) {
    return a.state_ == b.state_;
  }

  ///@{
  /// Internal: the shared state behind the handle.
  explicit Strategy(std::shared_ptr<detail::StrategyState> state)
      : state_(std::move(state)) {}
  const std::shared_ptr<detail::StrategyState> &state() const {
    return state_;
  }
  ///@}

protected:
  /// Internal: the state shared by copies of the handle.
  std::shared_ptr<detail::StrategyState> state_;

private:
  /// run() of a plain callable taking `arity` tensors (-1: a vector).
  absl::StatusOr<std::vector<PerReplica>>
  runEager(const ReplicaFn &fn, int64_t arity, const Values &args,
           const RunOptions &options) const;
};

/// The default (no-op) strategy: what getStrategy() returns outside any
/// scope. One replica; variables are plain.
Strategy defaultStrategy();

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_STRATEGY_H
