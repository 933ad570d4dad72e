//===- ShapeOps.cpp - Traced shape operations and NumPy indexing ----------===//

#include "ir/trace/TraceOps.h"

#include <numeric>

namespace torus {

using namespace impl;

Tensor broadcastTo(const Tensor &a, const Shape &shape, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "broadcast_to", {&a}))
    return Tensor();
  auto b = broadcastShapes(a.shape(), shape);
  if (!b || *b != shape)
    return ctx->fail(loc, "broadcast_to",
                     fmt::format("cannot broadcast {} to shape {}",
                                 specString(a), shapeToString(shape)));
  return broadcastValid(ctx, loc, a, shape);
}

Tensor broadcastInDim(const Tensor &a, const Shape &shape,
                      const std::vector<int64_t> &dims, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "broadcast_in_dim", {&a}))
    return Tensor();
  std::string error;
  if (mlir::failed(t::checkBroadcastInDim(a.shape(), shape, dims, error)))
    return ctx->fail(loc, "broadcast_in_dim", error);
  return emit<t::BroadcastInDimOp>(ctx, loc, typeOf(ctx, a.dtype(), shape),
                                   ctx->value(a), I64s(dims));
}

Tensor reshape(const Tensor &a, const Shape &shape, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reshape", {&a}))
    return Tensor();
  Shape target = shape;
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1 && inferred < 0) {
      inferred = static_cast<int64_t>(i);
    } else if (target[i] < 0) {
      return ctx->fail(loc, "reshape",
                       "invalid target shape " + shapeToString(shape));
    } else {
      known *= target[i];
    }
  }
  int64_t count = a.spec().numElements();
  if (inferred >= 0 && known != 0 && count % known == 0)
    target[inferred] = count / known;
  if (numElements(target) != count || (inferred >= 0 && known == 0))
    return ctx->fail(loc, "reshape",
                     fmt::format("cannot reshape {} ({} elements) to {}",
                                 specString(a), count, shapeToString(shape)));
  if (target == a.shape())
    return a;
  return emit<t::ReshapeOp>(ctx, loc, typeOf(ctx, a.dtype(), target),
                            ctx->value(a));
}

Tensor transpose(const Tensor &a, const std::vector<int64_t> &perm, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "transpose", {&a}))
    return Tensor();
  std::vector<int64_t> p = perm;
  if (p.empty())
    for (int64_t d = a.rank() - 1; d >= 0; --d)
      p.push_back(d);
  std::string error;
  auto shape = t::inferTransposeShape(a.shape(), p, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "transpose", error);
  if (*shape == llvm::ArrayRef<int64_t>(a.shape()) &&
      std::is_sorted(p.begin(), p.end()))
    return a;
  return emit<t::TransposeOp>(ctx, loc,
                              typeOf(ctx, a.dtype(), toShape(*shape)),
                              ctx->value(a), I64s(p));
}

Tensor expandDims(const Tensor &a, int64_t axis, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "expand_dims", {&a}))
    return Tensor();
  auto ax = normalizeAxis(ctx, loc, "expand_dims", a, axis, a.rank() + 1);
  if (!ax)
    return Tensor();
  Shape s = a.shape();
  s.insert(s.begin() + *ax, 1);
  return reshape(a, s, loc);
}

Tensor squeeze(const Tensor &a, const std::vector<int64_t> &axes, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "squeeze", {&a}))
    return Tensor();
  std::vector<int64_t> dims;
  if (axes.empty()) {
    for (int64_t d = 0; d < a.rank(); ++d)
      if (a.dim(d) == 1)
        dims.push_back(d);
  } else {
    auto normalized = normalizeAxes(ctx, loc, "squeeze", a, axes);
    if (!normalized)
      return Tensor();
    dims = *normalized;
  }
  Shape s;
  for (int64_t d = 0; d < a.rank(); ++d) {
    bool drop = std::find(dims.begin(), dims.end(), d) != dims.end();
    if (drop && a.dim(d) != 1)
      return ctx->fail(loc, "squeeze",
                       fmt::format("axis {} of {} has size {}, not 1", d,
                                   specString(a), a.dim(d)));
    if (!drop)
      s.push_back(a.dim(d));
  }
  return reshape(a, s, loc);
}

