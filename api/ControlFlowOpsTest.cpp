//===- ControlFlowOpsTest.cpp - Loops, branches and calls, run ------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

TEST(ControlFlowOpsTest, WhileLoopCollatzSteps) {
  // Steps for each start value to reach 1: a data-dependent trip count.
  std::vector<double> starts = {1, 6, 7, 27};
  auto out = run(
      [](Tensor n) {
        TensorList r = whileLoop(
            [](const TensorList &s) { return any(s[0] > 1); },
            [](const TensorList &s) {
              Tensor x = s[0], steps = s[1];
              Tensor next = where(equal(x % 2, 0), x / 2, 3 * x + 1);
              Tensor moving = x > 1;
              return TensorList{where(moving, next, x),
                                steps + astype(moving, DType::I32)};
            },
            {n, zerosLike(n)});
        return r[1];
      },
      {fromDoubles(DType::I32, {4}, starts)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> want;
  for (double s : starts) {
    int64_t x = static_cast<int64_t>(s), steps = 0;
    while (x > 1) {
      x = x % 2 == 0 ? x / 2 : 3 * x + 1;
      ++steps;
    }
    want.push_back(static_cast<double>(steps));
  }
  expectClose(out[0], want, 0);
}

TEST(ControlFlowOpsTest, ForLoopPowerIterationF64) {
  // 30 steps of v <- A v / |A v| on a symmetric matrix, captured from outside.
  std::vector<double> a = {4, 1, 0, 1, 3, 1, 0, 1, 2};
  auto out = run(
      [](Tensor m) {
        TensorList r = forLoop(
            0, 30,
            [&](const Tensor &, const TensorList &s) {
              Tensor v = matmul(m, s[0]);
              return TensorList{v / sqrt(sum(v * v))};
            },
            {ones({3}, DType::F64)});
        return r[0];
      },
      {fromDoubles(DType::F64, {3, 3}, a)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> v = {1, 1, 1};
  for (int it = 0; it < 30; ++it) {
    std::vector<double> w(3, 0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        w[i] += a[i * 3 + j] * v[j];
    double n = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    for (int i = 0; i < 3; ++i)
      v[i] = w[i] / n;
  }
  expectClose(out[0], v, 1e-12);
}

TEST(ControlFlowOpsTest, ForLoopCounterAndZeroTrips) {
  auto out = run(
      [](Tensor x) {
        TensorList sumOfSquares = forLoop(
            1, 6,
            [](const Tensor &i, const TensorList &s) {
              return TensorList{s[0] + i * i};
            },
            {zeros({}, DType::I32)});
        TensorList none = forLoop(
            5, 2, [](const Tensor &, const TensorList &s) { return TensorList{s[0] * 0}; },
            {x});
        return std::make_tuple(sumOfSquares[0], none[0]);
      },
      {fromDoubles(DType::F32, {2}, {3, 4})});
  ASSERT_EQ(out.size(), 2u);
  expectClose(out[0], {1 + 4 + 9 + 16 + 25}, 0);
  expectClose(out[1], {3, 4}, 0);
}

TEST(ControlFlowOpsTest, CondTakesEitherBranch) {
  auto fn = [](Tensor x, Tensor p) {
    TensorList r = cond(
        p, [&] { return TensorList{x * 2.0, sum(x)}; },
        [&] { return TensorList{-x, max(x)}; });
    return std::make_tuple(r[0], r[1]);
  };
  std::vector<double> x = {1, -2, 3};
  for (bool p : {true, false}) {
    auto out = run(fn, {fromDoubles(DType::F32, {3}, x),
                        fromDoubles(DType::I1, {}, {double(p)})});
    ASSERT_EQ(out.size(), 2u);
    if (p) {
      expectClose(out[0], {2, -4, 6});
      expectClose(out[1], {2});
    } else {
      expectClose(out[0], {-1, 2, -3});
      expectClose(out[1], {3});
    }
  }
}

TEST(ControlFlowOpsTest, SwitchCaseOutOfRangeRunsTheLastBranch) {
  auto fn = [](Tensor x, Tensor i) {
    return switchCase(i, {[&] { return TensorList{x + 1}; },
                          [&] { return TensorList{x * 10}; },
                          [&] { return TensorList{x * 0 - 1}; }})[0];
  };
  std::vector<std::pair<double, double>> cases = {
      {0, 6}, {1, 50}, {2, -1}, {7, -1}, {-3, -1}};
  for (auto [index, want] : cases) {
    auto out = run(fn, {fromDoubles(DType::I64, {}, {5}),
                        fromDoubles(DType::I32, {}, {index})});
    ASSERT_EQ(out.size(), 1u);
    expectClose(out[0], {want}, 0, 0, "index " + std::to_string(index));
  }
}

TEST(ControlFlowOpsTest, NestedLoopInsideBranchAndCalls) {
  // cond on the sign of sum(x): a loop doubling x n times, or a called
  // function (used twice) squaring it.
  auto fn = [](Tensor x, Tensor n) {
    auto square = [](const TensorList &in) { return TensorList{in[0] * in[0]}; };
    return cond(
        sum(x) > 0,
        [&] {
          return whileLoop(
              [&](const TensorList &s) { return s[0] < n; },
              [&](const TensorList &s) {
                return TensorList{s[0] + 1, s[1] * 2.0};
              },
              {scalar(0, DType::I32), x})[1];
        },
        [&] {
          Tensor y = call("square", square, {x})[0];
          return call("square", square, {y})[0];
        });
  };
  auto pos = run(fn, {fromDoubles(DType::F64, {2}, {1, 2}),
                      fromDoubles(DType::I32, {}, {5})});
  ASSERT_EQ(pos.size(), 1u);
  expectClose(pos[0], {32, 64}, 0);
  auto neg = run(fn, {fromDoubles(DType::F64, {2}, {-2, -3}),
                      fromDoubles(DType::I32, {}, {5})});
  ASSERT_EQ(neg.size(), 1u);
  expectClose(neg[0], {16, 81}, 0);
}

TEST(ControlFlowOpsTest, LoopCarriesSeveralShapesAndSwapsValues) {
  // Swapping two state values each step exercises the copies bufferization
  // needs when a yielded value is another iteration argument.
  auto out = run(
      [](Tensor a, Tensor b) {
        TensorList r = forLoop(
            0, 3,
            [](const Tensor &, const TensorList &s) {
              return TensorList{s[1], s[0] + 1.0, s[2] + sum(s[0])};
            },
            {a, b, zeros({}, DType::F32)});
        return std::make_tuple(r[0], r[1], r[2]);
      },
      {fromDoubles(DType::F32, {2}, {1, 2}), fromDoubles(DType::F32, {2}, {10, 20})});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> a = {1, 2}, b = {10, 20};
  double acc = 0;
  for (int i = 0; i < 3; ++i) {
    acc += a[0] + a[1];
    std::vector<double> na = b, nb = {a[0] + 1, a[1] + 1};
    a = na;
    b = nb;
  }
  expectClose(out[0], a, 0);
  expectClose(out[1], b, 0);
  expectClose(out[2], {acc}, 0);
}

} // namespace
