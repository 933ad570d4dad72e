//===- linear_regression_dp.cpp - Data-parallel SGD on 8 emulated cores ---===//
//
// The Quick start demo. A linear model y = x·w + b is trained by SGD on
// synthetic data, data-parallel over 8 emulated TPU cores: each replica takes
// its own slice of the global batch, computes its gradient, all-reduces it
// and applies the same update, so every replica keeps identical weights.
//
// The same step function, compiled for one replica and fed the whole batch,
// is the reference: after training, the 8-core weights must equal the
// 1-core weights (relative error <= 1e-5), and all 8 replicas must hold
// identical weights. The program exits non-zero if either check fails.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace torus;

namespace {

constexpr int64_t kFeatures = 16;
constexpr int64_t kGlobalBatch = 256;
constexpr int64_t kReplicas = 8;
constexpr int kSteps = 30;
constexpr double kLearningRate = 0.1;

/// One SGD step of mean-squared-error linear regression on this replica's
/// batch. Gradients are written by hand (autodiff is its own feature) and
/// averaged over replicas with an all-reduce.
std::vector<Tensor> trainStep(const std::vector<Tensor> &in, int64_t replicas) {
  const Tensor &w = in[0], &b = in[1], &x = in[2], &y = in[3];
  Tensor err = matmul(x, w) + b - y;         // [batch]
  Tensor loss = mean(square(err));           // this replica's mean loss
  double scale = 2.0 / static_cast<double>(x.dim(0));
  Tensor gradW = matmul(err, x) * scale;     // d loss / d w, [features]
  Tensor gradB = sum(err) * scale;           // d loss / d b
  // Mean over replicas of the per-replica means = mean over the global batch.
  double inv = 1.0 / static_cast<double>(replicas);
  gradW = allReduce(gradW) * inv;
  gradB = allReduce(gradB) * inv;
  return {w - gradW * kLearningRate, b - gradB * kLearningRate,
          allReduce(loss) * inv};
}

struct Dataset {
  std::vector<float> x, y; // [kGlobalBatch, kFeatures], [kGlobalBatch]
};

Dataset makeData() {
  std::mt19937 gen(42);
  std::normal_distribution<float> normal(0.f, 1.f);
  std::vector<float> trueW(kFeatures);
  for (int64_t j = 0; j < kFeatures; ++j)
    trueW[j] = 0.5f * static_cast<float>(j % 5) - 1.f;
  const float trueB = 0.3f;
  Dataset d{std::vector<float>(kGlobalBatch * kFeatures),
            std::vector<float>(kGlobalBatch)};
  for (int64_t i = 0; i < kGlobalBatch; ++i) {
    float dot = trueB;
    for (int64_t j = 0; j < kFeatures; ++j) {
      float v = normal(gen);
      d.x[i * kFeatures + j] = v;
      dot += v * trueW[j];
    }
    d.y[i] = dot + 0.01f * normal(gen);
  }
  return d;
}

/// Rows [begin, begin + rows) of the data set as step inputs x, y.
std::pair<HostTensor, HostTensor> slice(const Dataset &d, int64_t begin,
                                        int64_t rows) {
  std::vector<float> x(d.x.begin() + begin * kFeatures,
                       d.x.begin() + (begin + rows) * kFeatures);
  std::vector<float> y(d.y.begin() + begin, d.y.begin() + begin + rows);
  return {HostTensor::fromVector<float>({rows, kFeatures}, x),
          HostTensor::fromVector<float>({rows}, y)};
}

/// Trains for kSteps on `replicas` cores; returns each replica's final
/// weights and biases, and the loss of every step.
absl::StatusOr<std::pair<std::vector<std::vector<HostTensor>>,
                         std::vector<float>>>
train(const Dataset &data, int64_t replicas) {
  const int64_t batch = kGlobalBatch / replicas;
  std::vector<TensorSpec> specs = {{DType::F32, {kFeatures}},
                                   {DType::F32, {}},
                                   {DType::F32, {batch, kFeatures}},
                                   {DType::F32, {batch}}};
  TORUS_ASSIGN_OR_RETURN(
      TracedFunction step,
      trace("train_step", specs, [&](const std::vector<Tensor> &in) {
        return trainStep(in, replicas);
      }));
  TORUS_ASSIGN_OR_RETURN(Executable exe,
                         compile(step, {.numReplicas = replicas}));
  TORUS_ASSIGN_OR_RETURN(EmulatedMesh mesh, EmulatedMesh::create(replicas));

  // Every replica starts from the same weights and keeps its own copy.
  std::vector<std::vector<HostTensor>> state(
      replicas, {HostTensor(DType::F32, {kFeatures}), HostTensor::scalar(0.f)});
  std::vector<float> losses;
  for (int s = 0; s < kSteps; ++s) {
    std::vector<std::vector<HostTensor>> inputs;
    for (int64_t r = 0; r < replicas; ++r) {
      auto [x, y] = slice(data, r * batch, batch);
      inputs.push_back({state[r][0], state[r][1], x, y});
    }
    TORUS_ASSIGN_OR_RETURN(auto outputs, mesh.run(exe, inputs));
    for (int64_t r = 0; r < replicas; ++r)
      state[r] = {outputs[r][0], outputs[r][1]};
    losses.push_back(outputs[0][2].toVector<float>()[0]);
  }
  return std::make_pair(state, losses);
}

/// All parameters (w then b) of one replica as one vector.
std::vector<double> flatten(const std::vector<HostTensor> &params) {
  std::vector<double> v;
  for (const HostTensor &p : params)
    for (float x : p.toVector<float>())
      v.push_back(x);
  return v;
}

/// Norm-wise relative error |got - want| / |want| of the parameter vector,
/// and the largest elementwise absolute difference. (Elementwise relative
/// error is meaningless for weights that train to about zero.)
std::pair<double, double> compare(const std::vector<HostTensor> &got,
                                  const std::vector<HostTensor> &want) {
  auto g = flatten(got), w = flatten(want);
  double diff = 0, norm = 0, worst = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    diff += (g[i] - w[i]) * (g[i] - w[i]);
    norm += w[i] * w[i];
    worst = std::max(worst, std::abs(g[i] - w[i]));
  }
  return {std::sqrt(diff / norm), worst};
}

