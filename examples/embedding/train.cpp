// Trains a linear model data-parallel on an 8-core emulated TPU mesh, with
// gradients from torus::valueAndGrad, then saves the compiled step.
//
//   train step.torus.json
#include <torus/Torus.h>

#include <cstdio>
#include <random>

using namespace torus;

constexpr int64_t kReplicas = 8, kBatch = 16, kFeatures = 4;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: train <path.torus.json>\n");
    return 2;
  }
  // One SGD step: each replica differentiates its own batch's loss, the
  // gradients are averaged over replicas.
  auto step = trace(
      "sgd_step",
      {{DType::F32, {kFeatures}}, {DType::F32, {kBatch, kFeatures}},
       {DType::F32, {kBatch}}},
      [](const std::vector<Tensor> &in) {
        auto vg = valueAndGrad(
            [](const std::vector<Tensor> &p) {
              Tensor err = matmul(p[1], p[0]) - p[2];
              return std::vector<Tensor>{mean(square(err))};
            },
            {0})(in);
        Tensor g = allReduce(vg.grads[0]) * (1.0 / kReplicas);
        Tensor loss = allReduce(vg.values[0]) * (1.0 / kReplicas);
        return std::vector<Tensor>{in[0] - g * 0.1, loss};
      });
  if (!step.ok()) {
    std::fprintf(stderr, "trace: %s\n", std::string(step.status().message()).c_str());
    return 1;
  }
  auto exe = compile(*step, {.numReplicas = kReplicas});
  auto mesh = EmulatedMesh::create(kReplicas);
  if (!exe.ok() || !mesh.ok()) {
    std::fprintf(stderr, "compile: %s\n", std::string((exe.ok() ? mesh.status() : exe.status()).message()).c_str());
    return 1;
  }

  std::mt19937 gen(1);
  std::normal_distribution<float> normal;
  const std::vector<float> trueW = {1.f, -2.f, 0.5f, 3.f};
  std::vector<std::vector<HostTensor>> inputs;
  HostTensor w(DType::F32, {kFeatures});
  for (int64_t r = 0; r < kReplicas; ++r) {
    std::vector<float> x(kBatch * kFeatures), y(kBatch);
    for (int64_t i = 0; i < kBatch; ++i) {
      for (int64_t j = 0; j < kFeatures; ++j) {
        x[i * kFeatures + j] = normal(gen);
        y[i] += x[i * kFeatures + j] * trueW[j];
      }
    }
    inputs.push_back({w, HostTensor::fromVector<float>({kBatch, kFeatures}, x),
                      HostTensor::fromVector<float>({kBatch}, y)});
  }
  float first = 0, last = 0;
  for (int s = 0; s < 40; ++s) {
    auto out = mesh->run(*exe, inputs);
    if (!out.ok()) {
      std::fprintf(stderr, "run: %s\n", std::string(out.status().message()).c_str());
      return 1;
    }
    for (int64_t r = 0; r < kReplicas; ++r)
      inputs[r][0] = (*out)[r][0];
    last = (*out)[0][1].toVector<float>()[0];
    if (s == 0)
      first = last;
  }
  std::printf("loss %.5f -> %.5f, w = %s\n", first, last,
              inputs[0][0].toString().c_str());
  if (absl::Status saved = exe->save(argv[1]); !saved.ok()) {
    std::fprintf(stderr, "save: %s\n", std::string(saved.message()).c_str());
    return 1;
  }
  std::printf("saved %s\n", argv[1]);
  return last < first / 100 ? 0 : 1;
}
