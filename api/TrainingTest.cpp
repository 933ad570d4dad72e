//===- TrainingTest.cpp - Models trained with autodiff, end to end --------===//
//
// An MLP (784-512-512-10) and a small conv net (two conv layers with max
// pooling, a dense head), both with softmax cross-entropy, train for 50 SGD
// steps on synthetic data with gradients from valueAndGrad; the loss must
// fall. One step's gradients are checked against central differences of the
// same model in f64, on sampled elements of every parameter.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace torus;

namespace {

using Model = std::function<Tensor(const std::vector<Tensor> &params,
                                   const Tensor &x, const Tensor &labels)>;

struct Problem {
  std::vector<TensorSpec> params;
  TensorSpec x;
  int64_t classes;
};

Tensor crossEntropy(const Tensor &logits, const Tensor &labels,
                    int64_t classes) {
  Tensor target = oneHot(labels, classes, logits.dtype());
  return -mean(sum(target * logSoftmax(logits), {-1}));
}

Tensor mlp(const std::vector<Tensor> &p, const Tensor &x, const Tensor &y) {
  Tensor h = relu(matmul(x, p[0]) + p[1]);
  h = relu(matmul(h, p[2]) + p[3]);
  return crossEntropy(matmul(h, p[4]) + p[5], y, 10);
}

Tensor convNet(const std::vector<Tensor> &p, const Tensor &x,
               const Tensor &y) {
  Tensor h = relu(conv2d(x, p[0], {1, 1}, Padding::same()) + p[1]);
  h = maxPool2d(h, {2, 2}, {2, 2});
  h = relu(conv2d(h, p[2], {1, 1}, Padding::same()) + p[3]);
  h = maxPool2d(h, {2, 2}, {2, 2});
  h = reshape(h, {h.dim(0), -1});
  return crossEntropy(matmul(h, p[4]) + p[5], y, 10);
}

Problem mlpProblem(DType t, int64_t batch) {
  return {{{t, {784, 512}}, {t, {512}}, {t, {512, 512}}, {t, {512}},
           {t, {512, 10}}, {t, {10}}},
          {t, {batch, 784}},
          10};
}

Problem convProblem(DType t, int64_t batch) {
  return {{{t, {3, 3, 1, 4}}, {t, {4}}, {t, {3, 3, 4, 8}}, {t, {8}},
           {t, {72, 10}}, {t, {10}}},
          {t, {batch, 12, 12, 1}},
          10};
}

template <typename T>
HostTensor randomTensor(const TensorSpec &spec, std::mt19937 &gen,
                        double scale) {
  HostTensor h(spec);
  std::normal_distribution<double> normal(0.0, scale);
  for (T &v : h.data<T>())
    v = static_cast<T>(normal(gen));
  return h;
}

/// He-initialized weights, zero biases.
template <typename T>
std::vector<HostTensor> initParams(const Problem &p, std::mt19937 &gen) {
  std::vector<HostTensor> params;
  for (const TensorSpec &s : p.params) {
    if (s.shape.size() == 1) {
      params.emplace_back(s);
      continue;
    }
    int64_t fanIn = s.numElements() / s.shape.back();
    params.push_back(randomTensor<T>(s, gen, std::sqrt(2.0 / fanIn)));
  }
  return params;
}

/// Synthetic data: labels are the argmax of a fixed random linear teacher.
template <typename T>
std::pair<HostTensor, HostTensor> makeData(const Problem &p,
                                           std::mt19937 &gen) {
  HostTensor x = randomTensor<T>(p.x, gen, 1.0);
  int64_t batch = p.x.shape[0], features = p.x.numElements() / batch;
  HostTensor teacher =
      randomTensor<double>({DType::F64, {features, p.classes}}, gen, 1.0);
  std::vector<int32_t> labels(batch);
  auto xs = x.data<T>();
  auto ts = teacher.data<double>();
  for (int64_t i = 0; i < batch; ++i) {
    double best = -1e300;
    for (int64_t c = 0; c < p.classes; ++c) {
      double s = 0;
      for (int64_t f = 0; f < features; ++f)
        s += xs[i * features + f] * ts[f * p.classes + c];
      if (s > best) {
        best = s;
        labels[i] = static_cast<int32_t>(c);
      }
    }
  }
  return {x, HostTensor::fromVector<int32_t>({batch}, labels)};
}

std::vector<TensorSpec> stepSpecs(const Problem &p) {
  std::vector<TensorSpec> specs = p.params;
  specs.push_back(p.x);
  specs.push_back({DType::I32, {p.x.shape[0]}});
  return specs;
}

/// Traces (params..., x, labels) -> (loss, grads...).
Executable compileValueAndGrad(const Problem &p, const Model &model) {
  size_t n = p.params.size();
  auto fn = trace("value_and_grad", stepSpecs(p),
                  [&](const std::vector<Tensor> &in) {
                    auto vg = valueAndGrad(
                        [&](const std::vector<Tensor> &a) {
                          std::vector<Tensor> params(a.begin(), a.begin() + n);
                          return std::vector<Tensor>{model(params, a[n], a[n + 1])};
                        })(in);
                    std::vector<Tensor> out = {vg.values[0]};
                    out.insert(out.end(), vg.grads.begin(), vg.grads.begin() + n);
                    return out;
                  });
  EXPECT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn);
  EXPECT_TRUE(exe.ok()) << exe.status();
  return *exe;
}

