//===- Enums.cpp - The enums of tf.distribute and tf.data -----------------===//

#include "torus/distribute/Enums.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace torus::distribute {

namespace {
std::string upper(std::string_view s) {
  std::string u(s);
  std::transform(u.begin(), u.end(), u.begin(),
                 [](unsigned char c) { return std::toupper(c); });
  return u;
}
std::string lower(std::string_view s) {
  std::string l(s);
  std::transform(l.begin(), l.end(), l.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return l;
}
} // namespace

std::string_view reduceOpValue(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "SUM";
  case ReduceOp::Mean:
    return "MEAN";
  case ReduceOp::Product:
    return "PRODUCT";
  case ReduceOp::Max:
    return "MAX";
  case ReduceOp::Min:
    return "MIN";
  }
  return "?";
}

absl::Status checkReduceOp(ReduceOp op) {
  if (op == ReduceOp::Sum || op == ReduceOp::Mean)
    return absl::OkStatus();
  std::string value(reduceOpValue(op));
  return absl::InvalidArgumentError(
      "ReduceOp::" + value.substr(0, 1) + lower(value.substr(1)) +
      " is not a tf.distribute.ReduceOp (SUM or MEAN)");
}

std::string reduceOpName(ReduceOp op) {
  return "ReduceOp." + std::string(reduceOpValue(op));
}

absl::StatusOr<ReduceOp> parseReduceOp(std::string_view name) {
  std::string u = upper(name);
  if (u == "SUM")
    return ReduceOp::Sum;
  if (u == "MEAN")
    return ReduceOp::Mean;
  return absl::InvalidArgumentError("'" + u + "' is not a valid ReduceOp");
}

std::string synchronizationName(VariableSynchronization sync) {
  switch (sync) {
  case VariableSynchronization::Auto:
    return "VariableSynchronization.AUTO";
  case VariableSynchronization::None:
    return "VariableSynchronization.NONE";
  case VariableSynchronization::OnWrite:
    return "VariableSynchronization.ON_WRITE";
  case VariableSynchronization::OnRead:
    return "VariableSynchronization.ON_READ";
  }
  return std::to_string(static_cast<int>(sync));
}

std::string aggregationName(VariableAggregation aggregation) {
  switch (aggregation) {
  case VariableAggregation::None:
    return "VariableAggregation.NONE";
  case VariableAggregation::Sum:
    return "VariableAggregation.SUM";
  case VariableAggregation::Mean:
    return "VariableAggregation.MEAN";
  case VariableAggregation::OnlyFirstReplica:
    return "VariableAggregation.ONLY_FIRST_REPLICA";
  }
  return std::to_string(static_cast<int>(aggregation));
}

absl::StatusOr<ReduceOp> reduceOpFromAggregation(VariableAggregation agg) {
  if (agg == VariableAggregation::Sum)
    return ReduceOp::Sum;
  if (agg == VariableAggregation::Mean)
    return ReduceOp::Mean;
  return absl::InvalidArgumentError(
      "Could not convert from `tf.VariableAggregation` " +
      aggregationName(agg) + " to`tf.distribute.ReduceOp` type");
}

std::string inputReplicationModeName(InputReplicationMode mode) {
  return mode == InputReplicationMode::PerWorker
             ? "InputReplicationMode.PER_WORKER"
             : "InputReplicationMode.PER_REPLICA";
}

std::string autoShardPolicyName(AutoShardPolicy policy) {
  switch (policy) {
  case AutoShardPolicy::Off:
    return "AutoShardPolicy.OFF";
  case AutoShardPolicy::Auto:
    return "AutoShardPolicy.AUTO";
  case AutoShardPolicy::File:
    return "AutoShardPolicy.FILE";
  case AutoShardPolicy::Data:
    return "AutoShardPolicy.DATA";
  case AutoShardPolicy::Hint:
    return "AutoShardPolicy.HINT";
  }
  return std::to_string(static_cast<int>(policy));
}

std::string_view communicationImplementationValue(CommunicationImplementation c) {
  switch (c) {
  case CommunicationImplementation::Auto:
    return "AUTO";
  case CommunicationImplementation::Ring:
    return "RING";
  case CommunicationImplementation::Nccl:
    return "NCCL";
  }
  return "AUTO";
}

absl::StatusOr<CommunicationImplementation>
parseCommunicationImplementation(std::string_view name) {
  std::string u = upper(name);
  if (u == "AUTO")
    return CommunicationImplementation::Auto;
  if (u == "RING")
    return CommunicationImplementation::Ring;
  if (u == "NCCL")
    return CommunicationImplementation::Nccl;
  return absl::InvalidArgumentError("'" + u +
                                    "' is not a valid CommunicationImplementation");
}

} // namespace torus::distribute
