//===- WindowVJPs.cpp - VJPs of reduce_window and convolution -------------===//
//
// Both ops sum (or pick) over windows; their gradients are written as a sum
// over window offsets k: the strided slice of the padded operand at k lines
// up with the output, so each offset contributes one dot_general (conv) or
// one masked copy (pooling), padded back into place. This handles strides,
// padding, window (rhs) dilation and overlapping windows exactly; it costs
// one term per window element, which is fine for the usual 2x2 / 3x3
// windows. Transposed (lhs/base-dilated) and grouped forms have no rule yet.
//
//===----------------------------------------------------------------------===//

#include "ir/GradBuilder.h"
#include "ir/TorusOps.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::torus {

namespace {

/// Calls `fn` with every multi-index in [0, extents).
void forEachIndex(ArrayRef<int64_t> extents,
                  function_ref<void(ArrayRef<int64_t>)> fn) {
  SmallVector<int64_t> index(extents.size(), 0);
  if (llvm::any_of(extents, [](int64_t e) { return e == 0; }))
    return;
  while (true) {
    fn(index);
    int64_t d = static_cast<int64_t>(extents.size()) - 1;
    while (d >= 0 && ++index[d] == extents[d])
      index[d--] = 0;
    if (d < 0)
      return;
  }
}

SmallVector<int64_t> orOnes(std::optional<ArrayRef<int64_t>> values,
                            int64_t rank) {
  if (values && !values->empty())
    return SmallVector<int64_t>(values->begin(), values->end());
  return SmallVector<int64_t>(rank, 1);
}

/// (low, high) padding per dimension from an optional [rank, 2] attribute.
std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
readPadding(DenseIntElementsAttr padding, int64_t rank) {
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  if (padding && padding.getNumElements() == 2 * rank) {
    auto values = llvm::to_vector(padding.getValues<int64_t>());
    for (int64_t d = 0; d < rank; ++d) {
      low[d] = values[2 * d];
      high[d] = values[2 * d + 1];
    }
  }
  return {low, high};
}

SmallVector<int64_t> inverse(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = i;
  return inv;
}

LogicalResult reduceWindowVJP(GradBuilder &gb, ReduceWindowOp op, Value ct,
                              SmallVectorImpl<Value> &cts) {
  ReduceKind kind = op.getKind();
  if (kind != ReduceKind::sum && kind != ReduceKind::max &&
      kind != ReduceKind::min)
    return op.emitOpError("has no gradient for a ")
           << stringifyReduceKind(kind) << " window";
  auto inType = GradBuilder::typeOf(op.getOperand());
  int64_t rank = inType.getRank();
  auto outShape = GradBuilder::typeOf(op.getResult()).getShape();
  ArrayRef<int64_t> window = op.getWindowDimensions();
  auto strides = orOnes(op.getWindowStrides(), rank);
  auto baseDil = orOnes(op.getBaseDilations(), rank);
  auto winDil = orOnes(op.getWindowDilations(), rank);
  auto [low, high] = readPadding(op.getPaddingAttr(), rank);
  if (llvm::any_of(baseDil, [](int64_t v) { return v != 1; }))
    return op.emitOpError("has no gradient rule with base dilation");
  if (llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v < 0; }))
    return op.emitOpError("has no gradient rule for negative padding");

  // The operand padded with the identity, so padding never wins a max.
  Value x = op.getOperand();
  double identity = kind == ReduceKind::sum ? 0.0
                    : kind == ReduceKind::max
                        ? -std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::infinity();
  Value padded = x;
  SmallVector<int64_t> zeros(rank, 0);
  if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v != 0; }))
    padded = gb.builder().create<PadOp>(gb.location(), x,
                                        gb.scalarLike(x, identity), low, high,
                                        zeros);
  auto paddedShape = GradBuilder::typeOf(padded).getShape();

  // Window offset k covers padded[k*dil + i*stride]: a strided slice.
  struct Term {
    SmallVector<int64_t> start, limit;
    Value mask; // max/min: 1 where this offset holds the window's extremum
  };
  SmallVector<Term> terms;
  Value count; // max/min: how many offsets tie for each window
  forEachIndex(window, [&](ArrayRef<int64_t> k) {
    Term t;
    for (int64_t d = 0; d < rank; ++d) {
      t.start.push_back(k[d] * winDil[d]);
      t.limit.push_back(outShape[d] == 0
                            ? t.start[d]
                            : t.start[d] + (outShape[d] - 1) * strides[d] + 1);
    }
    if (kind != ReduceKind::sum) {
      Value xs = gb.slice(padded, t.start, t.limit, strides);
      t.mask = gb.convert(
          gb.compare(ComparisonDirection::EQ, xs, op.getResult()),
          inType.getElementType());
      count = count ? gb.add(count, t.mask) : t.mask;
    }
    terms.push_back(std::move(t));
  });

  Value share = kind == ReduceKind::sum ? ct : gb.div(ct, count);
  Value grad;
  SmallVector<int64_t> interior;
  for (int64_t s : strides)
    interior.push_back(s - 1);
  for (Term &t : terms) {
    Value contribution = t.mask ? gb.mul(share, t.mask) : share;
    SmallVector<int64_t> after;
    for (int64_t d = 0; d < rank; ++d)
      after.push_back(paddedShape[d] - t.limit[d]);
    Value placed = gb.padZeros(contribution, t.start, after, interior);
    grad = grad ? gb.add(grad, placed) : placed;
  }
  SmallVector<int64_t> limit, ones(rank, 1);
  for (int64_t d = 0; d < rank; ++d)
    limit.push_back(low[d] + inType.getDimSize(d));
  cts[0] = gb.slice(grad, low, limit, ones);
  return success();
}

