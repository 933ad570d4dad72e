//===- SortOps.cpp - Traced sort, argsort, topK, maxPoolGrad --------------===//
//
// torus.sort with a comparator region built here: lexicographic over the
// key operands in total order (floats compare with total_order, so NaNs go
// last), and torus.select_and_scatter with GE / add for maxPoolGrad.
//
//===----------------------------------------------------------------------===//

#include "ir/ops/OpUtils.h"
#include "ir/trace/TraceOps.h"

namespace torus {
using namespace impl;

namespace {
/// Fills `region` with a scalar computation on one `tensor<T>` argument per
/// entry of `elementTypes`; `body` builds the returned value.
void buildScalarRegion(
    TraceContext *ctx, const Loc &loc, mlir::Region &region,
    llvm::ArrayRef<mlir::Type> elementTypes,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body) {
  mlir::OpBuilder &b = ctx->builder();
  mlir::OpBuilder::InsertionGuard guard(b);
  mlir::Location l = ctx->location(loc);
  llvm::SmallVector<mlir::Type> types;
  for (mlir::Type t : elementTypes)
    types.push_back(mlir::RankedTensorType::get({}, t));
  mlir::Block *block = b.createBlock(
      &region, {}, types, llvm::SmallVector<mlir::Location>(types.size(), l));
  mlir::Value r = body(b, l, block->getArguments());
  b.create<t::ReturnOp>(l, mlir::ValueRange{r});
}

mlir::Value compare(mlir::OpBuilder &b, mlir::Location l,
                    t::ComparisonDirection dir, mlir::Value x, mlir::Value y) {
  auto op = b.create<t::CompareOp>(l, dir, x, y);
  if (mlir::isa<mlir::FloatType>(
          mlir::cast<mlir::RankedTensorType>(x.getType()).getElementType()))
    op.setTotalOrder(true);
  return op;
}
} // namespace

TensorList sort(const TensorList &operands, int64_t axis, int64_t numKeys,
                bool descending, Loc loc) {
  TraceContext *ctx =
      operands.empty() ? TraceContext::current() : traceOf({&operands[0]});
  if (!ctx)
    return {};
  if (operands.empty()) {
    ctx->fail(loc, "sort", "needs at least one operand");
    return {};
  }
  if (!checkOperands(ctx, loc, "sort", operands))
    return {};
  const Tensor &first = operands[0];
  for (const Tensor &t : operands)
    if (t.shape() != first.shape()) {
      ctx->fail(loc, "sort",
                "needs operands of one shape, got " + specsString(operands));
      return {};
    }
  if (numKeys < 1 || numKeys > static_cast<int64_t>(operands.size())) {
    ctx->fail(loc, "sort",
              fmt::format("numKeys = {} must be in [1, {}]", numKeys,
                          operands.size()));
    return {};
  }
  if (first.rank() == 0) {
    ctx->fail(loc, "sort",
              "needs tensors of rank >= 1, got " + specsString(operands));
    return {};
  }
  auto ax = normalizeAxis(ctx, loc, "sort", first, axis, first.rank());
  if (!ax)
    return {};
  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<mlir::Type> types, args;
  for (const Tensor &t : operands) {
    values.push_back(ctx->value(t));
    types.push_back(values.back().getType());
    mlir::Type et =
        mlir::cast<mlir::RankedTensorType>(types.back()).getElementType();
    args.append({et, et});
  }
  auto op = create<t::SortOp>(ctx, loc, mlir::TypeRange(types),
                              mlir::ValueRange(values),
                              ctx->builder().getI64IntegerAttr(*ax),
                              ctx->builder().getBoolAttr(true));
  auto less = descending ? t::ComparisonDirection::GT
                         : t::ComparisonDirection::LT;
  buildScalarRegion(
      ctx, loc, op.getComparator(), args,
      [&](mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange x) {
        // key_0 < or (key_0 == and (key_1 < or ...)), from the last key.
        mlir::Value r;
        for (int64_t k = numKeys - 1; k >= 0; --k) {
          mlir::Value lhs = x[2 * k], rhs = x[2 * k + 1];
          mlir::Value lt = compare(b, l, less, lhs, rhs);
          if (!r) {
            r = lt;
            continue;
          }
          mlir::Value eq = compare(b, l, t::ComparisonDirection::EQ, lhs, rhs);
          r = b.create<t::OrOp>(l, lt.getType(), lt,
                                b.create<t::AndOp>(l, eq.getType(), eq, r));
        }
        return r;
      });
  TensorList results;
  for (mlir::Value r : op.getResults())
    results.push_back(ctx->wrap(r));
  return results;
}

Tensor sort(const Tensor &a, int64_t axis, bool descending, Loc loc) {
  TensorList r = sort(TensorList{a}, axis, 1, descending, loc);
  return r.empty() ? Tensor() : r[0];
}

Tensor argsort(const Tensor &a, int64_t axis, bool descending, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "argsort", {&a}))
    return Tensor();
  if (a.rank() == 0)
    return ctx->fail(loc, "argsort",
                     "needs a tensor of rank >= 1, got " + specString(a));
  auto ax = normalizeAxis(ctx, loc, "argsort", a, axis, a.rank());
  if (!ax)
    return Tensor();
  Tensor index = iota(a.shape(), *ax, DType::I32, loc);
  TensorList r = sort(TensorList{a, index}, *ax, 1, descending, loc);
  return r.empty() ? Tensor() : r[1];
}

