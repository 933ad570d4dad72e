//===- Variable.cpp - Variables, plain and distributed --------------------===//

#include "distribute/HostOps.h"
#include "distribute/PyRepr.h"
#include "distribute/StepTrace.h"
#include "distribute/VariableImpl.h"
#include "ir/trace/TraceContext.h"
#include "torus/distribute/Strategy.h"

#include <atomic>

namespace torus::distribute {

using detail::StepTrace;
using Storage = Variable::Impl::Storage;

namespace detail {

absl::Status checkCreatedInScope(const Variable::Impl &v,
                                 const StrategyState &strategy) {
  if (v.strategy)
    return absl::OkStatus();
  return absl::InvalidArgumentError(
      "variable '" + v.name + "' was created outside the scope of " +
      strategy.className + ": it is one plain variable, and each of the " +
      std::to_string(strategy.numReplicasInSync()) +
      " replicas updating it would add its update to the others'. Create it "
      "inside `strategy.scope()`");
}

std::string aggregationErrorMessage(const std::string &t) {
  return "You must specify an aggregation method to update a " + t +
         " in Replica Context. You can do so by passing an explicit value for "
         "argument `aggregation` to tf.Variable(..).e.g. `tf.Variable(..., "
         "aggregation=tf.VariableAggregation.SUM)``tf.VariableAggregation` "
         "lists the possible aggregation methods.This is required because " +
         t +
         " should always be kept in sync. When updating them or assigning to "
         "them in a replica context, we automatically try to aggregate the "
         "values before updating the variable. For this aggregation, we need "
         "to know the aggregation method. Another alternative is to not try "
         "to update such " +
         t +
         " in replica context, but in cross replica context. You can enter "
         "cross replica context by calling "
         "`tf.distribute.get_replica_context().merge_call(merge_fn, ..)`."
         "Inside `merge_fn`, you can then update the " +
         t + " using `tf.distribute.StrategyExtended.update()`.";
}

std::string nonDistributedReduceMessage(const std::string &value, ReduceOp op) {
  return "A non-DistributedValues value " + value +
         " cannot be reduced with the given reduce op " + reduceOpName(op) +
         ".";
}

} // namespace detail

namespace {

std::atomic<uint64_t> nextVariableId{1};

bool validSync(VariableSynchronization s) {
  return s == VariableSynchronization::Auto ||
         s == VariableSynchronization::None ||
         s == VariableSynchronization::OnWrite ||
         s == VariableSynchronization::OnRead;
}
bool validAggregation(VariableAggregation a) {
  return a == VariableAggregation::None || a == VariableAggregation::Sum ||
         a == VariableAggregation::Mean ||
         a == VariableAggregation::OnlyFirstReplica;
}

/// The value rendered as TensorFlow's repr shows it (`numpy=...`).
std::string numpyRepr(const HostTensor &t) {
  if (t.shape().empty())
    return detail::numpyStr(t);
  std::string body = detail::numpyStr(t);
  // numpy's repr separates elements with ", ".
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == ' ' && i > 0 && body[i - 1] != '[' && body[i - 1] != ' ' &&
        body[i - 1] != ',')
      out += ",";
    out += body[i];
  }
  std::string dtype = t.dtype() == DType::I64 || t.dtype() == DType::F64 ||
                              t.dtype() == DType::I1
                          ? ""
                          : ", dtype=" + detail::tfDtypeName(t.dtype());
  return "array(" + out + dtype + ")";
}

std::string componentRepr(const std::string &name, const HostTensor &t) {
  return "<tf.Variable '" + name + ":0' shape=" + detail::pyShape(t.shape()) +
         " dtype=" + detail::tfDtypeName(t.dtype()) + ", numpy=" +
         numpyRepr(t) + ">";
}

