//===- IndexingOps.cpp - Traced gather, scatter and their NumPy forms -----===//

#include "ir/trace/TraceOps.h"

#include <numeric>

namespace torus {

using namespace impl;

namespace {
bool checkIndices(TraceContext *ctx, const Loc &loc, const char *opName,
                  const Tensor &indices) {
  if (indices.dtype() == DType::I32 || indices.dtype() == DType::I64)
    return true;
  ctx->fail(loc, opName,
            "indices must be i32 or i64, got " + specString(indices));
  return false;
}

t::GatherDims toGatherDims(const GatherDims &d) {
  t::GatherDims g;
  g.offsetDims.assign(d.offsetDims.begin(), d.offsetDims.end());
  g.collapsedSliceDims.assign(d.collapsedSliceDims.begin(),
                              d.collapsedSliceDims.end());
  g.startIndexMap.assign(d.startIndexMap.begin(), d.startIndexMap.end());
  g.indexVectorDim = d.indexVectorDim;
  return g;
}

/// NumPy's negative indices count from the end of an axis of size `n`.
Tensor wrapNegative(const Tensor &indices, int64_t n, const Loc &loc) {
  return where(less(indices, 0, loc), add(indices, n, loc), indices, loc);
}

/// The dimension numbers of take(a, indices, axis) and of its transpose,
/// indexAdd: the result/updates are a[:axis] + indices + a[axis+1:].
std::vector<int64_t> takeWindowDims(int64_t rank, int64_t axis,
                                    int64_t indexRank) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < axis; ++d)
    dims.push_back(d);
  for (int64_t d = axis + 1; d < rank; ++d)
    dims.push_back(d - 1 + indexRank);
  return dims;
}
} // namespace

Tensor gather(const Tensor &operand, const Tensor &startIndices,
              const GatherDims &dims, const std::vector<int64_t> &sliceSizes,
              Loc loc) {
  TraceContext *ctx = traceOf({&operand, &startIndices});
  if (!checkOperands(ctx, loc, "gather", {&operand, &startIndices}) ||
      !checkIndices(ctx, loc, "gather", startIndices))
    return Tensor();
  std::string error;
  auto shape = t::inferGatherShape(operand.shape(), startIndices.shape(),
                                   toGatherDims(dims), sliceSizes, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "gather",
                     fmt::format("{} (operand {}, indices {})", error,
                                 specString(operand),
                                 specString(startIndices)));
  return emit<t::GatherOp>(ctx, loc, ctx->value(operand),
                           ctx->value(startIndices), I64s(dims.offsetDims),
                           I64s(dims.collapsedSliceDims),
                           I64s(dims.startIndexMap), dims.indexVectorDim,
                           I64s(sliceSizes));
}

Tensor scatter(const Tensor &operand, const Tensor &scatterIndices,
               const Tensor &updates, const ScatterDims &dims, ScatterOp op,
               Loc loc) {
  TraceContext *ctx = traceOf({&operand, &scatterIndices, &updates});
  if (!checkOperands(ctx, loc, "scatter",
                     {&operand, &scatterIndices, &updates}) ||
      !checkIndices(ctx, loc, "scatter", scatterIndices))
    return Tensor();
  t::ScatterDims d;
  d.updateWindowDims.assign(dims.updateWindowDims.begin(),
                            dims.updateWindowDims.end());
  d.insertedWindowDims.assign(dims.insertedWindowDims.begin(),
                              dims.insertedWindowDims.end());
  d.scatterDimsToOperandDims.assign(dims.scatterDimsToOperandDims.begin(),
                                    dims.scatterDimsToOperandDims.end());
  d.indexVectorDim = dims.indexVectorDim;
  std::string error;
  if (mlir::failed(t::checkScatter(operand.shape(), scatterIndices.shape(),
                                   updates.shape(), d, error)))
    return ctx->fail(loc, "scatter",
                     fmt::format("{} (operand {}, indices {}, updates {})",
                                 error, specString(operand),
                                 specString(scatterIndices),
                                 specString(updates)));
  Tensor x = operand;
  if (x.dtype() == DType::I1 &&
      (op == ScatterOp::Add || op == ScatterOp::Multiply))
    return ctx->fail(loc, "scatter",
                     "cannot add or multiply into an i1 tensor; convert it "
                     "first");
  Tensor u = convertTo(ctx, loc, updates, x.dtype());
  t::ScatterKind kind = op == ScatterOp::Replace    ? t::ScatterKind::replace
                        : op == ScatterOp::Add      ? t::ScatterKind::sum
                        : op == ScatterOp::Multiply ? t::ScatterKind::product
                        : op == ScatterOp::Max      ? t::ScatterKind::max
                                                    : t::ScatterKind::min;
  return emit<t::ScatterOp>(
      ctx, loc, ctx->value(x).getType(), kind, ctx->value(x),
      ctx->value(scatterIndices), ctx->value(u), I64s(dims.updateWindowDims),
      I64s(dims.insertedWindowDims), I64s(dims.scatterDimsToOperandDims),
      dims.indexVectorDim, /*indices_are_sorted=*/false,
      /*unique_indices=*/false);
}

Tensor take(const Tensor &a, const Tensor &indices, int64_t axis, Loc loc) {
  TraceContext *ctx = traceOf({&a, &indices});
  if (!checkOperands(ctx, loc, "take", {&a, &indices}) ||
      !checkIndices(ctx, loc, "take", indices))
    return Tensor();
  auto ax = normalizeAxis(ctx, loc, "take", a, axis, a.rank());
  if (!ax)
    return Tensor();
  Tensor idx = wrapNegative(indices, a.dim(*ax), loc);
  std::vector<int64_t> sizes = a.shape();
  sizes[*ax] = 1;
  GatherDims dims;
  dims.offsetDims = takeWindowDims(a.rank(), *ax, indices.rank());
  dims.collapsedSliceDims = {*ax};
  dims.startIndexMap = {*ax};
  dims.indexVectorDim = indices.rank();
  return gather(a, idx, dims, sizes, loc);
}