LogicalResult convolutionVJP(GradBuilder &gb, ConvolutionOp op, Value ct,
                             SmallVectorImpl<Value> &cts) {
  if (op.getFeatureGroupCount() != 1 || op.getBatchGroupCount() != 1)
    return op.emitOpError("has no gradient rule for grouped convolutions yet");
  ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  auto spatialIn = dn.getInputSpatialDimensions();
  int64_t n = spatialIn.size();
  auto lhsDil = orOnes(op.getLhsDilation(), n);
  if (llvm::any_of(lhsDil, [](int64_t v) { return v != 1; }))
    return op.emitOpError("has no gradient rule with lhs dilation yet");
  auto strides = orOnes(op.getWindowStrides(), n);
  auto rhsDil = orOnes(op.getRhsDilation(), n);
  auto [padLow, padHigh] = readPadding(op.getPaddingAttr(), n);
  if (llvm::any_of(padLow, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(padHigh, [](int64_t v) { return v < 0; }))
    return op.emitOpError("has no gradient rule for negative padding");

  // Canonical layouts: X [B, S..., Ci], W [K..., Ci, Co], CT [B, O..., Co].
  SmallVector<int64_t> xPerm = {dn.getInputBatchDimension()};
  llvm::append_range(xPerm, spatialIn);
  xPerm.push_back(dn.getInputFeatureDimension());
  SmallVector<int64_t> wPerm(dn.getKernelSpatialDimensions());
  wPerm.push_back(dn.getKernelInputFeatureDimension());
  wPerm.push_back(dn.getKernelOutputFeatureDimension());
  SmallVector<int64_t> ctPerm = {dn.getOutputBatchDimension()};
  llvm::append_range(ctPerm, dn.getOutputSpatialDimensions());
  ctPerm.push_back(dn.getOutputFeatureDimension());

  Value x = gb.transpose(op.getLhs(), xPerm);
  Value w = gb.transpose(op.getRhs(), wPerm);
  Value g = gb.transpose(ct, ctPerm);
  auto xShape = GradBuilder::typeOf(x).getShape();
  auto wShape = GradBuilder::typeOf(w).getShape();
  auto gShape = GradBuilder::typeOf(g).getShape();
  int64_t ci = wShape[n], co = wShape[n + 1];

  SmallVector<int64_t> low = {0}, high = {0};
  llvm::append_range(low, padLow);
  llvm::append_range(high, padHigh);
  low.push_back(0);
  high.push_back(0);
  SmallVector<int64_t> noInterior(n + 2, 0);
  Value xPad = gb.padZeros(x, low, high, noInterior);
  auto xPadShape = GradBuilder::typeOf(xPad).getShape();

  SmallVector<int64_t> sliceStrides = {1}, interior = {0};
  for (int64_t s : strides) {
    sliceStrides.push_back(s);
    interior.push_back(s - 1);
  }
  sliceStrides.push_back(1);
  interior.push_back(0);
  SmallVector<int64_t> gDims; // batch and spatial dims of G (and of xs)
  for (int64_t d = 0; d <= n; ++d)
    gDims.push_back(d);

  Value xGrad, wGrad;
  forEachIndex(ArrayRef<int64_t>(wShape).take_front(n),
               [&](ArrayRef<int64_t> k) {
    // The input elements that kernel offset k multiplies, output-aligned.
    SmallVector<int64_t> start = {0}, limit = {xPadShape[0]};
    for (int64_t d = 0; d < n; ++d) {
      start.push_back(k[d] * rhsDil[d]);
      limit.push_back(gShape[d + 1] == 0
                          ? start.back()
                          : start.back() + (gShape[d + 1] - 1) * strides[d] + 1);
    }
    start.push_back(0);
    limit.push_back(ci);
    Value xs = gb.slice(xPad, start, limit, sliceStrides);
    SmallVector<int64_t> kStart(k), kLimit, ones(n + 2, 1);
    kStart.append({0, 0});
    for (int64_t d = 0; d < n; ++d)
      kLimit.push_back(k[d] + 1);
    kLimit.append({ci, co});
    Value wk = gb.reshape(gb.slice(w, kStart, kLimit, ones), {ci, co});

    // dX: G · Wk^T, placed back at offset k with the stride's holes.
    Value gx = gb.dotGeneral(g, wk, {}, {}, {n + 1}, {1});
    SmallVector<int64_t> after;
    for (int64_t d = 0; d < n + 2; ++d)
      after.push_back(xPadShape[d] - limit[d]);
    Value placed = gb.padZeros(gx, start, after, interior);
    xGrad = xGrad ? gb.add(xGrad, placed) : placed;

    // dW[k]: xs^T · G over batch and output positions.
    Value gw = gb.dotGeneral(xs, g, {}, {}, gDims, gDims);
    SmallVector<int64_t> wkShape(n, 1);
    wkShape.append({ci, co});
    SmallVector<int64_t> wAfter;
    for (int64_t d = 0; d < n; ++d)
      wAfter.push_back(wShape[d] - 1 - k[d]);
    wAfter.append({0, 0});
    Value wPlaced =
        gb.padZeros(gb.reshape(gw, wkShape), kStart, wAfter, noInterior);
    wGrad = wGrad ? gb.add(wGrad, wPlaced) : wPlaced;
  });

  SmallVector<int64_t> xStart = {0}, xLimit = {xShape[0]}, ones(n + 2, 1);
  for (int64_t d = 0; d < n; ++d) {
    xStart.push_back(padLow[d]);
    xLimit.push_back(padLow[d] + xShape[d + 1]);
  }
  xStart.push_back(0);
  xLimit.push_back(ci);
  cts[0] = gb.transpose(gb.slice(xGrad, xStart, xLimit, ones), inverse(xPerm));
  cts[1] = gb.transpose(wGrad, inverse(wPerm));
  return success();
}

} // namespace

LogicalResult ReduceWindowOp::buildVJP(GradBuilder &gb,
                                       ArrayRef<Value> resultCotangents,
                                       SmallVectorImpl<Value> &cts) {
  return reduceWindowVJP(gb, *this, resultCotangents.front(), cts);
}

LogicalResult ConvolutionOp::buildVJP(GradBuilder &gb,
                                      ArrayRef<Value> resultCotangents,
                                      SmallVectorImpl<Value> &cts) {
  return convolutionVJP(gb, *this, resultCotangents.front(), cts);
}

} // namespace mlir::torus
