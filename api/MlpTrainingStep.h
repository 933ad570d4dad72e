//===- MlpTrainingStep.h - The MLP step tests and benchmarks compile -*- C++ -*-===//
//
// The three-layer MLP training step several tests and benchmarks trace:
// relu(x w1 + b1), relu(h w2 + b2), softmax cross-entropy of h w3 + b3,
// forward and backward (valueAndGrad) and an SGD update. Header-only, on
// the public API, for test and benchmark binaries.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_API_MLPTRAININGSTEP_H
#define TORUS_API_MLPTRAININGSTEP_H

#include "torus/Torus.h"

namespace torus::testing {

/// Mean softmax cross-entropy of `logits` [batch, classes] against integer
/// `labels` [batch].
inline Tensor softmaxCrossEntropy(const Tensor &logits, const Tensor &labels) {
  Tensor target = oneHot(labels, logits.dim(-1), logits.dtype());
  return -mean(sum(target * logSoftmax(logits), {-1}));
}

/// Shapes and update rule of mlpTrainingStep().
struct MlpStepShape {
  int64_t batch = 256, in = 784, hidden = 512, classes = 10;
  float learningRate = 0.01f;
  /// All-reduce every gradient (sum over the replicas) before the update.
  bool allReduceGrads = false;
};

/// (w1, b1, w2, b2, w3, b3, x, labels) -> (the six updated parameters,
/// loss).
inline absl::StatusOr<TracedFunction> mlpTrainingStep(const MlpStepShape &s) {
  std::vector<TensorSpec> specs = {
      {DType::F32, {s.in, s.hidden}},      {DType::F32, {s.hidden}},
      {DType::F32, {s.hidden, s.hidden}},  {DType::F32, {s.hidden}},
      {DType::F32, {s.hidden, s.classes}}, {DType::F32, {s.classes}},
      {DType::F32, {s.batch, s.in}},       {DType::I32, {s.batch}}};
  return trace("mlp_step", specs, [=](const std::vector<Tensor> &a) {
    auto vg = valueAndGrad([](const std::vector<Tensor> &p) {
      Tensor h = relu(matmul(p[6], p[0]) + p[1]);
      h = relu(matmul(h, p[2]) + p[3]);
      return std::vector<Tensor>{
          softmaxCrossEntropy(matmul(h, p[4]) + p[5], p[7])};
    })(a);
    std::vector<Tensor> out;
    for (size_t i = 0; i < 6; ++i) {
      Tensor g = s.allReduceGrads ? allReduce(vg.grads[i]) : vg.grads[i];
      out.push_back(a[i] - g * s.learningRate);
    }
    out.push_back(vg.values[0]);
    return out;
  });
}

} // namespace torus::testing

#endif // TORUS_API_MLPTRAININGSTEP_H
