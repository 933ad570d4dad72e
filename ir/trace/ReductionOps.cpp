//===- ReductionOps.cpp - Traced reductions, softmax and pooling ----------===//

#include "ir/ops/OpUtils.h"
#include "ir/trace/TraceOps.h"

#include "mlir/IR/Verifier.h"

#include <limits>

namespace torus {

using namespace impl;

namespace {

/// Reduces `a` over `axes` with `kind` (no dtype changes), keeping the
/// reduced axes as size 1 when `keepdims`.
Tensor reduce(TraceContext *ctx, const Loc &loc, const char *opName,
              const Tensor &a, const std::vector<int64_t> &dims,
              t::ReduceKind kind, bool keepdims) {
  Shape reduced, kept = a.shape();
  for (int64_t d = 0; d < a.rank(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      reduced.push_back(a.dim(d));
    else
      kept[d] = 1;
  }
  Tensor r = dims.empty()
                 ? a
                 : emit<t::ReduceOp>(ctx, loc, typeOf(ctx, a.dtype(), reduced),
                                     kind, ctx->value(a), I64s(dims));
  return keepdims ? reshape(r, kept, loc) : r;
}

/// The common front of the reductions: checks, normalizes the axes,
/// converts `a` as `convert` says, then reduces.
enum class Input { AsIs, BoolToI32, ToBool };
Tensor reduceAxes(const Tensor &a, const std::vector<int64_t> &axes,
                  bool keepdims, t::ReduceKind kind, const Loc &loc,
                  const char *opName, Input input) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, opName, {&a}))
    return Tensor();
  auto dims = normalizeAxes(ctx, loc, opName, a, axes);
  if (!dims)
    return Tensor();
  Tensor x = a;
  if (input == Input::BoolToI32 && a.dtype() == DType::I1)
    x = convertTo(ctx, loc, a, DType::I32);
  else if (input == Input::ToBool)
    x = convertTo(ctx, loc, a, DType::I1);
  return reduce(ctx, loc, opName, x, *dims, kind, keepdims);
}

} // namespace

Tensor sum(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::sum, loc, "sum",
                    Input::BoolToI32);
}
Tensor prod(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
            Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::product, loc, "prod",
                    Input::BoolToI32);
}
Tensor max(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::max, loc, "max",
                    Input::AsIs);
}
Tensor min(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::min, loc, "min",
                    Input::AsIs);
}
Tensor any(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::Or, loc, "any",
                    Input::ToBool);
}
Tensor all(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
           Loc loc) {
  return reduceAxes(a, axes, keepdims, t::ReduceKind::And, loc, "all",
                    Input::ToBool);
}

Tensor mean(const Tensor &a, const std::vector<int64_t> &axes, bool keepdims,
            Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "mean", {&a}))
    return Tensor();
  Tensor x = toFloat(ctx, loc, a);
  Tensor s = sum(x, axes, keepdims, loc);
  if (!s.valid())
    return s;
  int64_t count = std::max<int64_t>(1, a.numElements()) /
                  std::max<int64_t>(1, s.numElements());
  if (a.numElements() == 0) {
    // The mean of nothing is NaN (0 / 0), as in NumPy.
    count = 0;
  }
  return divide(s, scalar(static_cast<double>(count), x.dtype(), loc), loc);
}

namespace {
template <typename OpTy>
Tensor argReduce(const Tensor &a, int64_t axis, bool keepdims, const Loc &loc,
                 const char *opName) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, opName, {&a}))
    return Tensor();
  if (a.rank() == 0)
    return ctx->fail(loc, opName, "needs a tensor of rank >= 1, got " +
                                      specString(a));
  auto ax = normalizeAxis(ctx, loc, opName, a, axis, a.rank());
  if (!ax)
    return Tensor();
  Tensor x = a.dtype() == DType::I1 ? convertTo(ctx, loc, a, DType::I32) : a;
  auto op = create<OpTy>(ctx, loc, ctx->value(x), *ax,
                         ctx->builder().getI32Type());
  Tensor indices = ctx->wrap(op.getIndices());
  if (!keepdims)
    return indices;
  Shape kept = a.shape();
  kept[*ax] = 1;
  return reshape(indices, kept, loc);
}
} // namespace

