//===- ConvolutionOpsTest.cpp - dot_general and convolution vs naive loops ===//
//
// The reference convolution below is HLO's definition written as loops:
// for each output element, sum over the kernel window and the group's input
// features, reading the lhs-dilated, padded input (zero outside).
//
//===----------------------------------------------------------------------===//

#include "api/OpsTestUtil.h"

using namespace torus;
using namespace torus::testing;

namespace {

TEST(ConvolutionOpsTest, DotGeneralBatchedF64AndI32) {
  // out[b, i, j] = sum_{p, q} lhs[p, b, i, q] * rhs[q, b, j, p]
  const int B = 2, I = 3, J = 4, P = 5, Q = 2;
  auto l = randomDoubles(P * B * I * Q, 1), r = randomDoubles(Q * B * J * P, 2);
  auto li = randomInts(P * B * I * Q, 3, -5, 5), ri = randomInts(Q * B * J * P, 4, -5, 5);
  DotDims dims{{1}, {1}, {0, 3}, {3, 0}};
  auto out = run(
      [&](Tensor a, Tensor b, Tensor c, Tensor d) {
        return std::make_tuple(dotGeneral(a, b, dims), dotGeneral(c, d, dims));
      },
      {fromDoubles(DType::F64, {P, B, I, Q}, l),
       fromDoubles(DType::F64, {Q, B, J, P}, r),
       fromDoubles(DType::I32, {P, B, I, Q}, li),
       fromDoubles(DType::I32, {Q, B, J, P}, ri)});
  ASSERT_EQ(out.size(), 2u);
  std::vector<double> want(B * I * J, 0), wantI(B * I * J, 0);
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < I; ++i)
      for (int j = 0; j < J; ++j)
        for (int p = 0; p < P; ++p)
          for (int q = 0; q < Q; ++q) {
            int lx = ((p * B + b) * I + i) * Q + q, rx = ((q * B + b) * J + j) * P + p;
            want[(b * I + i) * J + j] += l[lx] * r[rx];
            wantI[(b * I + i) * J + j] += li[lx] * ri[rx];
          }
  EXPECT_EQ(out[0].shape(), (Shape{B, I, J}));
  expectClose(out[0], want, 1e-13);
  expectClose(out[1], wantI, 0);
}

TEST(ConvolutionOpsTest, MatmulBroadcastsBatchesAndVectors) {
  auto a = randomDoubles(3 * 1 * 2 * 4, 5), b = randomDoubles(5 * 4 * 6, 6);
  auto v = randomDoubles(4, 7);
  auto out = run(
      [](Tensor x, Tensor y, Tensor z) {
        return std::make_tuple(matmul(x, y), matmul(z, y), matmul(x, z));
      },
      {fromDoubles(DType::F32, {3, 1, 2, 4}, a),
       fromDoubles(DType::F32, {5, 4, 6}, b), fromDoubles(DType::F32, {4}, v)});
  ASSERT_EQ(out.size(), 3u);
  std::vector<double> w0, w1, w2;
  for (int s = 0; s < 3; ++s)
    for (int t = 0; t < 5; ++t)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 6; ++j) {
          double acc = 0;
          for (int k = 0; k < 4; ++k)
            acc += a[(s * 2 + i) * 4 + k] * b[(t * 4 + k) * 6 + j];
          w0.push_back(acc);
        }
  for (int t = 0; t < 5; ++t)
    for (int j = 0; j < 6; ++j) {
      double acc = 0;
      for (int k = 0; k < 4; ++k)
        acc += v[k] * b[(t * 4 + k) * 6 + j];
      w1.push_back(acc);
    }
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i) {
      double acc = 0;
      for (int k = 0; k < 4; ++k)
        acc += a[(s * 2 + i) * 4 + k] * v[k];
      w2.push_back(acc);
    }
  EXPECT_EQ(out[0].shape(), (Shape{3, 5, 2, 6}));
  expectClose(out[0], w0, 1e-5);
  EXPECT_EQ(out[1].shape(), (Shape{5, 6}));
  expectClose(out[1], w1, 1e-5);
  EXPECT_EQ(out[2].shape(), (Shape{3, 1, 2}));
  expectClose(out[2], w2, 1e-5);
}

