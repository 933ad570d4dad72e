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

struct VariableOptions {
  std::string name = "Variable";
  /// Python's None: true, except for ON_READ variables (false).
  std::optional<bool> trainable;
  VariableSynchronization synchronization = VariableSynchronization::Auto;
  VariableAggregation aggregation = VariableAggregation::None;
};

class Variable {
public:
  /// A null handle.
  Variable() = default;

  /// tf.Variable(initialValue, ...) through the current strategy's creator
  /// (the default strategy outside any scope). Errors are spec §1.2's.
  static absl::StatusOr<Variable> create(const HostTensor &initialValue,
                                         VariableOptions options = {});

  bool valid() const { return impl_ != nullptr; }
  const std::string &name() const;
  const TensorSpec &spec() const;
  DType dtype() const { return spec().dtype; }
  const Shape &shape() const { return spec().shape; }
  bool trainable() const;
  VariableSynchronization synchronization() const;
  VariableAggregation aggregation() const;
  /// "Variable", "MirroredVariable", "SyncOnReadVariable",
  /// "AggregatingVariable", "TPUMirroredVariable", "TPUSyncOnReadVariable".
  const std::string &typeName() const;
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
  absl::Status assign(const HostTensor &value);
  absl::Status assignAdd(const HostTensor &delta);
  absl::Status assignSub(const HostTensor &delta);
  /// The per-replica components (experimental_local_results): one per
  /// replica, or one for a plain or central variable.
  std::vector<HostTensor> components() const;
  /// Component names: "v", "v/replica_1", ...
  std::vector<std::string> componentNames() const;

  //===--- Replica context (inside a traced replica function) ------------===//

  /// This replica's value, as a tensor of the function being traced.
  Tensor read() const;
  /// Updates with §4.2 / §4.3 / §7.2's replica-context rules; returns the
  /// new value. A C++ number counts as the same Python object passed by
  /// every replica (a non-distributed value).
  Tensor assign(const TensorLike &value, Loc loc = Loc::current());
  Tensor assignAdd(const TensorLike &delta, Loc loc = Loc::current());
  Tensor assignSub(const TensorLike &delta, Loc loc = Loc::current());

  /// TensorFlow's repr, e.g. "MirroredVariable:{\n  0: <tf.Variable 'v:0'
  /// shape=() dtype=float32, numpy=1.0>,\n  1: ...\n}".
  std::string toString() const;

  friend bool operator==(const Variable &a, const Variable &b) {
    return a.impl_ == b.impl_;
  }

  struct Impl;
  explicit Variable(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<Impl> &impl() const { return impl_; }

private:
  std::shared_ptr<Impl> impl_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_VARIABLE_H
