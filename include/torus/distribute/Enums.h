//===- Enums.h - The enums of tf.distribute and tf.data ---------*- C++ -*-===//
//
// tf.distribute.ReduceOp, tf.VariableSynchronization, tf.VariableAggregation,
// tf.distribute.InputReplicationMode, tf.data.experimental.AutoShardPolicy
// and tf.distribute.experimental.CommunicationImplementation, with their
// Python spellings (for messages) and TensorFlow's string conversions
// (spec §1).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_ENUMS_H
#define TORUS_DISTRIBUTE_ENUMS_H

#include "torus/ReduceOp.h"
#include "torus/Status.h"

#include <string>
#include <string_view>

namespace torus::distribute {

/// tf.distribute.ReduceOp: SUM and MEAN only (spec §1.1). It is
/// torus::ReduceOp (Tensor.h), whose other members (the core reducers
/// Product, Max, Min) every API here refuses with checkReduceOp's error.
using torus::ReduceOp;

/// OK for ReduceOp::Sum and ReduceOp::Mean; InvalidArgument
/// "ReduceOp::Max is not a tf.distribute.ReduceOp (SUM or MEAN)" otherwise.
absl::Status checkReduceOp(ReduceOp op);

/// "SUM" / "MEAN" (the enum's value; "MAX", ... for the core reducers).
std::string_view reduceOpValue(ReduceOp op);
/// "ReduceOp.SUM" / "ReduceOp.MEAN" (Python's str() of the member).
std::string reduceOpName(ReduceOp op);
/// ReduceOp(s.upper()): "sum", "Mean" work; anything else is
/// InvalidArgument "'MAX' is not a valid ReduceOp" (the text keeps the
/// upper-cased spelling, as Python's enum error does).
absl::StatusOr<ReduceOp> parseReduceOp(std::string_view name);

/// tf.VariableSynchronization.
enum class VariableSynchronization { Auto = 0, None = 1, OnWrite = 2, OnRead = 3 };
/// tf.VariableAggregation.
enum class VariableAggregation {
  None = 0,
  Sum = 1,
  Mean = 2,
  OnlyFirstReplica = 3,
};

///@{
/// "VariableSynchronization.ON_WRITE", "VariableAggregation.SUM", ... An
/// out-of-range value (only reachable by a cast) renders as its number.
std::string synchronizationName(VariableSynchronization sync);
std::string aggregationName(VariableAggregation aggregation);
///@}

/// ReduceOp.from_variable_aggregation: SUM and MEAN convert; NONE and
/// ONLY_FIRST_REPLICA are InvalidArgument "Could not convert from
/// `tf.VariableAggregation` VariableAggregation.NONE to`tf.distribute.ReduceOp`
/// type" (TensorFlow's missing space kept).
absl::StatusOr<ReduceOp> reduceOpFromAggregation(VariableAggregation agg);

/// tf.distribute.InputReplicationMode.
enum class InputReplicationMode { PerWorker, PerReplica };
/// "InputReplicationMode.PER_WORKER" / "InputReplicationMode.PER_REPLICA"
/// (Python's str() of the member).
std::string inputReplicationModeName(InputReplicationMode mode);

/// tf.data.experimental.AutoShardPolicy (values as in TensorFlow).
enum class AutoShardPolicy { Off = -1, Auto = 0, File = 1, Data = 2, Hint = 3 };
/// "AutoShardPolicy.AUTO", "AutoShardPolicy.DATA", ... (Python's str() of the
/// member).
std::string autoShardPolicyName(AutoShardPolicy policy);

/// tf.distribute.experimental.CommunicationImplementation.
enum class CommunicationImplementation { Auto, Ring, Nccl };
/// "AUTO", "RING" or "NCCL" (the enum's value).
std::string_view communicationImplementationValue(CommunicationImplementation c);
/// Upper-cases and converts "ring", "NCCL", ...; unknown strings are
/// InvalidArgument "'X' is not a valid CommunicationImplementation".
absl::StatusOr<CommunicationImplementation>
parseCommunicationImplementation(std::string_view name);

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_ENUMS_H