absl::Status checkAssignable(const Variable::Impl &v, const HostTensor &x) {
  if (x.shape() != v.spec.shape)
    return absl::InvalidArgumentError(
        "Cannot assign value to variable ' " + v.name +
        ":0': Shape mismatch.The variable shape " + detail::pyShape(v.spec.shape) +
        ", and the assigned value shape " + detail::pyShape(x.shape()) +
        " are incompatible.");
  return absl::OkStatus();
}

absl::Status notInReplicaFunction(const char *method) {
  if (StepTrace::current())
    return absl::FailedPreconditionError(
        std::string(method) +
        "(HostTensor) is the cross-replica update; inside a replica function "
        "assign a Tensor (or a number) instead");
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<Variable> Variable::create(const HostTensor &initialValue,
                                          VariableOptions options) {
  auto impl = std::make_shared<Impl>();
  impl->id = nextVariableId.fetch_add(1);
  impl->name = options.name;
  impl->spec = initialValue.spec();
  impl->synchronization = options.synchronization;
  impl->aggregation = options.aggregation;

  if (options.trainable.value_or(false) &&
      options.synchronization == VariableSynchronization::OnRead)
    return absl::InvalidArgumentError(
        "Synchronization value can be set to VariableSynchronization.ON_READ "
        "only for non-trainable variables. You have specified trainable=True "
        "and synchronization=VariableSynchronization.ON_READ.");
  impl->trainable = options.trainable.value_or(
      options.synchronization != VariableSynchronization::OnRead);

  std::shared_ptr<detail::StrategyState> strategy =
      detail::currentStrategyState();
  if (StepTrace *trace = StepTrace::current())
    ++trace->variablesCreated;
  const std::string &name = options.name;

  if (!strategy || strategy->kind == detail::StrategyKind::Default) {
    impl->strategy = nullptr;
    if (impl->synchronization == VariableSynchronization::Auto)
      impl->synchronization = VariableSynchronization::OnWrite;
    impl->components = {initialValue};
    return Variable(impl);
  }
  impl->strategy = strategy;
  switch (strategy->variablePolicy) {
  case detail::VariablePolicy::Plain:
    if (impl->synchronization == VariableSynchronization::Auto)
      impl->synchronization = VariableSynchronization::OnWrite;
    impl->components = {initialValue};
    break;
  case detail::VariablePolicy::Central:
    // ParameterServerStrategyExtended._create_var_creator (spec §7.2).
    if (strategy->numReplicas > 1) {
      if (!validAggregation(impl->aggregation))
        return absl::InvalidArgumentError(
            "Invalid variable aggregation mode: " +
            aggregationName(impl->aggregation) + " for variable: " + name);
      impl->storage = Storage::Aggregating;
      impl->typeName = "AggregatingVariable";
    }
    if (impl->synchronization == VariableSynchronization::Auto)
      impl->synchronization = VariableSynchronization::OnWrite;
    impl->components = {initialValue};
    break;
  case detail::VariablePolicy::Mirrored: {
    // distribute_utils.validate_synchronization / create_mirrored_variable
    // (spec §1.2).
    if (impl->synchronization == VariableSynchronization::None)
      return absl::InvalidArgumentError(
          "`NONE` variable synchronization mode is not supported with "
          "tf.distribute strategy. Please change the `synchronization` for "
          "variable: " +
          name);
    if (!validSync(impl->synchronization))
      return absl::InvalidArgumentError(
          "Invalid variable synchronization mode: " +
          synchronizationName(impl->synchronization) +
          " for variable: " + name);
    if (!validAggregation(impl->aggregation))
      return absl::InvalidArgumentError(
          "Invalid variable aggregation mode: " +
          aggregationName(impl->aggregation) + " for variable: " + name);
    if (impl->synchronization == VariableSynchronization::Auto)
      impl->synchronization = VariableSynchronization::OnWrite;
    bool onRead = impl->synchronization == VariableSynchronization::OnRead;
    impl->storage = onRead ? Storage::SyncOnRead : Storage::Mirrored;
    impl->typeName = std::string(strategy->tpuVariables ? "TPU" : "") +
                     (onRead ? "SyncOnReadVariable" : "MirroredVariable");
    impl->components.assign(strategy->numReplicas, initialValue);
    break;
  }
  }
  return Variable(impl);
}

const std::string &Variable::name() const { return impl_->name; }
const TensorSpec &Variable::spec() const { return impl_->spec; }
bool Variable::trainable() const { return impl_->trainable; }
VariableSynchronization Variable::synchronization() const {
  return impl_->synchronization;
}
VariableAggregation Variable::aggregation() const { return impl_->aggregation; }
const std::string &Variable::typeName() const { return impl_->typeName; }
bool Variable::isDistributed() const {
  return impl_->storage != Storage::Plain;
}
uint64_t Variable::id() const { return impl_->id; }

std::optional<Strategy> Variable::strategy() const {
  if (!impl_->strategy)
    return std::nullopt;
  return Strategy(impl_->strategy);
}

std::vector<HostTensor> Variable::components() const {
  return impl_->components;
}

std::vector<std::string> Variable::componentNames() const {
  std::vector<std::string> names;
  for (size_t i = 0; i < impl_->components.size(); ++i)
    names.push_back(i == 0 ? impl_->name
                           : impl_->name + "/replica_" + std::to_string(i));
  return names;
}

std::string Variable::toString() const {
  std::vector<std::string> names = componentNames();
  if (impl_->storage == Storage::Plain)
    return componentRepr(names[0], impl_->components[0]);
  if (impl_->storage == Storage::Aggregating)
    return "AggregatingVariable(" +
           componentRepr(names[0], impl_->components[0]) + ")";
  std::string s = impl_->typeName + ":{\n";
  for (size_t i = 0; i < names.size(); ++i)
    s += "  " + std::to_string(i) + ": " +
         componentRepr(names[i], impl_->components[i]) +
         (i + 1 < names.size() ? ",\n" : "\n");
  return s + "}";
}

//===--- Cross-replica context ------------------------------------------===//

absl::StatusOr<HostTensor> Variable::value() const {
  const Impl &v = *impl_;
  if (v.storage != Storage::SyncOnRead)
    return v.components[0];
  // values_util.get_on_read_restore / SyncOnRead._get_cross_replica.
  if (v.aggregation == VariableAggregation::OnlyFirstReplica)
    return v.components[0];
  TORUS_ASSIGN_OR_RETURN(ReduceOp op, reduceOpFromAggregation(v.aggregation));
  HostTensor sum = v.components[0];
  for (size_t i = 1; i < v.components.size(); ++i) {
    TORUS_ASSIGN_OR_RETURN(sum, detail::add(sum, v.components[i]));
  }
  if (op == ReduceOp::Mean)
    return v.strategy && v.strategy->meanByReciprocal
               ? detail::scaleBy(sum, 1.0 / v.components.size())
               : detail::divideBy(sum, static_cast<double>(v.components.size()));
  return sum;
}

absl::Status Variable::assign(const HostTensor &value) {
  TORUS_RETURN_IF_ERROR(notInReplicaFunction("assign"));
  Impl &v = *impl_;
  TORUS_RETURN_IF_ERROR(checkAssignable(v, value));
  HostTensor x = detail::cast(value, v.spec.dtype);
  if (v.storage == Storage::SyncOnRead &&
      v.aggregation == VariableAggregation::Sum) {
    // Every component gets x / R, so that reading sums back to x.
    TORUS_ASSIGN_OR_RETURN(
        x, detail::divideBy(x, static_cast<double>(v.components.size())));
  }
  for (HostTensor &c : v.components)
    c = x;
  return absl::OkStatus();
}

namespace {
absl::Status crossReplicaAdd(Variable::Impl &v, const HostTensor &delta,
                             bool subtract, const char *method) {
  TORUS_RETURN_IF_ERROR(notInReplicaFunction(method));
  TORUS_RETURN_IF_ERROR(checkAssignable(v, delta));
  if (v.storage == Storage::SyncOnRead &&
      v.aggregation == VariableAggregation::Sum)
    return absl::InvalidArgumentError(
        std::string("SyncOnReadVariable does not support `") +
        (subtract ? "assign_sub" : "assign_add") +
        "` in cross-replica context when aggregation is set to "
        "`tf.VariableAggregation.SUM`.");
  HostTensor d = detail::cast(delta, v.spec.dtype);
  for (HostTensor &c : v.components) {
    TORUS_ASSIGN_OR_RETURN(c, subtract ? detail::subtract(c, d)
                                       : detail::add(c, d));
  }
  return absl::OkStatus();
}
} // namespace

absl::Status Variable::assignAdd(const HostTensor &delta) {
  return crossReplicaAdd(*impl_, delta, false, "assignAdd");
}
absl::Status Variable::assignSub(const HostTensor &delta) {
  return crossReplicaAdd(*impl_, delta, true, "assignSub");
}

//===--- Replica context ------------------------------------------------===//

Tensor Variable::read(Loc loc) const {
  StepTrace *trace = StepTrace::current();
  if (!trace) {
    // Inside a plain trace (torus::trace, Jit): that trace's error. In host
    // code there is nothing to fail; the tensor is invalid (value() is the
    // host's read).
    if (TraceContext *ctx = TraceContext::current())
      ctx->fail(loc, "Variable::read",
                "Variable::read() of '" + impl_->name +
                    "' outside a replica function: a variable is read inside "
                    "the function strategy.run() calls; host code reads it "
                    "with value()");
    return Tensor();
  }
  if (!trace->error.ok())
    return Tensor();
  detail::VarBinding *b = trace->bind(impl_);
  if (!b)
    return Tensor();
  const Impl &v = *impl_;
  if (v.storage == Storage::SyncOnRead && trace->crossReplicaDepth > 0) {
    // Cross-replica read of a sync-on-read variable: the aggregate.
    if (v.aggregation == VariableAggregation::OnlyFirstReplica)
      return trace->broadcastFromFirst(b->current, Loc::current());
    auto op = reduceOpFromAggregation(v.aggregation);
    if (!op.ok()) {
      trace->fail(op.status());
      return Tensor();
    }
    return trace->allReduce(*op, b->current, Loc::current());
  }
  return b->current;
}

namespace {

enum class UpdateKind { Assign, Add, Sub };

const char *methodName(UpdateKind k) {
  return k == UpdateKind::Assign ? "assign"
         : k == UpdateKind::Add  ? "assign_add"
                                 : "assign_sub";
}

Tensor applyUpdate(UpdateKind k, const Tensor &current, const Tensor &x,
                   Loc loc) {
  switch (k) {
  case UpdateKind::Assign:
    return x;
  case UpdateKind::Add:
    return add(current, x, loc);
  case UpdateKind::Sub:
    return subtract(current, x, loc);
  }
  return x;
}

Tensor update(const std::shared_ptr<Variable::Impl> &var, UpdateKind kind,
              const TensorLike &value, Loc loc) {
  StepTrace *trace = StepTrace::current();
  if (!trace || !trace->error.ok())
    return Tensor();
  detail::VarBinding *b = trace->bind(var);
  if (!b)
    return Tensor();
  Variable::Impl &v = *var;
  const int64_t replicas = trace->numReplicas;
  if (trace->crossReplicaDepth == 0 && replicas > 1) {
    absl::Status outside = detail::checkCreatedInScope(v, *trace->strategy);
    if (!outside.ok()) {
      trace->fail(std::move(outside));
      return Tensor();
    }
  }

  // The value as a tensor of the variable's type.
  bool literal = !value.isTensor();
  Tensor x;
  if (literal) {
    x = full(v.spec.shape, value.floatValue(), v.spec.dtype, loc);
  } else {
    x = value.tensor();
    if (!x.valid())
      return Tensor();
    if (x.shape() != v.spec.shape) {
      trace->fail(absl::InvalidArgumentError(
          "Cannot assign value to variable ' " + v.name +
          ":0': Shape mismatch.The variable shape " +
          detail::pyShape(v.spec.shape) + ", and the assigned value shape " +
          detail::pyShape(x.shape()) + " are incompatible."));
      return Tensor();
    }
    if (x.dtype() != v.spec.dtype)
      x = astype(x, v.spec.dtype, loc);
  }
  auto literalText = [&] {
    return value.kind() == TensorLike::Kind::Float
               ? detail::pyFloat(value.floatValue())
               : std::to_string(value.intValue());
  };

  Tensor reduced = x;
  bool crossReplica = trace->crossReplicaDepth > 0;
  if (crossReplica) {
    // Cross-replica context (a merge function): the same update on every
    // component, except sync-on-read SUM (spec §4.3).
    if (v.storage == Storage::SyncOnRead &&
        v.aggregation == VariableAggregation::Sum) {
      if (kind != UpdateKind::Assign) {
        trace->fail(absl::InvalidArgumentError(
            std::string("SyncOnReadVariable does not support `") +
            methodName(kind) +
            "` in cross-replica context when aggregation is set to "
            "`tf.VariableAggregation.SUM`."));
        return Tensor();
      }
      reduced = divide(x, static_cast<double>(replicas), loc);
      if (reduced.dtype() != v.spec.dtype)
        reduced = astype(reduced, v.spec.dtype, loc);
    }
  } else if (v.storage == Storage::Mirrored ||
             v.storage == Storage::Aggregating) {
    if (v.aggregation == VariableAggregation::None) {
      if (v.storage == Storage::Aggregating) {
        trace->fail(absl::InvalidArgumentError(
            detail::aggregationErrorMessage("AggregatingVariable")));
        return Tensor();
      }
      // Each replica updates its own component, unsynchronized.
    } else if (literal) {
      // Every replica passed the same Python object: a non-distributed value
      // (cross_device_ops.reduce_non_distributed_value).
      if (v.aggregation == VariableAggregation::Sum && replicas > 1) {
        trace->fail(absl::InvalidArgumentError(
            detail::nonDistributedReduceMessage(literalText(), ReduceOp::Sum)));
        return Tensor();
      }
    } else if (v.aggregation == VariableAggregation::OnlyFirstReplica) {
      reduced = trace->broadcastFromFirst(x, loc);
    } else if (v.aggregation == VariableAggregation::Mean &&
               !isFloat(v.spec.dtype)) {
      trace->fail(absl::InvalidArgumentError(
          "Cannot update non-float variables with "
          "tf.VariableAggregation.MEAN aggregation in replica context. Either "
          "change the variable dtype to float or update it in cross-replica "
          "context."));
      return Tensor();
    } else {
      reduced = trace->allReduce(v.aggregation == VariableAggregation::Sum
                                     ? ReduceOp::Sum
                                     : ReduceOp::Mean,
                                 x, loc);
    }
  }
  // Sync-on-read and plain variables: this replica's value only.
  b->current = applyUpdate(kind, b->current, reduced, loc);
  b->written = true;
  return b->current;
}

} // namespace

Tensor Variable::assign(const TensorLike &value, Loc loc) {
  return update(impl_, UpdateKind::Assign, value, loc);
}
Tensor Variable::assignAdd(const TensorLike &delta, Loc loc) {
  return update(impl_, UpdateKind::Add, delta, loc);
}
Tensor Variable::assignSub(const TensorLike &delta, Loc loc) {
  return update(impl_, UpdateKind::Sub, delta, loc);
}

} // namespace torus::distribute