Tensor argmax(const Tensor &a, int64_t axis, bool keepdims, Loc loc) {
  return argReduce<t::ArgMaxOp>(a, axis, keepdims, loc, "argmax");
}
Tensor argmin(const Tensor &a, int64_t axis, bool keepdims, Loc loc) {
  return argReduce<t::ArgMinOp>(a, axis, keepdims, loc, "argmin");
}

Tensor logsumexp(const Tensor &a, const std::vector<int64_t> &axes,
                 bool keepdims, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "logsumexp", {&a}))
    return Tensor();
  Tensor x = toFloat(ctx, loc, a);
  // Shift by the (finite) maximum so exp cannot overflow; an all -inf
  // slice gives -inf.
  Tensor m = max(x, axes, /*keepdims=*/true, loc);
  Tensor shift = where(isFinite(m, loc), m, 0.0, loc);
  Tensor s = sum(exp(x - shift, loc), axes, /*keepdims=*/true, loc);
  Tensor r = add(log(s, loc), shift, loc);
  if (keepdims || !r.valid())
    return r;
  auto dims = normalizeAxes(ctx, loc, "logsumexp", a, axes);
  return dims ? squeeze(r, *dims, loc) : Tensor();
}

Tensor softmax(const Tensor &a, int64_t axis, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "softmax", {&a}))
    return Tensor();
  Tensor x = toFloat(ctx, loc, a);
  Tensor e = exp(x - max(x, {axis}, /*keepdims=*/true, loc), loc);
  return divide(e, sum(e, {axis}, /*keepdims=*/true, loc), loc);
}

Tensor logSoftmax(const Tensor &a, int64_t axis, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "log_softmax", {&a}))
    return Tensor();
  Tensor x = toFloat(ctx, loc, a);
  Tensor shifted = subtract(x, max(x, {axis}, /*keepdims=*/true, loc), loc);
  return subtract(
      shifted,
      log(sum(exp(shifted, loc), {axis}, /*keepdims=*/true, loc), loc), loc);
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

Tensor reduceWindow(const Tensor &a, ReduceOp op,
                    const std::vector<int64_t> &window,
                    const std::vector<int64_t> &strides,
                    const std::vector<std::pair<int64_t, int64_t>> &padding,
                    Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "reduce_window", {&a}))
    return Tensor();
  auto kind = toReduceKind(ctx, loc, "reduce_window", op);
  if (!kind)
    return Tensor();
  Tensor x = a;
  if (a.dtype() == DType::I1 && (op == ReduceOp::Sum || op == ReduceOp::Product))
    x = convertTo(ctx, loc, a, DType::I32);
  std::string error;
  auto shape = t::inferReduceWindowShape(x.shape(), window, strides, {}, {},
                                         padding, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "reduce_window",
                     error + " (operand " + specString(a) + ")");
  return emit<t::ReduceWindowOp>(ctx, loc, *kind, ctx->value(x),
                                 I64s(window), I64s(strides), I64s(),
                                 I64s(), padding);
}

