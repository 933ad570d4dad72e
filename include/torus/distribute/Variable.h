//===- Variable.h - Variables, plain and distributed ------------*- C++ -*-===//
//
// tf.Variable. Created inside a strategy's scope it becomes distributed
// (spec §4, §7.2):
//   * MirroredStrategy, TPUStrategy, MultiWorkerMirroredStrategy: one
//     component per replica, "MirroredVariable" (ON_WRITE) or
//     "SyncOnReadVariable" (ON_READ), "TPUMirroredVariable" /
//     "TPUSyncOnReadVariable" under TPUStrategy;
//   * CentralStorageStrategy: one copy, an "AggregatingVariable" when there
//     is more than one replica;
//   * outside any scope, OneDeviceStrategy and the default strategy: a plain
//     "Variable".
//
// Two sets of methods, by context:
//   * cross-replica (host code, in or out of scope): value(), assign(HostTensor),
//     assignAdd, assignSub — returning Status, with §4's cross-replica rules;
//   * replica context (inside the function given to Strategy::run, while it
//     is traced): read(), assign(Tensor or number), assignAdd, assignSub —
//     returning the new traced value. The compiled step receives the
//     variable's value as an extra input and returns its new value; the
//     strategy stores it back after the step (docs/strategy.md). An error
//     (e.g. §4.2's SUM of a literal) is recorded and returned by run().
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_VARIABLE_H
#define TORUS_DISTRIBUTE_VARIABLE_H

#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/Tensor.h"
#include "torus/distribute/Enums.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute {

class Strategy;

/// tf.Variable's keyword arguments: name, trainable, synchronization and
/// aggregation.
struct VariableOptions {
  /// The variable's name (components of a distributed one add "/replica_<i>").
  std::string name = "Variable";
  /// Python's None: true, except for ON_READ variables (false).
  std::optional<bool> trainable;
  /// When replicas' components are synchronized (ON_WRITE, ON_READ, ...).
  VariableSynchronization synchronization = VariableSynchronization::Auto;
  /// How replicas' updates are combined (NONE, SUM, MEAN, ONLY_FIRST_REPLICA).
  VariableAggregation aggregation = VariableAggregation::None;
};

/// tf.Variable, plain or distributed (see the top of this file): a cheap
/// handle; copies refer to the same variable. Host code reads and assigns it
/// with HostTensors (cross-replica context); a replica function reads and
/// assigns it with traced tensors.
class Variable {
public:
  /// A null handle.
  Variable() = default;

  /// tf.Variable(initialValue, ...) through the current strategy's creator
  /// (the default strategy outside any scope). Errors are spec §1.2's.
  static absl::StatusOr<Variable> create(const HostTensor &initialValue,
                                         VariableOptions options = {});

  /// False for a null handle (Variable()). The other accessors need a valid
  /// variable.
  bool valid() const { return impl_ != nullptr; }
  /// The name given in VariableOptions.
  const std::string &name() const;
  /// Dtype and shape of the value (of each component).
  const TensorSpec &spec() const;
  /// The value's element type.
  DType dtype() const { return spec().dtype; }
  /// The value's shape.
  const Shape &shape() const { return spec().shape; }
  /// Whether gradients update it (VariableOptions::trainable, resolved).
  bool trainable() const;
  /// The synchronization, as created (AUTO resolved by the strategy).
  VariableSynchronization synchronization() const;
  /// The aggregation given at creation.
  VariableAggregation aggregation() const;
  /// "Variable", "MirroredVariable", "SyncOnReadVariable",
  /// "AggregatingVariable", "TPUMirroredVariable", "TPUSyncOnReadVariable".
  const std::string &typeName() const;
  /// Whether it has per-replica or central storage rather than being a
  /// plain variable.
  bool isDistributed() const;
  /// The strategy whose scope created it; nullopt for a plain variable
  /// created outside any scope.
  std::optional<Strategy> strategy() const;
  /// Unique per variable in the process (checkpoints and caches use it).
  uint64_t id() const;

  //===--- Cross-replica context (host) ----------------------------------===//

  /// read_value(): the primary component, or for ON_READ variables the
  /// aggregate (SUM, MEAN, first replica; NONE is an error).
  absl::StatusOr<HostTensor> value() const;
  ///@{
  /// Cross-replica updates: every component becomes `value` (a SUM ON_READ
  /// variable gets value / replicas in each, so reading sums back to it), or
  /// gains / loses `delta`; values are converted to the variable's dtype.
  /// Errors: InvalidArgument "Cannot assign value to variable ' v:0': Shape
  /// mismatch...." for another shape; InvalidArgument "SyncOnReadVariable does
  /// not support `assign_add` in cross-replica context when aggregation is set
  /// to `tf.VariableAggregation.SUM`." (and `assign_sub`); FailedPrecondition
  /// "assign(HostTensor) is the cross-replica update; inside a replica function
  /// assign a Tensor (or a number) instead" when called while a replica
  /// function is traced.
  absl::Status assign(const HostTensor &value);
  absl::Status assignAdd(const HostTensor &delta);
  absl::Status assignSub(const HostTensor &delta);
  ///@}
  /// The per-replica components (experimental_local_results): one per
  /// replica, or one for a plain or central variable.
  std::vector<HostTensor> components() const;
  /// Component names: "v", "v/replica_1", ...
  std::vector<std::string> componentNames() const;

  //===--- Replica context (inside a traced replica function) ------------===//

  /// This replica's value, as a tensor of the function being traced. Outside
  /// a replica function it is an invalid tensor: inside another trace
  /// (torus::trace, Jit) that trace fails with FailedPrecondition
  /// "Variable::read() of 'v' outside a replica function: ..."; host code
  /// reads a variable with value().
  Tensor read(Loc loc = Loc::current()) const;
  ///@{
  /// Updates with §4.2 / §4.3 / §7.2's replica-context rules; returns the
  /// new value. A C++ number counts as the same Python object passed by
  /// every replica (a non-distributed value).
  Tensor assign(const TensorLike &value, Loc loc = Loc::current());
  Tensor assignAdd(const TensorLike &delta, Loc loc = Loc::current());
  Tensor assignSub(const TensorLike &delta, Loc loc = Loc::current());
  ///@}

  /// TensorFlow's repr, e.g. "MirroredVariable:{\n  0: <tf.Variable 'v:0'
  /// shape=() dtype=float32, numpy=1.0>,\n  1: ...\n}".
  std::string toString() const;

  /// The same variable (copies of one handle compare equal).
  friend bool operator==(const Variable &a, const Variable &b) {
    return a.impl_ == b.impl_;
  }

  /// Internal: the shared storage behind the handle.
  struct Impl;
  ///@{
  /// Internal: the shared storage behind the handle; use create().
  explicit Variable(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<Impl> &impl() const { return impl_; }
  ///@}

private:
  std::shared_ptr<Impl> impl_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_VARIABLE_H
