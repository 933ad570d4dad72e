//===- IndexingOpsTest.cpp - gather/scatter and their NumPy forms ---------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

std::vector<double> counting(int64_t n, double start = 0) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = start + static_cast<double>(i);
  return v;
}

TEST(IndexingOpsTest, EmbeddingLookupClampsAndWraps) {
  auto table = counting(10 * 4);
  // -1 is the last row (NumPy); 12 and -20 are clamped into range.
  std::vector<double> ids = {3, 0, 9, -1, 12, -20};
  auto out = run(
      [](Tensor t, Tensor i) {
        return std::make_tuple(embeddingLookup(t, reshape(i, {2, 3})),
                               take(t, i, 1));
      },
      {fromDoubles(DType::F32, {10, 4}, table),
       fromDoubles(DType::I32, {6}, ids)});
  ASSERT_EQ(out.size(), 2u);
  auto row = [](double id, int64_t n) {
    int64_t i = static_cast<int64_t>(id);
    if (i < 0)
      i += n;
    return std::clamp<int64_t>(i, 0, n - 1);
  };
  std::vector<double> w0, w1;
  for (double id : ids)
    for (int j = 0; j < 4; ++j)
      w0.push_back(table[row(id, 10) * 4 + j]);
  for (int r = 0; r < 10; ++r)
    for (double id : ids)
      w1.push_back(table[r * 4 + row(id, 4)]);
  EXPECT_EQ(out[0].shape(), (Shape{2, 3, 4}));
  expectClose(out[0], w0, 0);
  EXPECT_EQ(out[1].shape(), (Shape{10, 6}));
  expectClose(out[1], w1, 0);
}

TEST(IndexingOpsTest, TakeAlongAxisBroadcasts) {
  auto a = counting(3 * 5, 10);
  std::vector<double> idx = {4, 0, 2, 1};  // shape [1, 4]: broadcast rows
  auto out = run(
      [](Tensor x, Tensor i) {
        return std::make_tuple(takeAlongAxis(x, i, 1),
                               takeAlongAxis(x, argmax(x, 1, true), 1));
      },
      {fromDoubles(DType::F64, {3, 5}, a), fromDoubles(DType::I64, {1, 4}, idx)});
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> w0, w1;
  for (int r = 0; r < 3; ++r) {
    for (double i : idx)
      w0.push_back(a[r * 5 + static_cast<int>(i)]);
    w1.push_back(a[r * 5 + 4]);
  }
  EXPECT_EQ(out[0].shape(), (Shape{3, 4}));
  expectClose(out[0], w0, 0);
  expectClose(out[1], w1, 0);
}

TEST(IndexingOpsTest, OneHotViaIotaAndViaScatter) {
  std::vector<double> labels = {2, 0, 4, 7, -1, 1};
  auto out = run(
      [](Tensor l) {
        // The same encoding through scatter: ones written at (row, label).
        Tensor rows = arange(6, DType::I32);
        Tensor coords = stack({rows, clamp(l, 0, 4)}, 1);
        ScatterDims dims{{}, {0, 1}, {0, 1}, 1};
        Tensor scattered = scatter(zeros({6, 5}), coords, ones({6}), dims,
                                   ScatterOp::Replace);
        return std::make_tuple(oneHot(l, 5), oneHot(l, 5, DType::I32, 0),
                               scattered);
      },
      {fromDoubles(DType::I32, {6}, labels)});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> w0, w1(5 * 6, 0), w2;
  for (size_t i = 0; i < labels.size(); ++i)
    for (int c = 0; c < 5; ++c) {
      w0.push_back(labels[i] == c);
      w2.push_back(std::clamp<double>(labels[i], 0, 4) == c);
    }
  for (int c = 0; c < 5; ++c)
    for (size_t i = 0; i < labels.size(); ++i)
      w1[c * 6 + i] = labels[i] == c;
  expectClose(out[0], w0, 0);
  EXPECT_EQ(out[1].shape(), (Shape{5, 6}));
  expectClose(out[1], w1, 0);
  expectClose(out[2], w2, 0);
}