bool identical(const HostTensor &a, const HostTensor &b) {
  return a.spec() == b.spec() &&
         std::memcmp(a.rawData(), b.rawData(), a.sizeInBytes()) == 0;
}

} // namespace

int main() {
  Dataset data = makeData();
  std::printf("Torus demo: data-parallel linear regression, %lld features, "
              "global batch %lld\n",
              static_cast<long long>(kFeatures),
              static_cast<long long>(kGlobalBatch));
  std::printf("Training on %lld emulated TPU cores (%lld examples each)...\n",
              static_cast<long long>(kReplicas),
              static_cast<long long>(kGlobalBatch / kReplicas));
  auto parallel = train(data, kReplicas);
  if (!parallel.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(parallel.status().message()).c_str());
    return 1;
  }
  auto &[replicaState, losses] = *parallel;
  for (size_t s = 0; s < losses.size(); ++s)
    std::printf("  step %2zu  loss %.6f\n", s + 1, losses[s]);

  std::printf("Reference: the same step on 1 core with the whole batch...\n");
  auto single = train(data, 1);
  if (!single.ok()) {
    std::fprintf(stderr, "error: %s\n",
                 std::string(single.status().message()).c_str());
    return 1;
  }
  const auto &reference = single->first[0];

  bool ok = losses.back() < losses.front() / 10;
  std::printf("check: loss fell from %.6f to %.6f: %s\n", losses.front(),
              losses.back(), ok ? "yes" : "NO");
  bool same = true;
  for (int64_t r = 1; r < kReplicas; ++r)
    same = same && identical(replicaState[r][0], replicaState[0][0]) &&
           identical(replicaState[r][1], replicaState[0][1]);
  std::printf("check: all %lld replicas hold identical weights: %s\n",
              static_cast<long long>(kReplicas), same ? "yes" : "NO");
  auto [relative, absolute] = compare(replicaState[0], reference);
  bool close = relative <= 1e-5;
  std::printf("check: 8-core weights equal 1-core weights: relative error "
              "%.2e (<= 1e-5), largest difference %.2e: %s\n",
              relative, absolute, close ? "yes" : "NO");
  std::printf("w = %s\nb = %s\n", replicaState[0][0].toString(16).c_str(),
              replicaState[0][1].toString().c_str());
  if (!(ok && same && close)) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
