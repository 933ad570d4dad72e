//===- AutodiffTest.cpp - Gradients against central finite differences ----===//
//
// Each case traces a scalar loss of f64 inputs, compiles the loss and its
// valueAndGrad, and compares every gradient element with the central
// difference (f(x+h) - f(x-h)) / 2h of the compiled loss.
//
//===----------------------------------------------------------------------===//

#include "torus/Torus.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string_view>

using namespace torus;
using ::testing::HasSubstr;

namespace {

using LossFn = std::function<Tensor(const std::vector<Tensor> &)>;

TensorSpec f64(Shape s) { return {DType::F64, std::move(s)}; }

HostTensor randomTensor(const TensorSpec &spec, std::mt19937 &gen,
                        double lo = -1.0, double hi = 1.0) {
  HostTensor t(spec);
  std::uniform_real_distribution<double> dist(lo, hi);
  for (double &x : t.data<double>())
    x = dist(gen);
  return t;
}

/// Compiles `fn` on one core; returns a callable running it.
std::function<std::vector<HostTensor>(const std::vector<HostTensor> &)>
compileOne(const std::string &name, const std::vector<TensorSpec> &specs,
           const TraceFn &fn) {
  auto traced = trace(name, specs, fn);
  EXPECT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced);
  EXPECT_TRUE(exe.ok()) << exe.status();
  auto mesh = std::make_shared<EmulatedMesh>(*EmulatedMesh::create(1));
  auto shared = std::make_shared<Executable>(*exe);
  return [mesh, shared](const std::vector<HostTensor> &in) {
    auto out = mesh->run(*shared, {in});
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? (*out)[0] : std::vector<HostTensor>{};
  };
}

/// Checks d loss / d input against central differences for every element
/// of every input.
void checkGradients(const std::vector<TensorSpec> &specs, const LossFn &loss,
                    unsigned seed = 7, double lo = -1.0, double hi = 1.0) {
  std::mt19937 gen(seed);
  std::vector<HostTensor> inputs;
  for (const TensorSpec &s : specs)
    inputs.push_back(randomTensor(s, gen, lo, hi));

  auto forward = compileOne("loss", specs, [&](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{loss(in)};
  });
  auto backward =
      compileOne("loss_grad", specs, [&](const std::vector<Tensor> &in) {
        auto vg = valueAndGrad(
            [&](const std::vector<Tensor> &x) {
              return std::vector<Tensor>{loss(x)};
            })(in);
        std::vector<Tensor> out = vg.values;
        out.insert(out.end(), vg.grads.begin(), vg.grads.end());
        return out;
      });
  auto analytic = backward(inputs);
  ASSERT_EQ(analytic.size(), inputs.size() + 1);
  double value = forward(inputs)[0].data<double>()[0];
  EXPECT_NEAR(analytic[0].data<double>()[0], value, 1e-12 * (1 + std::abs(value)));

  for (size_t i = 0; i < inputs.size(); ++i) {
    auto grad = analytic[i + 1].data<double>();
    ASSERT_EQ(static_cast<int64_t>(grad.size()), inputs[i].numElements());
    for (int64_t e = 0; e < inputs[i].numElements(); ++e) {
      std::vector<HostTensor> plus = inputs, minus = inputs;
      double x = inputs[i].data<double>()[e];
      double h = 1e-6 * std::max(1.0, std::abs(x));
      plus[i].data<double>()[e] = x + h;
      minus[i].data<double>()[e] = x - h;
      double fd = (forward(plus)[0].data<double>()[0] -
                   forward(minus)[0].data<double>()[0]) /
                  (2 * h);
      EXPECT_NEAR(grad[e], fd, 1e-6 * std::max(1.0, std::abs(fd)))
          << "input " << i << " element " << e;
    }
  }
}

