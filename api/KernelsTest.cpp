//===- KernelsTest.cpp - The tiled, vectorized kernels vs naive loops -----===//
//
// The kernel stage (torus-vectorize-kernels, docs/codegen.md) turns f32/f64
// dot_general and convolution into cache- and register-tiled vector code
// with peeled remainders. These tests compile programs that take that path
// (and some that fall back to the naive loops: bf16, layouts without a
// contiguous output-feature dimension) at odd sizes that exercise every
// remainder, and compare each element with a plain C++ loop in double.
//
// Tolerance: the kernels sum the K products in a different order than the
// naive loops (in K tiles of 128), so results are not bit-identical; each
// element must be within rtol * sum_k |a_k * b_k| of the exact value, with
// rtol = 1e-5 for f32 (K <= 1000, f32 epsilon 6e-8: K * eps bounds any
// summation order at 6e-5; the tests see far less), 1e-13 for f64 and
// 1e-2 for bf16 (rounded once at the end).
//
//===----------------------------------------------------------------------===//

#include "api/ExecutableImpl.h"
#include "api/OpsTestUtil.h"
#include "runtime/ParallelFor.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace torus;
using namespace torus::testing;

namespace {

double tolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 1e-13;
  case DType::BF16:
    return 1e-2;
  default:
    return 1e-5;
  }
}

/// dot_general of a[ashape] and b[bshape] with `dims` against the loops.
void checkDot(DType dtype, const Shape &as, const Shape &bs, const DotDims &dims,
              unsigned seed) {
  auto a = roundTo(dtype, randomDoubles(numElements(as), seed));
  auto b = roundTo(dtype, randomDoubles(numElements(bs), seed + 1));
  auto out = run([&](Tensor x, Tensor y) { return dotGeneral(x, y, dims); },
                 {fromDoubles(dtype, as, a), fromDoubles(dtype, bs, b)});
  ASSERT_EQ(out.size(), 1u);
  // Result dims: batch, lhs free, rhs free.
  auto freeDims = [](const Shape &s, const std::vector<int64_t> &batch,
                     const std::vector<int64_t> &contract) {
    std::vector<int64_t> f;
    for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d)
      if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
          std::find(contract.begin(), contract.end(), d) == contract.end())
        f.push_back(d);
    return f;
  };
  auto af = freeDims(as, dims.lhsBatch, dims.lhsContracting);
  auto bf = freeDims(bs, dims.rhsBatch, dims.rhsContracting);
  Shape rs, ks;
  for (int64_t d : dims.lhsBatch)
    rs.push_back(as[d]);
  for (int64_t d : af)
    rs.push_back(as[d]);
  for (int64_t d : bf)
    rs.push_back(bs[d]);
  for (int64_t d : dims.lhsContracting)
    ks.push_back(as[d]);
  EXPECT_EQ(out[0].shape(), rs);
  std::vector<double> want(numElements(rs), 0), scale(numElements(rs), 0);
  forEachIndex(rs, [&](const std::vector<int64_t> &r) {
    std::vector<int64_t> ai(as.size()), bi(bs.size());
    size_t p = 0;
    for (size_t i = 0; i < dims.lhsBatch.size(); ++i, ++p) {
      ai[dims.lhsBatch[i]] = r[p];
      bi[dims.rhsBatch[i]] = r[p];
    }
    for (int64_t d : af)
      ai[d] = r[p++];
    for (int64_t d : bf)
      bi[d] = r[p++];
    double sum = 0, mag = 0;
    forEachIndex(ks, [&](const std::vector<int64_t> &k) {
      for (size_t i = 0; i < k.size(); ++i) {
        ai[dims.lhsContracting[i]] = k[i];
        bi[dims.rhsContracting[i]] = k[i];
      }
      double prod = a[flatIndex(as, ai)] * b[flatIndex(bs, bi)];
      sum += prod;
      mag += std::abs(prod);
    });
    want[flatIndex(rs, r)] = sum;
    scale[flatIndex(rs, r)] = mag;
  });
  expectWithinScale(out[0], want, scale, tolerance(dtype),
               "dot " + out[0].spec().toString());
}

DotDims plain() { return {{}, {}, {1}, {0}}; }

TEST(KernelsTest, MatmulOddSizesF32) {
  unsigned seed = 1;
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{
           {1, 1, 1}, {7, 7, 7}, {1, 33, 100}, {33, 1, 65}, {100, 33, 7},
           {33, 257, 129}, {260, 130, 200}, {5, 1000, 17}})
    checkDot(DType::F32, {m, k}, {k, n}, plain(), seed += 2);
}

