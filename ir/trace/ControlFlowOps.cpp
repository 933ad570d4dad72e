//===- ControlFlowOps.cpp - C++ lambdas traced into loops and branches ----===//
//
// Each region is traced by running the user's lambda once with the
// insertion point inside the region. A branch's result types are known only
// after it is traced, so `if` and `case` are built with no results, traced,
// and rebuilt with the right results around the same regions.
//
//===----------------------------------------------------------------------===//

#include "ir/trace/TraceOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace torus {

using namespace impl;

namespace {

/// A scalar operand converted to `dtype` (numbers become constants).
std::optional<Tensor> scalarOperand(const Loc &loc, const char *opName,
                                    const TensorLike &v, DType dtype) {
  auto ops = prepareOperands(loc, opName, {&v}, dtype);
  if (!ops)
    return std::nullopt;
  if (ops->values[0].rank() != 0) {
    ops->ctx->fail(loc, opName,
                   "needs a scalar, got " + specString(ops->values[0]));
    return std::nullopt;
  }
  return ops->values[0];
}

} // namespace

TensorList whileLoop(const std::function<Tensor(const TensorList &)> &cond,
                     const std::function<TensorList(const TensorList &)> &body,
                     const TensorList &init, Loc loc) {
  TraceContext *ctx =
      init.empty() ? TraceContext::current() : traceOf({&init[0]});
  if (!ctx)
    return {};
  if (init.empty()) {
    ctx->fail(loc, "while_loop", "needs at least one loop-carried tensor");
    return {};
  }
  if (!checkOperands(ctx, loc, "while_loop", init))
    return {};
  auto types = typesOf(ctx, init);
  auto op = create<t::WhileOp>(ctx, loc, mlir::TypeRange(types),
                               mlir::ValueRange(valuesOf(ctx, init)));
  auto condResult = traceRegion(
      ctx, loc, "while_loop", op.getCond(), types,
      [&](const TensorList &state) -> std::optional<TensorList> {
        Tensor c = cond(state);
        if (!c.valid())
          return std::nullopt;
        auto p = scalarOperand(loc, "while_loop condition", c, DType::I1);
        if (!p)
          return std::nullopt;
        return TensorList{*p};
      });
  if (!condResult)
    return {};
  auto bodyResult = traceRegion(
      ctx, loc, "while_loop", op.getBody(), types,
      [&](const TensorList &state) -> std::optional<TensorList> {
        TensorList next = body(state);
        if (ctx->error() ||
            !sameSpecs(ctx, loc, "while_loop", next, init,
                       "the body's results and the loop state"))
          return std::nullopt;
        return next;
      });
  if (!bodyResult)
    return {};
  return wrapResults(ctx, op);
}

Tensor whileLoop(const std::function<Tensor(const Tensor &)> &cond,
                 const std::function<Tensor(const Tensor &)> &body,
                 const Tensor &init, Loc loc) {
  TensorList r = whileLoop(
      [&](const TensorList &s) { return cond(s[0]); },
      [&](const TensorList &s) { return TensorList{body(s[0])}; }, {init},
      loc);
  return r.empty() ? Tensor() : r[0];
}

TensorList
forLoop(int64_t lower, int64_t upper,
        const std::function<TensorList(const Tensor &, const TensorList &)>
            &body,
        const TensorList &init, Loc loc) {
  TraceContext *ctx =
      init.empty() ? TraceContext::current() : traceOf({&init[0]});
  if (!ctx)
    return {};
  TensorList state = {full({}, static_cast<double>(lower), DType::I32, loc)};
  state.insert(state.end(), init.begin(), init.end());
  TensorList r = whileLoop(
      [&](const TensorList &s) { return less(s[0], upper, loc); },
      [&](const TensorList &s) {
        TensorList rest(s.begin() + 1, s.end());
        TensorList next = {add(s[0], 1, loc)};
        TensorList out = body(s[0], rest);
        next.insert(next.end(), out.begin(), out.end());
        return next;
      },
      state, loc);
  if (r.empty())
    return {};
  return TensorList(r.begin() + 1, r.end());
}

