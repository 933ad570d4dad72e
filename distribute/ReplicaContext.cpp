//===- ReplicaContext.cpp - Replica and cross-replica contexts ------------===//

#include "torus/distribute/ReplicaContext.h"
#include "distribute/StepTrace.h"
#include "torus/distribute/Strategy.h"

namespace torus::distribute {

using detail::StepTrace;

namespace {

/// The trace a context refers to when it is the current one; otherwise
/// records (in the current trace, if any) why it cannot be used.
StepTrace *activeTrace(void *trace, uint64_t generation) {
  StepTrace *current = StepTrace::current();
  if (!trace)
    return nullptr; // the default replica context
  if (!current)
    return nullptr;
  if (current != trace || current->generation != generation) {
    current->fail(absl::FailedPreconditionError("Mismatching ReplicaContext."));
    return nullptr;
  }
  return current;
}

} // namespace

std::optional<ReplicaContext> getReplicaContext() {
  if (StepTrace *t = StepTrace::current()) {
    if (t->crossReplicaDepth > 0)
      return std::nullopt;
    return ReplicaContext(t, t->generation);
  }
  if (!detail::scopeStack().empty())
    return std::nullopt;
  return ReplicaContext(nullptr, 0);
}

Strategy ReplicaContext::strategy() const {
  if (!trace_)
    return defaultStrategy();
  return Strategy(static_cast<StepTrace *>(trace_)->strategy);
}

int64_t ReplicaContext::numReplicasInSync() const {
  if (!trace_)
    return 1;
  return static_cast<StepTrace *>(trace_)->numReplicas;
}

Tensor ReplicaContext::replicaIdInSyncGroup(Loc loc) const {
  if (!trace_)
    return scalar(0, DType::I32, loc);
  StepTrace *t = activeTrace(trace_, generation_);
  if (!t)
    return Tensor();
  return t->replicaId(loc);
}

Tensor ReplicaContext::allReduce(ReduceOp op, const Tensor &value,
                                 Loc loc) const {
  if (!trace_)
    return value;
  StepTrace *t = activeTrace(trace_, generation_);
  if (!t || !t->checkReduceOp(op))
    return Tensor();
  if (t->numReplicas == 1 && !t->replicaIdFromInput)
    return value;
  return t->allReduce(op, value, loc);
}

std::vector<Tensor> ReplicaContext::allReduce(ReduceOp op,
                                              const std::vector<Tensor> &values,
                                              Loc loc) const {
  std::vector<Tensor> out;
  for (const Tensor &v : values)
    out.push_back(allReduce(op, v, loc));
  return out;
}

Tensor ReplicaContext::allReduce(std::string_view op, const Tensor &value,
                                 Loc loc) const {
  auto parsed = parseReduceOp(op);
  if (!parsed.ok()) {
    if (StepTrace *t = StepTrace::current())
      t->fail(parsed.status());
    return Tensor();
  }
  return allReduce(*parsed, value, loc);
}

Tensor ReplicaContext::allGather(const Tensor &value, int64_t axis,
                                 Loc loc) const {
  if (!trace_)
    return value;
  StepTrace *t = activeTrace(trace_, generation_);
  if (!t)
    return Tensor();
  if (t->numReplicas == 1)
    return value;
  if (t->strategy->numWorkers > 1 && !t->strategy->globalProgram) {
    t->fail(absl::UnimplementedError(
        "ReplicaContext.all_gather across " +
        std::to_string(t->strategy->numWorkers) +
        " worker processes is not supported (all_reduce is)"));
    return Tensor();
  }
  return torus::allGather(value, axis, t->numReplicas, loc);
}

std::vector<Tensor> ReplicaContext::mergeCall(const MergeFn &fn,
                                              const std::vector<Tensor> &args,
                                              Loc loc) const {
  (void)loc;
  StepTrace *current = StepTrace::current();
  if (!current || current->crossReplicaDepth > 0) {
    if (current)
      current->fail(absl::FailedPreconditionError(
          "Need to be inside `call_for_each_replica()`"));
    return {};
  }
  if (trace_ && (current != trace_ || current->generation != generation_)) {
    current->fail(absl::FailedPreconditionError("Mismatching ReplicaContext."));
    return {};
  }
  StepTrace *t = current;
  std::vector<MergedValue> merged;
  for (const Tensor &a : args)
    merged.push_back(MergedValue{a});
  ++t->crossReplicaDepth;
  CrossReplicaContext cross(t);
  std::vector<Tensor> out = fn(cross, merged);
  --t->crossReplicaDepth;
  return out;
}

Tensor ReplicaContext::update(
    Variable &var,
    const std::function<Tensor(const Tensor &, const std::vector<Tensor> &)> &fn,
    const std::vector<Tensor> &args, Loc loc) const {
  std::vector<Tensor> out = mergeCall(
      [&](CrossReplicaContext &ctx, const std::vector<MergedValue> &merged) {
        return std::vector<Tensor>{ctx.update(var, fn, merged, loc)};
      },
      args, loc);
  return out.empty() ? Tensor() : out[0];
}

//===----------------------------------------------------------------------===//

Strategy CrossReplicaContext::strategy() const {
  return Strategy(static_cast<StepTrace *>(trace_)->strategy);
}

Tensor CrossReplicaContext::reduce(ReduceOp op, const MergedValue &value,
                                   std::optional<int64_t> axis,
                                   Loc loc) const {
  StepTrace *t = static_cast<StepTrace *>(trace_);
  if (!value.local.valid() || !t->checkReduceOp(op))
    return Tensor();
  if (!axis)
    return t->numReplicas == 1 ? value.local
                               : t->allReduce(op, value.local, loc);
  int64_t rank = value.local.rank();
  int64_t a = *axis;
  if (a >= rank || a + rank < 0) {
    t->fail(absl::InvalidArgumentError(
        "`axis` = " + std::to_string(a) +
        " out of range for `value` with rank " + std::to_string(rank)));
    return Tensor();
  }
  Tensor numer = sum(value.local, {a}, false, loc);
  if (t->numReplicas > 1)
    numer = torus::allReduce(numer, torus::ReduceOp::Sum, {}, loc);
  if (op == ReduceOp::Sum)
    return numer;
  double count = static_cast<double>(value.local.dim(a) * t->numReplicas);
  return divide(numer, count, loc);
}

Tensor CrossReplicaContext::update(
    Variable &var,
    const std::function<Tensor(const Tensor &, const std::vector<Tensor> &)> &fn,
    const std::vector<MergedValue> &args, Loc loc) const {
  std::vector<Tensor> local;
  for (const MergedValue &m : args)
    local.push_back(m.local);
  (void)loc;
  // Each component is updated with its own replica's arguments.
  StepTrace *t = static_cast<StepTrace *>(trace_);
  detail::VarBinding *b = t->bind(var.impl());
  if (!b)
    return Tensor();
  Tensor updated = fn(b->current, local);
  if (!updated.valid())
    return Tensor();
  if (updated.spec() != var.spec()) {
    t->fail(absl::InvalidArgumentError(
        "update: fn returned " + updated.spec().toString() +
        " for variable '" + var.name() + "' of " + var.spec().toString()));
    return Tensor();
  }
  b->current = updated;
  b->written = true;
  return updated;
}

} // namespace torus::distribute
