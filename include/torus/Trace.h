//===- Trace.h - Tracing C++ functions into the torus IR --------*- C++ -*-===//
//
// torus::trace runs a C++ callable once on symbolic Tensors of the given
// specs and records what it does as a function of the torus dialect:
//
//   auto fn = torus::trace("step", {{DType::F32, {8, 4}}, {DType::F32, {4}}},
//       [](Tensor x, Tensor w) { return relu(matmul(x, w)); });
//   if (!fn.ok()) ...;            // the first tracing error, with its line
//   std::cout << fn->toString();  // the torus IR
//
// Structured inputs and outputs: the callable takes one Tensor per input
// spec (or a `const std::vector<Tensor> &` of all of them) and returns a
// Tensor, a std::vector / std::array / std::pair / std::tuple of returnable
// values, or a struct that lists its tensor fields with TORUS_TENSOR_FIELDS:
//
//   struct StepOut {
//     Tensor loss, logits;
//     std::vector<Tensor> grads;
//     TORUS_TENSOR_FIELDS(loss, logits, grads)
//   };
//
// The function's results are the leaves in order, depth first (here loss,
// logits, then every gradient).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TRACE_H
#define TORUS_TRACE_H

#include "torus/Status.h"
#include "torus/Tensor.h"

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace torus {

/// The flat form of a traced function: argument tensors in, result tensors out.
using TraceFn = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// A traced function: a module of the torus dialect holding one function,
/// `@<name>`. Owns its own compiler context; cheap to move, not copyable.
class TracedFunction {
public:
  ///@{
  /// Move-only; destruction releases the module and its compiler context.
  TracedFunction(TracedFunction &&) noexcept;
  TracedFunction &operator=(TracedFunction &&) noexcept;
  ~TracedFunction();
  ///@}

  /// The function's name (`@<name>` in the module).
  const std::string &name() const;
  ///@{
  /// The types of the arguments and of the results, in order.
  const std::vector<TensorSpec> &inputs() const;
  const std::vector<TensorSpec> &outputs() const;
  ///@}
  /// The module in the torus dialect's text form, with every op's location:
  /// the C++ source line that traced it (`loc("model.cpp":37:16)` after the
  /// op) and the arguments' names
  /// (`loc("x"("model.cpp":12:13))`). parseModule() reads it back.
  std::string toString() const;

  /// The arguments' names, in order: those given to setArgumentNames(), the
  /// names written in parsed text (`x` for `%x`) or HLO text, else
  /// `arg<i>`. They survive toString(), dumps and the HLO export, and are
  /// the names `torus-run --input NAME=...` takes.
  std::vector<std::string> argumentNames() const;
  /// Names the arguments (one name each, `[A-Za-z_][A-Za-z0-9_.-]*`, all
  /// different). InvalidArgument naming the bad name otherwise, and nothing
  /// changes.
  absl::Status setArgumentNames(const std::vector<std::string> &names);

  /// Internal: the implementation, for the compiler.
  struct Impl;
  /// Internal: the implementation, for the compiler.
  Impl &impl() const { return *impl_; }
  /// Internal: wraps an implementation (trace() and parseModule() make them).
  explicit TracedFunction(std::unique_ptr<Impl> impl);

private:
  std::unique_ptr<Impl> impl_;
};

/// Lists the Tensor-valued fields (Tensors, containers or structs of them)
/// of a struct returned from a traced function, in result order.
#define TORUS_TENSOR_FIELDS(...)                                               \
  auto torusTensorFields() const { return std::tie(__VA_ARGS__); }

namespace detail {

/// Appends the tensors of `value` to `out`, depth first.
inline void flattenInto(std::vector<Tensor> &out, const Tensor &value) {
  out.push_back(value);
}
template <typename T>
void flattenInto(std::vector<Tensor> &out, const std::vector<T> &values);
template <typename T, size_t N>
void flattenInto(std::vector<Tensor> &out, const std::array<T, N> &values);
template <typename A, typename B>
void flattenInto(std::vector<Tensor> &out, const std::pair<A, B> &value);
template <typename... T>
void flattenInto(std::vector<Tensor> &out, const std::tuple<T...> &value);
template <typename T>
  requires requires(const T &t) { t.torusTensorFields(); }
void flattenInto(std::vector<Tensor> &out, const T &value);

template <typename T>
void flattenInto(std::vector<Tensor> &out, const std::vector<T> &values) {
  for (const T &v : values)
    flattenInto(out, v);
}
template <typename T, size_t N>
void flattenInto(std::vector<Tensor> &out, const std::array<T, N> &values) {
  for (const T &v : values)
    flattenInto(out, v);
}
template <typename A, typename B>
void flattenInto(std::vector<Tensor> &out, const std::pair<A, B> &value) {
  flattenInto(out, value.first);
  flattenInto(out, value.second);
}
template <typename... T>
void flattenInto(std::vector<Tensor> &out, const std::tuple<T...> &value) {
  std::apply([&](const auto &...v) { (flattenInto(out, v), ...); }, value);
}
template <typename T>
  requires requires(const T &t) { t.torusTensorFields(); }
void flattenInto(std::vector<Tensor> &out, const T &value) {
  flattenInto(out, value.torusTensorFields());
}

template <typename Fn, size_t N>
constexpr bool invocableWithTensors() {
  return []<size_t... I>(std::index_sequence<I...>) {
    return std::is_invocable_v<Fn &, decltype((void)I, std::declval<Tensor>())...>;
  }(std::make_index_sequence<N>{});
}

/// The number of Tensor arguments `Fn` takes (-1: a vector of them).
template <typename Fn, size_t N = 0> constexpr int64_t tensorArity() {
  if constexpr (std::is_invocable_v<Fn &, const std::vector<Tensor> &>)
    return -1;
  else if constexpr (invocableWithTensors<Fn, N>())
    return N;
  else if constexpr (N >= 32) {
    static_assert(N < 32, "a traced function takes Tensors (at most 32) or "
                          "one const std::vector<Tensor> &");
    return -2;
  } else
    return tensorArity<Fn, N + 1>();
}

template <typename Fn, size_t... I>
decltype(auto) callWithTensors(Fn &fn, const std::vector<Tensor> &in,
                               std::index_sequence<I...>) {
  return fn(in[I]...);
}

/// A callable of either form (one Tensor per argument, or one
/// `const std::vector<Tensor> &`) returning any structure of tensors, as the
/// flat TraceFn; `Arity` is tensorArity<Fn>(). The TraceFn owns `fn` (pass a
/// std::reference_wrapper to refer to it instead); it must be called with
/// at least `Arity` tensors.
template <int64_t Arity, typename Fn> TraceFn flatTraceFn(Fn fn) {
  return [fn = std::move(fn)](const std::vector<Tensor> &in) mutable {
    std::vector<Tensor> out;
    if constexpr (Arity < 0)
      flattenInto(out, fn(in));
    else
      flattenInto(out, callWithTensors(fn, in, std::make_index_sequence<Arity>{}));
    return out;
  };
}

/// Whether `Fn` takes tensors in one of the two forms (no static_assert:
/// usable in constraints).
template <typename Fn> constexpr bool takesTensors() {
  if constexpr (std::is_invocable_v<Fn &, const std::vector<Tensor> &>)
    return true;
  else
    return []<size_t... N>(std::index_sequence<N...>) {
      return (invocableWithTensors<Fn, N>() || ...);
    }(std::make_index_sequence<33>{});
}

/// A callable of the forms flatTraceFn takes that is not already a TraceFn
/// (typed arguments, or structured results).
template <typename Fn>
concept StructuredTraceFn = !std::is_convertible_v<Fn, TraceFn> &&
                            takesTensors<std::decay_t<Fn>>();

/// trace() on the flattened form; `arity` >= 0 is checked against the
/// number of input specs; `loc` (where trace() was called, or none) is the
/// function's location.
absl::StatusOr<TracedFunction> traceFlat(const std::string &name,
                                         const std::vector<TensorSpec> &inputs,
                                         const TraceFn &fn, int64_t arity,
                                         Loc loc = Loc());

} // namespace detail

/// Traces `fn` on symbolic tensors of `inputs`. Returns the first error the
/// function made (shape mismatch, bad axis, ...), naming the operation, the
/// shapes and the C++ source line. The function's location is `loc`, the
/// line that called trace().
absl::StatusOr<TracedFunction> trace(const std::string &name,
                                     const std::vector<TensorSpec> &inputs,
                                     const TraceFn &fn,
                                     Loc loc = Loc::current());

/// Traces a callable with structured inputs and outputs (see the top of
/// this file).
template <typename Fn>
  requires(!std::is_same_v<std::decay_t<Fn>, TraceFn>)
absl::StatusOr<TracedFunction> trace(const std::string &name,
                                     const std::vector<TensorSpec> &inputs,
                                     Fn &&fn, Loc loc = Loc::current()) {
  constexpr int64_t arity = detail::tensorArity<std::decay_t<Fn>>();
  return detail::traceFlat(name, inputs,
                           detail::flatTraceFn<arity>(std::ref(fn)), arity,
                           loc);
}

/// Parses a module of the torus dialect (its text form) holding one public
/// function; `sourceName` is used in diagnostics (`file:line:col`).
absl::StatusOr<TracedFunction> parseModule(const std::string &text,
                                           const std::string &sourceName);

} // namespace torus

#endif // TORUS_TRACE_H
