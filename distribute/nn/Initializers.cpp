//===- Initializers.cpp - tf.keras.initializers ---------------------------===//

#include "torus/distribute/nn/Initializers.h"

#include <cmath>
#include <mutex>
#include <random>

namespace torus::distribute::nn {

namespace {

std::mutex generatorMutex;
std::mt19937_64 &globalGenerator() {
  static std::mt19937_64 gen(0);
  return gen;
}

/// A generator for one initialization: seeded, or the next state of the
/// global one.
std::mt19937_64 generatorFor(std::optional<uint64_t> seed) {
  if (seed)
    return std::mt19937_64(*seed);
  std::lock_guard<std::mutex> lock(generatorMutex);
  return std::mt19937_64(globalGenerator()());
}

template <typename Dist>
HostTensor sample(const Shape &shape, DType dtype, std::mt19937_64 gen,
                  Dist dist) {
  HostTensor t(dtype, shape);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    double v = dist(gen);
    if (dtype == DType::F64)
      t.data<double>()[i] = v;
    else
      t.data<float>()[i] = static_cast<float>(v);
  }
  return t;
}

HostTensor filled(const Shape &shape, DType dtype, double value) {
  HostTensor t(dtype, shape);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    switch (dtype) {
    case DType::F64:
      t.data<double>()[i] = value;
      break;
    case DType::I32:
      t.data<int32_t>()[i] = static_cast<int32_t>(value);
      break;
    case DType::I64:
      t.data<int64_t>()[i] = static_cast<int64_t>(value);
      break;
    default:
      t.data<float>()[i] = static_cast<float>(value);
    }
  }
  return t;
}

} // namespace

void setRandomSeed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(generatorMutex);
  globalGenerator().seed(seed);
}

namespace initializers {

Initializer zeros() {
  return [](const Shape &s, DType d) { return filled(s, d, 0); };
}
Initializer ones() {
  return [](const Shape &s, DType d) { return filled(s, d, 1); };
}
Initializer constant(double value) {
  return [value](const Shape &s, DType d) { return filled(s, d, value); };
}

Initializer glorotUniform(std::optional<uint64_t> seed) {
  return [seed](const Shape &shape, DType dtype) {
    // Keras's _compute_fans: receptive field times the last two dims.
    double fanIn = 1, fanOut = 1;
    if (shape.size() == 1) {
      fanIn = fanOut = static_cast<double>(shape[0]);
    } else if (shape.size() >= 2) {
      double receptive = 1;
      for (size_t i = 0; i + 2 < shape.size(); ++i)
        receptive *= static_cast<double>(shape[i]);
      fanIn = shape[shape.size() - 2] * receptive;
      fanOut = shape[shape.size() - 1] * receptive;
    }
    double limit = std::sqrt(6.0 / std::max(1.0, fanIn + fanOut));
    return sample(shape, dtype, generatorFor(seed),
                  std::uniform_real_distribution<double>(-limit, limit));
  };
}

Initializer randomNormal(double mean, double stddev,
                         std::optional<uint64_t> seed) {
  return [=](const Shape &shape, DType dtype) {
    return sample(shape, dtype, generatorFor(seed),
                  std::normal_distribution<double>(mean, stddev));
  };
}

Initializer randomUniform(double minval, double maxval,
                          std::optional<uint64_t> seed) {
  return [=](const Shape &shape, DType dtype) {
    return sample(shape, dtype, generatorFor(seed),
                  std::uniform_real_distribution<double>(minval, maxval));
  };
}

} // namespace initializers
} // namespace torus::distribute::nn
