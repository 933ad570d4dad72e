//===- Optimizers.cpp - SGD and Adam with apply_gradients -----------------===//

#include "torus/distribute/nn/Optimizers.h"
#include "distribute/StepTrace.h"
#include "distribute/VariableImpl.h"
#include "torus/distribute/ReplicaContext.h"

namespace torus::distribute::nn {

using detail::StepTrace;

namespace {

/// Outside a traced step, makes `state` the current strategy (variables the
/// optimizer creates for a variable live where that variable lives).
class StrategyForCreation {
public:
  explicit StrategyForCreation(const std::shared_ptr<detail::StrategyState> &s) {
    if (!StepTrace::current() && s) {
      auto &stack = detail::scopeStack();
      if (stack.empty() || stack.back() != s) {
        stack.push_back(s);
        pushed_ = true;
      }
    }
  }
  ~StrategyForCreation() {
    if (pushed_)
      detail::scopeStack().pop_back();
  }

private:
  bool pushed_ = false;
};

absl::Status fail(absl::Status status) {
  detail::recordTraceError(status);
  return status;
}

} // namespace

absl::Status Optimizer::ensureIterations() {
  if (iterations_.valid())
    return absl::OkStatus();
  VariableOptions options;
  options.name = "iter";
  options.trainable = false;
  options.aggregation = VariableAggregation::OnlyFirstReplica;
  TORUS_ASSIGN_OR_RETURN(iterations_,
                         Variable::create(HostTensor::scalar<int64_t>(0),
                                          options));
  return absl::OkStatus();
}

absl::StatusOr<Variable> Optimizer::getOrCreateSlot(const Variable &var,
                                                    const std::string &slot) {
  auto &slots = slots_[var.id()];
  if (auto it = slots.find(slot); it != slots.end())
    return it->second;
  StrategyForCreation scope(var.impl()->strategy);
  VariableOptions options;
  options.name = var.name() + "/" + slot;
  options.trainable = false;
  TORUS_ASSIGN_OR_RETURN(Variable v,
                         Variable::create(HostTensor(var.spec()), options));
  slots[slot] = v;
  return v;
}

std::vector<std::pair<std::string, Variable>>
Optimizer::slotsFor(const Variable &var) const {
  std::vector<std::pair<std::string, Variable>> out;
  if (auto it = slots_.find(var.id()); it != slots_.end())
    for (const auto &[name, v] : it->second)
      out.push_back({name, v});
  return out;
}

std::vector<std::pair<std::string, Variable>>
Optimizer::trackedVariables() const {
  if (!iterations_.valid())
    return {};
  return {{"iter", iterations_}};
}

absl::Status Optimizer::build(const std::vector<Variable> &vars) {
  {
    StrategyForCreation scope(vars.empty() ? nullptr
                                           : vars.front().impl()->strategy);
    TORUS_RETURN_IF_ERROR(ensureIterations());
  }
  for (const Variable &v : vars)
    for (const std::string &slot : slotNames()) {
      TORUS_ASSIGN_OR_RETURN(Variable s, getOrCreateSlot(v, slot));
      (void)s;
    }
  return absl::OkStatus();
}

absl::Status Optimizer::applyGradients(
    const std::vector<std::pair<Tensor, Variable>> &gradsAndVars,
    bool experimentalAggregateGradients) {
  std::vector<Tensor> grads;
  std::vector<Variable> vars;
  for (const auto &[g, v] : gradsAndVars) {
    grads.push_back(g);
    vars.push_back(v);
  }
  return applyGradients(grads, vars, experimentalAggregateGradients);
}

absl::Status Optimizer::applyGradients(const std::vector<Tensor> &grads,
                                       const std::vector<Variable> &vars,
                                       bool experimentalAggregateGradients) {
  StepTrace *trace = StepTrace::current();
  if (!trace || trace->crossReplicaDepth > 0)
    return fail(absl::FailedPreconditionError(
        "`apply_gradients() cannot be called in cross-replica context. Use "
        "`tf.distribute.Strategy.run` to enter replica context."));
  if (!trace->error.ok())
    return trace->error;
  if (grads.size() != vars.size())
    return fail(absl::InvalidArgumentError(
        "apply_gradients: " + std::to_string(grads.size()) +
        " gradients for " + std::to_string(vars.size()) + " variables"));
  std::vector<std::pair<Tensor, Variable>> pairs;
  for (size_t i = 0; i < grads.size(); ++i)
    if (grads[i].valid())
      pairs.push_back({grads[i], vars[i]});
  if (trace->numReplicas > 1)
    for (const auto &[g, v] : pairs) {
      absl::Status outside =
          detail::checkCreatedInScope(*v.impl(), *trace->strategy);
      if (!outside.ok())
        return fail(outside);
    }
  if (pairs.empty()) {
    std::string names = "[";
    for (size_t i = 0; i < vars.size(); ++i)
      names += (i ? ", '" : "'") + vars[i].name() + ":0'";
    return fail(absl::InvalidArgumentError(
        "No gradients provided for any variable: (" + names + "],)."));
  }
  if (!experimentalAggregateGradients &&
      trace->strategy->kind == detail::StrategyKind::CentralStorage)
    return fail(absl::UnimplementedError(
        "`experimental_aggregate_gradients=False is not supported for "
        "ParameterServerStrategy and CentralStorageStrategy"));

  absl::Status s = ensureIterations();
  if (!s.ok())
    return fail(s);
  std::vector<std::map<std::string, Variable>> slots;
  for (const auto &[g, v] : pairs) {
    std::map<std::string, Variable> m;
    for (const std::string &name : slotNames()) {
      auto slot = getOrCreateSlot(v, name);
      if (!slot.ok())
        return fail(slot.status());
      m[name] = *slot;
    }
    slots.push_back(std::move(m));
  }

  // Replica context: SUM-aggregate the gradients over all replicas.
  auto replica = getReplicaContext();
  std::vector<Tensor> aggregated;
  for (const auto &[g, v] : pairs)
    aggregated.push_back(experimentalAggregateGradients && replica &&
                                 replica->numReplicasInSync() > 1
                             ? replica->allReduce(ReduceOp::Sum, g)
                             : g);

  // Cross-replica context (TensorFlow's merge_call into _distributed_apply):
  // one identical update of every component.
  ++trace->crossReplicaDepth;
  Tensor step = astype(iterations_.read(), DType::F32) + 1.0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    Variable var = pairs[i].second;
    applyDense(aggregated[i], var, slots[i], step);
  }
  iterations_.assignAdd(1);
  --trace->crossReplicaDepth;
  return trace->error;
}

