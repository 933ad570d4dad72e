//===- GradientTape.cpp - tf.GradientTape over variables ------------------===//

#include "torus/distribute/GradientTape.h"

namespace torus::distribute {

std::vector<Tensor> GradientTape::gradient(const Tensor &target,
                                           const std::vector<Tensor> &sources,
                                           Loc loc) {
  // TensorFlow differentiates the sum of a non-scalar target.
  Tensor cotangent;
  if (target.valid() && target.rank() > 0)
    cotangent = onesLike(target, loc);
  return tape_.gradient(target, sources, cotangent, loc);
}

std::vector<Tensor> GradientTape::gradient(const Tensor &target,
                                           const std::vector<Variable> &sources,
                                           Loc loc) {
  std::vector<Tensor> tensors;
  for (const Variable &v : sources)
    tensors.push_back(v.read());
  return gradient(target, tensors, loc);
}

} // namespace torus::distribute
