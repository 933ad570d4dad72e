//===- ExecutorStepsTest.cpp - The on-device loop of steps_per_run --------===//
//
// Several steps per host call: loop-carried outputs feed the next step's
// inputs, per-step inputs are sliced from a stacked host tensor, the rest
// are constant; results are compared with the same loop computed naively.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

constexpr int64_t kW = 6;

// inputs: w f32[6] (carried from output 0), x f32[6] (per step), lr f32[]
//         (constant), step i32[] (carried from output 2)
// outputs: w' = w - lr * all_reduce_sum(x * w), last f32[6] = x * w,
//          step' = step + 1
void sgdEntry(void **buffers) {
  const float *w = static_cast<const float *>(buffers[0]);
  const float *x = static_cast<const float *>(buffers[1]);
  const float lr = *static_cast<const float *>(buffers[2]);
  const int32_t step = *static_cast<const int32_t *>(buffers[3]);
  float *wOut = static_cast<float *>(buffers[4]);
  float *last = static_cast<float *>(buffers[5]);
  int32_t *stepOut = static_cast<int32_t *>(buffers[6]);
  float grad[kW];
  for (int64_t i = 0; i < kW; ++i) {
    grad[i] = x[i] * w[i];
    last[i] = grad[i];
  }
  __torus_collective(0, grad, grad);
  for (int64_t i = 0; i < kW; ++i)
    wOut[i] = w[i] - lr * grad[i];
  *stepOut = step + 1;
}

Program sgd(int64_t replicas) {
  Program p;
  p.spec.name = "sgd";
  p.spec.numReplicas = replicas;
  TensorSpec vec{DType::F32, {kW}};
  p.spec.inputs = {vec, vec, TensorSpec{DType::F32, {}},
                   TensorSpec{DType::I32, {}}};
  p.spec.outputs = {vec, vec, TensorSpec{DType::I32, {}}};
  CollectiveSpec c;
  c.operand = vec;
  p.spec.collectives = {c};
  p.entry = &sgdEntry;
  return p;
}

float xAt(int64_t step, int64_t replica, int64_t i) {
  return static_cast<float>((step * 5 + replica * 3 + i) % 7) * 0.125f - 0.3f;
}

RunOptions loopOptions(int64_t steps) {
  RunOptions options;
  options.stepsPerRun = steps;
  options.carried = {{0, 0}, {2, 3}};
  options.perStepInputs = {1};
  return options;
}

std::vector<std::vector<HostTensor>> loopInputs(int64_t replicas,
                                                int64_t steps) {
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (int64_t r = 0; r < replicas; ++r) {
    std::vector<float> w(kW, 1.0f), xs;
    for (int64_t s = 0; s < steps; ++s)
      for (int64_t i = 0; i < kW; ++i)
        xs.push_back(xAt(s, r, i));
    inputs[r].push_back(HostTensor::fromVector<float>({kW}, w));
    inputs[r].push_back(HostTensor::fromVector<float>({steps, kW}, xs));
    inputs[r].push_back(HostTensor::scalar<float>(0.5f));
    inputs[r].push_back(HostTensor::scalar<int32_t>(10));
  }
  return inputs;
}

TEST(ExecutorStepsTest, CarriedAndPerStepInputsMatchANaiveLoop) {
  const int64_t n = 4, steps = 5;
  auto executor = Executor::create(n);
  ASSERT_TRUE(executor.ok());
  RunStats stats;
  RunOptions options = loopOptions(steps);
  options.stats = &stats;
  auto result = (*executor)->run(sgd(n), loopInputs(n, steps), options);
  ASSERT_TRUE(result.ok()) << result.status();

  // The same loop, naively.
  std::vector<std::vector<float>> w(n, std::vector<float>(kW, 1.0f));
  std::vector<std::vector<float>> last(n, std::vector<float>(kW));
  for (int64_t s = 0; s < steps; ++s) {
    std::vector<float> sum(kW);
    for (int64_t i = 0; i < kW; ++i) {
      float acc = xAt(s, 0, i) * w[0][i];
      for (int64_t r = 1; r < n; ++r)
        acc += xAt(s, r, i) * w[r][i];
      sum[i] = acc;
    }
    for (int64_t r = 0; r < n; ++r)
      for (int64_t i = 0; i < kW; ++i) {
        last[r][i] = xAt(s, r, i) * w[r][i];
        w[r][i] = w[r][i] - 0.5f * sum[i];
      }
  }
  for (int64_t r = 0; r < n; ++r) {
    auto gotW = (*result)[r][0].data<float>();
    auto gotLast = (*result)[r][1].data<float>();
    for (int64_t i = 0; i < kW; ++i) {
      EXPECT_EQ(gotW[i], w[r][i]) << "replica " << r << " element " << i;
      EXPECT_EQ(gotLast[i], last[r][i]) << "replica " << r;
    }
    EXPECT_EQ((*result)[r][2].data<int32_t>()[0], 10 + steps);
  }
  EXPECT_EQ(stats.steps, steps);
  EXPECT_GT(stats.hostTime, absl::ZeroDuration());
  EXPECT_EQ(stats.hostTimePerStep(), stats.hostTime / steps);
  // w, x, lr, step, the x queue and three outputs, 64-byte aligned each.
  EXPECT_EQ(stats.peakCoreBytes, 64u * 7 + 128u);
}