TEST(KernelsTest, Matmul1000F32) {
  checkDot(DType::F32, {1000, 1000}, {1000, 100}, plain(), 3);
  checkDot(DType::F32, {100, 1000}, {1000, 1000}, plain(), 5);
}

TEST(KernelsTest, MatmulF64AndBf16) {
  checkDot(DType::F64, {37, 70}, {70, 45}, plain(), 7);
  checkDot(DType::F64, {256, 128}, {128, 128}, plain(), 9);
  checkDot(DType::BF16, {33, 40}, {40, 19}, plain(), 11);
}

TEST(KernelsTest, TransposedOperands) {
  // a^T b: the lhs holds [K, M] (a transposed view in the kernel).
  checkDot(DType::F32, {70, 33}, {70, 65}, {{}, {}, {0}, {0}}, 13);
  // a b^T: the rhs holds [N, K] (transposed into a copy first).
  checkDot(DType::F32, {33, 70}, {65, 70}, {{}, {}, {1}, {1}}, 15);
  // a^T b^T.
  checkDot(DType::F32, {70, 33}, {65, 70}, {{}, {}, {0}, {1}}, 17);
}

TEST(KernelsTest, TransposedOperandsOddSizes) {
  // Packing reads a^T's and b^T's tiles through their strided views (a
  // blocked transpose for b^T, row copies for a^T); every edge tile of the
  // transpose, the strips and the panels is exercised.
  unsigned seed = 101;
  for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{
           {37, 129, 1000}, {1000, 37, 129}, {129, 1000, 37}, {1, 17, 5},
           {256, 512, 512}})
  {
    // a b^T: contracting [1] x [1].
    checkDot(DType::F32, {m, k}, {n, k}, {{}, {}, {1}, {1}}, seed += 2);
    // a^T b: contracting [0] x [0].
    checkDot(DType::F32, {k, m}, {k, n}, {{}, {}, {0}, {0}}, seed += 2);
  }
  // a^T b^T, and f64.
  checkDot(DType::F32, {129, 37}, {1000, 129}, {{}, {}, {0}, {1}}, 121);
  checkDot(DType::F64, {70, 129}, {37, 129}, {{}, {}, {1}, {1}}, 123);
  checkDot(DType::F64, {129, 70}, {129, 37}, {{}, {}, {0}, {0}}, 125);
}

TEST(KernelsTest, MatmulPowerOfTwoRowsPacked) {
  // Rows 1024 floats apart: A is packed one register strip at a time.
  checkDot(DType::F32, {260, 1024}, {1024, 130}, plain(), 127);
}

/// transpose(x, perm) (and of a temporary, x + x) against the indices: the
/// kernel stage's blocked transpose must move every element exactly.
void checkTranspose(DType dtype, const Shape &shape,
                    const std::vector<int64_t> &perm, unsigned seed) {
  auto x = roundTo(dtype, randomDoubles(numElements(shape), seed));
  auto out = run(
      [&](Tensor a) {
        return std::vector<Tensor>{transpose(a, perm), transpose(a + a, perm)};
      },
      {fromDoubles(dtype, shape, x)});
  ASSERT_EQ(out.size(), 2u);
  Shape rs;
  for (int64_t d : perm)
    rs.push_back(shape[d]);
  ASSERT_EQ(out[0].shape(), rs);
  std::vector<double> g = toDoubles(out[0]), g2 = toDoubles(out[1]);
  int failures = 0;
  forEachIndex(rs, [&](const std::vector<int64_t> &r) {
    std::vector<int64_t> xi(shape.size());
    for (size_t d = 0; d < perm.size(); ++d)
      xi[perm[d]] = r[d];
    double want = x[flatIndex(shape, xi)];
    size_t i = flatIndex(rs, r);
    if ((g[i] != want || g2[i] != 2 * want) && failures++ < 8)
      ADD_FAILURE() << "transpose element " << i << ": got " << g[i] << ", "
                    << g2[i] << ", want " << want;
  });
}

TEST(KernelsTest, BlockedTranspose) {
  checkTranspose(DType::F32, {512, 784}, {1, 0}, 131);
  checkTranspose(DType::F32, {37, 129}, {1, 0}, 133);
  checkTranspose(DType::F32, {1000, 17}, {1, 0}, 135);
  checkTranspose(DType::F32, {1, 33}, {1, 0}, 137);
  checkTranspose(DType::F64, {35, 70}, {1, 0}, 139);
  checkTranspose(DType::F32, {3, 19, 40}, {2, 0, 1}, 141);
  checkTranspose(DType::F32, {5, 18, 33}, {0, 2, 1}, 143);
  checkTranspose(DType::F32, {6, 7, 20}, {1, 0, 2}, 145); // rows stay rows
}

