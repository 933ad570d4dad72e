//===- CompileCache.h - Compile once, run many times ------------*- C++ -*-===//
//
// Compiling a step takes tens to hundreds of milliseconds; running it takes
// microseconds. A CompileCache remembers executables by what determines
// their code: the traced program, the CompileOptions and the host target
// (CPU and features). A Jit wraps a step function the way jax.jit does:
// the first call with a given input signature traces and compiles, later
// calls with that signature reuse the executable.
//
//   auto cache = std::make_shared<torus::CompileCache>();
//   torus::Jit step("step", stepFn, {.numReplicas = 8}, cache);
//   TORUS_ASSIGN_OR_RETURN(auto outs, step.run(mesh, perReplicaInputs));
//
// There is no process-wide cache: each cache is an object its owner shares
// (or not) between Jits, so independent users of the library in one process
// never see each other's programs. Both classes are safe to use from several
// host threads; concurrent requests for the same program compile it once.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_COMPILECACHE_H
#define TORUS_COMPILECACHE_H

#include "torus/Compile.h"
#include "torus/EmulatedMesh.h"
#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/Trace.h"
#include "torus/Types.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace torus {

/// Executables by (program text, CompileOptions, host target), least
/// recently used evicted beyond `capacity`. Failed compilations are not
/// cached: the next request tries again and gets the error again.
class CompileCache {
public:
  /// A cache of at most `capacity` executables (at least 1).
  explicit CompileCache(size_t capacity = 64);
  ~CompileCache();
  ///@{
  /// Not copyable: share one through a std::shared_ptr.
  CompileCache(const CompileCache &) = delete;
  CompileCache &operator=(const CompileCache &) = delete;
  ///@}

  /// compile(fn, options), or the executable an earlier call made for the
  /// same program (its text, locations included), options and host target.
  absl::StatusOr<Executable> getOrCompile(const TracedFunction &fn,
                                          const CompileOptions &options = {});

  /// What the cache has done since it was made.
  struct Stats {
    int64_t hits = 0;      ///< requests answered from the cache
    int64_t misses = 0;    ///< requests that compiled
    int64_t evictions = 0; ///< executables dropped for capacity
    size_t entries = 0;    ///< executables held now
  };
  /// A consistent snapshot of the counters and the number of entries.
  Stats stats() const;
  /// Drops every executable (ones already handed out stay valid).
  void clear();

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// A step function compiled on demand per input signature (jax.jit). The
/// function is traced when a signature is first seen, so it must be pure
/// in the tensors it is given: values it captures are baked in.
class Jit {
public:
  /// `cache` may be shared between Jits; nullptr gives this Jit its own.
  Jit(std::string name, TraceFn fn, CompileOptions options = {},
      std::shared_ptr<CompileCache> cache = nullptr);
  /// The same for trace()'s other forms (Trace.h): one Tensor parameter per
  /// input, checked against the count of each signature's inputs
  /// (InvalidArgument "trace 'f': the function takes 2 tensors but 1 input
  /// specs were given"), and any structure of tensors returned, flattened
  /// into the results.
  template <detail::StructuredTraceFn Fn>
  Jit(std::string name, Fn fn, CompileOptions options = {},
      std::shared_ptr<CompileCache> cache = nullptr)
      : Jit(std::move(name),
            detail::flatTraceFn<detail::tensorArity<Fn>()>(std::move(fn)),
            std::move(options), std::move(cache)) {
    arity_ = detail::tensorArity<Fn>();
  }
  ///@{
  /// Movable, not copyable: a moved-from Jit may only be destroyed or
  /// assigned to.
  Jit(Jit &&) noexcept;
  Jit &operator=(Jit &&) noexcept;
  ///@}
  ~Jit();


  /// The executable for inputs of these dtypes and shapes (one device's):
  /// traced and compiled (or found in the cache) the first time, then
  /// remembered by this Jit for as long as it lives.
  absl::StatusOr<Executable>
  executableFor(const std::vector<TensorSpec> &inputs);

  /// Runs on `mesh` (see EmulatedMesh::run); the signature is that of
  /// `inputs[0]`, and every device's inputs must match it.
  absl::StatusOr<std::vector<std::vector<HostTensor>>>
  run(EmulatedMesh &mesh, const std::vector<std::vector<HostTensor>> &inputs);

  /// The name traced functions get (errors and dumps show it).
  const std::string &name() const { return name_; }
  /// The options every signature is compiled with.
  const CompileOptions &options() const { return options_; }
  /// The cache this Jit compiles through (possibly shared).
  CompileCache &cache() const { return *cache_; }

private:
  std::string name_;
  TraceFn fn_;
  /// Tensor parameters of a typed function; -1: the vector form.
  int64_t arity_ = -1;
  CompileOptions options_;
  std::shared_ptr<CompileCache> cache_;
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace torus

#endif // TORUS_COMPILECACHE_H
