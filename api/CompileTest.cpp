//===- CompileTest.cpp - trace → compile → run, checked by hand -----------===//
//
// Each test traces a function, compiles it, runs it on an emulated mesh and
// compares with values computed naively in C++ here.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace torus;
using ::testing::HasSubstr;

namespace {

TensorSpec f32(Shape s) { return {DType::F32, std::move(s)}; }

std::vector<float> iota(int64_t n, float start = 0.f, float step = 1.f) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = start + step * static_cast<float>(i);
  return v;
}

std::vector<float> randomVector(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// Traces, compiles for `replicas` and runs on as many cores.
std::vector<std::vector<HostTensor>>
runOn(int64_t replicas, const std::vector<TensorSpec> &specs,
      const TraceFn &fn, const std::vector<std::vector<HostTensor>> &inputs) {
  auto traced = trace("f", specs, fn);
  EXPECT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced, {.numReplicas = replicas});
  EXPECT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(replicas);
  EXPECT_TRUE(mesh.ok()) << mesh.status();
  auto out = mesh->run(*exe, inputs);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<std::vector<HostTensor>>{};
}

HostTensor runOne(const std::vector<TensorSpec> &specs, const TraceFn &fn,
                  const std::vector<HostTensor> &inputs) {
  auto out = runOn(1, specs, fn, {inputs});
  EXPECT_EQ(out.size(), 1u);
  return out.empty() ? HostTensor() : out[0][0];
}

void expectNear(const std::vector<float> &got, const std::vector<float> &want,
                float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.f, std::abs(want[i])))
        << "at element " << i;
}

TEST(CompileTest, ElementwiseWithBroadcast) {
  auto a = randomVector(12, 1), b = randomVector(4, 2);
  HostTensor out = runOne(
      {f32({3, 4}), f32({4})},
      [](const std::vector<Tensor> &in) {
        Tensor x = in[0], y = in[1];
        return std::vector<Tensor>{
            relu(x * y - x / (exp(y) + 1.0)) + log(exp(x)) - (-y)};
      },
      {HostTensor::fromVector<float>({3, 4}, a),
       HostTensor::fromVector<float>({4}, b)});
  std::vector<float> want(12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      float x = a[i * 4 + j], y = b[j];
      want[i * 4 + j] = std::max(0.f, x * y - x / (std::exp(y) + 1.f)) +
                        std::log(std::exp(x)) + y;
    }
  expectNear(out.toVector<float>(), want);
}

TEST(CompileTest, MatmulAgainstNaive) {
  const int m = 5, k = 7, n = 3;
  auto a = randomVector(m * k, 3), b = randomVector(k * n, 4);
  HostTensor out = runOne(
      {f32({m, k}), f32({k, n})},
      [](const std::vector<Tensor> &in) {
        return std::vector<Tensor>{matmul(in[0], in[1])};
      },
      {HostTensor::fromVector<float>({m, k}, a),
       HostTensor::fromVector<float>({k, n}, b)});
  std::vector<float> want(m * n, 0.f);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p)
        want[i * n + j] += a[i * k + p] * b[p * n + j];
  expectNear(out.toVector<float>(), want);
}

TEST(CompileTest, BatchedDotGeneralWithTransposedOperands) {
  // out[b,i,j] = sum_p lhs[p,b,i] * rhs[b,j,p]
  const int B = 2, I = 3, J = 4, P = 5;
  auto l = randomVector(P * B * I, 5), r = randomVector(B * J * P, 6);
  HostTensor out = runOne(
      {f32({P, B, I}), f32({B, J, P})},
      [](const std::vector<Tensor> &in) {
        return std::vector<Tensor>{
            dotGeneral(in[0], in[1], {{1}, {0}, {0}, {2}})};
      },
      {HostTensor::fromVector<float>({P, B, I}, l),
       HostTensor::fromVector<float>({B, J, P}, r)});
  ASSERT_EQ(out.shape(), (Shape{B, I, J}));
  std::vector<float> want(B * I * J, 0.f);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < I; ++i)
      for (int j = 0; j < J; ++j)
        for (int p = 0; p < P; ++p)
          want[(b * I + i) * J + j] +=
              l[(p * B + b) * I + i] * r[(b * J + j) * P + p];
  expectNear(out.toVector<float>(), want);
}

TEST(CompileTest, ReductionsTransposeReshape) {
  auto a = iota(24, -5.f, 0.5f);
  auto out = runOn(
      1, {f32({2, 3, 4})},
      [](const std::vector<Tensor> &in) {
        Tensor x = in[0];
        return std::vector<Tensor>{sum(x, {1}), max(x, {0, 2}),
                                   min(x), mean(x, {2}, true),
                                   reshape(transpose(x, {2, 0, 1}), {4, 6})};
      },
      {{HostTensor::fromVector<float>({2, 3, 4}, a)}});
  ASSERT_EQ(out.size(), 1u);
  auto at = [&](int i, int j, int k) { return a[(i * 3 + j) * 4 + k]; };
  std::vector<float> s(8, 0.f), mx(3, -1e9f), mn{1e9f}, me(6, 0.f), tr(24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        s[i * 4 + k] += at(i, j, k);
        mx[j] = std::max(mx[j], at(i, j, k));
        mn[0] = std::min(mn[0], at(i, j, k));
        me[i * 3 + j] += at(i, j, k) / 4.f;
        tr[(k * 2 + i) * 3 + j] = at(i, j, k);
      }
  expectNear(out[0][0].toVector<float>(), s);
  expectNear(out[0][1].toVector<float>(), mx);
  expectNear(out[0][2].toVector<float>(), mn);
  EXPECT_EQ(out[0][3].shape(), (Shape{2, 3, 1}));
  expectNear(out[0][3].toVector<float>(), me);
  expectNear(out[0][4].toVector<float>(), tr);
}