TEST(KernelsTest, BatchDimsAnywhere) {
  checkDot(DType::F32, {3, 17, 40}, {3, 40, 70}, {{0}, {0}, {2}, {1}}, 19);
  // Batch dims in the middle and last, contracting first.
  checkDot(DType::F32, {40, 3, 17}, {70, 40, 3}, {{1}, {2}, {0}, {1}}, 21);
  // Two batch dims, two contracting dims, two free dims on the left.
  checkDot(DType::F32, {2, 5, 3, 7, 4}, {3, 2, 4, 9, 7},
           {{0, 2}, {1, 0}, {3, 4}, {4, 2}}, 23);
  checkDot(DType::F64, {2, 6, 11, 13}, {2, 13, 67}, {{0}, {0}, {3}, {1}}, 25);
}

TEST(KernelsTest, MatrixVectorAndVectorMatrix) {
  // No N (rhs has no free dim) and no M: the naive loops.
  checkDot(DType::F32, {33, 70}, {70}, {{}, {}, {1}, {0}}, 27);
  checkDot(DType::F32, {70}, {70, 33}, {{}, {}, {0}, {0}}, 29);
}

//===--- Convolutions -----------------------------------------------------===//

/// NHWC input, HWIO kernel, NHWC output, any strides/padding/dilation; or
/// with `nchw` NCHW input and output and OIHW kernel.
void checkConv(DType dtype, int64_t n, int64_t h, int64_t w, int64_t c,
               int64_t kh, int64_t kw, int64_t o, std::array<int64_t, 2> stride,
               std::array<std::pair<int64_t, int64_t>, 2> pad,
               std::array<int64_t, 2> dil, bool nchw, unsigned seed) {
  ConvolutionOptions opt;
  opt.strides = {stride[0], stride[1]};
  opt.padding = {pad[0], pad[1]};
  opt.rhsDilation = {dil[0], dil[1]};
  Shape xs = {n, h, w, c}, ws = {kh, kw, c, o};
  if (nchw) {
    opt.dims = {0, 1, {2, 3}, 1, 0, {2, 3}, 0, 1, {2, 3}};
    xs = {n, c, h, w};
    ws = {o, c, kh, kw};
  }
  auto x = roundTo(dtype, randomDoubles(numElements(xs), seed));
  auto k = roundTo(dtype, randomDoubles(numElements(ws), seed + 1));
  auto out = run([&](Tensor a, Tensor b) { return convolution(a, b, opt); },
                 {fromDoubles(dtype, xs, x), fromDoubles(dtype, ws, k)});
  ASSERT_EQ(out.size(), 1u);
  int64_t oh = (h + pad[0].first + pad[0].second - (kh - 1) * dil[0] - 1) /
                   stride[0] + 1,
          ow = (w + pad[1].first + pad[1].second - (kw - 1) * dil[1] - 1) /
                   stride[1] + 1;
  Shape rs = nchw ? Shape{n, o, oh, ow} : Shape{n, oh, ow, o};
  EXPECT_EQ(out[0].shape(), rs);
  std::vector<double> want(numElements(rs)), scale(numElements(rs));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t z = 0; z < ow; ++z)
        for (int64_t f = 0; f < o; ++f) {
          double sum = 0, mag = 0;
          for (int64_t p = 0; p < kh; ++p)
            for (int64_t q = 0; q < kw; ++q) {
              int64_t iy = y * stride[0] + p * dil[0] - pad[0].first;
              int64_t iz = z * stride[1] + q * dil[1] - pad[1].first;
              if (iy < 0 || iy >= h || iz < 0 || iz >= w)
                continue;
              for (int64_t ch = 0; ch < c; ++ch) {
                double xv = nchw ? x[((b * c + ch) * h + iy) * w + iz]
                                 : x[((b * h + iy) * w + iz) * c + ch];
                double kv = nchw ? k[((f * c + ch) * kh + p) * kw + q]
                                 : k[((p * kw + q) * c + ch) * o + f];
                sum += xv * kv;
                mag += std::abs(xv * kv);
              }
            }
          int64_t i = nchw ? ((b * o + f) * oh + y) * ow + z
                           : ((b * oh + y) * ow + z) * o + f;
          want[i] = sum;
          scale[i] = mag;
        }
  expectWithinScale(out[0], want, scale, tolerance(dtype),
               "conv " + out[0].spec().toString());
}