TEST(ExecutorStepsTest, OneStepIsTheDefault) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok());
  RunOptions options = loopOptions(1);
  auto result = (*executor)->run(sgd(2), loopInputs(2, 1), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ((*result)[0][2].data<int32_t>()[0], 11);
}

TEST(ExecutorStepsTest, TheQueueOfPerStepInputsCountsAgainstMemory) {
  // 1000 steps of x need 24000 bytes on each core; 16 KiB do not hold them.
  ExecutorOptions eo;
  eo.numCores = 2;
  eo.coreMemoryCapacity = 16 << 10;
  auto executor = Executor::create(eo);
  ASSERT_TRUE(executor.ok());
  absl::Status s =
      (*executor)->run(sgd(2), loopInputs(2, 1000), loopOptions(1000)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_THAT(msg(s),
              AllOf(HasSubstr("out of device memory allocating 23.44 KiB "
                              "(24000 bytes) for 'replica"),
                    HasSubstr("input 1 (1000 steps)'"),
                    HasSubstr("capacity 16.00 KiB")));
}

// validateProgram() makes validate()'s checks of the program and the run
// options without any inputs (torus-run calls it before checkMemory() and
// before it makes the inputs), and only those.
TEST(ExecutorStepsTest, ValidatesTheProgramWithoutInputs) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok());
  RunOptions options = loopOptions(3);
  EXPECT_TRUE((*executor)->validateProgram(sgd(2), options).ok());
  RunOptions bad = options;
  bad.perStepInputs = {7};
  EXPECT_THAT(msg((*executor)->validateProgram(sgd(2), bad)),
              HasSubstr("per-step input 7 is out of range"));
  bad = options;
  bad.numPartitions = 2;
  EXPECT_THAT(msg((*executor)->validateProgram(sgd(2), bad)),
              HasSubstr("needs 2 replicas x 2 partitions = 4 cores but the "
                        "executor has only 2"));
  // The inputs are validate()'s: none given, so it refuses them.
  EXPECT_THAT(msg((*executor)->validate(sgd(2), {}, options)),
              HasSubstr("has 2 replicas but inputs were given for 0"));
}

TEST(ExecutorStepsTest, ValidatesTheLoop) {
  auto executor = Executor::create(2);
  ASSERT_TRUE(executor.ok());
  auto inputs = loopInputs(2, 3);
  RunOptions options = loopOptions(3);
  EXPECT_TRUE((*executor)->validate(sgd(2), inputs, options).ok());

  RunOptions bad = options;
  bad.stepsPerRun = 0;
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("steps per run must be at least 1, got 0"));
  bad = options;
  bad.carried = {{0, 0}, {1, 2}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("output 1 (f32[6]) cannot be carried to input 2 "
                        "(f32[]): the types differ"));
  bad.carried = {{0, 0}, {1, 0}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("input 0 is carried from two outputs (0 and 1)"));
  bad.carried = {{0, 0}, {0, 1}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("output 0 is carried to two inputs (0 and 1)"));
  bad.carried = {{3, 0}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("carried output 3 is out of range"));
  bad.carried = {{0, 4}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("output 0 is carried to input 4, out of range"));
  bad.carried = {{1, 1}};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("input 1 is both carried and fed per step"));
  bad = options;
  bad.perStepInputs = {1, 1};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("input 1 is listed twice"));
  bad.perStepInputs = {7};
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("per-step input 7 is out of range"));
  // The per-step input needs one slice per step.
  bad = options;
  bad.stepsPerRun = 4;
  EXPECT_THAT(msg((*executor)->validate(sgd(2), inputs, bad)),
              HasSubstr("replica 0, argument 1: expected f32[4,6] (a per-step "
                        "input: one slice per step), got f32[3,6]"));
}

} // namespace
} // namespace torus::rt
