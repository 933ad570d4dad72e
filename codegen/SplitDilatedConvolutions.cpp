//===- SplitDilatedConvolutions.cpp - Transposed convolutions by phase ----===//
//
// torus-split-dilated-convolutions (Passes.td): a convolution whose input
// is dilated (lhs_dilation, the gradient of a strided convolution with
// respect to its input) becomes one convolution of the undilated input
// that computes every output phase as extra output features, and a
// depth-to-space rearrangement of its result: the multiply-adds with the
// inserted zeros are gone but for the alignment of the phases.
//
// Along a spatial dimension with dilation D, low padding p, kernel size K
// and stride 1, output s = D q + r (phase r) reads dilated input
// t = s + k - p, which is an input element exactly when t is a multiple of
// D: the taps k = k0 + D m (k0 = (p - r) mod D, m < T_r), reading input
// q + m - c_r with c_r = (p - r - k0) / D. Each phase is thus an undilated
// convolution with kernel taps k0, k0 + D, ... at input offsets -c_r ..
// T_r - 1 - c_r. One window of Kp taps covers every phase's offsets; each
// phase's taps go to their place in it (zeros elsewhere), the phases are
// stacked along the kernel's output features (phase-major), and the
// convolution with Kp taps and ceil(S / D) outputs per phase computes them
// all. Its result, [.., Q, .., P x O] (P phases), is reshaped to
// [.., Q, .., D_0, .., O], transposed to put each phase index after its
// spatial dimension, reshaped to [.., Q D, .., O] and sliced to S.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "ir/GradBuilder.h"
#include "ir/TorusDialect.h"
#include "ir/TorusOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSPLITDILATEDCONVOLUTIONS
#include "codegen/Passes.h.inc"

namespace {

int64_t floorMod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

/// One spatial dimension of the convolution, and of phase r of it.
struct SpatialDim {
  int64_t inputDim, kernelDim, outputDim; // positions in the operand shapes
  int64_t dilation, low, inSize, kernelSize, outSize;
  /// Outputs of every phase: ceil(outSize / dilation).
  int64_t phaseOutputs() const { return (outSize + dilation - 1) / dilation; }
  /// Phase r's first tap and its number of taps (0: none).
  int64_t firstTap(int64_t r) const { return floorMod(low - r, dilation); }
  int64_t taps(int64_t r) const {
    int64_t k0 = firstTap(r);
    return k0 < kernelSize ? (kernelSize - k0 + dilation - 1) / dilation : 0;
  }
  /// The input offset of phase r's first tap: q - c_r.
  int64_t firstOffset(int64_t r) const {
    return -((low - r - firstTap(r)) / dilation); // exact
  }
  /// The window of input offsets all phases read: [minOffset, maxOffset].
  int64_t minOffset = 0, maxOffset = 0;
  int64_t windowTaps() const { return maxOffset - minOffset + 1; }
  /// The combined convolution's padding along this dimension.
  std::pair<int64_t, int64_t> padding() const {
    int64_t lo = -minOffset;
    return {lo, phaseOutputs() - 1 + windowTaps() - inSize - lo};
  }
};

/// The spatial dimensions of `op`, or nothing when it is not a convolution
/// this pass splits: static shapes, some lhs_dilation above 1, unit window
/// strides and kernel dilation, no feature or batch groups.
std::optional<SmallVector<SpatialDim>> spatialDims(ConvolutionOp op) {
  auto lhs = cast<RankedTensorType>(op.getLhs().getType());
  auto rhs = cast<RankedTensorType>(op.getRhs().getType());
  auto out = cast<RankedTensorType>(op.getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape() ||
      !out.hasStaticShape() || out.getNumElements() == 0 ||
      rhs.getNumElements() == 0 || op.getFeatureGroupCount() != 1 ||
      op.getBatchGroupCount() != 1)
    return std::nullopt;
  SmallVector<int64_t> dilation = op.getLhsDilationOr1();
  if (llvm::all_of(dilation, [](int64_t d) { return d == 1; }) ||
      llvm::any_of(op.getStrides(), [](int64_t s) { return s != 1; }) ||
      llvm::any_of(op.getRhsDilationOr1(), [](int64_t d) { return d != 1; }))
    return std::nullopt;
  ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto padding = op.getPaddingPairs();
  SmallVector<SpatialDim> dims;
  for (auto [i, d] : llvm::enumerate(dilation)) {
    SpatialDim s;
    s.inputDim = dn.getInputSpatialDimensions()[i];
    s.kernelDim = dn.getKernelSpatialDimensions()[i];
    s.outputDim = dn.getOutputSpatialDimensions()[i];
    s.dilation = d;
    s.low = padding[i].first;
    s.inSize = lhs.getDimSize(s.inputDim);
    s.kernelSize = rhs.getDimSize(s.kernelDim);
    s.outSize = out.getDimSize(s.outputDim);
    if (s.inSize == 0)
      return std::nullopt;
    bool any = false;
    for (int64_t r = 0; r < d; ++r) {
      if (s.taps(r) == 0)
        continue;
      int64_t first = s.firstOffset(r), last = first + s.taps(r) - 1;
      s.minOffset = any ? std::min(s.minOffset, first) : first;
      s.maxOffset = any ? std::max(s.maxOffset, last) : last;
      any = true;
    }
    // Padding that crops more than the whole input (possible with negative
    // padding) stays with the dilated form.
    auto [lo, hi] = s.padding();
    if (!any || lo < -s.inSize || hi < -s.inSize)
      return std::nullopt;
    dims.push_back(s);
  }
  return dims;
}

/// The kernel of phase `phase` placed in the combined window: its taps,
/// padded with zeros to windowTaps() at their offsets.
Value phaseKernel(GradBuilder &gb, Value kernel, ArrayRef<SpatialDim> dims,
                  ArrayRef<int64_t> phase) {
  auto type = cast<RankedTensorType>(kernel.getType());
  const int64_t rank = type.getRank();
  SmallVector<int64_t> start(rank, 0), limit(type.getShape()),
      strides(rank, 1), low(rank, 0), high(rank, 0), window(type.getShape());
  bool empty = false;
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t taps = d.taps(phase[i]);
    window[d.kernelDim] = d.windowTaps();
    empty |= taps == 0;
    start[d.kernelDim] = d.firstTap(phase[i]);
    strides[d.kernelDim] = d.dilation;
    low[d.kernelDim] = d.firstOffset(phase[i]) - d.minOffset;
    high[d.kernelDim] = d.windowTaps() - taps - low[d.kernelDim];
  }
  if (empty) // no tap of this phase reads an input element
    return gb.splat(RankedTensorType::get(window, type.getElementType()), 0.0);
  return gb.padZeros(gb.slice(kernel, start, limit, strides), low, high,
                     SmallVector<int64_t>(rank, 0));
}

