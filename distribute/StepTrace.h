//===- StepTrace.h - The state of one traced replica step -------*- C++ -*-===//
//
// While Strategy::run traces a replica function, a StepTrace is current on
// the thread. It binds every variable the function touches to an input of
// the traced function (its value for this replica) and records its current
// traced value and whether it was written (an output of the step). It is
// also the replica context's implementation: replica id, collectives with
// the strategy's MEAN rule, merge_call's cross-replica depth, and the first
// error a distribute-level operation made.
//
// A step is traced until its variables are known: each pass binds the
// variables found so far to inputs and gives placeholders to new ones (or
// ones the function creates); the first pass that finds none is the step.
// A function that uses variables is traced twice; one that uses none, once.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_STEPTRACE_H
#define TORUS_DISTRIBUTE_STEPTRACE_H

#include "distribute/StrategyState.h"
#include "distribute/VariableImpl.h"
#include "torus/Tensor.h"
#include "torus/distribute/Enums.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace torus::distribute::detail {

struct VarBinding {
  Tensor input;
  Tensor current;
  bool written = false;
};

class StepTrace {
public:
  StepTrace(std::shared_ptr<StrategyState> strategy, bool discover);

  std::shared_ptr<StrategyState> strategy;
  int64_t numReplicas = 1;
  bool discover = true;
  /// Replica ids come from an input (partial-batch groups) instead of HLO
  /// replica_id.
  bool replicaIdFromInput = false;
  Tensor replicaIdInput;
  /// > 0 inside a merge function (cross-replica context).
  int crossReplicaDepth = 0;
  /// Unique per trace, to tell stale ReplicaContexts.
  uint64_t generation = 0;

  /// Variables in input order (final pass) / first-use order (discovery).
  std::vector<std::shared_ptr<Variable::Impl>> order;
  std::unordered_map<const Variable::Impl *, VarBinding> bindings;
  int64_t variablesCreated = 0;
  absl::Status error;

  /// Records `status` as the step's error, unless an earlier error (of
  /// this layer or of the tracer: a failed op) came first.
  void fail(absl::Status status);
  /// Whether `op` is a tf.distribute.ReduceOp (Sum, Mean); records
  /// checkReduceOp's error when it is not.
  bool checkReduceOp(ReduceOp op);
  /// The binding of `var` (a placeholder in the discovery pass); null and
  /// an error when the final pass meets a variable discovery did not.
  VarBinding *bind(const std::shared_ptr<Variable::Impl> &var);

  Tensor replicaId(Loc loc);
  /// SUM, or MEAN with the strategy's rule, over all replicas.
  Tensor allReduce(ReduceOp op, const Tensor &value, Loc loc);
  /// Replica 0's value on every replica.
  Tensor broadcastFromFirst(const Tensor &value, Loc loc);

  static StepTrace *current();
};

/// Makes `trace` current on this thread while alive.
class StepTraceGuard {
public:
  explicit StepTraceGuard(StepTrace *trace);
  ~StepTraceGuard();

private:
  StepTrace *previous_;
};

/// Records `status` as the error of the replica function being traced, or
/// of the plain trace (torus::trace, Jit) in progress (the first one wins);
/// returns false when nothing is being traced.
bool recordTraceError(absl::Status status);

/// Scopes entered on this thread (innermost last).
std::vector<std::shared_ptr<StrategyState>> &scopeStack();
/// The current strategy: the one being traced, else the innermost scope's;
/// null when neither.
std::shared_ptr<StrategyState> currentStrategyState();

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_STEPTRACE_H