/// A generic cotangent: sum(y * c) for a fixed pseudo-random c, so every
/// element of y gets a different weight.
Tensor weightedSum(const Tensor &y) {
  HostTensor c(TensorSpec{y.dtype(), y.shape()});
  auto d = c.data<double>();
  for (size_t i = 0; i < d.size(); ++i)
    d[i] = 0.5 + 0.37 * static_cast<double>((i * 7919) % 13) / 13.0;
  return sum(y * constant(c));
}

TEST(AutodiffTest, ArithmeticWithBroadcasting) {
  checkGradients({f64({3, 4}), f64({4}), f64({3, 1})},
                 [](const std::vector<Tensor> &in) {
                   Tensor a = in[0], b = in[1], c = in[2];
                   return weightedSum(a * b - c / (b * b + 2.0) + (-a) * c);
                 });
}

TEST(AutodiffTest, ExpLogMaximum) {
  checkGradients({f64({2, 3}), f64({2, 3})},
                 [](const std::vector<Tensor> &in) {
                   Tensor pos = exp(in[1]);
                   return weightedSum(log(pos + 1.0) * exp(in[0]) +
                                      maximum(in[0], in[1]) + relu(in[0]));
                 });
}

// Every unary function of torus/UnaryOps.def that has a gradient, so an op
// added there is covered without a new case. The points lie in [0.55,
// 0.95], inside every function's domain and away from the jumps of floor,
// ceil, round and sign (whose gradient is zero, as in JAX).
TEST(AutodiffTest, EveryUnaryFunctionOfTheTracingApi) {
  struct Unary {
    const char *name;
    Tensor (*fn)(const Tensor &, Loc);
    bool differentiable;
  };
  const Unary unaries[] = {
#define TORUS_UNARY(function, Op, domain)                                      \
  {#function, function, !std::string_view(#domain).starts_with("Int")},
#include "torus/UnaryOps.def"
  };
  for (const Unary &u : unaries) {
    if (!u.differentiable)
      continue;
    SCOPED_TRACE(u.name);
    checkGradients(
        {f64({2, 3})},
        [&](const std::vector<Tensor> &in) {
          return weightedSum(u.fn(in[0], Loc::current()));
        },
        /*seed=*/11, /*lo=*/0.55, /*hi=*/0.95);
  }
}

TEST(AutodiffTest, MatmulAndBatchedDotGeneral) {
  checkGradients({f64({3, 5}), f64({5, 2})},
                 [](const std::vector<Tensor> &in) {
                   return weightedSum(matmul(in[0], in[1]));
                 });
  checkGradients({f64({4, 2, 3}), f64({2, 4, 5})},
                 [](const std::vector<Tensor> &in) {
                   // batch dims 1 (lhs) and 0 (rhs), contract lhs 0 with rhs 1.
                   return weightedSum(
                       dotGeneral(in[0], in[1], {{1}, {0}, {0}, {1}}));
                 });
}

TEST(AutodiffTest, ShapesTransposeReshape) {
  checkGradients({f64({2, 3, 4})}, [](const std::vector<Tensor> &in) {
    Tensor t = transpose(in[0], {2, 0, 1});
    return weightedSum(reshape(t, {4, 6}) * 3.0);
  });
}

TEST(AutodiffTest, Reductions) {
  checkGradients({f64({3, 4})}, [](const std::vector<Tensor> &in) {
    Tensor x = in[0];
    return weightedSum(sum(x, {1})) + weightedSum(mean(x, {0}, true)) +
           weightedSum(max(x, {0})) + weightedSum(min(x, {1}));
  });
}

TEST(AutodiffTest, SelectAndComparisons) {
  checkGradients({f64({6}), f64({6})}, [](const std::vector<Tensor> &in) {
    return weightedSum(where(greater(in[0], in[1]), in[0] * in[1], -in[1]));
  });
}

TEST(AutodiffTest, LinearRegressionStepMatchesHandWrittenGradient) {
  // The demo's hand-written gradient, now derived: d mean((x w + b - y)^2).
  checkGradients({f64({4}), f64({}), f64({8, 4}), f64({8})},
                 [](const std::vector<Tensor> &in) {
                   Tensor err = matmul(in[2], in[0]) + in[1] - in[3];
                   return mean(square(err));
                 });
}

TEST(AutodiffTest, GradientTapeAndUnreachableSources) {
  auto fn = trace("tape", {f64({3}), f64({3})},
                  [](const std::vector<Tensor> &in) {
                    GradientTape tape;
                    Tensor loss = sum(in[0] * in[0]);
                    auto g = tape.gradient(loss, {in[0], in[1]});
                    return std::vector<Tensor>{g[0], g[1]};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn);
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(1);
  auto out = mesh->run(*exe, {{HostTensor::fromVector<double>({3}, {1, 2, 3}),
                               HostTensor::fromVector<double>({3}, {4, 5, 6})}});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0][0].toVector<double>(), (std::vector<double>{2, 4, 6}));
  EXPECT_EQ((*out)[0][1].toVector<double>(), (std::vector<double>{0, 0, 0}));
}