/// HLO convolution, naively. Shapes and layouts from `dims`.
std::vector<double> naiveConv(const std::vector<double> &x, const Shape &xs,
                              const std::vector<double> &w, const Shape &ws,
                              const ConvolutionOptions &o, Shape &outShape) {
  const ConvDimensionNumbers &d = o.dims;
  size_t n = d.inputSpatial.size();
  auto get = [&](const std::vector<int64_t> &v, size_t i, int64_t dflt) {
    return v.empty() ? dflt : v[i];
  };
  int64_t N = xs[d.inputBatch], C = xs[d.inputFeature];
  int64_t O = ws[d.kernelOutputFeature], CI = ws[d.kernelInputFeature];
  int64_t G = o.featureGroupCount, BG = o.batchGroupCount;
  outShape.assign(xs.size(), 0);
  outShape[d.outputBatch] = N / BG;
  outShape[d.outputFeature] = O;
  std::vector<int64_t> ks(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t in = xs[d.inputSpatial[i]], k = ws[d.kernelSpatial[i]];
    ks[i] = k;
    auto [lo, hi] = o.padding.empty() ? std::pair<int64_t, int64_t>{0, 0}
                                      : o.padding[i];
    int64_t padded = lo + (in - 1) * get(o.lhsDilation, i, 1) + 1 + hi;
    int64_t window = (k - 1) * get(o.rhsDilation, i, 1) + 1;
    outShape[d.outputSpatial[i]] =
        padded < window ? 0 : (padded - window) / get(o.strides, i, 1) + 1;
  }
  std::vector<double> out(numElements(outShape), 0);
  forEachIndex(outShape, [&](const std::vector<int64_t> &oi) {
    int64_t b = oi[d.outputBatch], f = oi[d.outputFeature];
    int64_t group = f / (O / G), bgroup = f / (O / BG);
    double acc = 0;
    forEachIndex(Shape(ks.begin(), ks.end()), [&](const std::vector<int64_t> &k) {
      std::vector<int64_t> xi(xs.size()), wi(ws.size());
      for (size_t i = 0; i < n; ++i) {
        auto lo = o.padding.empty() ? 0 : o.padding[i].first;
        int64_t pos = oi[d.outputSpatial[i]] * get(o.strides, i, 1) +
                      k[i] * get(o.rhsDilation, i, 1) - lo;
        int64_t ld = get(o.lhsDilation, i, 1);
        if (pos < 0 || pos % ld != 0 || pos / ld >= xs[d.inputSpatial[i]])
          return;
        xi[d.inputSpatial[i]] = pos / ld;
        wi[d.kernelSpatial[i]] = k[i];
      }
      for (int64_t c = 0; c < CI; ++c) {
        xi[d.inputBatch] = bgroup * (N / BG) + b;
        xi[d.inputFeature] = group * (C / G) + c;
        wi[d.kernelInputFeature] = c;
        wi[d.kernelOutputFeature] = f;
        acc += x[flatIndex(xs, xi)] * w[flatIndex(ws, wi)];
      }
    });
    out[flatIndex(outShape, oi)] = acc;
  });
  return out;
}

/// NCHW input and output, OIHW kernel (PyTorch's and cuDNN's layout).
ConvDimensionNumbers nchwOihw() {
  return {/*input*/ 0, 1, {2, 3}, /*kernel in, out*/ 1, 0, {2, 3},
          /*output*/ 0, 1, {2, 3}};
}

void checkConv(DType dtype, const Shape &xs, const Shape &ws,
               const ConvolutionOptions &o, double rtol, unsigned seed) {
  auto x = roundTo(dtype, randomDoubles(numElements(xs), seed));
  auto w = roundTo(dtype, randomDoubles(numElements(ws), seed + 1));
  auto out = run([&](Tensor a, Tensor b) { return convolution(a, b, o); },
                 {fromDoubles(dtype, xs, x), fromDoubles(dtype, ws, w)});
  ASSERT_EQ(out.size(), 1u);
  Shape s;
  auto want = naiveConv(x, xs, w, ws, o, s);
  EXPECT_EQ(out[0].shape(), s);
  expectClose(out[0], roundTo(dtype, want), rtol, 1e-5);
}

