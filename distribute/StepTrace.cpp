//===- StepTrace.cpp - The state of one traced replica step ---------------===//

#include "distribute/StepTrace.h"
#include "ir/trace/TraceContext.h"

#include <atomic>

namespace torus::distribute::detail {

namespace {
thread_local StepTrace *currentTrace = nullptr;
std::atomic<uint64_t> nextGeneration{1};
} // namespace

StepTrace::StepTrace(std::shared_ptr<StrategyState> strategy, bool discover)
    : strategy(std::move(strategy)), discover(discover),
      generation(nextGeneration.fetch_add(1)) {
  // Every worker's replicas (a multi-worker step runs this worker's).
  numReplicas = this->strategy->numReplicasInSync();
}

StepTrace *StepTrace::current() { return currentTrace; }

void StepTrace::fail(absl::Status status) {
  if (!error.ok())
    return;
  // A failed op is reported by the tracer; errors that follow from its
  // invalid result (e.g. "No gradients provided") would only hide it.
  if (TraceContext *ctx = TraceContext::current(); ctx && ctx->error())
    return;
  error = std::move(status);
}

StepTraceGuard::StepTraceGuard(StepTrace *trace) : previous_(currentTrace) {
  currentTrace = trace;
}
StepTraceGuard::~StepTraceGuard() { currentTrace = previous_; }

VarBinding *StepTrace::bind(const std::shared_ptr<Variable::Impl> &var) {
  auto it = bindings.find(var.get());
  if (it != bindings.end())
    return &it->second;
  if (!discover) {
    fail(absl::InternalError(
        "variable '" + var->name +
        "' was used only when the step was traced again: a replica function "
        "must use the same variables every time it is traced"));
    return nullptr;
  }
  // Discovery: a stand-in of the right type; this trace is thrown away.
  Tensor placeholder = zeros(var->spec.shape, var->spec.dtype);
  order.push_back(var);
  return &(bindings[var.get()] = VarBinding{placeholder, placeholder, false});
}

Tensor StepTrace::replicaId(Loc loc) {
  if (replicaIdFromInput)
    return replicaIdInput;
  if (strategy->workerId > 0 && !strategy->globalProgram)
    // Replica ids in sync span the workers: worker w's first is w * r (a
    // program of the whole slice has the global ids already).
    return add(torus::replicaId(loc),
               static_cast<int64_t>(strategy->workerId * strategy->numReplicas),
               loc);
  return torus::replicaId(loc);
}

bool StepTrace::checkReduceOp(ReduceOp op) {
  absl::Status s = distribute::checkReduceOp(op);
  if (!s.ok())
    fail(std::move(s));
  return s.ok();
}

Tensor StepTrace::allReduce(ReduceOp op, const Tensor &value, Loc loc) {
  if (!checkReduceOp(op))
    return Tensor();
  if (op == ReduceOp::Sum)
    return torus::allReduce(value, torus::ReduceOp::Sum, {}, loc);
  double r = static_cast<double>(numReplicas);
  if (strategy->meanByReciprocal)
    // TPUStrategy: cross_replica_sum(value * (1 / R)).
    return torus::allReduce(multiply(value, 1.0 / r, loc),
                            torus::ReduceOp::Sum, {}, loc);
  return divide(torus::allReduce(value, torus::ReduceOp::Sum, {}, loc), r, loc);
}

Tensor StepTrace::broadcastFromFirst(const Tensor &value, Loc loc) {
  Tensor isFirst = equal(replicaId(loc), 0, loc);
  Tensor masked = where(isFirst, value, zerosLike(value, loc), loc);
  return torus::allReduce(masked, torus::ReduceOp::Sum, {}, loc);
}

bool recordTraceError(absl::Status status) {
  if (currentTrace) {
    currentTrace->fail(std::move(status));
    return true;
  }
  // A plain trace (torus::trace, Jit): the error is that trace's.
  if (TraceContext *ctx = TraceContext::current()) {
    ctx->fail(Loc(), "tf.distribute", std::string(status.message()));
    return true;
  }
  return false;
}

std::vector<std::shared_ptr<StrategyState>> &scopeStack() {
  thread_local std::vector<std::shared_ptr<StrategyState>> stack;
  return stack;
}

std::shared_ptr<StrategyState> currentStrategyState() {
  if (currentTrace)
    return currentTrace->strategy;
  auto &stack = scopeStack();
  return stack.empty() ? nullptr : stack.back();
}

} // namespace torus::distribute::detail