TEST(IndexingOpsTest, IndexAddAccumulatesRepeatedIndices) {
  auto base = counting(5 * 3);
  std::vector<double> ids = {1, 4, 1, -1, 7};  // 7 is out of range: dropped
  auto upd = counting(5 * 3, 100);
  auto out = run(
      [](Tensor x, Tensor i, Tensor u) {
        Tensor wide = concatenate({u, u[{Slice(), Slice(0, 2)}]}, 1);
        return std::make_tuple(indexAdd(x, i, u), indexSet(x, i, u),
                               indexAdd(x, i, wide, 1));
      },
      {fromDoubles(DType::F64, {5, 3}, base), fromDoubles(DType::I32, {5}, ids),
       fromDoubles(DType::F64, {5, 3}, upd)});
  ASSERT_EQ(out.size(), 2u + 1);
  std::vector<double> added = base, set = base;
  for (size_t k = 0; k < ids.size(); ++k) {
    int64_t r = static_cast<int64_t>(ids[k]);
    if (r < 0)
      r += 5;
    if (r >= 5)
      continue;
    for (int j = 0; j < 3; ++j) {
      added[r * 3 + j] += upd[k * 3 + j];
      set[r * 3 + j] = upd[k * 3 + j]; // the last update wins
    }
  }
  expectClose(out[0], added, 0);
  expectClose(out[1], set, 0);
  // Along axis 1 of a [5,3] tensor, indices 1, 1 and -1 (= 2) land; 4 and
  // 7 are out of range and dropped.
  std::vector<double> cols = base;
  for (int r = 0; r < 5; ++r)
    for (size_t k = 0; k < ids.size(); ++k) {
      int64_t c = static_cast<int64_t>(ids[k]);
      if (c < 0)
        c += 3;
      if (c >= 3)
        continue;
      double w = k < 3 ? upd[r * 3 + k] : upd[r * 3 + (k - 3)];
      cols[r * 3 + c] += w;
    }
  expectClose(out[2], cols, 0);
}

/// HLO gather, naively (start indices clamped).
std::vector<double> naiveGather(const std::vector<double> &x, const Shape &xs,
                                const std::vector<double> &idx,
                                const Shape &is, const GatherDims &d,
                                const std::vector<int64_t> &sizes,
                                const Shape &outShape) {
  std::vector<double> out;
  forEachIndex(outShape, [&](const std::vector<int64_t> &o) {
    std::vector<int64_t> batch, window;
    for (int64_t k = 0; k < (int64_t)o.size(); ++k)
      (std::count(d.offsetDims.begin(), d.offsetDims.end(), k) ? window : batch)
          .push_back(o[k]);
    std::vector<int64_t> start(xs.size(), 0);
    for (size_t k = 0; k < d.startIndexMap.size(); ++k) {
      std::vector<int64_t> pos = batch;
      if (d.indexVectorDim < (int64_t)is.size())
        pos.insert(pos.begin() + d.indexVectorDim, k);
      int64_t od = d.startIndexMap[k];
      start[od] = std::clamp<int64_t>(
          static_cast<int64_t>(idx[flatIndex(is, pos)]), 0, xs[od] - sizes[od]);
    }
    std::vector<int64_t> in(xs.size());
    size_t w = 0;
    for (int64_t k = 0; k < (int64_t)xs.size(); ++k)
      in[k] = start[k] + (std::count(d.collapsedSliceDims.begin(),
                                     d.collapsedSliceDims.end(), k)
                              ? 0
                              : window[w++]);
    out.push_back(x[flatIndex(xs, in)]);
  });
  return out;
}