//===----------------------------------------------------------------------===//

std::vector<std::string> SGD::slotNames() const {
  if (momentum_ == 0.0)
    return {};
  return {"momentum"};
}

void SGD::applyDense(const Tensor &grad, Variable &var,
                     std::map<std::string, Variable> &slots,
                     const Tensor &step) {
  (void)step;
  Tensor g = astype(grad, var.dtype());
  if (momentum_ == 0.0) {
    var.assign(var.read() - g * learningRate_);
    return;
  }
  Variable &m = slots.at("momentum");
  Tensor accum = m.read() * momentum_ - g * learningRate_;
  m.assign(accum);
  if (nesterov_)
    var.assign(var.read() + accum * momentum_ - g * learningRate_);
  else
    var.assign(var.read() + accum);
}

std::vector<std::string> Adam::slotNames() const { return {"m", "v"}; }

void Adam::applyDense(const Tensor &grad, Variable &var,
                      std::map<std::string, Variable> &slots,
                      const Tensor &step) {
  Tensor g = astype(grad, var.dtype());
  Tensor t = astype(step, var.dtype());
  Tensor beta1Power = power(beta1_, t);
  Tensor beta2Power = power(beta2_, t);
  Tensor lr = learningRate_ * sqrt(1.0 - beta2Power) / (1.0 - beta1Power);
  Variable &m = slots.at("m");
  Variable &v = slots.at("v");
  Tensor mNew = m.read() + (g - m.read()) * (1.0 - beta1_);
  Tensor vNew = v.read() + (square(g) - v.read()) * (1.0 - beta2_);
  m.assign(mNew);
  v.assign(vNew);
  var.assign(var.read() - lr * mNew / (sqrt(vNew) + epsilon_));
}

} // namespace torus::distribute::nn
