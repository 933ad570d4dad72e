//===- NestedFunction.cpp - Replica functions over nested structures ------===//
//
// A NestedFunction runs as a flat Function per argument structure: the flat
// replica function packs its tensors into the arguments' shape, calls the
// user's function and flattens what it returns, remembering that shape per
// signature so that run() can pack the PerReplica results into it, also
// when the step comes from the cache and the function is not called.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Strategy.h"

#include <map>
#include <mutex>

namespace torus::distribute {

namespace {
/// The signature part of a key: every tensor's type, in order.
template <typename T, typename SpecOf>
std::string signature(const std::vector<T> &values, SpecOf specOf) {
  std::string key;
  for (const T &v : values)
    key += specOf(v).toString() + ";";
  return key;
}
} // namespace

struct NestedFunction::Impl {
  std::string name;
  Fn fn;
  std::mutex mutex;
  /// The flat function for each argument structure.
  std::map<std::string, Function> functions;
  /// The results' structure, by argument structure and signature.
  std::map<std::string, Nest<int>> resultShapes;

  /// The flat Function for arguments shaped like `shape`.
  Function functionFor(const Nest<int> &shape) {
    std::lock_guard<std::mutex> lock(mutex);
    std::string argStructure = shape.structure();
    auto it = functions.find(argStructure);
    if (it != functions.end())
      return it->second;
    ReplicaFn flat = [this, shape, argStructure](const std::vector<Tensor> &in) {
      // run() checked the count: the arguments are the nest's leaves.
      Nest<Tensor> args = *shape.pack(in);
      Nest<Tensor> results = fn(args);
      Nest<int> resultShape = results.map([](const Tensor &) { return 0; });
      std::lock_guard<std::mutex> lock(mutex);
      resultShapes.insert_or_assign(
          argStructure + "|" +
              signature(in, [](const Tensor &t) { return t.spec(); }),
          std::move(resultShape));
      return results.flatten();
    };
    return functions.emplace(argStructure, Function(name, std::move(flat)))
        .first->second;
  }
};

NestedFunction::NestedFunction(std::string name, Fn fn)
    : impl_(std::make_shared<Impl>()) {
  impl_->name = std::move(name);
  impl_->fn = std::move(fn);
}

const std::string &NestedFunction::name() const { return impl_->name; }

int64_t NestedFunction::numCompiles() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  int64_t n = 0;
  for (const auto &[structure, function] : impl_->functions)
    n += function.numCompiles();
  return n;
}

absl::StatusOr<Nest<PerReplica>>
Strategy::run(const NestedFunction &fn, const Nest<Value> &args,
              const RunOptions &options) const {
  Nest<int> shape = args.map([](const Value &) { return 0; });
  Function flat = fn.impl()->functionFor(shape);
  Values values = args.flatten();
  TORUS_ASSIGN_OR_RETURN(std::vector<PerReplica> results,
                         run(flat, values, options));
  // The shape the function returned for replica 0's signature.
  std::string key =
      shape.structure() + "|" +
      signature(values, [](const Value &v) { return v.select(0).spec(); });
  std::lock_guard<std::mutex> lock(fn.impl()->mutex);
  auto it = fn.impl()->resultShapes.find(key);
  if (it == fn.impl()->resultShapes.end())
    return absl::InternalError("run: no result structure was recorded for " +
                               fn.name() + " with arguments " +
                               shape.structure());
  return it->second.pack(results);
}

} // namespace torus::distribute
