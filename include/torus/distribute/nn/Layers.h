//===- Layers.h - Keras layers: Layer, Dense, Sequential --------*- C++ -*-===//
//
//   auto model = nn::Sequential::create(
//       {nn::Dense::make(2, {.inputShape = Shape{5}})});     // StatusOr
//   Tensor logits = (*model)(features, /*training=*/true);  // in run()
//
// Weights are Variables created through the current strategy, when the
// layer is built: at creation when the input shape is known, else at its
// first call (inside a replica function; run() traces the function again so
// the new variables become inputs of the step).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_NN_LAYERS_H
#define TORUS_DISTRIBUTE_NN_LAYERS_H

#include "torus/Status.h"
#include "torus/Tensor.h"
#include "torus/distribute/Variable.h"
#include "torus/distribute/nn/Activations.h"
#include "torus/distribute/nn/Initializers.h"
#include "torus/distribute/nn/Trackable.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torus::distribute::nn {

class Layer : public Trackable {
public:
  explicit Layer(std::string name);
  virtual ~Layer() = default;

  const std::string &name() const { return name_; }
  bool built() const { return built_; }

  /// Builds (first call) and applies the layer. Errors are recorded in the
  /// replica function being traced and returned by run().
  Tensor operator()(const Tensor &x, bool training = false);
  /// Creates the weights for inputs of `inputShape` (batch dimension
  /// first; it is ignored).
  absl::Status build(const Shape &inputShape);

  virtual std::vector<Variable> weights() const;
  virtual std::vector<Variable> trainableWeights() const;
  std::vector<Variable> variables() const { return weights(); }
  std::vector<Variable> trainableVariables() const {
    return trainableWeights();
  }
  /// "kernel", "bias", ... relative to this layer.
  std::vector<std::pair<std::string, Variable>>
  trackedVariables() const override;

protected:
  virtual absl::Status buildWeights(const Shape &inputShape) = 0;
  virtual Tensor call(const Tensor &x, bool training) = 0;
  /// add_weight: a variable named "{layer}/{name}".
  absl::StatusOr<Variable> addWeight(const std::string &name,
                                     const Shape &shape,
                                     const Initializer &initializer,
                                     bool trainable = true,
                                     DType dtype = DType::F32);

  std::vector<std::pair<std::string, Variable>> weights_;

private:
  std::string name_;
  bool built_ = false;
};

/// A unique Keras-style layer name: "dense", "dense_1", ...
std::string uniqueLayerName(const std::string &base);

struct DenseOptions {
  std::string activation = "linear";
  bool useBias = true;
  /// Default glorot_uniform and zeros.
  Initializer kernelInitializer;
  Initializer biasInitializer;
  /// input_shape (without the batch dimension): builds at creation.
  std::optional<Shape> inputShape;
  std::string name;
};

/// tf.keras.layers.Dense: activation(x @ kernel + bias).
class Dense : public Layer {
public:
  using Options = DenseOptions;
  Dense(int64_t units, Options options);
  static std::shared_ptr<Dense> make(int64_t units, Options options = {}) {
    return std::make_shared<Dense>(units, std::move(options));
  }

  int64_t units() const { return units_; }
  const std::optional<Shape> &inputShape() const { return options_.inputShape; }
  Variable kernel() const;
  Variable bias() const;

protected:
  absl::Status buildWeights(const Shape &inputShape) override;
  Tensor call(const Tensor &x, bool training) override;

private:
  int64_t units_;
  Options options_;
  Activation activation_;
  absl::Status activationStatus_;
};

/// tf.keras.Sequential.
class Sequential : public Layer {
public:
  /// Builds every layer now when the first one declares its input shape.
  static absl::StatusOr<std::shared_ptr<Sequential>>
  create(std::vector<std::shared_ptr<Layer>> layers, std::string name = "");

  const std::vector<std::shared_ptr<Layer>> &layers() const { return layers_; }
  /// In layer order: layer 0's weights, then layer 1's, ...
  std::vector<std::pair<std::string, Variable>>
  trackedVariables() const override;
  std::vector<Variable> weights() const override;
  std::vector<Variable> trainableWeights() const override;

  explicit Sequential(std::vector<std::shared_ptr<Layer>> layers,
                      std::string name);

protected:
  absl::Status buildWeights(const Shape &inputShape) override;
  Tensor call(const Tensor &x, bool training) override;

private:
  std::vector<std::shared_ptr<Layer>> layers_;
};

} // namespace torus::distribute::nn

#endif // TORUS_DISTRIBUTE_NN_LAYERS_H
