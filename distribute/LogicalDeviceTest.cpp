//===- LogicalDeviceTest.cpp - TPUStrategy model parallelism (spec §8.7) --===//

#include "torus/distribute/Distribute.h"
#include "torus/distribute/GradientTape.h"
#include "torus/distribute/nn/Optimizers.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace torus::distribute {
namespace {

using namespace testing;

/// TPUStrategy on `slice` with `replicas` replicas of `shape` cores.
absl::StatusOr<TPUStrategy> modelParallel(const std::string &slice,
                                          std::vector<int64_t> shape,
                                          int64_t replicas, bool spmd = false) {
  TPUClusterResolverOptions o;
  o.acceleratorType = slice;
  TORUS_ASSIGN_OR_RETURN(auto resolver, TPUClusterResolver::create("", o));
  TORUS_ASSIGN_OR_RETURN(Topology topology, initializeTpuSystem(resolver.get()));
  TORUS_ASSIGN_OR_RETURN(DeviceAssignment assignment,
                         DeviceAssignment::build(topology, shape, std::nullopt,
                                                 replicas));
  return TPUStrategy::create(resolver, assignment, spmd);
}

HostTensor random(const Shape &shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::vector<float> v(numElements(shape));
  for (float &x : v)
    x = normal(gen);
  return HostTensor::fromVector<float>(shape, v);
}

void expectClose(const HostTensor &got, const HostTensor &want, double tol) {
  ASSERT_EQ(got.spec(), want.spec());
  auto g = got.toVector<float>(), w = want.toVector<float>();
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], w[i], tol * (1 + std::abs(w[i]))) << "element " << i;
}

TEST(LogicalDeviceTest, AssignToLogicalDeviceChecksTheId) {
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4));
  EXPECT_EQ(strategy.numCoresPerReplica(), 2);
  for (int64_t id : {2, -1}) {
    Function fn([&](const std::vector<Tensor> &in) {
      return std::vector<Tensor>{
          strategy.experimentalAssignToLogicalDevice(in[0] + in[0], id)};
    });
    EXPECT_STATUS(strategy.run(fn, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                  "`logical_core_id` to assign must be lower then total number "
                  "of logical devices per replica. Received logical device id " +
                      std::to_string(id) +
                      " but there are only total of 2 logical devices in "
                      "replica.");
  }
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy spmd,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4, true));
  Function fn([&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{spmd.experimentalAssignToLogicalDevice(in[0], 0)};
  });
  EXPECT_STATUS(spmd.run(fn, {f32(1.0f)}), absl::StatusCode::kInvalidArgument,
                "Cannot assign a tensor to a logical device in SPMD mode. To "
                "disable SPMD, Please construct the TPUStrategy with "
                "`experimental_spmd_xla_partitioning=False`");
}

