//===- Trace.h - Tracing C++ functions into the torus IR --------*- C++ -*-===//
//
// torus::trace runs a C++ callable once on symbolic Tensors of the given
// specs and records what it does as a function of the torus dialect:
//
//   auto fn = torus::trace("step", {{DType::F32, {8, 4}}, {DType::F32, {4}}},
//       [](const std::vector<Tensor> &in) {
//         return std::vector<Tensor>{relu(matmul(in[0], in[1]))};
//       });
//   if (!fn.ok()) ...;            // the first tracing error, with its line
//   std::cout << fn->toString();  // the torus IR
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TRACE_H
#define TORUS_TRACE_H

#include "torus/Status.h"
#include "torus/Tensor.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace torus {

using TraceFn = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// A traced function: a module of the torus dialect holding one function,
/// `@<name>`. Owns its own compiler context; cheap to move, not copyable.
class TracedFunction {
public:
  TracedFunction(TracedFunction &&) noexcept;
  TracedFunction &operator=(TracedFunction &&) noexcept;
  ~TracedFunction();

  const std::string &name() const;
  const std::vector<TensorSpec> &inputs() const;
  const std::vector<TensorSpec> &outputs() const;
  /// The module in the torus dialect's text form.
  std::string toString() const;

  /// Internal: the implementation, for the compiler.
  struct Impl;
  Impl &impl() const { return *impl_; }
  explicit TracedFunction(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl_;
};

/// Traces `fn` on symbolic tensors of `inputs`. Returns the first error the
/// function made (shape mismatch, bad axis, ...), naming the operation, the
/// shapes and the C++ source line.
absl::StatusOr<TracedFunction> trace(const std::string &name,
                                     const std::vector<TensorSpec> &inputs,
                                     const TraceFn &fn);

/// Parses a module of the torus dialect (its text form) holding one public
/// function; `sourceName` is used in diagnostics (`file:line:col`).
absl::StatusOr<TracedFunction> parseModule(const std::string &text,
                                           const std::string &sourceName);

} // namespace torus

#endif // TORUS_TRACE_H
