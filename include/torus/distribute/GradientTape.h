//===- GradientTape.h - tf.GradientTape over variables ----------*- C++ -*-===//
//
// torus::GradientTape, plus what TensorFlow's tape does that the core one
// leaves to the caller: sources may be Variables (their value in the step
// being traced), and a non-scalar target is summed (TensorFlow's implicit
// all-ones output gradient).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_GRADIENTTAPE_H
#define TORUS_DISTRIBUTE_GRADIENTTAPE_H

#include "torus/Autodiff.h"
#include "torus/distribute/Variable.h"

#include <vector>

namespace torus::distribute {

class GradientTape {
public:
  explicit GradientTape(bool persistent = false) : tape_(persistent) {}
  void watch(const Tensor &t) { tape_.watch(t); }

  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Tensor> &sources,
                               Loc loc = Loc::current());
  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Variable> &sources,
                               Loc loc = Loc::current());

private:
  torus::GradientTape tape_;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_GRADIENTTAPE_H
