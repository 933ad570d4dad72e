//===- tpu_custom_training_loop.cpp - The TPUStrategy page's training loop ===//
//
// The custom training loop of the tf.distribute.TPUStrategy page, line by
// line in C++ (docs/strategy.md walks through it next to the Python):
//
//   resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu='')
//   tf.config.experimental_connect_to_cluster(resolver)
//   tf.tpu.experimental.initialize_tpu_system(resolver)
//   strategy = tf.distribute.TPUStrategy(resolver)
//   with strategy.scope():
//     model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(5,))])
//     optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
//   def dataset_fn(ctx): ... dataset.repeat().batch(1, drop_remainder=True)
//   dist_dataset = strategy.experimental_distribute_datasets_from_function(
//       dataset_fn)
//   iterator = iter(dist_dataset)
//   @tf.function()
//   def train_step(iterator):
//     def step_fn(inputs): ...GradientTape, sparse_categorical_crossentropy,
//                          optimizer.apply_gradients
//     strategy.run(step_fn, args=(next(iterator),))
//   train_step(iterator)
//
// The emulated slice is a v3-8 (8 replicas). The program then checks that
// every replica holds the same weights after the steps.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Layers.h"
#include "torus/distribute/nn/Losses.h"
#include "torus/distribute/nn/Optimizers.h"

#include <cstdio>
#include <cstring>
#include <random>

using namespace torus::distribute;
using torus::DType;
using torus::HostTensor;
using torus::Shape;
using torus::Tensor;

namespace {

absl::Status trainOnTpu() {
  TORUS_ASSIGN_OR_RETURN(auto resolver, TPUClusterResolver::create(""));
  TORUS_ASSIGN_OR_RETURN(Topology topology, initializeTpuSystem(resolver.get()));
  TORUS_ASSIGN_OR_RETURN(TPUStrategy strategy, TPUStrategy::create(resolver));
  std::printf("TPU slice %s: %lld replicas in sync\n", topology.toString().c_str(),
              static_cast<long long>(strategy.numReplicasInSync()));

  std::shared_ptr<nn::Sequential> model;
  nn::SGD optimizer(/*learningRate=*/0.1);
  {
    TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
    nn::setRandomSeed(8); // tf.random.set_seed: reproducible weights
    TORUS_ASSIGN_OR_RETURN(
        model, nn::Sequential::create({nn::Dense::make(2, {.inputShape = Shape{5}})}));
  }

  auto datasetFn = [](const InputContext &) -> absl::StatusOr<Dataset> {
    std::mt19937 gen(0);
    std::uniform_real_distribution<float> uniform(0.f, 1.f);
    std::vector<float> x(2 * 5);
    for (float &v : x)
      v = uniform(gen);
    std::vector<int64_t> y = {static_cast<int64_t>(gen() % 2),
                              static_cast<int64_t>(gen() % 2)};
    TORUS_ASSIGN_OR_RETURN(
        Dataset dataset,
        Dataset::fromTensorSlices({HostTensor::fromVector<float>({2, 5}, x),
                                   HostTensor::fromVector<int64_t>({2, 1}, y)}));
    return dataset.repeat().batch(1, /*dropRemainder=*/true);
  };
  TORUS_ASSIGN_OR_RETURN(
      DistributedDataset distDataset,
      strategy.experimentalDistributeDatasetsFromFunction(datasetFn));
  TORUS_ASSIGN_OR_RETURN(DistributedIterator iterator, distDataset.makeIterator());

  Function stepFn("step_fn", [&](const std::vector<Tensor> &inputs) {
    const Tensor &features = inputs[0], &labels = inputs[1];
    GradientTape tape;
    Tensor logits = (*model)(features, /*training=*/true);
    Tensor loss = nn::losses::sparseCategoricalCrossentropy(labels, logits);
    std::vector<Variable> vars = model->trainableVariables();
    std::vector<Tensor> grads = tape.gradient(loss, vars);
    (void)optimizer.applyGradients(grads, vars);
    return std::vector<Tensor>{loss};
  });
  auto trainStep = [&](DistributedIterator &it) -> absl::Status {
    TORUS_ASSIGN_OR_RETURN(Values next, it.next());
    TORUS_ASSIGN_OR_RETURN(auto losses, strategy.run(stepFn, next));
    TORUS_ASSIGN_OR_RETURN(HostTensor mean,
                           strategy.reduce(ReduceOp::Mean, losses[0], 0));
    std::printf("loss of replicas 0 and 1: %s %s, mean %s\n",
                losses[0][0].toString().c_str(), losses[0][1].toString().c_str(),
                mean.toString().c_str());
    return absl::OkStatus();
  };

  Variable kernel = model->trainableVariables()[0];
  HostTensor before = kernel.components()[0];
  TORUS_RETURN_IF_ERROR(trainStep(iterator));
  TORUS_RETURN_IF_ERROR(trainStep(iterator));
  std::printf("kernel before: %s\n", before.toString().c_str());
  std::printf("kernel after:  %s\n", kernel.components()[0].toString().c_str());
  std::printf("%s\n", kernel.toString().substr(0, 120).c_str());

  bool same = true;
  for (const HostTensor &c : kernel.components())
    same = same && std::memcmp(c.rawData(), kernel.components()[0].rawData(),
                               c.sizeInBytes()) == 0;
  bool moved = std::memcmp(before.rawData(), kernel.components()[0].rawData(),
                           before.sizeInBytes()) != 0;
  std::printf("check: the %s's %zu components are identical: %s\n",
              kernel.typeName().c_str(), kernel.components().size(),
              same ? "yes" : "NO");
  // As in TensorFlow, sparse_categorical_crossentropy without from_logits
  // takes the Dense outputs as probabilities clipped to [1e-7, 1 - 1e-7]:
  // with these weights the label outputs start inside, so the loss falls.
  std::printf("check: SGD changed the kernel: %s\n", moved ? "yes" : "NO");
  if (!same || !moved)
    return absl::InternalError("checks failed");
  return absl::OkStatus();
}

} // namespace

int main() {
  absl::Status status = trainOnTpu();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\nFAILED\n", status.ToString().c_str());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