Tensor embeddingLookup(const Tensor &table, const Tensor &ids, Loc loc) {
  return take(table, ids, 0, loc);
}

Tensor takeAlongAxis(const Tensor &a, const Tensor &indices, int64_t axis,
                     Loc loc) {
  TraceContext *ctx = traceOf({&a, &indices});
  if (!checkOperands(ctx, loc, "take_along_axis", {&a, &indices}) ||
      !checkIndices(ctx, loc, "take_along_axis", indices))
    return Tensor();
  if (a.rank() != indices.rank())
    return ctx->fail(loc, "take_along_axis",
                     fmt::format("indices {} must have the rank of {}",
                                 specString(indices), specString(a)));
  auto ax = normalizeAxis(ctx, loc, "take_along_axis", a, axis, a.rank());
  if (!ax)
    return Tensor();
  // Broadcast the other axes of a and indices together.
  Shape sa = a.shape(), si = indices.shape();
  sa[*ax] = 1;
  si[*ax] = 1;
  auto common = broadcastShapes(sa, si);
  if (!common)
    return ctx->fail(loc, "take_along_axis",
                     fmt::format("{} and indices {} cannot be broadcast "
                                 "together outside axis {}",
                                 specString(a), specString(indices), *ax));
  Shape aShape = *common, iShape = *common;
  aShape[*ax] = a.dim(*ax);
  iShape[*ax] = indices.dim(*ax);
  Tensor x = broadcastTo(a, aShape, loc);
  Tensor idx = broadcastTo(wrapNegative(indices, a.dim(*ax), loc), iShape, loc);
  // Full coordinates: iota along every other axis, the index along `axis`,
  // stacked on a new last dimension.
  std::vector<Tensor> coordinates;
  for (int64_t d = 0; d < a.rank(); ++d)
    coordinates.push_back(d == *ax ? idx : iota(iShape, d, idx.dtype(), loc));
  Tensor full = stack(coordinates, -1, loc);
  GatherDims dims;
  dims.collapsedSliceDims.resize(a.rank());
  std::iota(dims.collapsedSliceDims.begin(), dims.collapsedSliceDims.end(), 0);
  dims.startIndexMap = dims.collapsedSliceDims;
  dims.indexVectorDim = a.rank();
  return gather(x, full, dims, std::vector<int64_t>(a.rank(), 1), loc);
}

namespace {
Tensor indexScatter(const Tensor &a, const Tensor &indices,
                    const Tensor &updates, int64_t axis, ScatterOp op,
                    const Loc &loc, const char *opName) {
  TraceContext *ctx = traceOf({&a, &indices, &updates});
  if (!checkOperands(ctx, loc, opName, {&a, &indices, &updates}) ||
      !checkIndices(ctx, loc, opName, indices))
    return Tensor();
  auto ax = normalizeAxis(ctx, loc, opName, a, axis, a.rank());
  if (!ax)
    return Tensor();
  Shape aShape = a.shape(), iShape = indices.shape();
  Shape expected(aShape.begin(), aShape.begin() + *ax);
  expected.insert(expected.end(), iShape.begin(), iShape.end());
  expected.insert(expected.end(), aShape.begin() + *ax + 1, aShape.end());
  if (updates.shape() != expected)
    return ctx->fail(loc, opName,
                     fmt::format("updates {} should have shape {} (a {} with "
                                 "axis {} replaced by indices {})",
                                 specString(updates), shapeToString(expected),
                                 specString(a), *ax, specString(indices)));
  ScatterDims dims;
  dims.updateWindowDims = takeWindowDims(a.rank(), *ax, indices.rank());
  dims.insertedWindowDims = {*ax};
  dims.scatterDimsToOperandDims = {*ax};
  dims.indexVectorDim = indices.rank();
  Tensor idx = wrapNegative(indices, a.dim(*ax), loc);
  return scatter(a, idx, updates, dims, op, loc);
}
} // namespace

Tensor indexAdd(const Tensor &a, const Tensor &indices, const Tensor &updates,
                int64_t axis, Loc loc) {
  return indexScatter(a, indices, updates, axis, ScatterOp::Add, loc,
                      "index_add");
}
Tensor indexSet(const Tensor &a, const Tensor &indices, const Tensor &updates,
                int64_t axis, Loc loc) {
  return indexScatter(a, indices, updates, axis, ScatterOp::Replace, loc,
                      "index_set");
}

Tensor oneHot(const Tensor &indices, int64_t depth, DType dtype, int64_t axis,
              Loc loc) {
  TraceContext *ctx = traceOf({&indices});
  if (!checkOperands(ctx, loc, "one_hot", {&indices}) ||
      !checkIndices(ctx, loc, "one_hot", indices))
    return Tensor();
  if (depth < 0)
    return ctx->fail(loc, "one_hot",
                     fmt::format("depth {} is negative", depth));
  auto ax = normalizeAxis(ctx, loc, "one_hot", indices, axis,
                          indices.rank() + 1);
  if (!ax)
    return Tensor();
  Shape shape = indices.shape();
  shape.insert(shape.begin() + *ax, depth);
  Tensor expanded = broadcastTo(expandDims(indices, *ax, loc), shape, loc);
  Tensor classes = iota(shape, *ax, indices.dtype(), loc);
  return astype(torus::equal(expanded, classes, loc), dtype, loc);
}

} // namespace torus