TEST(CompileTest, CompareSelectConvert) {
  std::vector<float> a{-2.5f, -0.5f, 0.f, 0.5f, 3.7f, 1.f};
  auto out = runOn(
      1, {f32({6})},
      [](const std::vector<Tensor> &in) {
        Tensor x = in[0];
        Tensor positive = greater(x, scalar(0.f));
        return std::vector<Tensor>{
            where(positive, x, x * 10.0), astype(x, DType::I32),
            astype(astype(positive, DType::I32), DType::F32),
            astype(equal(x, scalar(1.f)), DType::F32)};
      },
      {{HostTensor::fromVector<float>({6}, a)}});
  ASSERT_EQ(out.size(), 1u);
  expectNear(out[0][0].toVector<float>(), {-25.f, -5.f, 0.f, 0.5f, 3.7f, 1.f});
  EXPECT_EQ(out[0][1].toVector<int32_t>(),
            (std::vector<int32_t>{-2, 0, 0, 0, 3, 1}));
  expectNear(out[0][2].toVector<float>(), {0, 0, 0, 1, 1, 1});
  expectNear(out[0][3].toVector<float>(), {0, 0, 0, 0, 0, 1});
}

TEST(CompileTest, AllReduceAndReplicaIdOnEightCores) {
  const int replicas = 8, n = 5;
  std::vector<std::vector<HostTensor>> inputs;
  for (int r = 0; r < replicas; ++r)
    inputs.push_back({HostTensor::fromVector<float>(
        {n}, iota(n, static_cast<float>(r), 0.25f))});
  auto out = runOn(
      replicas, {f32({n})},
      [](const std::vector<Tensor> &in) {
        Tensor id = astype(replicaId(), DType::F32);
        return std::vector<Tensor>{
            allReduce(in[0] * id), allReduce(in[0], ReduceOp::Max),
            allReduce(in[0], ReduceOp::Sum, {{0, 2, 4, 6}, {1, 3, 5, 7}}),
            replicaId()};
      },
      inputs);
  ASSERT_EQ(out.size(), static_cast<size_t>(replicas));
  for (int r = 0; r < replicas; ++r) {
    std::vector<float> weighted(n, 0.f), mx(n, -1e9f), grouped(n, 0.f);
    for (int q = 0; q < replicas; ++q)
      for (int i = 0; i < n; ++i) {
        float v = static_cast<float>(q) + 0.25f * static_cast<float>(i);
        weighted[i] += v * static_cast<float>(q);
        mx[i] = std::max(mx[i], v);
        if (q % 2 == r % 2)
          grouped[i] += v;
      }
    expectNear(out[r][0].toVector<float>(), weighted);
    expectNear(out[r][1].toVector<float>(), mx);
    expectNear(out[r][2].toVector<float>(), grouped);
    EXPECT_EQ(out[r][3].toVector<int32_t>(), std::vector<int32_t>{r});
  }
}

TEST(CompileTest, RunRejectsWrongInputShape) {
  auto traced = trace("f", {f32({4})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] * 2.0};
  });
  ASSERT_TRUE(traced.ok());
  auto exe = compile(*traced, {.numReplicas = 2});
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(2);
  ASSERT_TRUE(mesh.ok());
  auto out = mesh->run(*exe, {{HostTensor(DType::F32, {4})},
                              {HostTensor(DType::F32, {5})}});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("replica 1, argument 0: expected f32[4], got f32[5]"));
}

TEST(CompileTest, ReplicaGroupsMustCoverTheReplicas) {
  auto traced = trace("f", {f32({4})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{allReduce(in[0], ReduceOp::Sum, {{0, 1}})};
  });
  ASSERT_TRUE(traced.ok());
  auto exe = compile(*traced, {.numReplicas = 4});
  ASSERT_FALSE(exe.ok());
  EXPECT_THAT(std::string(exe.status().message()),
              HasSubstr("CompileTest.cpp"));
  EXPECT_THAT(std::string(exe.status().message()),
              HasSubstr("replica_groups leave out replica 2 of 4"));
}

TEST(CompileTest, CompiledOnceRunsManyTimes) {
  auto traced = trace("f", {f32({3})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{in[0] + 1.0};
  });
  ASSERT_TRUE(traced.ok());
  auto exe = compile(*traced);
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());
  HostTensor x = HostTensor::fromVector<float>({3}, {0.f, 1.f, 2.f});
  for (int step = 0; step < 5; ++step) {
    auto out = mesh->run(*exe, {{x}});
    ASSERT_TRUE(out.ok()) << out.status();
    x = (*out)[0][0];
  }
  expectNear(x.toVector<float>(), {5.f, 6.f, 7.f});
}

} // namespace