TEST(KernelsTest, ConvNHWCStridePaddingDilation) {
  checkConv(DType::F32, 1, 9, 9, 3, 3, 3, 8, {1, 1}, {{{0, 0}, {0, 0}}},
            {1, 1}, false, 31);
  checkConv(DType::F32, 2, 17, 13, 5, 3, 3, 70, {2, 1}, {{{1, 1}, {2, 0}}},
            {1, 2}, false, 33);
  checkConv(DType::F32, 1, 30, 30, 16, 5, 5, 33, {2, 2}, {{{2, 2}, {2, 2}}},
            {2, 1}, false, 35);
  checkConv(DType::F64, 2, 8, 11, 7, 2, 3, 19, {1, 3}, {{{0, 1}, {1, 1}}},
            {1, 1}, false, 37);
  // 1x1 convolution: a plain matmul over the pixels.
  checkConv(DType::F32, 2, 7, 7, 64, 1, 1, 129, {1, 1}, {{{0, 0}, {0, 0}}},
            {1, 1}, false, 39);
}

TEST(KernelsTest, ConvNCHWFallsBackCorrectly) {
  checkConv(DType::F32, 2, 9, 8, 4, 3, 2, 6, {2, 1}, {{{1, 1}, {0, 1}}},
            {1, 2}, true, 41);
}

//===--- Host threads -----------------------------------------------------===//

/// The one f32 result of `exe` on the f32 `inputs`, its entry called
/// directly on 1 and then on 2 host threads (rt::setParallelForThreads):
/// each tile or row is computed the same way on any thread, so the two
/// must be equal bit for bit. Returns the 2-thread result.
std::vector<float> runOnOneAndTwoThreads(Executable &exe,
                                         std::vector<std::vector<float>> inputs,
                                         int64_t resultSize) {
  std::vector<float> one(resultSize, 0), two(resultSize, 0);
  auto call = [&](std::vector<float> &result, int64_t threads) {
    std::vector<void *> args;
    for (std::vector<float> &in : inputs)
      args.push_back(in.data());
    args.push_back(result.data());
    rt::setParallelForThreads(threads);
    exe.impl().program.entry(args.data());
    rt::setParallelForThreads(1);
  };
  call(one, 1);
  call(two, 2);
  EXPECT_EQ(one, two);
  return two;
}

TEST(KernelsTest, ParallelTilesReadPlannedTemporaries) {
  // The lhs is a temporary (a + a) carved from the workspace by the buffer
  // plan: the outlined tile body must rebuild its view, not take a pointer.
  // A run on one emulated core uses every host thread (ParallelFor.h).
  const int64_t m = 520, k = 130, n = 300;
  auto a = randomDoubles(m * k, 45), b = randomDoubles(k * n, 46);
  auto out = run(
      [](Tensor x, Tensor y) { return matmul(x + x, y); },
      {fromDoubles(DType::F32, {m, k}, a), fromDoubles(DType::F32, {k, n}, b)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<double> want(m * n, 0), scale(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) {
        double prod = 2 * double(float(a[i * k + p])) * float(b[p * n + j]);
        want[i * n + j] += prod;
        scale[i * n + j] += std::abs(prod);
      }
  expectWithinScale(out[0], want, scale, 1e-5, "planned lhs");
}

TEST(KernelsTest, ParallelForSplitsLargeMatmuls) {
  // A matmul big enough for the outer tile loop to go to host threads gives
  // the same result on 1 and 2 threads (each tile is computed the same way).
  const int64_t m = 600, k = 300, n = 520;
  auto a = randomDoubles(m * k, 43), b = randomDoubles(k * n, 44);
  auto traced = trace("mm", {{DType::F32, {m, k}}, {DType::F32, {k, n}}},
                      [](const std::vector<Tensor> &in) {
                        return std::vector<Tensor>{matmul(in[0], in[1])};
                      });
  ASSERT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced);
  ASSERT_TRUE(exe.ok()) << exe.status();
  std::vector<float> c2 = runOnOneAndTwoThreads(
      *exe, {{a.begin(), a.end()}, {b.begin(), b.end()}}, m * n);
  double worst = 0;
  for (int64_t i = 0; i < m; i += 37)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, mag = 0;
      for (int64_t p = 0; p < k; ++p) {
        sum += a[i * k + p] * b[p * n + j];
        mag += std::abs(a[i * k + p] * b[p * n + j]);
      }
      worst = std::max(worst, std::abs(c2[i * n + j] - sum) / mag);
    }
  EXPECT_LE(worst, 1e-5);
}