Tensor slice(const Tensor &a, const std::vector<int64_t> &starts,
             const std::vector<int64_t> &limits,
             const std::vector<int64_t> &strides, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "slice", {&a}))
    return Tensor();
  std::vector<int64_t> s = strides;
  if (s.empty())
    s.assign(a.rank(), 1);
  std::string error;
  auto shape = t::inferSliceShape(a.shape(), starts, limits, s, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "slice", error + " (" + specString(a) + ")");
  if (*shape == llvm::ArrayRef<int64_t>(a.shape()))
    return a;
  return emit<t::SliceOp>(ctx, loc, typeOf(ctx, a.dtype(), toShape(*shape)),
                          ctx->value(a), I64s(starts), I64s(limits), I64s(s));
}

//===----------------------------------------------------------------------===//
// NumPy basic indexing
//===----------------------------------------------------------------------===//

Tensor Tensor::operator[](const Index &i) const {
  return torus::index(*this, {i}, i.loc());
}
Tensor Tensor::operator[](std::initializer_list<Index> indices) const {
  return torus::index(*this, std::vector<Index>(indices),
                      indices.size() ? indices.begin()->loc() : Loc());
}

Tensor index(const Tensor &a, const std::vector<Index> &indices, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "index", {&a}))
    return Tensor();
  const char *op = "index";
  // Expand the ellipsis (or pad with whole axes at the end).
  int64_t consumed = 0, ellipses = 0;
  for (const Index &i : indices) {
    if (std::holds_alternative<Ellipsis>(i.value()))
      ++ellipses;
    else if (!std::holds_alternative<NewAxis>(i.value()))
      ++consumed;
  }
  if (ellipses > 1)
    return ctx->fail(loc, op, "an index can have only one ellipsis");
  if (consumed > a.rank())
    return ctx->fail(loc, op,
                     fmt::format("too many indices ({}) for {}", consumed,
                                 specString(a)));
  std::vector<Index> full;
  for (const Index &i : indices) {
    if (std::holds_alternative<Ellipsis>(i.value())) {
      for (int64_t k = 0; k < a.rank() - consumed; ++k)
        full.push_back(Slice());
    } else {
      full.push_back(i);
    }
  }
  if (!ellipses)
    for (int64_t k = 0; k < a.rank() - consumed; ++k)
      full.push_back(Slice());

  // Per axis: a slice [start, limit) with a positive stride on the operand
  // (reversed for negative steps); the result shape; removed axes.
  std::vector<int64_t> starts, limits, strides, reversed;
  Shape result;
  int64_t axis = 0;
  for (const Index &i : full) {
    if (std::holds_alternative<NewAxis>(i.value())) {
      result.push_back(1);
      continue;
    }
    int64_t n = a.dim(axis);
    if (const int64_t *v = std::get_if<int64_t>(&i.value())) {
      int64_t k = *v < 0 ? *v + n : *v;
      if (k < 0 || k >= n)
        return ctx->fail(loc, op,
                         fmt::format("index {} is out of bounds for axis {} "
                                     "of {}",
                                     *v, axis, specString(a)));
      starts.push_back(k);
      limits.push_back(k + 1);
      strides.push_back(1);
      ++axis;
      continue;
    }
    const Slice &s = std::get<Slice>(i.value());
    if (s.step == 0)
      return ctx->fail(loc, op, fmt::format("slice step of axis {} is 0", axis));
    // NumPy's slice.indices(n).
    auto clampBound = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += n;
      return std::clamp(v, lo, hi);
    };
    int64_t start, stop, step = s.step;
    if (step > 0) {
      start = s.start ? clampBound(*s.start, 0, n) : 0;
      stop = s.stop ? clampBound(*s.stop, 0, n) : n;
    } else {
      start = s.start ? clampBound(*s.start, -1, n - 1) : n - 1;
      stop = s.stop ? clampBound(*s.stop, -1, n - 1) : -1;
      // In the reversed axis, element i is n - 1 - i.
      start = n - 1 - start;
      stop = n - 1 - stop;
      step = -step;
      reversed.push_back(axis);
    }
    stop = std::max(stop, start);
    starts.push_back(start);
    limits.push_back(stop);
    strides.push_back(step);
    result.push_back((stop - start + step - 1) / step);
    ++axis;
  }
  Tensor x = a;
  if (!reversed.empty())
    x = reverse(x, reversed, loc);
  x = slice(x, starts, limits, strides, loc);
  return reshape(x, result, loc);
}