namespace {
/// Traces `branches` into the regions of a result-less `OpTy` made by
/// `build`, then rebuilds it with the branches' result types.
template <typename OpTy>
TensorList traceBranches(TraceContext *ctx, const Loc &loc, const char *opName,
                         const std::vector<std::function<TensorList()>> &branches,
                         const std::function<OpTy()> &build) {
  OpTy op = build();
  std::optional<TensorList> first;
  for (size_t i = 0; i < branches.size(); ++i) {
    auto result = traceRegion(
        ctx, loc, opName, op->getRegion(i), {},
        [&](const TensorList &) -> std::optional<TensorList> {
          TensorList r = branches[i]();
          if (ctx->error())
            return std::nullopt;
          if (first &&
              !sameSpecs(ctx, loc, opName, r, *first,
                         fmt::format("branch {}'s results and branch 0's", i)))
            return std::nullopt;
          return r;
        });
    if (!result)
      return {};
    if (!first)
      first = *result;
  }
  // Rebuild with the result types, moving the traced regions over.
  mlir::OpBuilder &b = ctx->builder();
  mlir::OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addTypes(typesOf(ctx, *first));
  state.addAttributes(op->getAttrs());
  for (mlir::Region &r : op->getRegions())
    state.addRegion()->takeBody(r);
  mlir::Operation *rebuilt = b.create(state);
  op->erase();
  return wrapResults(ctx, rebuilt);
}
} // namespace

TensorList cond(const TensorLike &pred,
                const std::function<TensorList()> &trueBranch,
                const std::function<TensorList()> &falseBranch, Loc loc) {
  auto p = scalarOperand(loc, "cond", pred, DType::I1);
  if (!p)
    return {};
  TraceContext *ctx = p->context();
  return traceBranches<t::IfOp>(
      ctx, loc, "cond", {trueBranch, falseBranch}, [&] {
        return create<t::IfOp>(ctx, loc, mlir::TypeRange{}, ctx->value(*p));
      });
}

Tensor cond(const TensorLike &pred, const std::function<Tensor()> &trueBranch,
            const std::function<Tensor()> &falseBranch, Loc loc) {
  TensorList r = cond(
      pred, std::function<TensorList()>([&] { return TensorList{trueBranch()}; }),
      std::function<TensorList()>([&] { return TensorList{falseBranch()}; }),
      loc);
  return r.empty() ? Tensor() : r[0];
}

TensorList switchCase(const TensorLike &index,
                      const std::vector<std::function<TensorList()>> &branches,
                      Loc loc) {
  auto i = scalarOperand(loc, "switch_case", index, DType::I32);
  if (!i)
    return {};
  TraceContext *ctx = i->context();
  if (branches.empty()) {
    ctx->fail(loc, "switch_case", "needs at least one branch");
    return {};
  }
  return traceBranches<t::CaseOp>(ctx, loc, "switch_case", branches, [&] {
    return create<t::CaseOp>(ctx, loc, mlir::TypeRange{}, ctx->value(*i),
                             static_cast<unsigned>(branches.size()));
  });
}

TensorList call(const std::string &name,
                const std::function<TensorList(const TensorList &)> &fn,
                const TensorList &args, Loc loc) {
  TraceContext *ctx =
      args.empty() ? TraceContext::current() : traceOf({&args[0]});
  if (!ctx || !checkOperands(ctx, loc, "call", args))
    return {};
  auto argTypes = typesOf(ctx, args);
  mlir::OpBuilder &b = ctx->builder();
  auto module = b.getInsertionBlock()
                    ->getParentOp()
                    ->getParentOfType<mlir::ModuleOp>();
  if (!module) {
    ctx->fail(loc, "call", "not inside a module");
    return {};
  }
  auto &known = ctx->callees()[name];
  const TraceContext::Callee *callee = nullptr;
  for (const auto &c : known)
    if (mlir::TypeRange(c.type.getInputs()) == mlir::TypeRange(argTypes))
      callee = &c;
  if (!callee) {
    // First call with this signature: trace `fn` into a private function.
    std::string symbol = name;
    for (int n = 1; module.lookupSymbol(symbol); ++n)
      symbol = name + "_" + std::to_string(n);
    mlir::func::FuncOp func;
    {
      mlir::OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(module.getBody());
      func = b.create<mlir::func::FuncOp>(ctx->location(loc), symbol,
                                          b.getFunctionType(argTypes, {}));
      func.setPrivate();
    }
    auto results = traceRegion(
        ctx, loc, "call", func.getBody(), argTypes,
        [&](const TensorList &in) -> std::optional<TensorList> {
          TensorList out = fn(in);
          if (ctx->error())
            return std::nullopt;
          return out;
        },
        /*funcReturn=*/true);
    if (!results)
      return {};
    func.setFunctionType(b.getFunctionType(argTypes, typesOf(ctx, *results)));
    known.push_back({symbol, func.getFunctionType()});
    callee = &known.back();
  }
  auto op = create<t::CallOp>(
      ctx, loc, callee->type.getResults(),
      mlir::FlatSymbolRefAttr::get(ctx->mlirContext(), callee->symbol),
      mlir::ValueRange(valuesOf(ctx, args)));
  return wrapResults(ctx, op);
}

} // namespace torus
