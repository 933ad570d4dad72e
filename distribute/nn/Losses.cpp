//===- Losses.cpp - tf.keras.losses and compute_average_loss --------------===//

#include "torus/distribute/nn/Losses.h"
#include "distribute/StepTrace.h"
#include "torus/distribute/ReplicaContext.h"

namespace torus::distribute::nn {

namespace {
/// Keras's backend.epsilon().
constexpr double kEpsilon = 1e-7;

Tensor labelsAsVector(const Tensor &yTrue, Loc loc) {
  Tensor labels = yTrue;
  // [B, 1] labels are squeezed, as Keras does.
  if (labels.rank() == 2 && labels.dim(1) == 1)
    labels = reshape(labels, {labels.dim(0)}, loc);
  if (isFloat(labels.dtype()))
    labels = astype(labels, DType::I32, loc);
  return labels;
}
} // namespace

namespace losses {

Tensor sparseCategoricalCrossentropy(const Tensor &yTrue, const Tensor &yPred,
                                     bool fromLogits, Loc loc) {
  if (!yTrue.valid() || !yPred.valid())
    return Tensor();
  Tensor labels = labelsAsVector(yTrue, loc);
  Tensor logp = fromLogits ? logSoftmax(yPred, -1, loc)
                           : log(clamp(yPred, kEpsilon, 1.0 - kEpsilon, loc), loc);
  Tensor onehot = oneHot(labels, yPred.dim(-1), yPred.dtype(), -1, loc);
  return negate(sum(onehot * logp, {-1}, false, loc), loc);
}

Tensor categoricalCrossentropy(const Tensor &yTrue, const Tensor &yPred,
                               bool fromLogits, double labelSmoothing,
                               Loc loc) {
  if (!yTrue.valid() || !yPred.valid())
    return Tensor();
  Tensor target = astype(yTrue, yPred.dtype(), loc);
  if (labelSmoothing > 0) {
    double classes = static_cast<double>(yPred.dim(-1));
    target = target * (1.0 - labelSmoothing) + labelSmoothing / classes;
  }
  Tensor logp;
  if (fromLogits) {
    logp = logSoftmax(yPred, -1, loc);
  } else {
    // Scale so the class probabilities sum to one, then clip (Keras).
    Tensor p = yPred / sum(yPred, {-1}, true, loc);
    logp = log(clamp(p, kEpsilon, 1.0 - kEpsilon, loc), loc);
  }
  return negate(sum(target * logp, {-1}, false, loc), loc);
}

Tensor meanSquaredError(const Tensor &yTrue, const Tensor &yPred, Loc loc) {
  if (!yTrue.valid() || !yPred.valid())
    return Tensor();
  Tensor diff = subtract(astype(yTrue, yPred.dtype(), loc), yPred, loc);
  return mean(square(diff, loc), {-1}, false, loc);
}

} // namespace losses

Tensor Loss::operator()(const Tensor &yTrue, const Tensor &yPred,
                        const Tensor &sampleWeight, Loc loc) const {
  if (hasStrategy() && (reduction_ == Reduction::Auto ||
                        reduction_ == Reduction::SumOverBatchSize)) {
    detail::recordTraceError(absl::InvalidArgumentError(
        "Please use `tf.keras.losses.Reduction.SUM` or "
        "`tf.keras.losses.Reduction.NONE` for loss reduction when losses are "
        "used with `tf.distribute.Strategy` outside of the built-in training "
        "loops. You can implement "
        "`tf.keras.losses.Reduction.SUM_OVER_BATCH_SIZE` using global batch "
        "size like:\n```\nwith strategy.scope():\n    loss_obj = "
        "tf.keras.losses.CategoricalCrossentropy(reduction=tf.keras.losses."
        "Reduction.NONE)\n....\n    loss = tf.reduce_sum(loss_obj(labels, "
        "predictions)) * (1. / global_batch_size)\n```\nPlease see "
        "https://www.tensorflow.org/tutorials/distribute/custom_training for "
        "more details."));
    return Tensor();
  }
  Tensor losses = perExample(yTrue, yPred, loc);
  if (!losses.valid())
    return Tensor();
  if (sampleWeight.valid())
    losses = multiply(losses, astype(sampleWeight, losses.dtype(), loc), loc);
  switch (reduction_) {
  case Reduction::None:
    return losses;
  case Reduction::Sum:
    return sum(losses, {}, false, loc);
  case Reduction::Auto:
  case Reduction::SumOverBatchSize:
    return divide(sum(losses, {}, false, loc),
                  static_cast<double>(std::max<int64_t>(1, losses.numElements())),
                  loc);
  }
  return losses;
}

Tensor SparseCategoricalCrossentropy::perExample(const Tensor &yTrue,
                                                 const Tensor &yPred,
                                                 Loc loc) const {
  return losses::sparseCategoricalCrossentropy(yTrue, yPred, fromLogits_, loc);
}

Tensor CategoricalCrossentropy::perExample(const Tensor &yTrue,
                                           const Tensor &yPred,
                                           Loc loc) const {
  return losses::categoricalCrossentropy(yTrue, yPred, fromLogits_,
                                         labelSmoothing_, loc);
}

Tensor MeanSquaredError::perExample(const Tensor &yTrue, const Tensor &yPred,
                                    Loc loc) const {
  return losses::meanSquaredError(yTrue, yPred, loc);
}

Tensor computeAverageLoss(const Tensor &perExampleLoss,
                          std::optional<int64_t> globalBatchSize,
                          const Tensor &sampleWeight, Loc loc) {
  if (!perExampleLoss.valid())
    return Tensor();
  if (perExampleLoss.rank() < 1) {
    detail::recordTraceError(absl::InvalidArgumentError(
        "Invalid value passed for `per_example_loss`. Expected a tensor with "
        "at least rank 1."));
    return Tensor();
  }
  Tensor losses = perExampleLoss;
  if (sampleWeight.valid())
    losses = multiply(losses, astype(sampleWeight, losses.dtype(), loc), loc);
  int64_t global = 0;
  if (globalBatchSize) {
    global = *globalBatchSize;
  } else {
    auto replica = getReplicaContext();
    if (!replica) {
      detail::recordTraceError(absl::FailedPreconditionError(
          "You are calling `compute_average_loss` in cross replica context, "
          "while it was expected to be called in replica context."));
      return Tensor();
    }
    global = perExampleLoss.dim(0) * replica->numReplicasInSync();
  }
  Tensor total = sum(losses, {}, false, loc);
  // div_no_nan: an empty global batch gives 0.
  if (global == 0)
    return zerosLike(total, loc);
  return divide(total, static_cast<double>(global), loc);
}

} // namespace torus::distribute::nn
