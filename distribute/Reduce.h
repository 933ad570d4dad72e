//===- Reduce.h - Cross-replica reductions on the host ----------*- C++ -*-===//
//
// Strategy::reduce and StrategyExtended::reduce_to (spec §2.3, §5.4, §7.3,
// §8.4): element-wise across replicas (axis None), or across replicas and
// along axes, with the MEAN denominator the true element count.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_REDUCE_H
#define TORUS_DISTRIBUTE_REDUCE_H

#include "distribute/StrategyState.h"
#include "torus/distribute/Values.h"

#include <optional>
#include <vector>

namespace torus::distribute::detail {

/// reduce(op, value, axis): `axes` nullopt is axis=None.
absl::StatusOr<HostTensor>
reduceValue(const StrategyState &state, ReduceOp op, const Value &value,
            const std::optional<std::vector<int64_t>> &axes);

/// str() of a non-distributed tensor in messages, as TensorFlow prints an
/// eager tensor: "tf.Tensor(1.0, shape=(), dtype=float32)".
std::string valueStr(const HostTensor &t);

} // namespace torus::distribute::detail

#endif // TORUS_DISTRIBUTE_REDUCE_H
