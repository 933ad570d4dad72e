//===- tpu_model_parallelism.cpp - TPUStrategy's logical devices ----------===//
//
// The model-parallel examples of the tf.distribute.TPUStrategy page:
//
//  1. computation_shape=[1,1,1,2], num_replicas=1: tf.add on logical
//     device 0 (experimental_assign_to_logical_device);
//  2. computation_shape=[1,2,2,2], num_replicas=1: an image tensor split
//     [1, 2, 4, 1] over 8 logical devices (width in halves, height in
//     quarters) before the model (experimental_split_to_logical_devices);
//  3. computation_shape=[1,1,1,2], num_replicas=4: the page's
//     experimental_replicate_to_logical_devices example. As printed it splits
//     [1, 2, 4, 1] over 2 logical devices, which TensorFlow rejects with the
//     ValueError shown; the same step with [1, 2, 1, 1] runs.
//
// Each partitioned result is checked against the same step on one device.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"

#include <cmath>
#include <cstdio>
#include <random>

using namespace torus::distribute;
using torus::DType;
using torus::HostTensor;
using torus::Shape;
using torus::Tensor;

namespace {

HostTensor randomTensor(const Shape &shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::vector<float> v(torus::numElements(shape));
  for (float &x : v)
    x = normal(gen);
  return HostTensor::fromVector<float>(shape, v);
}

float maxDifference(const HostTensor &a, const HostTensor &b) {
  float worst = 0;
  auto x = a.toVector<float>(), y = b.toVector<float>();
  for (size_t i = 0; i < x.size(); ++i)
    worst = std::max(worst, std::abs(x[i] - y[i]));
  return worst;
}

/// TPUStrategy with a device assignment of `computationShape` on `slice`.
absl::StatusOr<TPUStrategy> strategyFor(const std::string &slice,
                                        std::vector<int64_t> computationShape,
                                        int64_t numReplicas) {
  TPUClusterResolverOptions options;
  options.acceleratorType = slice;
  TORUS_ASSIGN_OR_RETURN(auto resolver, TPUClusterResolver::create("", options));
  TORUS_ASSIGN_OR_RETURN(Topology topology, initializeTpuSystem(resolver.get()));
  TORUS_ASSIGN_OR_RETURN(
      DeviceAssignment deviceAssignment,
      DeviceAssignment::build(topology, computationShape, std::nullopt,
                              numReplicas));
  return TPUStrategy::create(resolver, deviceAssignment);
}

absl::Status assignExample() {
  std::printf("1. computation_shape=[1,1,1,2], num_replicas=1\n");
  TORUS_ASSIGN_OR_RETURN(TPUStrategy strategy, strategyFor("v3-8", {1, 1, 1, 2}, 1));
  std::printf("   %lld replica of %lld logical devices\n",
              static_cast<long long>(strategy.numReplicasInSync()),
              static_cast<long long>(strategy.numCoresPerReplica()));
  Function stepFn("step_fn", [&](const std::vector<Tensor> &inputs) {
    Tensor features = inputs[0];
    Tensor output = features + features;
    // Add operation will be executed on logical device 0.
    output = strategy.experimentalAssignToLogicalDevice(output, 0);
    return std::vector<Tensor>{output};
  });
  HostTensor features = randomTensor({2, 5}, 1);
  TORUS_ASSIGN_OR_RETURN(auto out, strategy.run(stepFn, {features}));
  std::printf("   features %s\n   output   %s\n", features.toString(4).c_str(),
              out[0][0].toString(4).c_str());
  for (int64_t i = 0; i < features.numElements(); ++i)
    if (out[0][0].data<float>()[i] != 2 * features.data<float>()[i])
      return absl::InternalError("output != features + features");
  return absl::OkStatus();
}

Tensor model(const Tensor &images, const Tensor &kernel) {
  return torus::relu(torus::conv2d(images, kernel, {1, 1}, torus::Padding::same()));
}

absl::Status splitExample() {
  std::printf("2. computation_shape=[1,2,2,2], num_replicas=1, inputs split "
              "[1, 2, 4, 1]\n");
  // An 8-core slice whose mesh fits [1,2,2,2]: one chip along x, two along
  // y and z, two cores each.
  TORUS_ASSIGN_OR_RETURN(TPUStrategy strategy,
                         strategyFor("1x2x2x2", {1, 2, 2, 2}, 1));
  Function stepFn("step_fn", [&](const std::vector<Tensor> &in) {
    Tensor inputs =
        strategy.experimentalSplitToLogicalDevices(in[0], {1, 2, 4, 1});
    // model() function will be executed on 8 logical devices with `inputs`
    // split 2 * 4 ways.
    return std::vector<Tensor>{model(inputs, in[1])};
  });
  HostTensor images = randomTensor({4, 16, 32, 3}, 2);
  HostTensor kernel = randomTensor({3, 3, 3, 8}, 3);
  TORUS_ASSIGN_OR_RETURN(auto split, strategy.run(stepFn, {images, kernel}));
  TORUS_ASSIGN_OR_RETURN(OneDeviceStrategy one, OneDeviceStrategy::create());
  Function whole("step_fn", [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{model(in[0], in[1])};
  });
  TORUS_ASSIGN_OR_RETURN(auto reference, one.run(whole, {images, kernel}));
  float diff = maxDifference(split[0][0], reference[0][0]);
  std::printf("   output %s on 8 logical devices; largest difference from one "
              "device %.2e\n",
              split[0][0].spec().toString().c_str(), diff);
  if (diff > 1e-4f)
    return absl::InternalError("the split model differs from one device");
  return absl::OkStatus();
}

absl::Status replicateExample() {
  std::printf("3. computation_shape=[1,1,1,2], num_replicas=4\n");
  TORUS_ASSIGN_OR_RETURN(TPUStrategy strategy, strategyFor("v3-8", {1, 1, 1, 2}, 4));
  auto stepFor = [&](std::vector<int64_t> partitionDimensions) {
    return Function("step_fn", [&, partitionDimensions](
                                   const std::vector<Tensor> &in) {
      Tensor images = strategy.experimentalSplitToLogicalDevices(
          in[0], partitionDimensions);
      Tensor labels = in[1];
      Tensor output = torus::mean(model(images, in[2]), {1, 2});
      // For loss calculation, all logical devices share the same logits
      // and labels.
      labels = strategy.experimentalReplicateToLogicalDevices(labels);
      output = strategy.experimentalReplicateToLogicalDevices(output);
      Tensor loss = torus::mean(torus::square(output - labels));
      return std::vector<Tensor>{loss};
    });
  };
  std::vector<HostTensor> images, labels;
  for (uint32_t r = 0; r < 4; ++r) {
    images.push_back(randomTensor({2, 8, 16, 3}, 10 + r));
    labels.push_back(randomTensor({2, 8}, 20 + r));
  }
  HostTensor kernel = randomTensor({3, 3, 3, 8}, 4);
  Values args = {PerReplica(images), PerReplica(labels), kernel};
  auto bad = strategy.run(stepFor({1, 2, 4, 1}), args);
  std::printf("   split [1, 2, 4, 1]: %s\n", bad.status().ToString().c_str());
  if (bad.ok())
    return absl::InternalError("expected TensorFlow's ValueError");
  TORUS_ASSIGN_OR_RETURN(auto losses, strategy.run(stepFor({1, 2, 1, 1}), args));
  TORUS_ASSIGN_OR_RETURN(HostTensor mean,
                         strategy.reduce(ReduceOp::Mean, losses[0], std::nullopt));
  std::printf("   split [1, 2, 1, 1]: per-replica loss %s, mean %s\n",
              losses[0].toString().c_str(), mean.toString().c_str());
  return absl::OkStatus();
}

} // namespace

int main() {
  for (auto example : {assignExample, splitExample, replicateExample}) {
    absl::Status status = example();
    if (!status.ok()) {
      std::fprintf(stderr, "error: %s\nFAILED\n", status.ToString().c_str());
      return 1;
    }
  }
  std::printf("PASSED\n");
  return 0;
}