TEST(ConvolutionOpsTest, StridesAndPaddingNHWC) {
  ConvolutionOptions o;
  o.strides = {2, 1};
  o.padding = {{1, 2}, {0, 1}};
  checkConv(DType::F32, {2, 7, 6, 3}, {3, 2, 3, 5}, o, 1e-5, 10);
}

TEST(ConvolutionOpsTest, NegativePaddingCrops) {
  ConvolutionOptions o;
  o.padding = {{-1, 0}, {2, -2}};
  checkConv(DType::F64, {1, 6, 6, 2}, {2, 2, 2, 3}, o, 1e-12, 20);
}

TEST(ConvolutionOpsTest, RhsDilation) {
  ConvolutionOptions o;
  o.rhsDilation = {2, 3};
  o.strides = {1, 2};
  checkConv(DType::F64, {1, 9, 10, 2}, {3, 2, 2, 4}, o, 1e-12, 30);
}

TEST(ConvolutionOpsTest, LhsDilationIsTransposedConvolution) {
  ConvolutionOptions o;
  o.lhsDilation = {2, 2};
  o.padding = {{2, 2}, {1, 2}};
  checkConv(DType::F64, {2, 4, 3, 3}, {3, 3, 3, 2}, o, 1e-12, 40);
}

// A dilated input is computed as one undilated convolution whose output
// features are the output phases (torus-split-dilated-convolutions): every
// way a phase's taps, padding and size can come out, against the naive
// convolution of the dilated input.
TEST(ConvolutionOpsTest, LhsDilationByPhase) {
  struct Case {
    const char *what;
    Shape xs, ws;
    std::vector<int64_t> lhsDilation;
    std::vector<std::pair<int64_t, int64_t>> padding;
    int64_t featureGroups = 1, batchGroups = 1;
  };
  const Case cases[] = {
      // A stride-2 3 x 3 convolution's input gradient (a conv net's).
      {"stride-2 gradient", {2, 4, 4, 6}, {3, 3, 6, 5}, {2, 2}, {{2, 1}, {2, 1}}},
      // Kernel 2 with dilation 3: one phase of three reads no tap (zeros).
      {"phase without taps", {1, 4, 5, 2}, {2, 2, 2, 3}, {3, 3}, {{1, 1}, {0, 2}}},
      // 11 and 9 outputs: not multiples of the dilation (sliced off).
      {"uneven outputs", {1, 5, 4, 3}, {3, 2, 3, 2}, {2, 3}, {{1, 2}, {2, 0}}},
      // Negative padding crops the dilated input.
      {"negative padding", {1, 6, 5, 2}, {3, 3, 2, 2}, {2, 2}, {{-1, 1}, {1, -2}}},
      // Only one dimension dilated.
      {"one dimension", {2, 5, 6, 2}, {3, 2, 2, 4}, {3, 1}, {{2, 2}, {1, 0}}},
      // Grouped convolutions stay dilated (checked all the same).
      {"feature groups", {1, 4, 4, 6}, {3, 3, 2, 6}, {2, 2}, {{1, 1}, {2, 2}}, 3},
      {"batch groups", {4, 3, 4, 2}, {2, 3, 2, 6}, {2, 2}, {{1, 1}, {0, 1}}, 1, 2},
  };
  unsigned seed = 300;
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    ConvolutionOptions o;
    o.lhsDilation = c.lhsDilation;
    o.padding = c.padding;
    o.featureGroupCount = c.featureGroups;
    o.batchGroupCount = c.batchGroups;
    checkConv(DType::F64, c.xs, c.ws, o, 1e-12, seed);
    checkConv(DType::F32, c.xs, c.ws, o, 1e-5, seed + 1);
    seed += 2;
  }
  // NCHW, OIHW: the phases are features of dimension 1.
  ConvolutionOptions nchw;
  nchw.dims = nchwOihw();
  nchw.lhsDilation = {2, 3};
  nchw.padding = {{1, 1}, {2, 0}};
  checkConv(DType::F64, {2, 3, 4, 5}, {4, 3, 3, 2}, nchw, 1e-12, 390);
  // 1-D, dilation 4, high padding past the input.
  ConvolutionOptions one;
  one.dims = {0, 2, {1}, 1, 2, {0}, 0, 2, {1}};
  one.lhsDilation = {4};
  one.padding = {{3, 6}};
  checkConv(DType::F64, {2, 5, 3}, {5, 3, 2}, one, 1e-12, 400);
}

