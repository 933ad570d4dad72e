//===- Values.h - Distributed values: PerReplica and Mirrored ---*- C++ -*-===//
//
// tf.distribute.DistributedValues on the host: one HostTensor per local
// replica, in replica order. `run` returns PerReplica values; a Mirrored
// value promises its components are equal. A `Value` is what strategy APIs
// accept: a plain HostTensor (the same for every replica, TensorFlow's
// non-distributed value) or a distributed one.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_VALUES_H
#define TORUS_DISTRIBUTE_VALUES_H

#include "torus/HostTensor.h"

#include <string>
#include <variant>
#include <vector>

namespace torus::distribute {

class PerReplica {
public:
  enum class Kind { PerReplica, Mirrored };

  PerReplica() = default;
  explicit PerReplica(std::vector<HostTensor> values,
                      Kind kind = Kind::PerReplica)
      : values_(std::move(values)), kind_(kind) {}
  static PerReplica mirrored(std::vector<HostTensor> values) {
    return PerReplica(std::move(values), Kind::Mirrored);
  }

  Kind kind() const { return kind_; }
  bool isMirrored() const { return kind_ == Kind::Mirrored; }
  /// The components, index = local replica id (TensorFlow's `.values`).
  const std::vector<HostTensor> &values() const { return values_; }
  std::vector<HostTensor> &values() { return values_; }
  size_t size() const { return values_.size(); }
  const HostTensor &operator[](size_t replica) const {
    return values_.at(replica);
  }

  /// `PerReplica:{\n  0: f32[]{6},\n  1: f32[]{6}\n}` as TensorFlow prints
  /// it (with HostTensor's element rendering).
  std::string toString() const;

private:
  std::vector<HostTensor> values_;
  Kind kind_ = Kind::PerReplica;
};

/// A strategy API argument: a host tensor given to every replica, or a
/// distributed value whose i-th component goes to replica i.
class Value {
public:
  Value(HostTensor tensor) : v_(std::move(tensor)) {}
  Value(PerReplica values) : v_(std::move(values)) {}
  /// A float scalar, for convenience (`strategy.run(fn, {3.0f})`).
  Value(float scalar) : v_(HostTensor::scalar(scalar)) {}

  bool isDistributed() const { return std::holds_alternative<PerReplica>(v_); }
  const HostTensor &tensor() const { return std::get<HostTensor>(v_); }
  const PerReplica &perReplica() const { return std::get<PerReplica>(v_); }
  /// Replica `i`'s component (the tensor itself when not distributed).
  const HostTensor &select(size_t replica) const {
    return isDistributed() ? perReplica()[replica] : tensor();
  }

private:
  std::variant<HostTensor, PerReplica> v_;
};

/// Positional arguments of `run`, or one element of a distributed dataset
/// (one distributed value per component).
using Values = std::vector<Value>;

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_VALUES_H
