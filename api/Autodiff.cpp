//===- Autodiff.cpp - Gradients of traced computations --------------------===//

#include "torus/Autodiff.h"
#include "ir/DiagnosticCollector.h"
#include "ir/trace/TraceContext.h"
#include "passes/Autodiff.h"

#include <fmt/format.h>

namespace torus {

std::vector<Tensor> gradients(const Tensor &output,
                              const std::vector<Tensor> &wrt,
                              const Tensor &cotangent, Loc loc) {
  TraceContext *ctx = output.context() ? output.context()
                                       : TraceContext::current();
  std::vector<Tensor> invalid(wrt.size());
  if (!ctx)
    return invalid;
  if (!output.valid()) {
    if (!ctx->error())
      ctx->fail(loc, "gradients", "the output is an uninitialized Tensor");
    return invalid;
  }
  llvm::SmallVector<mlir::Value> wrtValues;
  for (const Tensor &w : wrt) {
    if (!w.valid() || w.context() != ctx) {
      ctx->fail(loc, "gradients",
                "a tensor to differentiate with respect to is invalid or "
                "from another trace");
      return invalid;
    }
    wrtValues.push_back(ctx->value(w));
  }
  mlir::Value seed;
  if (cotangent.valid())
    seed = ctx->value(cotangent);

  mlir::Location where = ctx->location(loc);
  mlir::torus::DiagnosticCollector diags(ctx->mlirContext());
  auto grads = mlir::torus::buildGradients(ctx->builder(), where,
                                           ctx->value(output), seed,
                                           wrtValues);
  if (mlir::failed(grads)) {
    // An error at the call itself already gets its line from fail().
    std::string message = diags.take();
    std::string prefix = mlir::torus::formatLocation(where) + ": error: ";
    if (message.rfind(prefix, 0) == 0)
      message.erase(0, prefix.size());
    ctx->fail(loc, "gradients", message);
    return invalid;
  }
  std::vector<Tensor> result;
  for (mlir::Value g : *grads)
    result.push_back(ctx->wrap(g));
  return result;
}

namespace {
std::vector<int> defaultArgnums(const std::vector<Tensor> &args) {
  std::vector<int> argnums;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].valid() && isFloat(args[i].dtype()))
      argnums.push_back(static_cast<int>(i));
  return argnums;
}
} // namespace

std::function<ValueAndGrad(const std::vector<Tensor> &)>
valueAndGrad(TensorFn fn, std::vector<int> argnums) {
  return [fn = std::move(fn),
          argnums = std::move(argnums)](const std::vector<Tensor> &args) {
    ValueAndGrad out;
    out.values = fn(args);
    TraceContext *ctx = TraceContext::current();
    if (out.values.empty()) {
      if (ctx)
        ctx->fail(Loc(), "value_and_grad", "the function returned nothing");
      return out;
    }
    std::vector<Tensor> wrt;
    for (int i : argnums.empty() ? defaultArgnums(args) : argnums) {
      if (i < 0 || i >= static_cast<int>(args.size())) {
        if (ctx)
          ctx->fail(Loc(), "value_and_grad",
                    fmt::format("argnum {} is out of range for {} arguments",
                                i, args.size()));
        return out;
      }
      wrt.push_back(args[i]);
    }
    out.grads = gradients(out.values[0], wrt, Tensor(), Loc());
    return out;
  };
}

TensorFn grad(TensorFn fn, std::vector<int> argnums) {
  auto vg = valueAndGrad(std::move(fn), std::move(argnums));
  return [vg](const std::vector<Tensor> &args) { return vg(args).grads; };
}

std::vector<Tensor> GradientTape::gradient(const Tensor &target,
                                           const std::vector<Tensor> &sources,
                                           const Tensor &outputGradient,
                                           Loc loc) {
  if (used_ && !persistent_) {
    TraceContext *ctx = target.context() ? target.context()
                                         : TraceContext::current();
    if (ctx)
      ctx->fail(loc, "GradientTape.gradient",
                "A non-persistent GradientTape can only be used to compute "
                "one set of gradients (or jacobians)");
    return std::vector<Tensor>(sources.size());
  }
  used_ = true;
  Tensor cotangent = outputGradient;
  if (!cotangent.valid() && target.valid() && target.rank() > 0)
    cotangent = onesLike(target, loc);
  return gradients(target, sources, cotangent, loc);
}

} // namespace torus