TEST(ConvolutionOpsTest, FeatureGroupsAndDepthwise) {
  ConvolutionOptions grouped;
  grouped.featureGroupCount = 3;
  grouped.padding = {{1, 1}, {1, 1}};
  checkConv(DType::F32, {2, 5, 5, 6}, {3, 3, 2, 9}, grouped, 1e-5, 50);
  ConvolutionOptions depthwise;
  depthwise.featureGroupCount = 4;
  checkConv(DType::F64, {1, 5, 4, 4}, {2, 2, 1, 8}, depthwise, 1e-12, 60);
}

TEST(ConvolutionOpsTest, BatchGroups) {
  // batch_group_count: the weight gradient of a grouped convolution.
  ConvolutionOptions o;
  o.batchGroupCount = 2;
  checkConv(DType::F64, {4, 5, 5, 3}, {2, 2, 3, 6}, o, 1e-12, 70);
}

TEST(ConvolutionOpsTest, NCHWLayoutWithEverything) {
  ConvolutionOptions o;
  o.dims = nchwOihw();
  o.strides = {2, 1};
  o.padding = {{1, 0}, {2, 1}};
  o.rhsDilation = {1, 2};
  o.lhsDilation = {2, 1};
  o.featureGroupCount = 2;
  checkConv(DType::F64, {2, 4, 5, 6}, {6, 2, 3, 2}, o, 1e-12, 80);
}

TEST(ConvolutionOpsTest, Conv1dAndConv3d) {
  ConvolutionOptions one;
  one.dims = {0, 2, {1}, 1, 2, {0}, 0, 2, {1}};
  one.strides = {3};
  one.padding = {{2, 1}};
  checkConv(DType::F64, {2, 11, 3}, {4, 3, 5}, one, 1e-12, 90);
  ConvolutionOptions three;
  three.dims = {0, 4, {1, 2, 3}, 3, 4, {0, 1, 2}, 0, 4, {1, 2, 3}};
  three.padding = {{1, 1}, {0, 0}, {1, 0}};
  checkConv(DType::F64, {1, 4, 3, 5, 2}, {2, 2, 3, 2, 3}, three, 1e-12, 100);
}

TEST(ConvolutionOpsTest, Conv2dSameHalfPrecision) {
  auto xs = Shape{1, 6, 6, 4}, ws = Shape{3, 3, 4, 8};
  auto x = roundTo(DType::F16, randomDoubles(numElements(xs), 110));
  auto w = roundTo(DType::F16, randomDoubles(numElements(ws), 111));
  auto out = run(
      [](Tensor a, Tensor b) {
        return conv2d(a, b, {2, 2}, Padding::same());
      },
      {fromDoubles(DType::F16, xs, x), fromDoubles(DType::F16, ws, w)});
  ASSERT_EQ(out.size(), 1u);
  ConvolutionOptions o;
  o.strides = {2, 2};
  o.padding = {{0, 1}, {0, 1}}; // TF SAME: out 3, pad 1 at the end
  Shape s;
  auto want = naiveConv(x, xs, w, ws, o, s);
  EXPECT_EQ(out[0].shape(), s);
  // Accumulated in f32, rounded once: within an f16 rounding of the exact.
  expectClose(out[0], want, 1e-3, 2e-3);
}

} // namespace