namespace {
/// The front of reduce() and reduceWindow() with a reducer: checks the
/// operands and init values, creates the op (`build` gives it the result
/// shape) and traces `body` into its region. The results, or empty after
/// an error.
template <typename Op>
TensorList reduceWith(
    const TensorList &operands, const TensorList &initValues,
    const Reducer &body, const Loc &loc, const char *opName,
    llvm::function_ref<std::optional<Op>(TraceContext *, const Shape &)>
        build) {
  TraceContext *ctx =
      operands.empty() ? TraceContext::current() : traceOf({&operands[0]});
  if (!ctx)
    return {};
  if (operands.empty()) {
    ctx->fail(loc, opName, "needs at least one operand");
    return {};
  }
  if (!checkOperands(ctx, loc, opName, operands) ||
      !checkOperands(ctx, loc, opName, initValues))
    return {};
  for (const Tensor &t : operands)
    if (t.shape() != operands[0].shape()) {
      ctx->fail(loc, opName,
                "needs operands of one shape, got " + specsString(operands));
      return {};
    }
  bool initsFit = initValues.size() == operands.size();
  for (size_t i = 0; initsFit && i < operands.size(); ++i)
    initsFit = initValues[i].rank() == 0 &&
               initValues[i].dtype() == operands[i].dtype();
  if (!initsFit) {
    ctx->fail(loc, opName,
              "needs one 0-d init value per operand, of its dtype: got (" +
                  specsString(initValues) + ") for operands (" +
                  specsString(operands) + ")");
    return {};
  }
  std::optional<Op> op = build(ctx, operands[0].shape());
  if (!op)
    return {};
  llvm::SmallVector<mlir::Type> argTypes = typesOf(ctx, initValues);
  argTypes.append(llvm::SmallVector<mlir::Type>(argTypes));
  size_t n = operands.size();
  auto traced = traceRegion(
      ctx, loc, opName, op->getBody(), argTypes,
      [&](const TensorList &args) -> std::optional<TensorList> {
        TensorList accs(args.begin(), args.begin() + n);
        TensorList next =
            body(accs, TensorList(args.begin() + n, args.end()));
        if (ctx->error() ||
            !sameSpecs(ctx, loc, opName, next, accs,
                       "the reducer's results and its accumulators"))
          return std::nullopt;
        return next;
      });
  if (!traced)
    return {};
  if (mlir::failed(mlir::verify(*op))) {
    ctx->fail(loc, opName,
              "the reducer may use only elementwise functions and constants");
    return {};
  }
  return wrapResults(ctx, *op);
}
} // namespace

TensorList reduce(const TensorList &operands, const TensorList &initValues,
                  const Reducer &body, const std::vector<int64_t> &axes,
                  Loc loc) {
  return reduceWith<t::ReduceGeneralOp>(
      operands, initValues, body, loc, "reduce",
      [&](TraceContext *ctx,
          const Shape &shape) -> std::optional<t::ReduceGeneralOp> {
        auto dims = normalizeAxes(ctx, loc, "reduce", operands[0], axes);
        if (!dims)
          return std::nullopt;
        Shape kept;
        for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
          if (!llvm::is_contained(*dims, d))
            kept.push_back(shape[d]);
        llvm::SmallVector<mlir::Type> types;
        for (const Tensor &t : operands)
          types.push_back(typeOf(ctx, t.dtype(), kept));
        return create<t::ReduceGeneralOp>(ctx, loc, types,
                                          valuesOf(ctx, operands),
                                          valuesOf(ctx, initValues),
                                          I64s(*dims));
      });
}

TensorList
reduceWindow(const TensorList &operands, const TensorList &initValues,
             const Reducer &body, const std::vector<int64_t> &window,
             const std::vector<int64_t> &strides,
             const std::vector<std::pair<int64_t, int64_t>> &padding,
             Loc loc) {
  return reduceWith<t::ReduceWindowGeneralOp>(
      operands, initValues, body, loc, "reduce_window",
      [&](TraceContext *ctx,
          const Shape &shape) -> std::optional<t::ReduceWindowGeneralOp> {
        std::string error;
        auto out = t::inferReduceWindowShape(shape, window, strides, {}, {},
                                             padding, error);
        if (mlir::failed(out)) {
          ctx->fail(loc, "reduce_window",
                    error + " (operands " + specsString(operands) + ")");
          return std::nullopt;
        }
        llvm::SmallVector<mlir::Type> types;
        for (const Tensor &t : operands)
          types.push_back(typeOf(ctx, t.dtype(), Shape(out->begin(), out->end())));
        mlir::OpBuilder &b = ctx->builder();
        auto optional = [&](llvm::ArrayRef<int64_t> v) {
          return v.empty() ? mlir::DenseI64ArrayAttr()
                           : b.getDenseI64ArrayAttr(v);
        };
        return create<t::ReduceWindowGeneralOp>(
            ctx, loc, types, valuesOf(ctx, operands),
            valuesOf(ctx, initValues), b.getDenseI64ArrayAttr(window),
            optional(strides), mlir::DenseI64ArrayAttr(),
            mlir::DenseI64ArrayAttr(),
            t::paddingAttr(b.getContext(), padding));
      });
}