//===----------------------------------------------------------------------===//
// Dynamic slices
//===----------------------------------------------------------------------===//

namespace {
/// Start indices as integer scalars (numbers become constants).
std::optional<std::vector<mlir::Value>>
startIndices(TraceContext *ctx, const Loc &loc, const char *opName,
             const std::vector<TensorLike> &starts) {
  std::vector<mlir::Value> values;
  for (const TensorLike &s : starts) {
    if (!s.isTensor()) {
      values.push_back(ctx->value(filled(ctx, loc, {}, s.intValue(),
                                         DType::I64)));
      continue;
    }
    const Tensor &t = s.tensor();
    if (!checkOperands(ctx, loc, opName, {&t}))
      return std::nullopt;
    if (t.rank() != 0 || isFloat(t.dtype())) {
      ctx->fail(loc, opName,
                "start indices must be integer scalars, got " + specString(t));
      return std::nullopt;
    }
    Tensor i = t.dtype() == DType::I1 ? convertTo(ctx, loc, t, DType::I32) : t;
    values.push_back(ctx->value(i));
  }
  return values;
}
} // namespace

Tensor dynamicSlice(const Tensor &a, const std::vector<TensorLike> &starts,
                    const std::vector<int64_t> &sizes, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "dynamic_slice", {&a}))
    return Tensor();
  std::string error;
  auto shape = t::inferDynamicSliceShape(a.shape(), starts.size(), sizes,
                                         error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "dynamic_slice", error);
  auto indices = startIndices(ctx, loc, "dynamic_slice", starts);
  if (!indices)
    return Tensor();
  return emit<t::DynamicSliceOp>(ctx, loc,
                                 typeOf(ctx, a.dtype(), toShape(*shape)),
                                 ctx->value(a), mlir::ValueRange(*indices),
                                 I64s(sizes));
}

Tensor dynamicUpdateSlice(const Tensor &a, const Tensor &update,
                          const std::vector<TensorLike> &starts, Loc loc) {
  TraceContext *ctx = traceOf({&a, &update});
  if (!checkOperands(ctx, loc, "dynamic_update_slice", {&a, &update}))
    return Tensor();
  std::string error;
  if (mlir::failed(t::checkDynamicUpdateSlice(a.shape(), update.shape(),
                                              starts.size(), error)))
    return ctx->fail(loc, "dynamic_update_slice", error);
  auto indices = startIndices(ctx, loc, "dynamic_update_slice", starts);
  if (!indices)
    return Tensor();
  Tensor u = convertTo(ctx, loc, update, a.dtype());
  return emit<t::DynamicUpdateSliceOp>(ctx, loc, ctx->value(a).getType(),
                                       ctx->value(a), ctx->value(u),
                                       mlir::ValueRange(*indices));
}

//===----------------------------------------------------------------------===//
// Concatenate, stack, pad, reverse
//===----------------------------------------------------------------------===//

