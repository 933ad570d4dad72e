//===- ConcurrencyTest.cpp - Independent contexts from many host threads --===//
//
// Two meshes of different sizes, four host threads, each tracing, compiling
// and running its own program concurrently: no shared mutable state between
// independent uses of the library. Run it under ThreadSanitizer with the
// `tsan` preset (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gtest/gtest.h>

#include <thread>

using namespace torus;

namespace {

/// Thread `t` computes allReduce(x * (replica + t)) on `mesh`; returns true
/// if every replica got sum over q of x * (q + t).
bool runOnce(EmulatedMesh &mesh, int t, std::string &error) {
  int64_t replicas = mesh.numCores();
  auto fn = trace("thread" + std::to_string(t), {{DType::F32, {3}}},
                  [t](const std::vector<Tensor> &in) {
                    Tensor id = astype(replicaId(), DType::F32);
                    return std::vector<Tensor>{allReduce(in[0] * (id + t))};
                  });
  if (!fn.ok()) {
    error = std::string(fn.status().message());
    return false;
  }
  auto exe = compile(*fn, {.numReplicas = replicas});
  if (!exe.ok()) {
    error = std::string(exe.status().message());
    return false;
  }
  std::vector<std::vector<HostTensor>> inputs(
      replicas, {HostTensor::fromVector<float>({3}, {1, 2, 3})});
  auto out = mesh.run(*exe, inputs);
  if (!out.ok()) {
    error = std::string(out.status().message());
    return false;
  }
  float factor = 0;
  for (int64_t q = 0; q < replicas; ++q)
    factor += static_cast<float>(q + t);
  for (int64_t r = 0; r < replicas; ++r)
    if ((*out)[r][0].toVector<float>() !=
        std::vector<float>{factor, 2 * factor, 3 * factor}) {
      error = "wrong result on replica " + std::to_string(r);
      return false;
    }
  return true;
}

TEST(ConcurrencyTest, TwoMeshesFourThreads) {
  auto small = EmulatedMesh::create(2);
  auto large = EmulatedMesh::create(8);
  ASSERT_TRUE(small.ok() && large.ok());
  std::vector<std::string> errors(4);
  std::vector<int> passes(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      EmulatedMesh &mesh = t % 2 ? *large : *small;
      for (int i = 0; i < 3; ++i)
        passes[t] += runOnce(mesh, t, errors[t]);
    });
  for (std::thread &th : threads)
    th.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(passes[t], 3) << "thread " << t << ": " << errors[t];
}

} // namespace
