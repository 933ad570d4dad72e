//===- Layers.cpp - Keras layers: Layer, Dense, Sequential ----------------===//

#include "torus/distribute/nn/Layers.h"
#include "distribute/StepTrace.h"

#include <map>
#include <mutex>

namespace torus::distribute::nn {

std::string uniqueLayerName(const std::string &base) {
  static std::mutex mutex;
  static std::map<std::string, int64_t> counts;
  std::lock_guard<std::mutex> lock(mutex);
  int64_t n = counts[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

Layer::Layer(std::string name) : name_(std::move(name)) {}

absl::Status Layer::build(const Shape &inputShape) {
  if (built_)
    return absl::OkStatus();
  TORUS_RETURN_IF_ERROR(buildWeights(inputShape));
  built_ = true;
  return absl::OkStatus();
}

Tensor Layer::operator()(const Tensor &x, bool training) {
  if (!x.valid())
    return Tensor();
  if (!built_) {
    absl::Status s = build(x.shape());
    if (!s.ok()) {
      detail::recordTraceError(s);
      return Tensor();
    }
  }
  return call(x, training);
}

std::vector<Variable> Layer::weights() const {
  std::vector<Variable> out;
  for (const auto &[name, v] : weights_)
    out.push_back(v);
  return out;
}

std::vector<Variable> Layer::trainableWeights() const {
  std::vector<Variable> out;
  for (const Variable &v : weights())
    if (v.trainable())
      out.push_back(v);
  return out;
}

std::vector<std::pair<std::string, Variable>> Layer::trackedVariables() const {
  return weights_;
}

absl::StatusOr<Variable> Layer::addWeight(const std::string &name,
                                          const Shape &shape,
                                          const Initializer &initializer,
                                          bool trainable, DType dtype) {
  VariableOptions options;
  options.name = name_ + "/" + name;
  options.trainable = trainable;
  TORUS_ASSIGN_OR_RETURN(Variable v,
                         Variable::create(initializer(shape, dtype), options));
  weights_.push_back({name, v});
  return v;
}

//===----------------------------------------------------------------------===//
// Dense
//===----------------------------------------------------------------------===//

Dense::Dense(int64_t units, Options options)
    : Layer(options.name.empty() ? uniqueLayerName("dense") : options.name),
      units_(units), options_(std::move(options)) {
  if (!options_.kernelInitializer)
    options_.kernelInitializer = initializers::glorotUniform();
  if (!options_.biasInitializer)
    options_.biasInitializer = initializers::zeros();
  auto activation = activations::get(options_.activation);
  if (activation.ok())
    activation_ = *activation;
  else
    activationStatus_ = activation.status();
}

Variable Dense::kernel() const {
  return weights_.empty() ? Variable() : weights_[0].second;
}
Variable Dense::bias() const {
  return weights_.size() < 2 ? Variable() : weights_[1].second;
}

absl::Status Dense::buildWeights(const Shape &inputShape) {
  TORUS_RETURN_IF_ERROR(activationStatus_);
  if (inputShape.empty())
    return absl::InvalidArgumentError(
        "The last dimension of the inputs to a Dense layer should be "
        "defined. Found None. Full input shape received: ()");
  int64_t inputDim = inputShape.back();
  TORUS_ASSIGN_OR_RETURN(Variable k, addWeight("kernel", {inputDim, units_},
                                               options_.kernelInitializer));
  (void)k;
  if (options_.useBias) {
    TORUS_ASSIGN_OR_RETURN(Variable b,
                           addWeight("bias", {units_}, options_.biasInitializer));
    (void)b;
  }
  return absl::OkStatus();
}

Tensor Dense::call(const Tensor &x, bool training) {
  (void)training;
  Tensor y = matmul(x, kernel().read());
  if (options_.useBias)
    y = y + bias().read();
  return activation_(y);
}

//===----------------------------------------------------------------------===//
// Sequential
//===----------------------------------------------------------------------===//

Sequential::Sequential(std::vector<std::shared_ptr<Layer>> layers,
                       std::string name)
    : Layer(name.empty() ? uniqueLayerName("sequential") : std::move(name)),
      layers_(std::move(layers)) {}

absl::StatusOr<std::shared_ptr<Sequential>>
Sequential::create(std::vector<std::shared_ptr<Layer>> layers,
                   std::string name) {
  auto model = std::make_shared<Sequential>(std::move(layers), std::move(name));
  if (!model->layers_.empty())
    if (auto *dense = dynamic_cast<Dense *>(model->layers_[0].get());
        dense && dense->inputShape()) {
      Shape shape = *dense->inputShape();
      shape.insert(shape.begin(), 1); // a batch dimension
      TORUS_RETURN_IF_ERROR(model->build(shape));
    }
  return model;
}

absl::Status Sequential::buildWeights(const Shape &inputShape) {
  // Build layer by layer, feeding each the previous one's output shape.
  Shape shape = inputShape;
  for (const auto &layer : layers_) {
    TORUS_RETURN_IF_ERROR(layer->build(shape));
    if (auto *dense = dynamic_cast<Dense *>(layer.get()))
      shape.back() = dense->units();
  }
  return absl::OkStatus();
}

Tensor Sequential::call(const Tensor &x, bool training) {
  Tensor y = x;
  for (const auto &layer : layers_)
    y = (*layer)(y, training);
  return y;
}

std::vector<Variable> Sequential::weights() const {
  std::vector<Variable> out;
  for (const auto &layer : layers_)
    for (const Variable &v : layer->weights())
      out.push_back(v);
  return out;
}

std::vector<Variable> Sequential::trainableWeights() const {
  std::vector<Variable> out;
  for (const auto &layer : layers_)
    for (const Variable &v : layer->trainableWeights())
      out.push_back(v);
  return out;
}

std::vector<std::pair<std::string, Variable>>
Sequential::trackedVariables() const {
  std::vector<std::pair<std::string, Variable>> out;
  for (size_t i = 0; i < layers_.size(); ++i)
    for (const auto &[path, v] : layers_[i]->trackedVariables())
      out.push_back({"layer-" + std::to_string(i) + "/" + path, v});
  return out;
}

} // namespace torus::distribute::nn