namespace {
/// The NHWC window, strides and padding of a 2-D pooling op.
struct Pool {
  std::vector<int64_t> window, strides;
  std::vector<std::pair<int64_t, int64_t>> padding;
};
std::optional<Pool> poolGeometry(TraceContext *ctx, const Loc &loc,
                                 const char *opName, const Tensor &x,
                                 const std::vector<int64_t> &window,
                                 const std::vector<int64_t> &strides,
                                 const Padding &padding) {
  if (x.rank() != 4 || window.size() != 2 ||
      (!strides.empty() && strides.size() != 2)) {
    ctx->fail(loc, opName,
              fmt::format("needs an NHWC tensor, a window {{h, w}} and "
                          "strides {{h, w}}, got {}, window [{}], strides "
                          "[{}]",
                          specString(x), fmt::join(window, ","),
                          fmt::join(strides, ",")));
    return std::nullopt;
  }
  Pool p;
  std::vector<int64_t> s = strides.empty() ? window : strides;
  p.window = {1, window[0], window[1], 1};
  p.strides = {1, s[0], s[1], 1};
  p.padding = {{0, 0}};
  for (size_t i = 0; i < 2; ++i)
    p.padding.push_back(
        spatialPadding(padding, i, x.dim(1 + i), window[i], s[i], 1));
  p.padding.push_back({0, 0});
  return p;
}
} // namespace

Tensor maxPool2d(const Tensor &x, const std::vector<int64_t> &window,
                 const std::vector<int64_t> &strides, const Padding &padding,
                 Loc loc) {
  TraceContext *ctx = traceOf({&x});
  if (!checkOperands(ctx, loc, "max_pool2d", {&x}))
    return Tensor();
  auto p = poolGeometry(ctx, loc, "max_pool2d", x, window, strides, padding);
  if (!p)
    return Tensor();
  return reduceWindow(x, ReduceOp::Max, p->window, p->strides, p->padding,
                      loc);
}

Tensor avgPool2d(const Tensor &x, const std::vector<int64_t> &window,
                 const std::vector<int64_t> &strides, const Padding &padding,
                 Loc loc) {
  TraceContext *ctx = traceOf({&x});
  if (!checkOperands(ctx, loc, "avg_pool2d", {&x}))
    return Tensor();
  auto p = poolGeometry(ctx, loc, "avg_pool2d", x, window, strides, padding);
  if (!p)
    return Tensor();
  Tensor xf = toFloat(ctx, loc, x);
  Tensor sums = reduceWindow(xf, ReduceOp::Sum, p->window, p->strides,
                             p->padding, loc);
  if (!sums.valid())
    return sums;
  // How many real (non-padding) elements each window covers, known now.
  int64_t oh = sums.dim(1), ow = sums.dim(2);
  std::vector<double> counts(oh * ow);
  for (int64_t i = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j) {
      auto covered = [&](int64_t out, int64_t dim) {
        int64_t lo = out * p->strides[dim] - p->padding[dim].first;
        int64_t hi = lo + p->window[dim];
        return std::max<int64_t>(
            0, std::min(hi, x.dim(dim)) - std::max<int64_t>(lo, 0));
      };
      counts[i * ow + j] = static_cast<double>(covered(i, 1) * covered(j, 2));
    }
  HostTensor countTensor = HostTensor::fromVector<double>({1, oh, ow, 1}, counts);
  Tensor c = convertTo(ctx, loc, constant(countTensor, loc), xf.dtype());
  return divide(sums, c, loc);
}

} // namespace torus
