//===- CodegenEquivalenceTest.cpp - Fused and planned vs the naive lowering ===//
//
// Every program here is compiled four ways: with and without fusion
// (CompileOptions::fuse) and with and without the buffer plan
// (CompileOptions::planBuffers). Fusion moves arithmetic between loop nests
// but never reorders a reduction or contracts a multiply-add, and the plan
// only moves where temporaries live, so every output must be bit-identical
// to the naive lowering's: an elementwise chain with broadcasts and a
// convert, a reduction of fused producers, a dense layer with its epilogue,
// a loop, an MLP training step (forward, backward, SGD) and a data-parallel
// step with an all-reduce on 2 replicas.
//
//===----------------------------------------------------------------------===//

#include "api/MlpTrainingStep.h"
#include "torus/Torus.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace torus;

namespace {

HostTensor random(const TensorSpec &spec, std::mt19937 &gen, double scale) {
  HostTensor h(spec);
  std::normal_distribution<double> normal(0.0, scale);
  if (spec.dtype == DType::F32)
    for (float &v : h.data<float>())
      v = static_cast<float>(normal(gen));
  else if (spec.dtype == DType::I32)
    for (int32_t &v : h.data<int32_t>())
      v = static_cast<int32_t>(gen() % 10);
  return h;
}

struct Variant {
  bool fuse, plan;
};
constexpr Variant kVariants[] = {
    {false, false}, {true, false}, {false, true}, {true, true}};

/// Runs `fn` compiled every way on the same inputs and expects outputs
/// bit-identical to the naive lowering's, on every replica.
void expectSameEveryWay(const TracedFunction &fn, int64_t replicas = 1,
                        int steps = 1) {
  std::mt19937 gen(3);
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (auto &replica : inputs)
    for (const TensorSpec &spec : fn.inputs())
      replica.push_back(random(spec, gen, 0.5));
  auto mesh = EmulatedMesh::create(replicas);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  std::vector<std::vector<HostTensor>> reference;
  for (const Variant &v : kVariants) {
    CompileOptions options;
    options.numReplicas = replicas;
    options.fuse = v.fuse;
    options.planBuffers = v.plan;
    auto exe = compile(fn, options);
    ASSERT_TRUE(exe.ok()) << exe.status();
    auto in = inputs;
    std::vector<std::vector<HostTensor>> out;
    for (int s = 0; s < steps; ++s) {
      auto run = mesh->run(*exe, in);
      ASSERT_TRUE(run.ok()) << run.status();
      out = std::move(*run);
      // A training step's first outputs are its new parameters.
      for (int64_t r = 0; r < replicas; ++r)
        for (size_t i = 0; i < in[r].size() && i < out[r].size(); ++i)
          if (in[r][i].spec() == out[r][i].spec())
            in[r][i] = out[r][i];
    }
    if (reference.empty()) {
      reference = std::move(out);
      continue;
    }
    for (int64_t r = 0; r < replicas; ++r)
      for (size_t o = 0; o < out[r].size(); ++o) {
        const HostTensor &a = reference[r][o], &b = out[r][o];
        ASSERT_EQ(a.spec(), b.spec());
        EXPECT_EQ(std::memcmp(a.rawData(), b.rawData(), a.sizeInBytes()), 0)
            << fn.name() << " output " << o << " replica " << r
            << " differs with fuse=" << v.fuse << " planBuffers=" << v.plan;
      }
  }
}

TEST(CodegenEquivalenceTest, ElementwiseChainWithBroadcastAndConvert) {
  auto fn = trace("chain",
                  {{DType::F32, {64, 33}}, {DType::F32, {33}},
                   {DType::I32, {64, 33}}},
                  [](const std::vector<Tensor> &in) {
                    Tensor c = astype(in[2], DType::F32);
                    Tensor y = relu(in[0] * in[1] + c);
                    return std::vector<Tensor>{exp(-y) * 0.5f + y, y};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn);
}

TEST(CodegenEquivalenceTest, ReductionOfFusedProducers) {
  auto fn = trace("reduce",
                  {{DType::F32, {32, 100}}, {DType::F32, {32, 100}}},
                  [](const std::vector<Tensor> &in) {
                    Tensor p = in[0] * in[1] - tanh(in[0]);
                    return std::vector<Tensor>{sum(p, {1}), mean(p * p),
                                               logSoftmax(p)};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn);
}

TEST(CodegenEquivalenceTest, DenseLayerWithEpilogue) {
  auto fn = trace("dense",
                  {{DType::F32, {16, 40}}, {DType::F32, {40, 24}},
                   {DType::F32, {24}}},
                  [](const std::vector<Tensor> &in) {
                    Tensor h = relu(matmul(in[0], in[1]) + in[2]);
                    return std::vector<Tensor>{h, matmul(h, transpose(in[1]))};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn);
}

TEST(CodegenEquivalenceTest, WideDenseLayerRunsItsEpiloguePanelByPanel) {
  // N = 300: two 128-column panels and a peeled one of 44, each running
  // fill, matmul and bias + relu before the next (torus-fuse-epilogues);
  // 64 x 300 x 1000 multiply-adds are enough for host threads.
  auto fn = trace("wide_dense",
                  {{DType::F32, {64, 1000}}, {DType::F32, {1000, 300}},
                   {DType::F32, {300}}},
                  [](const std::vector<Tensor> &in) {
                    Tensor z = matmul(in[0], in[1]) + in[2];
                    return std::vector<Tensor>{relu(z), sum(z, {1})};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn);
}

TEST(CodegenEquivalenceTest, Loop) {
  auto fn = trace("loop", {{DType::F32, {8, 8}}},
                  [](const std::vector<Tensor> &in) {
                    TensorList out = forLoop(
                        0, 5,
                        [](const Tensor &, const TensorList &s) {
                          return TensorList{tanh(matmul(s[0], s[0]) * 0.5f) +
                                            s[0]};
                        },
                        {in[0]});
                    return std::vector<Tensor>{out[0] * 2.0f};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn);
}

/// The MLP step of api/MlpTrainingStep.h at small sizes, learning rate
/// 0.05.
absl::StatusOr<TracedFunction> mlpStep(int64_t batch, int64_t in,
                                       int64_t hidden, bool allReduceGrads) {
  return torus::testing::mlpTrainingStep(
      {batch, in, hidden, /*classes=*/10, 0.05f, allReduceGrads});
}

TEST(CodegenEquivalenceTest, MlpTrainingSteps) {
  auto fn = mlpStep(32, 60, 48, false);
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn, 1, /*steps=*/3);
}

TEST(CodegenEquivalenceTest, DataParallelTrainingStep) {
  auto fn = mlpStep(8, 20, 16, true);
  ASSERT_TRUE(fn.ok()) << fn.status();
  expectSameEveryWay(*fn, /*replicas=*/2, /*steps=*/2);
}

} // namespace