TensorList topK(const Tensor &a, int64_t k, Loc loc) {
  TraceContext *ctx = traceOf({&a});
  if (!checkOperands(ctx, loc, "top_k", {&a}))
    return {};
  if (a.rank() == 0 || k < 0 || k > a.shape().back()) {
    ctx->fail(loc, "top_k",
              fmt::format("needs a tensor of rank >= 1 and k in [0, its last "
                          "dimension], got {} and k = {}",
                          specString(a), k));
    return {};
  }
  Shape shape = a.shape();
  shape.back() = k;
  auto op = create<t::TopKOp>(
      ctx, loc, typeOf(ctx, a.dtype(), shape), typeOf(ctx, DType::I32, shape),
      ctx->value(a), ctx->builder().getI64IntegerAttr(k),
      ctx->builder().getBoolAttr(true));
  return {ctx->wrap(op.getValues()), ctx->wrap(op.getIndices())};
}

Tensor maxPoolGrad(const Tensor &x, const Tensor &dy,
                   const std::vector<int64_t> &window,
                   const std::vector<int64_t> &strides,
                   const std::vector<std::pair<int64_t, int64_t>> &padding,
                   Loc loc) {
  TraceContext *ctx = traceOf({&x, &dy});
  if (!checkOperands(ctx, loc, "max_pool_grad", {&x, &dy}))
    return Tensor();
  std::string error;
  auto shape = t::inferReduceWindowShape(x.shape(), window, strides, {}, {},
                                         padding, error);
  if (mlir::failed(shape))
    return ctx->fail(loc, "max_pool_grad",
                     error + " (operand " + specString(x) + ")");
  if (toShape(*shape) != dy.shape() || dy.dtype() != x.dtype())
    return ctx->fail(loc, "max_pool_grad",
                     fmt::format("dy must have one element per window of x "
                                 "({}): shape [{}] and x's dtype, got {}",
                                 specString(x), fmt::join(*shape, ","),
                                 specString(dy)));
  mlir::OpBuilder &b = ctx->builder();
  mlir::Type et =
      mlir::cast<mlir::RankedTensorType>(ctx->value(x).getType())
          .getElementType();
  Tensor zero = filled(ctx, loc, {}, 0.0, x.dtype());
  auto op = create<t::SelectAndScatterOp>(
      ctx, loc, ctx->value(x).getType(), ctx->value(x), ctx->value(dy),
      ctx->value(zero), b.getDenseI64ArrayAttr(window),
      strides.empty() ? mlir::DenseI64ArrayAttr()
                      : b.getDenseI64ArrayAttr(strides),
      t::paddingAttr(b.getContext(), padding));
  buildScalarRegion(ctx, loc, op.getSelect(), {et, et},
                    [&](mlir::OpBuilder &b, mlir::Location l,
                        mlir::ValueRange v) -> mlir::Value {
                      return b.create<t::CompareOp>(
                          l, t::ComparisonDirection::GE, v[0], v[1]);
                    });
  buildScalarRegion(ctx, loc, op.getScatter(), {et, et},
                    [&](mlir::OpBuilder &b, mlir::Location l,
                        mlir::ValueRange v) -> mlir::Value {
                      return b.create<t::AddOp>(l, v[0].getType(), v[0], v[1]);
                    });
  return ctx->wrap(op.getResult());
}

} // namespace torus
