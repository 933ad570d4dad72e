//===- Reduce.cpp - Cross-replica reductions on the host ------------------===//

#include "distribute/Reduce.h"
#include "distribute/HostOps.h"
#include "distribute/PyRepr.h"
#include "distribute/VariableImpl.h"
#include "distribute/WorkerConnection.h"

#include <set>

namespace torus::distribute::detail {

std::string valueStr(const HostTensor &t) {
  return "tf.Tensor(" + numpyStr(t) + ", shape=" + pyShape(t.shape()) +
         ", dtype=" + tfDtypeName(t.dtype()) + ")";
}

namespace {

/// Element-wise reduction of the components (axis None).
absl::StatusOr<HostTensor> reduceAcross(const StrategyState &state,
                                        ReduceOp op,
                                        const std::vector<HostTensor> &values) {
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i].spec() != values[0].spec())
      return absl::InvalidArgumentError(
          "Incompatible shapes: the replicas' values are " +
          values[0].spec().toString() + " (replica 0) and " +
          values[i].spec().toString() + " (replica " + std::to_string(i) +
          "); reduce with an axis to combine batches of different sizes");
  HostTensor sum = values[0];
  for (size_t i = 1; i < values.size(); ++i) {
    TORUS_ASSIGN_OR_RETURN(sum, add(sum, values[i]));
  }
  // MWMS across processes: then over every worker (spec §5.4).
  if (state.workerGroup)
    TORUS_RETURN_IF_ERROR(sumAcrossWorkers(*state.workerGroup, sum));
  if (op == ReduceOp::Sum)
    return sum;
  double n = static_cast<double>(values.size());
  if (state.kind == StrategyKind::MultiWorkerMirrored)
    n = static_cast<double>(state.numReplicasInSync());
  if (state.meanByReciprocal && isFloat(sum.dtype()))
    return scaleBy(sum, 1.0 / n);
  return divideBy(sum, n);
}

} // namespace

absl::StatusOr<HostTensor>
reduceValue(const StrategyState &state, ReduceOp op, const Value &value,
            const std::optional<std::vector<int64_t>> &axes) {
  TORUS_RETURN_IF_ERROR(checkReduceOp(op));
  const int64_t R = state.numReplicas; // this worker's
  std::vector<HostTensor> values;
  if (value.isDistributed()) {
    values = value.perReplica().values();
    if (values.empty())
      return absl::InvalidArgumentError("reduce: an empty distributed value");
    // MWMS: a Mirrored value with MEAN is returned as is (spec §5.4).
    if (!axes && op == ReduceOp::Mean && value.perReplica().isMirrored() &&
        state.kind == StrategyKind::MultiWorkerMirrored)
      return values[0];
  } else {
    const HostTensor &t = value.tensor();
    if (!axes) {
      // MWMS with more than one worker: a host tensor is all-reduced over
      // the workers, one contribution each, MEAN dividing by the number of
      // workers (collective_all_reduce_strategy._reduce_to, spec §5.4).
      if (state.workerGroup) {
        HostTensor sum = t;
        TORUS_RETURN_IF_ERROR(sumAcrossWorkers(*state.workerGroup, sum));
        if (op == ReduceOp::Sum)
          return sum;
        return divideBy(sum, static_cast<double>(state.numWorkers));
      }
      // cross_device_ops.reduce_non_distributed_value.
      if (op == ReduceOp::Mean)
        return t;
      if (state.numReplicasInSync() > 1)
        return absl::InvalidArgumentError(
            nonDistributedReduceMessage(valueStr(t), op));
      return t;
    }
    // With an axis TensorFlow runs the per-replica reduction through
    // strategy.run, so every replica contributes the same value.
    values.assign(R, t);
  }
  if (!axes)
    return reduceAcross(state, op, values);

  // Normalise the axes against the rank (static: every replica agrees).
  const int64_t rank = static_cast<int64_t>(values[0].shape().size());
  std::vector<int64_t> normalised;
  for (int64_t a : *axes) {
    if (a >= rank || a + rank < 0) {
      if (op == ReduceOp::Mean)
        return absl::InvalidArgumentError(
            "`axis` = " +
            (axes->size() == 1 ? std::to_string(a)
                               : "[" + [&] {
                                   std::string s;
                                   for (size_t i = 0; i < axes->size(); ++i)
                                     s += (i ? ", " : "") +
                                          std::to_string((*axes)[i]);
                                   return s;
                                 }() + "]") +
            " out of range for `value` with rank " + std::to_string(rank));
      return absl::InvalidArgumentError(
          "Invalid reduction dimension " + std::to_string(a) +
          " for input with " + std::to_string(rank) + " dimensions.");
    }
    normalised.push_back(a < 0 ? a + rank : a);
  }
  std::set<int64_t> distinct(normalised.begin(), normalised.end());
  std::vector<int64_t> axisList(distinct.begin(), distinct.end());

  std::vector<HostTensor> numerators;
  int64_t denominator = 0;
  for (const HostTensor &v : values) {
    if (static_cast<int64_t>(v.shape().size()) != rank)
      return absl::InvalidArgumentError(
          "reduce: the replicas' values have different ranks");
    TORUS_ASSIGN_OR_RETURN(HostTensor n, reduceSum(v, axisList));
    numerators.push_back(std::move(n));
    int64_t count = 1;
    for (int64_t a : axisList)
      count *= v.shape()[a];
    denominator += count;
  }
  TORUS_ASSIGN_OR_RETURN(HostTensor numer,
                         reduceAcross(state, ReduceOp::Sum, numerators));
  if (op == ReduceOp::Sum)
    return numer;
  if (state.workerGroup) {
    HostTensor count = HostTensor::scalar<int64_t>(denominator);
    TORUS_RETURN_IF_ERROR(sumAcrossWorkers(*state.workerGroup, count));
    denominator = count.data<int64_t>()[0];
  }
  // numer / cast(denom, numer.dtype); Python's `/` on integer tensors is a
  // true division giving float64.
  if (!isFloat(numer.dtype()))
    numer = cast(numer, DType::F64);
  return divideBy(numer, static_cast<double>(denominator));
}

} // namespace torus::distribute::detail
