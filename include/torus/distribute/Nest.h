//===- Nest.h - Nested structures of values (tf.nest) -----------*- C++ -*-===//
//
// What Python passes to and returns from strategy.run: a value, or a
// tuple/list or dict of nested structures. A Nest<T> is such a tree with
// leaves of type T; it flattens depth first, dict entries in sorted key
// order (tf.nest's order), and packs a flat list back into its shape
// (tf.nest.pack_sequence_as).
//
//   Nest<Value> args = Nest<Value>::dict({{"x", x}, {"y", y}});
//   auto out = strategy.run(step, args);   // step: Nest<Tensor> -> Nest<Tensor>
//   PerReplica loss = (*out)["loss"].leaf();
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_NEST_H
#define TORUS_DISTRIBUTE_NEST_H

#include "torus/Status.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace torus::distribute {

/// A leaf, a list (Python's tuple or list) or a dict of nests.
template <typename T> class Nest {
public:
  /// What a node is.
  enum class Kind { Leaf, List, Dict };

  /// A leaf holding `value` (implicit, as a value is a structure of one).
  Nest(T value) : kind_(Kind::Leaf), leaf_(std::move(value)) {}
  /// A list of nests (Python's tuple or list).
  static Nest list(std::vector<Nest> items) {
    Nest n(Kind::List);
    n.children_ = std::move(items);
    return n;
  }
  /// A dict of nests; entries are kept (and flattened) in sorted key order.
  /// A key given twice keeps its last value, as a Python dict literal does.
  static Nest dict(std::vector<std::pair<std::string, Nest>> items) {
    std::map<std::string, Nest> sorted;
    for (auto &[key, value] : items)
      sorted.insert_or_assign(key, std::move(value));
    Nest n(Kind::Dict);
    for (auto &[key, value] : sorted) {
      n.keys_.push_back(key);
      n.children_.push_back(std::move(value));
    }
    return n;
  }

  ///@{
  /// What this node is.
  Kind kind() const { return kind_; }
  bool isLeaf() const { return kind_ == Kind::Leaf; }
  bool isList() const { return kind_ == Kind::List; }
  bool isDict() const { return kind_ == Kind::Dict; }
  ///@}

  /// The value of a leaf; throws std::logic_error for a list or dict.
  const T &leaf() const {
    if (!isLeaf())
      throw std::logic_error("Nest::leaf() of a " + kindName());
    return *leaf_;
  }
  /// The number of children of a list or dict (0 for a leaf).
  size_t size() const { return children_.size(); }
  /// A list's item `i`; throws std::out_of_range.
  const Nest &operator[](size_t i) const { return children_.at(i); }
  /// A dict's entry `key`; throws std::out_of_range naming the key.
  const Nest &operator[](const std::string &key) const {
    auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
    if (!isDict() || it == keys_.end() || *it != key)
      throw std::out_of_range("Nest: no key '" + key + "' in " + structure());
    return children_[it - keys_.begin()];
  }
  /// A dict's keys, sorted (empty for a leaf or list).
  const std::vector<std::string> &keys() const { return keys_; }

  /// tf.nest.flatten: the leaves, depth first.
  std::vector<T> flatten() const {
    std::vector<T> out;
    flattenInto(out);
    return out;
  }
  /// The number of leaves.
  size_t numLeaves() const {
    if (isLeaf())
      return 1;
    size_t n = 0;
    for (const Nest &c : children_)
      n += c.numLeaves();
    return n;
  }

  /// tf.nest.pack_sequence_as: `flat` in this nest's shape. InvalidArgument
  /// when the counts differ, naming both.
  template <typename U>
  absl::StatusOr<Nest<U>> pack(const std::vector<U> &flat) const {
    if (flat.size() != numLeaves())
      return absl::InvalidArgumentError(
          "Could not pack sequence. Structure had " +
          std::to_string(numLeaves()) + " atoms, but flat_sequence had " +
          std::to_string(flat.size()) + " items. Structure: " + structure());
    size_t next = 0;
    return packFrom(flat, next);
  }

  /// tf.nest.map_structure: `fn` applied to every leaf, same shape.
  template <typename Fn>
  auto map(Fn &&fn) const -> Nest<std::decay_t<std::invoke_result_t<Fn &, const T &>>> {
    using U = std::decay_t<std::invoke_result_t<Fn &, const T &>>;
    if (isLeaf())
      return Nest<U>(fn(*leaf_));
    std::vector<Nest<U>> mapped;
    for (const Nest &c : children_)
      mapped.push_back(c.map(fn));
    return rebuild(std::move(mapped));
  }

  /// The shape without the values, Python-like: `{'loss': ., 'out': [., .]}`
  /// ("." a leaf; a list prints as a tuple would, in brackets).
  std::string structure() const {
    if (isLeaf())
      return ".";
    std::string s = isDict() ? "{" : "[";
    for (size_t i = 0; i < children_.size(); ++i) {
      if (i)
        s += ", ";
      if (isDict())
        s += "'" + keys_[i] + "': ";
      s += children_[i].structure();
    }
    return s + (isDict() ? "}" : "]");
  }
  /// Whether `other` has the same shape (tf.nest.assert_same_structure).
  template <typename U> bool sameStructure(const Nest<U> &other) const {
    return structure() == other.structure();
  }

private:
  template <typename> friend class Nest;
  explicit Nest(Kind kind) : kind_(kind) {}

  std::string kindName() const { return isList() ? "list" : "dict"; }

  void flattenInto(std::vector<T> &out) const {
    if (isLeaf()) {
      out.push_back(*leaf_);
      return;
    }
    for (const Nest &c : children_)
      c.flattenInto(out);
  }

  template <typename U>
  Nest<U> packFrom(const std::vector<U> &flat, size_t &next) const {
    if (isLeaf())
      return Nest<U>(flat[next++]);
    std::vector<Nest<U>> packed;
    for (const Nest &c : children_)
      packed.push_back(c.packFrom(flat, next));
    return rebuild(std::move(packed));
  }

  /// A list or dict like this one with `children`.
  template <typename U> Nest<U> rebuild(std::vector<Nest<U>> children) const {
    Nest<U> n(isList() ? Nest<U>::Kind::List : Nest<U>::Kind::Dict);
    n.keys_ = keys_;
    n.children_ = std::move(children);
    return n;
  }

  Kind kind_;
  std::optional<T> leaf_;
  std::vector<std::string> keys_;
  std::vector<Nest> children_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_NEST_H