TEST(LogicalDeviceTest, ExperimentalLogicalDeviceSelectsTheCoreColumn) {
  // test_logical_device_assignment: 4 replicas of 2 cores on the ring
  // (0,0),(1,0),(1,1),(0,1); logical core 1 of each is core 1 of its chip.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4));
  const std::string p = "/job:localhost/replica:0/task:0/device:TPU:";
  const std::vector<std::string> core0{p + "0", p + "2", p + "6", p + "4"};
  const std::vector<std::string> core1{p + "1", p + "3", p + "7", p + "5"};
  EXPECT_EQ(strategy.extended().workerDevices(), core0);
  {
    TORUS_ASSERT_OK_AND_ASSIGN(LogicalDeviceGuard one,
                               strategy.extended().experimentalLogicalDevice(1));
    EXPECT_EQ(strategy.extended().workerDevices(), core1);
    EXPECT_EQ(strategy.extended().parameterDevices(), core1);
    {
      // Nested: the innermost wins, then the outer one is back.
      TORUS_ASSERT_OK_AND_ASSIGN(LogicalDeviceGuard zero,
                                 strategy.extended().experimentalLogicalDevice(0));
      EXPECT_EQ(strategy.extended().workerDevices(), core0);
    }
    EXPECT_EQ(strategy.extended().workerDevices(), core1);
  }
  EXPECT_EQ(strategy.extended().workerDevices(), core0);
  // TensorFlow checks only the upper bound; -1 is numpy's last column.
  EXPECT_STATUS(strategy.extended().experimentalLogicalDevice(2),
                absl::StatusCode::kInvalidArgument,
                "`logical_device_id` not in range (was 2, but there are only 2 "
                "logical devices per replica).");
  {
    TORUS_ASSERT_OK_AND_ASSIGN(LogicalDeviceGuard last,
                               strategy.extended().experimentalLogicalDevice(-1));
    EXPECT_EQ(strategy.extended().workerDevices(), core1);
  }
  EXPECT_STATUS(strategy.extended().experimentalLogicalDevice(-3),
                absl::StatusCode::kInvalidArgument,
                "index -3 is out of bounds for axis 1 with size 2");
  // Without a device assignment there is one logical device per replica.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy plain, TPUStrategy::create());
  EXPECT_STATUS(plain.extended().experimentalLogicalDevice(1),
                absl::StatusCode::kInvalidArgument,
                "`logical_device_id` not in range (was 1, but there are only 1 "
                "logical devices per replica).");
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy mirrored, MirroredStrategy::create());
  EXPECT_EQ(mirrored.extended().experimentalLogicalDevice(0).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST(LogicalDeviceTest, SplitToLogicalDevicesChecksInTensorFlowsOrder) {
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4));
  auto splitStatus = [&](Shape shape, std::vector<int64_t> dims) {
    Function fn([&](const std::vector<Tensor> &in) {
      return std::vector<Tensor>{
          strategy.experimentalSplitToLogicalDevices(in[0], dims)};
    });
    return strategy.run(fn, {HostTensor(DType::F32, shape)}).status();
  };
  EXPECT_STATUS(splitStatus({4, 8}, {1, 2, 1}), absl::StatusCode::kInvalidArgument,
                "Length of `partition_dimensions` must equal to the rank of "
                "`tensor.shape` (2). Received len(partition_dimensions)=3.");
  EXPECT_STATUS(splitStatus({4, 7}, {1, 2}), absl::StatusCode::kInvalidArgument,
                "Tensor shape at `partition_dimensions[1]` must be divisible "
                "by corresponding value specified by `partition_dimensions` "
                "(2). Received: 7.");
  // The seed's replicate example splits [1, 2, 4, 1] over 2 logical
  // devices, which TensorFlow rejects (its missing space kept).
  EXPECT_STATUS(splitStatus({2, 4, 8, 3}, {1, 2, 4, 1}),
                absl::StatusCode::kInvalidArgument,
                "The product of `partition_dimensions` should be the same as "
                "the number of logical devices (=2). Received "
                "`partition_dimensions`=[1, 2, 4, 1],and their product is 8.");
}

TEST(LogicalDeviceTest, AddOnLogicalDeviceZero) {
  // Seed: computation_shape [1,1,1,2], one replica, tf.add on device 0.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 1));
  ASSERT_EQ(strategy.numReplicasInSync(), 1);
  Function stepFn([&](const std::vector<Tensor> &inputs) {
    Tensor output = inputs[0] + inputs[0];
    return std::vector<Tensor>{strategy.experimentalAssignToLogicalDevice(output, 0)};
  });
  HostTensor features = random({2, 5}, 1);
  TORUS_ASSERT_OK_AND_ASSIGN(auto out, strategy.run(stepFn, {features}));
  std::vector<float> want = features.toVector<float>();
  for (float &v : want)
    v *= 2;
  EXPECT_EQ(floats(out[0][0]), want);
}

TEST(LogicalDeviceTest, MegatronMlpOverReplicasAndLogicalDevices) {
  // 4 replicas x 2 logical devices on a v3-8: W1 split by columns, W2 by
  // rows (replicated activations in between); equal to the unsplit step.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4));
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy reference, OneDeviceStrategy::create());
  HostTensor w1 = random({8, 16}, 2), w2 = random({16, 4}, 3);
  auto build = [&](const Strategy &s, bool split) {
    return Function("mlp", [&, split](const std::vector<Tensor> &in) {
      Tensor a = in[1], b = in[2];
      if (split) {
        a = strategy.experimentalSplitToLogicalDevices(a, {1, 2});
        b = strategy.experimentalSplitToLogicalDevices(b, {2, 1});
      }
      return std::vector<Tensor>{matmul(relu(matmul(in[0], a)), b)};
    });
  };
  Function parallel = build(strategy, true), plain = build(reference, false);
  std::vector<HostTensor> xs;
  for (int r = 0; r < 4; ++r)
    xs.push_back(random({3, 8}, 10 + r));
  TORUS_ASSERT_OK_AND_ASSIGN(auto out,
                             strategy.run(parallel, {PerReplica(xs), w1, w2}));
  for (int r = 0; r < 4; ++r) {
    TORUS_ASSERT_OK_AND_ASSIGN(auto want, reference.run(plain, {xs[r], w1, w2}));
    expectClose(out[0][r], want[0][0], 1e-5);
  }
}