TEST(AutodiffTest, NonPersistentTapeAnswersOnce) {
  auto fn = trace("tape", {f64({3})}, [](const std::vector<Tensor> &in) {
    GradientTape tape;
    Tensor loss = sum(in[0]);
    tape.gradient(loss, {in[0]});
    return tape.gradient(loss, {in[0]});
  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("A non-persistent GradientTape can only be used to "
                        "compute one set of gradients"));
}

TEST(AutodiffTest, NonScalarWithoutCotangentIsAnError) {
  auto fn = trace("g", {f64({3})}, [](const std::vector<Tensor> &in) {
    return gradients(in[0] * 2.0, {in[0]});
  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("the gradient of a non-scalar output of type "
                        "'tensor<3xf64>' needs a cotangent (at AutodiffTest.cpp:"));
}

TEST(AutodiffTest, IntegerInputsAreSkippedOrRejected) {
  // valueAndGrad's default skips the integer labels.
  auto ok = trace("g", {f64({3}), {DType::I32, {3}}},
                  [](const std::vector<Tensor> &in) {
                    auto vg = valueAndGrad([](const std::vector<Tensor> &x) {
                      return std::vector<Tensor>{
                          sum(x[0] * astype(x[1], DType::F64))};
                    })(in);
                    EXPECT_EQ(vg.grads.size(), 1u);
                    return vg.grads;
                  });
  ASSERT_TRUE(ok.ok()) << ok.status();
  // Asking for it explicitly is an error.
  auto bad = trace("g", {f64({3}), {DType::I32, {3}}},
                   [](const std::vector<Tensor> &in) {
                     return gradients(sum(in[0]), {in[1]});
                   });
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("cannot differentiate with respect to a value of "
                        "type 'tensor<3xi32>'; only floating-point tensors have gradients"));
}

TEST(AutodiffTest, AllReduceGradientSumsCotangentsOverReplicas) {
  // loss_r = sum(allReduce(x_r) * c_r) with c_r = r + 1, so
  // d loss_r / d x_q = sum over r of c_r = 1 + 2 + 3 + 4 = 10 on 4 replicas.
  auto fn = trace("g", {f64({2})}, [](const std::vector<Tensor> &in) {
    Tensor c = astype(replicaId(), DType::F64) + 1.0;
    return grad([&](const std::vector<Tensor> &x) {
      return std::vector<Tensor>{sum(allReduce(x[0]) * c)};
    })(in);
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto exe = compile(*fn, {.numReplicas = 4});
  ASSERT_TRUE(exe.ok()) << exe.status();
  auto mesh = EmulatedMesh::create(4);
  std::vector<std::vector<HostTensor>> inputs(
      4, {HostTensor::fromVector<double>({2}, {1, 2})});
  auto out = mesh->run(*exe, inputs);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int r = 0; r < 4; ++r)
    EXPECT_EQ((*out)[r][0].toVector<double>(), (std::vector<double>{10, 10}));
}

} // namespace
