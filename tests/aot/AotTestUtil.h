//===- AotTestUtil.h - Running allreduce8 and checking it -------*- C++ -*-===//
#ifndef TORUS_TESTS_AOT_AOTTESTUTIL_H
#define TORUS_TESTS_AOT_AOTTESTUTIL_H

#include "runtime/executor/Executor.h"
#include "support/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

namespace torus::aot_test {

inline HostTensor load(const std::string &name) {
  auto t = readNpy(std::string(TORUS_DATA_DIR) + "/allreduce8/" + name);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : HostTensor();
}

/// Slice r of the leading dimension.
inline HostTensor slice(const HostTensor &stacked, int64_t r) {
  Shape shape(stacked.shape().begin() + 1, stacked.shape().end());
  HostTensor t(stacked.dtype(), shape);
  std::memcpy(t.rawData(),
              static_cast<const char *>(stacked.rawData()) +
                  r * t.sizeInBytes(),
              t.sizeInBytes());
  return t;
}

/// Runs `program` on 8 emulated cores with the committed inputs and checks
/// every output against NumPy's.
inline void runAndCheck(const rt::Program &program,
                        const rt::RunOptions &options = {}) {
  ASSERT_EQ(program.spec.numReplicas, 8);
  HostTensor x = load("x.npy"), w = load("w.npy");
  std::vector<std::vector<HostTensor>> inputs;
  for (int64_t r = 0; r < 8; ++r)
    inputs.push_back({slice(x, r), w});
  auto executor = rt::Executor::create(8);
  ASSERT_TRUE(executor.ok()) << executor.status();
  auto outputs = (*executor)->run(program, inputs, options);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_EQ(outputs->size(), 8u);
  for (size_t i = 0; i < program.spec.outputs.size(); ++i) {
    HostTensor expected = load("expected/result" + std::to_string(i) + ".npy");
    for (int64_t r = 0; r < 8; ++r) {
      auto got = (*outputs)[r][i].toVector<float>();
      auto want = slice(expected, r).toVector<float>();
      ASSERT_EQ(got.size(), want.size());
      for (size_t k = 0; k < got.size(); ++k)
        EXPECT_NEAR(got[k], want[k], 1e-5f + 1e-5f * std::abs(want[k]))
            << "result " << i << ", replica " << r << ", element " << k;
    }
  }
}

} // namespace torus::aot_test

#endif // TORUS_TESTS_AOT_AOTTESTUTIL_H