Tensor concatenate(const std::vector<Tensor> &tensors, int64_t axis, Loc loc) {
  if (tensors.empty()) {
    TraceContext *ctx = TraceContext::current();
    return ctx ? ctx->fail(loc, "concatenate", "needs at least one tensor")
               : Tensor();
  }
  TraceContext *ctx = traceOf({&tensors[0]});
  if (!checkOperands(ctx, loc, "concatenate", tensors))
    return Tensor();
  auto ax = normalizeAxis(ctx, loc, "concatenate", tensors[0], axis,
                          tensors[0].rank());
  if (!ax)
    return Tensor();
  DType dtype = tensors[0].dtype();
  for (const Tensor &t : tensors)
    dtype = promoteTypes(dtype, t.dtype());
  llvm::SmallVector<t::ShapeVec> shapes;
  for (const Tensor &t : tensors) {
    Shape s = t.shape();
    shapes.emplace_back(s.begin(), s.end());
  }
  std::string error;
  auto shape = t::inferConcatenateShape(shapes, *ax, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "concatenate",
                     error + " (" + specsString(tensors) + ")");
  if (tensors.size() == 1)
    return convertTo(ctx, loc, tensors[0], dtype);
  llvm::SmallVector<mlir::Value> values;
  for (const Tensor &t : tensors)
    values.push_back(ctx->value(convertTo(ctx, loc, t, dtype)));
  return emit<t::ConcatenateOp>(ctx, loc, typeOf(ctx, dtype, toShape(*shape)),
                                values, *ax);
}

Tensor stack(const std::vector<Tensor> &tensors, int64_t axis, Loc loc) {
  if (tensors.empty()) {
    TraceContext *ctx = TraceContext::current();
    return ctx ? ctx->fail(loc, "stack", "needs at least one tensor")
               : Tensor();
  }
  TraceContext *ctx = traceOf({&tensors[0]});
  if (!checkOperands(ctx, loc, "stack", tensors))
    return Tensor();
  for (const Tensor &t : tensors)
    if (t.shape() != tensors[0].shape())
      return ctx->fail(loc, "stack",
                       "tensors must have one shape, got " +
                           specsString(tensors));
  auto ax = normalizeAxis(ctx, loc, "stack", tensors[0], axis,
                          tensors[0].rank() + 1);
  if (!ax)
    return Tensor();
  std::vector<Tensor> expanded;
  for (const Tensor &t : tensors)
    expanded.push_back(expandDims(t, *ax, loc));
  return concatenate(expanded, *ax, loc);
}

Tensor pad(const Tensor &a, const TensorLike &value,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           const std::vector<int64_t> &interior, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "pad", {&a}))
    return Tensor();
  std::string error;
  auto shape = t::inferPadShape(a.shape(), low, high, interior, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "pad", error);
  auto v = prepareOperands(loc, "pad", {&value}, a.dtype());
  if (!v)
    return Tensor();
  if (v->values[0].rank() != 0)
    return ctx->fail(loc, "pad",
                     "the padding value must be a scalar, got " +
                         specString(v->values[0]));
  return emit<t::PadOp>(ctx, loc, typeOf(ctx, a.dtype(), toShape(*shape)),
                        ctx->value(a), ctx->value(v->values[0]), I64s(low),
                        I64s(high), I64s(interior));
}

Tensor pad(const Tensor &a,
           const std::vector<std::pair<int64_t, int64_t>> &padding,
           double value, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "pad", {&a}))
    return Tensor();
  if (static_cast<int64_t>(padding.size()) != a.rank())
    return ctx->fail(loc, "pad",
                     fmt::format("{} (before, after) pairs for {}",
                                 padding.size(), specString(a)));
  std::vector<int64_t> low, high, interior(a.rank(), 0);
  for (auto [lo, hi] : padding) {
    low.push_back(lo);
    high.push_back(hi);
  }
  return pad(a, TensorLike(value, loc), low, high, interior, loc);
}

Tensor reverse(const Tensor &a, const std::vector<int64_t> &axes, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reverse", {&a}))
    return Tensor();
  if (axes.empty())
    return a;
  auto dims = normalizeAxes(ctx, loc, "reverse", a, axes);
  if (!dims)
    return Tensor();
  return emit<t::ReverseOp>(ctx, loc, ctx->value(a), I64s(*dims));
}

} // namespace torus