void split(RewriterBase &rw, ConvolutionOp op, ArrayRef<SpatialDim> dims) {
  Location loc = op.getLoc();
  ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto outType = cast<RankedTensorType>(op.getType());
  const int64_t n = dims.size();
  rw.setInsertionPoint(op);
  GradBuilder gb(rw, loc);

  // The kernels of every phase (last dimension's phase fastest), stacked
  // along the output features.
  SmallVector<Value> kernels;
  SmallVector<int64_t> phase(n, 0);
  while (true) {
    kernels.push_back(phaseKernel(gb, op.getRhs(), dims, phase));
    int64_t i = n - 1;
    while (i >= 0 && ++phase[i] == dims[i].dilation)
      phase[i--] = 0;
    if (i < 0)
      break;
  }
  Value kernel = kernels.size() == 1
                     ? kernels.front()
                     : rw.create<ConcatenateOp>(
                           loc, kernels, dn.getKernelOutputFeatureDimension());
  SmallVector<std::pair<int64_t, int64_t>> padding;
  for (const SpatialDim &d : dims)
    padding.push_back(d.padding());
  Value all = rw.create<ConvolutionOp>(
      loc, op.getLhs(), kernel, dn, /*strides=*/ArrayRef<int64_t>(), padding,
      /*lhsDilation=*/ArrayRef<int64_t>(), /*rhsDilation=*/ArrayRef<int64_t>(),
      /*featureGroupCount=*/1, /*batchGroupCount=*/1);

  // [.., Q_i, .., P O] -> [.., Q_i, .., D_0 .. D_n-1, O]: the feature
  // dimension f split into the phases and the features.
  auto allType = cast<RankedTensorType>(all.getType());
  const int64_t f = dn.getOutputFeatureDimension();
  const int64_t features = outType.getDimSize(f);
  SmallVector<int64_t> split;
  SmallVector<int64_t> axisOf(outType.getRank()), phaseAxis(n);
  for (int64_t j = 0; j < allType.getRank(); ++j) {
    if (j != f) {
      axisOf[j] = split.size();
      split.push_back(allType.getDimSize(j));
      continue;
    }
    for (int64_t i = 0; i < n; ++i) {
      phaseAxis[i] = split.size();
      split.push_back(dims[i].dilation);
    }
    axisOf[j] = split.size();
    split.push_back(features);
  }
  Value expanded = gb.reshape(all, split);
  // Each phase axis after its spatial one, then merged with it.
  SmallVector<int64_t> permutation, merged;
  for (int64_t j = 0; j < outType.getRank(); ++j) {
    permutation.push_back(axisOf[j]);
    merged.push_back(allType.getDimSize(j));
    for (auto [i, d] : llvm::enumerate(dims))
      if (d.outputDim == j) {
        permutation.push_back(phaseAxis[i]);
        merged.back() *= d.dilation;
      }
    if (j == f)
      merged.back() = features;
  }
  Value interleaved =
      llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))
          ? expanded
          : gb.transpose(expanded, permutation);
  Value result = gb.reshape(interleaved, merged);
  if (merged != SmallVector<int64_t>(outType.getShape()))
    result = gb.slice(result, SmallVector<int64_t>(merged.size(), 0),
                      outType.getShape(),
                      SmallVector<int64_t>(merged.size(), 1));
  rw.replaceOp(op, result);
}

struct SplitDilatedConvolutionsPass
    : impl::TorusSplitDilatedConvolutionsBase<SplitDilatedConvolutionsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<ConvolutionOp, SmallVector<SpatialDim>>> todo;
    getOperation().walk([&](ConvolutionOp op) {
      if (auto dims = spatialDims(op))
        todo.push_back({op, std::move(*dims)});
    });
    IRRewriter rw(&getContext());
    for (auto &[op, dims] : todo)
      split(rw, op, dims);
  }
};

} // namespace
} // namespace mlir::torus