/// An SGD step: (params..., x, labels) -> (new params..., loss).
Executable compileSgdStep(const Problem &p, const Model &model, double lr) {
  size_t n = p.params.size();
  auto fn = trace("sgd_step", stepSpecs(p), [&](const std::vector<Tensor> &in) {
    auto vg = valueAndGrad(
        [&](const std::vector<Tensor> &a) {
          std::vector<Tensor> params(a.begin(), a.begin() + n);
          return std::vector<Tensor>{model(params, a[n], a[n + 1])};
        })(in);
    std::vector<Tensor> out;
    for (size_t i = 0; i < n; ++i)
      out.push_back(in[i] - vg.grads[i] * lr);
    out.push_back(vg.values[0]);
    return out;
  });
  EXPECT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn);
  EXPECT_TRUE(exe.ok()) << exe.status();
  return *exe;
}

void trainAndExpectLossToFall(const Problem &p, const Model &model,
                              double lr) {
  std::mt19937 gen(5);
  auto params = initParams<float>(p, gen);
  auto [x, y] = makeData<float>(p, gen);
  Executable step = compileSgdStep(p, model, lr);
  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());
  std::vector<float> losses;
  for (int s = 0; s < 50; ++s) {
    std::vector<HostTensor> in = params;
    in.push_back(x);
    in.push_back(y);
    auto out = mesh->run(step, {in});
    ASSERT_TRUE(out.ok()) << out.status();
    std::vector<HostTensor> &o = (*out)[0];
    losses.push_back(o.back().data<float>()[0]);
    params.assign(o.begin(), o.end() - 1);
  }
  ASSERT_TRUE(std::isfinite(losses.back()));
  EXPECT_LT(losses.back(), 0.5 * losses.front())
      << "loss " << losses.front() << " -> " << losses.back();
  for (size_t s = 0; s + 1 < losses.size(); s += 10)
    std::printf("  step %2zu loss %.4f\n", s + 1, losses[s]);
  std::printf("  step 50 loss %.4f\n", losses.back());
}

/// d loss / d param at sampled elements of every parameter, in f64,
/// against central differences of the compiled loss.
void checkGradientsF64(const Problem &p, const Model &model) {
  std::mt19937 gen(9);
  auto params = initParams<double>(p, gen);
  auto [x, y] = makeData<double>(p, gen);
  size_t n = p.params.size();
  Executable grads = compileValueAndGrad(p, model);
  auto lossFn = trace("loss", stepSpecs(p), [&](const std::vector<Tensor> &a) {
    std::vector<Tensor> ps(a.begin(), a.begin() + n);
    return std::vector<Tensor>{model(ps, a[n], a[n + 1])};
  });
  ASSERT_TRUE(lossFn.ok()) << lossFn.status();
  auto loss = compile(*lossFn);
  ASSERT_TRUE(loss.ok()) << loss.status();
  auto mesh = EmulatedMesh::create(1);
  ASSERT_TRUE(mesh.ok());

  auto inputsWith = [&](const std::vector<HostTensor> &ps) {
    std::vector<HostTensor> in = ps;
    in.push_back(x);
    in.push_back(y);
    return in;
  };
  auto lossAt = [&](const std::vector<HostTensor> &ps) {
    auto out = mesh->run(*loss, {inputsWith(ps)});
    EXPECT_TRUE(out.ok()) << out.status();
    return (*out)[0][0].data<double>()[0];
  };
  auto analytic = mesh->run(grads, {inputsWith(params)});
  ASSERT_TRUE(analytic.ok()) << analytic.status();
  for (size_t i = 0; i < n; ++i) {
    auto g = (*analytic)[0][i + 1].data<double>();
    std::uniform_int_distribution<int64_t> pick(0, params[i].numElements() - 1);
    for (int k = 0; k < 6; ++k) {
      int64_t e = pick(gen);
      std::vector<HostTensor> plus = params, minus = params;
      double v = params[i].data<double>()[e], h = 1e-5;
      plus[i].data<double>()[e] = v + h;
      minus[i].data<double>()[e] = v - h;
      double fd = (lossAt(plus) - lossAt(minus)) / (2 * h);
      EXPECT_NEAR(g[e], fd, 1e-6 + 1e-5 * std::abs(fd))
          << "parameter " << i << " element " << e;
    }
  }
}

TEST(TrainingTest, MlpTrainsWithAutodiff) {
  trainAndExpectLossToFall(mlpProblem(DType::F32, 32), mlp, 0.05);
}

TEST(TrainingTest, MlpGradientsMatchFiniteDifferences) {
  checkGradientsF64(mlpProblem(DType::F64, 8), mlp);
}

TEST(TrainingTest, ConvNetTrainsWithAutodiff) {
  trainAndExpectLossToFall(convProblem(DType::F32, 16), convNet, 0.05);
}

TEST(TrainingTest, ConvNetGradientsMatchFiniteDifferences) {
  checkGradientsF64(convProblem(DType::F64, 4), convNet);
}

} // namespace