TEST(IndexingOpsTest, GeneralGatherWithWindowsAndIndexVectorInTheMiddle) {
  // operand [6, 7, 5]; indices [2, 2, 3] with the index vector (size 2) in
  // dimension 1, indexing operand dims 2 and 0; windows of [3, 4, 2] keep
  // dims 0 and 1 (dim 2 ... collapsed needs size 1, so collapse none).
  Shape xs = {6, 7, 5}, is = {2, 2, 3};
  auto x = counting(numElements(xs));
  std::vector<double> idx = {1, 0, 4, 3, 2, 9, -2, 5, 0, 1, 1, 2};
  GatherDims d;
  d.offsetDims = {1, 2, 4};
  d.collapsedSliceDims = {};
  d.startIndexMap = {2, 0};
  d.indexVectorDim = 1;
  std::vector<int64_t> sizes = {3, 4, 2};
  auto out = run([&](Tensor a, Tensor i) { return gather(a, i, d, sizes); },
                 {fromDoubles(DType::F64, xs, x), fromDoubles(DType::I64, is, idx)});
  ASSERT_EQ(out.size(), 1u);
  Shape os = {2, 3, 4, 3, 2};
  EXPECT_EQ(out[0].shape(), os);
  expectClose(out[0], naiveGather(x, xs, idx, is, d, sizes, os), 0);
}

TEST(IndexingOpsTest, GeneralScatterSkipsWindowsOutOfBounds) {
  // operand [5, 6]; updates are [2, 3] windows at (row, col) starts; a
  // window that does not fit is skipped whole (XLA), not clamped.
  Shape xs = {5, 6};
  auto x = counting(30);
  std::vector<double> starts = {0, 0, 3, 3, 4, 0, 1, 4, 2, 1};  // [5, 2]
  auto upd = counting(5 * 2 * 3, 100);
  ScatterDims d{{1, 2}, {}, {0, 1}, 1};
  auto out = run(
      [&](Tensor a, Tensor s, Tensor u) {
        return std::make_tuple(scatter(a, s, u, d, ScatterOp::Add),
                               scatter(a, s, u, d, ScatterOp::Max),
                               scatter(a, s, -u, d, ScatterOp::Min),
                               scatter(a, s, u * 0 + 2, d, ScatterOp::Multiply),
                               scatter(a, s, u, d, ScatterOp::Replace));
      },
      {fromDoubles(DType::F32, xs, x), fromDoubles(DType::I32, {5, 2}, starts),
       fromDoubles(DType::F32, {5, 2, 3}, upd)});
  ASSERT_EQ(out.size(), 5u);
  std::vector<std::vector<double>> want(5, x);
  for (int k = 0; k < 5; ++k) {
    int r = static_cast<int>(starts[2 * k]), c = static_cast<int>(starts[2 * k + 1]);
    if (r < 0 || c < 0 || r + 2 > 5 || c + 3 > 6)
      continue; // skipped
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        int p = (r + i) * 6 + c + j;
        double u = upd[(k * 2 + i) * 3 + j];
        want[0][p] += u;
        want[1][p] = std::max(want[1][p], u);
        want[2][p] = std::min(want[2][p], -u);
        want[3][p] *= 2;
        want[4][p] = u;
      }
  }
  for (int k = 0; k < 5; ++k)
    expectClose(out[k], want[k], 0, 0, "scatter " + std::to_string(k));
}

TEST(IndexingOpsTest, ScatterIntegerWithImplicitIndexVector) {
  // Row indices with index_vector_dim == rank (implicit trailing 1).
  auto x = randomInts(4 * 3, 3, -5, 5);
  std::vector<double> rows = {2, 2, 0};
  auto u = randomInts(3 * 3, 4, -5, 5);
  ScatterDims d{{1}, {0}, {0}, 1};
  auto out = run(
      [&](Tensor a, Tensor r, Tensor v) { return scatter(a, r, v, d); },
      {fromDoubles(DType::I64, {4, 3}, x), fromDoubles(DType::I32, {3}, rows),
       fromDoubles(DType::I64, {3, 3}, u)});
  ASSERT_EQ(out.size(), 1u);
  auto want = x;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      want[static_cast<int>(rows[k]) * 3 + j] += u[k * 3 + j];
  expectClose(out[0], want, 0);
}

} // namespace
