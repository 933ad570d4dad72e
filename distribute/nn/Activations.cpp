//===- Activations.cpp - tf.keras.activations -----------------------------===//

#include "torus/distribute/nn/Activations.h"

namespace torus::distribute::nn::activations {

Tensor linear(const Tensor &x) { return x; }
Tensor relu(const Tensor &x) { return torus::relu(x); }
Tensor sigmoid(const Tensor &x) { return torus::sigmoid(x); }
Tensor tanh(const Tensor &x) { return torus::tanh(x); }
Tensor softmax(const Tensor &x) { return torus::softmax(x, -1); }

absl::StatusOr<Activation> get(const std::string &name) {
  if (name.empty() || name == "linear")
    return Activation(linear);
  if (name == "relu")
    return Activation(relu);
  if (name == "sigmoid")
    return Activation(sigmoid);
  if (name == "tanh")
    return Activation(tanh);
  if (name == "softmax")
    return Activation(softmax);
  return absl::NotFoundError("Unknown activation function: " + name +
                             ". Please ensure you are using a "
                             "`keras.utils.custom_object_scope` and that this "
                             "object is included in the scope.");
}

} // namespace torus::distribute::nn::activations