TEST(LogicalDeviceTest, ImageSplitOverEightLogicalDevices) {
  // Seed: computation_shape [1,2,2,2], one replica, inputs split
  // [1, 2, 4, 1]: width in halves, height in quarters over 8 devices.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("1x2x2x2", {1, 2, 2, 2}, 1));
  ASSERT_EQ(strategy.numCoresPerReplica(), 8);
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy reference, OneDeviceStrategy::create());
  HostTensor image = random({2, 8, 16, 3}, 5), kernel = random({3, 3, 3, 4}, 6);
  auto model = [](const Tensor &x, const Tensor &k) {
    return relu(conv2d(x, k, {1, 1}, Padding::same()));
  };
  Function split("step_fn", [&](const std::vector<Tensor> &in) {
    Tensor inputs = strategy.experimentalSplitToLogicalDevices(in[0], {1, 2, 4, 1});
    return std::vector<Tensor>{model(inputs, in[1])};
  });
  Function whole("step_fn", [&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{model(in[0], in[1])};
  });
  TORUS_ASSERT_OK_AND_ASSIGN(auto got, strategy.run(split, {image, kernel}));
  TORUS_ASSERT_OK_AND_ASSIGN(auto want, reference.run(whole, {image, kernel}));
  expectClose(got[0][0], want[0][0], 1e-5);
}

TEST(LogicalDeviceTest, TrainingWithSplitWeightsMatchesOneDevice) {
  // Data parallel over 4 replicas and model parallel over 2 logical devices
  // per replica: SGD on a column-split weight equals one device with the
  // whole batch.
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy strategy,
                             modelParallel("v3-8", {1, 1, 1, 2}, 4));
  TORUS_ASSERT_OK_AND_ASSIGN(OneDeviceStrategy one, OneDeviceStrategy::create());
  HostTensor w0 = random({8, 4}, 7), x = random({16, 8}, 8), y = random({16, 4}, 9);
  auto train = [&](const Strategy &s, bool split, const Values &inputs)
      -> absl::StatusOr<HostTensor> {
    Variable w;
    {
      TORUS_ASSIGN_OR_RETURN(Scope scope, s.scope());
      TORUS_ASSIGN_OR_RETURN(w, Variable::create(w0, {.name = "w"}));
    }
    nn::SGD sgd(0.1);
    Function step("step", [&, split](const std::vector<Tensor> &in) {
      GradientTape tape;
      Tensor weight = w.read();
      if (split)
        weight = strategy.experimentalSplitToLogicalDevices(weight, {1, 2});
      Tensor err = matmul(in[0], weight) - in[1];
      Tensor loss = sum(err * err) * (1.0 / 16);
      (void)sgd.applyGradients(tape.gradient(loss, std::vector<Tensor>{w.read()}), {w});
      return std::vector<Tensor>{};
    });
    for (int i = 0; i < 5; ++i) {
      TORUS_RETURN_IF_ERROR(s.run(step, inputs).status());
    }
    return w.components()[0];
  };
  std::vector<HostTensor> xs, ys;
  std::vector<float> xv = x.toVector<float>(), yv = y.toVector<float>();
  for (int r = 0; r < 4; ++r) {
    xs.push_back(HostTensor::fromVector<float>(
        {4, 8}, std::vector<float>(xv.begin() + r * 32, xv.begin() + (r + 1) * 32)));
    ys.push_back(HostTensor::fromVector<float>(
        {4, 4}, std::vector<float>(yv.begin() + r * 16, yv.begin() + (r + 1) * 16)));
  }
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor got,
                             train(strategy, true, {PerReplica(xs), PerReplica(ys)}));
  TORUS_ASSERT_OK_AND_ASSIGN(HostTensor want, train(one, false, {x, y}));
  expectClose(got, want, 1e-5);
}

} // namespace
} // namespace torus::distribute
