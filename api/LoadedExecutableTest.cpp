//===- LoadedExecutableTest.cpp - Programs resident on the cores ----------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus {
namespace {

using ::testing::HasSubstr;

// (w, x) -> (loss, w - 0.1 * dloss/dw), loss = sum(tanh(x @ w)), with the
// gradient all-reduced over the replicas.
Executable sgdStep(int64_t replicas) {
  auto fn = trace("sgd", {{DType::F32, {3, 2}}, {DType::F32, {4, 3}}},
                  [](Tensor w, Tensor x) {
                    GradientTape tape;
                    Tensor loss = sum(tanh(matmul(x, w)));
                    Tensor g = allReduce(tape.gradient(loss, {w})[0]);
                    return std::make_tuple(loss, w - 0.1 * g);
                  });
  EXPECT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = replicas});
  EXPECT_TRUE(exe.ok()) << exe.status();
  return *exe;
}

HostTensor values(Shape shape, float scale) {
  std::vector<float> v(numElements(shape));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = scale * static_cast<float>(static_cast<int>(i % 7) - 3);
  return HostTensor::fromVector<float>(shape, v);
}

// Five resident steps carrying the weights equal five run() calls that
// feed the new weights back from the host, bit for bit, on two replicas.
TEST(LoadedExecutableTest, CarriedStepsEqualRunCallsFedBack) {
  Executable exe = sgdStep(2);
  auto mesh = EmulatedMesh::create(2);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  std::vector<std::vector<HostTensor>> inputs = {
      {values({3, 2}, 0.1f), values({4, 3}, 0.2f)},
      {values({3, 2}, 0.1f), values({4, 3}, -0.3f)}};

  std::vector<std::vector<HostTensor>> fed = inputs, last;
  for (int i = 0; i < 5; ++i) {
    auto out = mesh->run(exe, fed);
    ASSERT_TRUE(out.ok()) << out.status();
    for (int r = 0; r < 2; ++r)
      fed[r][0] = (*out)[r][1];
    last = *out;
  }

  auto loaded = mesh->load(exe, inputs, {.carried = {{1, 0}}});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->numDevices(), 2);
  ASSERT_TRUE(loaded->step(5).ok());
  auto outs = loaded->outputs();
  ASSERT_TRUE(outs.ok()) << outs.status();
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ((*outs)[r][k].toVector<float>(), last[r][k].toVector<float>())
          << "replica " << r << " result " << k;

  // A new input takes effect at the next step; the weights stay carried.
  auto again = mesh->run(exe, {{last[0][1], values({4, 3}, 0.5f)},
                               {last[1][1], values({4, 3}, 0.5f)}});
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(loaded->setInput(0, 1, values({4, 3}, 0.5f)).ok());
  ASSERT_TRUE(loaded->setInput(1, 1, values({4, 3}, 0.5f)).ok());
  ASSERT_TRUE(loaded->step().ok());
  auto w = loaded->output(1, 1);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->toVector<float>(), (*again)[1][1].toVector<float>());
}

TEST(LoadedExecutableTest, MistakesAreErrors) {
  Executable exe = sgdStep(1);
  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());
  // Result 0 (the f32[] loss) cannot become argument 0 (f32[3,2]).
  auto bad = mesh->load(exe, {}, {.carried = {{0, 0}}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  auto loaded = mesh->load(exe);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto wrongType = loaded->setInput(0, 1, values({3, 2}, 1.0f));
  EXPECT_EQ(wrongType.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(wrongType.message()), HasSubstr("expected f32[4,3]"));
  EXPECT_EQ(loaded->setInput(3, 0, values({3, 2}, 1.0f)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(loaded->output(0, 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(loaded->step(0).code(), absl::StatusCode::kInvalidArgument);
  // Zeros in: the loss is sum(tanh(0)) = 0 and the weights stay 0.
  ASSERT_TRUE(loaded->step().ok());
  auto loss = loaded->output(0, 0);
  ASSERT_TRUE(loss.ok());
  EXPECT_EQ(loss->toVector<float>(), std::vector<float>{0.0f});
}

} // namespace
} // namespace torus
