//===- VariableImpl.h - What a Variable holds -------------------*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_VARIABLEIMPL_H
#define TORUS_DISTRIBUTE_VARIABLEIMPL_H

#include "distribute/StrategyState.h"
#include "torus/distribute/Variable.h"

#include <memory>
#include <string>
#include <vector>

namespace torus::distribute {

struct Variable::Impl {
  enum class Storage {
    /// One value; no strategy semantics.
    Plain,
    /// One component per replica, kept equal by aggregated updates.
    Mirrored,
    /// One component per replica, aggregated when read cross-replica.
    SyncOnRead,
    /// One copy updated with aggregated values (CentralStorage, R > 1).
    Aggregating,
  };

  uint64_t id = 0;
  std::string name;
  TensorSpec spec;
  bool trainable = true;
  VariableSynchronization synchronization = VariableSynchronization::OnWrite;
  VariableAggregation aggregation = VariableAggregation::None;
  /// The strategy whose scope created it (null outside any scope).
  std::shared_ptr<detail::StrategyState> strategy;
  Storage storage = Storage::Plain;
  std::string typeName = "Variable";
  /// One per replica (Mirrored, SyncOnRead) or one.
  std::vector<HostTensor> components;

  int64_t numReplicas() const {
    return strategy ? strategy->numReplicas : 1;
  }
};

namespace detail {
/// The "You must specify an aggregation method to update a {type} in
/// Replica Context. ..." message of values_util.aggregation_error_msg.
std::string aggregationErrorMessage(const std::string &variableType);
/// TensorFlow's "A non-DistributedValues value {v} cannot be reduced with
/// the given reduce op {op}." for a C++ number `value`.
std::string nonDistributedReduceMessage(const std::string &value, ReduceOp op);
/// InvalidArgument when `v` was created outside any strategy's scope (one
/// plain value) and is updated by the replicas of `strategy`: their updates
/// would add up. Torus refuses what TensorFlow leaves to chance.
absl::Status checkCreatedInScope(const Variable::Impl &v,
                                 const StrategyState &strategy);
} // namespace detail

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_VARIABLEIMPL_H
