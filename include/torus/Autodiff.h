//===- Autodiff.h - Gradients of traced computations ------------*- C++ -*-===//
//
// Reverse-mode automatic differentiation inside a trace. Every operation on
// torus::Tensor is already recorded, so the trace is the tape: asking for a
// gradient emits the backward ops into the function being traced.
//
//   auto [loss, grads] = torus::valueAndGrad(lossFn, {0, 1})(inputs);
//
//   torus::GradientTape tape;                 // tf.GradientTape-like
//   Tensor loss = lossFn(w, b, x, y);
//   std::vector<Tensor> g = tape.gradient(loss, {w, b});
//
// Only floating-point tensors have gradients. Asking for the gradient of a
// non-scalar without a cotangent, or with respect to an integer tensor, is a
// tracing error (returned by torus::trace), as is an op with no rule.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_AUTODIFF_H
#define TORUS_AUTODIFF_H

#include "torus/Tensor.h"

#include <functional>
#include <vector>

namespace torus {

/// d`output`/d`wrt[i]`, contracted with `cotangent` (required unless
/// `output` is a scalar). A `wrt` that `output` does not depend on gets
/// zeros.
std::vector<Tensor> gradients(const Tensor &output,
                              const std::vector<Tensor> &wrt,
                              const Tensor &cotangent = Tensor(),
                              Loc loc = Loc::current());

/// A function of traced tensors to traced tensors, as grad() and
/// valueAndGrad() take it.
using TensorFn = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// The outputs of `fn`, and the gradients of its first output with respect
/// to its arguments `argnums` (default: every floating-point argument, in
/// order; integer arguments such as labels are skipped).
struct ValueAndGrad {
  /// Every output of `fn`.
  std::vector<Tensor> values;
  /// d values[0] / d argument, one per argnum.
  std::vector<Tensor> grads;
};
/// Wraps `fn` into a function returning its outputs and the gradients of
/// its first output with respect to the arguments `argnums` (default: every
/// floating-point argument). Called while tracing, a function that returns
/// nothing or an argnum out of range records a trace error.
std::function<ValueAndGrad(const std::vector<Tensor> &)>
valueAndGrad(TensorFn fn, std::vector<int> argnums = {});

/// Just the gradients of `fn`'s first output (see valueAndGrad).
TensorFn grad(TensorFn fn, std::vector<int> argnums = {});

/// tf.GradientTape: `gradient(target, sources)` differentiates what was
/// computed. Every tensor is watched (the trace records all ops). A
/// non-persistent tape answers once, as in TensorFlow. One class serves
/// torus and torus::distribute (whose header names it too), so code using
/// both namespaces is not ambiguous.
class GradientTape {
public:
  /// A tape; a `persistent` one may answer gradient() more than once.
  explicit GradientTape(bool persistent = false) : persistent_(persistent) {}
  /// Kept for familiarity: every tensor is already watched.
  void watch(const Tensor &) {}
  /// The gradients of `target` with respect to `sources` (gradients()), with
  /// `outputGradient` as the cotangent; without one, a non-scalar target is
  /// summed (TensorFlow's implicit all-ones gradient). A second call on a
  /// non-persistent tape records the trace error "A non-persistent GradientTape
  /// can only be used to compute one set of gradients (or jacobians)" and
  /// returns invalid tensors.
  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Tensor> &sources,
                               const Tensor &outputGradient = Tensor(),
                               Loc loc = Loc::current());
  ///@{
  /// The same with sources that are read into the trace, such as
  /// torus::distribute::Variable (differentiated at their value in the step
  /// being traced, `read()`).
  template <typename Source>
    requires requires(const Source &s) {
      { s.read() } -> std::convertible_to<Tensor>;
    }
  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Source> &sources,
                               Loc loc = Loc::current()) {
    std::vector<Tensor> tensors;
    for (const Source &s : sources)
      tensors.push_back(s.read());
    return gradient(target, tensors, Tensor(), loc);
  }
  template <typename Source>
    requires requires(const Source &s) {
      { s.read() } -> std::convertible_to<Tensor>;
    }
  std::vector<Tensor> gradient(const Tensor &target,
                               std::initializer_list<Source> sources,
                               Loc loc = Loc::current()) {
    return gradient(target, std::vector<Source>(sources), loc);
  }
  ///@}

private:
  bool persistent_;
  bool used_ = false;
};

} // namespace torus

#endif // TORUS_AUTODIFF_H