TEST(KernelsTest, ParallelBatchOfSmallMatmuls) {
  // 16 matmuls of 128 x 64 x 128 (2^24 multiply-adds, 2^20 each): the
  // batch loop goes to host threads, each matmul computed whole by one
  // thread, so 1 and 2 threads give the same bits.
  const int64_t batch = 16, m = 128, k = 64, n = 128;
  auto a = randomDoubles(batch * m * k, 48);
  auto b = randomDoubles(batch * k * n, 49);
  auto traced = trace(
      "bmm", {{DType::F32, {batch, m, k}}, {DType::F32, {batch, k, n}}},
      [](const std::vector<Tensor> &in) {
        return std::vector<Tensor>{
            dotGeneral(in[0], in[1], DotDims{{0}, {0}, {2}, {1}})};
      });
  ASSERT_TRUE(traced.ok()) << traced.status();
  auto exe = compile(*traced);
  ASSERT_TRUE(exe.ok()) << exe.status();
  std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
  std::vector<float> c2 =
      runOnOneAndTwoThreads(*exe, {af, bf}, batch * m * n);
  double worst = 0;
  for (int64_t p = 0; p < batch; p += 5)
    for (int64_t i = 0; i < m; i += 7)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0, mag = 0;
        for (int64_t q = 0; q < k; ++q) {
          double prod = double(af[(p * m + i) * k + q]) *
                        double(bf[(p * k + q) * n + j]);
          sum += prod;
          mag += std::abs(prod);
        }
        worst = std::max(worst,
                         std::abs(c2[(p * m + i) * n + j] - sum) / mag);
      }
  EXPECT_LE(worst, 1e-5);
}

TEST(KernelsTest, ParallelLoopKernelsMatchOneThread) {
  // Softmax over the rows of f32[1001, 300] (300,300 elements) is four
  // kernels over the same rows: the row max, exp(x - max), the row sum and
  // the division by it. torus-fuse-rows makes them one loop over the rows
  // (each row through the four kernels in turn), and torus-parallel-loops
  // gives that loop to host threads in 64 blocks of adjacent rows: the
  // generated code has one outlined body. 1 and 2 threads give the same
  // bits (each row is computed the same way on any thread), within 2e-5 of
  // softmax in double (300 * 2^-24 = 1.8e-5 bounds the sum of 300
  // positive f32 terms in any order; exp is within 1 ulp).
  const int64_t rows = 1001, cols = 300;
  auto x = randomDoubles(rows * cols, 47);
  for (double &v : x)
    v *= 8;
  auto traced = trace("softmax", {{DType::F32, {rows, cols}}},
                      [](const std::vector<Tensor> &in) {
                        return std::vector<Tensor>{softmax(in[0], 1)};
                      });
  ASSERT_TRUE(traced.ok()) << traced.status();
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("torus-parallel-loops-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto exe = compile(*traced, {.dumpDir = dir.string()});
  ASSERT_TRUE(exe.ok()) << exe.status();
  // The outlined bodies, in the module after torus-parallel-loops.
  std::string ir;
  for (const auto &entry : fs::directory_iterator(dir))
    if (entry.path().string().ends_with(".after_torus-parallel-loops.mlir")) {
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      ir = text.str();
    }
  fs::remove_all(dir);
  int bodies = 0;
  for (size_t at = 0;
       (at = ir.find("func.func private @softmax__parallel_tile_", at)) !=
       std::string::npos;
       ++at)
    ++bodies;
  EXPECT_EQ(bodies, 1) << ir;

  std::vector<float> xf(x.begin(), x.end());
  std::vector<float> two = runOnOneAndTwoThreads(*exe, {xf}, rows * cols);
  double worst = 0;
  for (int64_t i = 0; i < rows; ++i) {
    double top = -INFINITY, sum = 0;
    for (int64_t j = 0; j < cols; ++j)
      top = std::max(top, double(xf[i * cols + j]));
    for (int64_t j = 0; j < cols; ++j)
      sum += std::exp(double(xf[i * cols + j]) - top);
    for (int64_t j = 0; j < cols; ++j) {
      double want = std::exp(double(xf[i * cols + j]) - top) / sum;
      worst = std::max(worst, std::abs(two[i * cols + j] - want) / want);
    }
  }
  EXPECT_LE(worst, 2e-5);
}

} // namespace
