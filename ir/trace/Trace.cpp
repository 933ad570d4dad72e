//===- Trace.cpp - Tracing C++ functions into the torus IR ----------------===//

#include "ir/ArgumentName.h"
#include "ir/DiagnosticCollector.h"
#include "ir/SourceNesting.h"
#include "ir/TorusOps.h"
#include "ir/trace/TraceContext.h"
#include "ir/trace/TracedFunctionImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>
#include <vector>

namespace torus {

using mlir::torus::DiagnosticCollector;

std::unique_ptr<mlir::MLIRContext> createTorusContext() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::torus::TorusDialect, mlir::func::FuncDialect>();
  auto ctx = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  return ctx;
}

namespace {
/// The single public function of `module`, or an error.
absl::StatusOr<mlir::func::FuncOp> entryFunction(mlir::ModuleOp module) {
  mlir::func::FuncOp entry;
  for (auto fn : module.getOps<mlir::func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (entry)
      return absl::InvalidArgumentError(fmt::format(
          "module has more than one public function (@{} and @{}); mark "
          "helpers private",
          entry.getName().str(), fn.getName().str()));
    entry = fn;
  }
  if (!entry)
    return absl::InvalidArgumentError(
        "module has no public function with a body to compile");
  return entry;
}

absl::StatusOr<std::vector<TensorSpec>>
specsOf(mlir::TypeRange types, mlir::func::FuncOp fn, const char *what) {
  std::vector<TensorSpec> specs;
  for (auto [i, type] : llvm::enumerate(types)) {
    auto spec = fromMlirType(type);
    if (!spec) {
      std::string typeText;
      llvm::raw_string_ostream(typeText) << type;
      std::vector<std::string_view> names;
      for (DType d : kAllDTypes)
        names.push_back(dtypeName(d));
      return absl::InvalidArgumentError(fmt::format(
          "@{}: {} {} has type {}; entry functions take and return statically "
          "shaped tensors of {}",
          fn.getName().str(), what, i, typeText, fmt::join(names, ", ")));
    }
    specs.push_back(*spec);
  }
  return specs;
}
} // namespace

absl::StatusOr<TracedFunction>
makeTracedFunction(std::unique_ptr<mlir::MLIRContext> context,
                   mlir::OwningOpRef<mlir::ModuleOp> module) {
  {
    DiagnosticCollector diags(context.get());
    if (mlir::failed(mlir::verify(*module)))
      return absl::InvalidArgumentError(diags.take());
  }
  TORUS_ASSIGN_OR_RETURN(mlir::func::FuncOp entry, entryFunction(*module));
  auto impl = std::make_unique<TracedFunction::Impl>();
  impl->name = entry.getName().str();
  TORUS_ASSIGN_OR_RETURN(impl->inputs,
                         specsOf(entry.getArgumentTypes(), entry, "argument"));
  TORUS_ASSIGN_OR_RETURN(impl->outputs,
                         specsOf(entry.getResultTypes(), entry, "result"));
  impl->context = std::move(context);
  impl->module = std::move(module);
  return TracedFunction(std::move(impl));
}

TracedFunction::TracedFunction(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
TracedFunction::TracedFunction(TracedFunction &&) noexcept = default;
TracedFunction &TracedFunction::operator=(TracedFunction &&) noexcept = default;
TracedFunction::~TracedFunction() {
  // The module must die before the context that owns its types.
  if (impl_)
    impl_->module = nullptr;
}

const std::string &TracedFunction::name() const { return impl_->name; }
const std::vector<TensorSpec> &TracedFunction::inputs() const {
  return impl_->inputs;
}
const std::vector<TensorSpec> &TracedFunction::outputs() const {
  return impl_->outputs;
}
std::string TracedFunction::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Locations inline (no `#loc` aliases), where each op is written.
  impl_->module->print(
      os, mlir::OpPrintingFlags().enableDebugInfo().useLocalScope());
  os << "\n";
  return text;
}

namespace {
/// The entry function of a TracedFunction's module.
mlir::func::FuncOp entryOf(const TracedFunction::Impl &impl) {
  return mlir::cast<mlir::func::FuncOp>(
      mlir::SymbolTable::lookupSymbolIn(*impl.module, impl.name));
}
} // namespace

std::vector<std::string> TracedFunction::argumentNames() const {
  std::vector<std::string> names;
  for (mlir::BlockArgument arg : entryOf(*impl_).getArguments())
    names.push_back(mlir::torus::argumentNameOrPosition(arg));
  return names;
}

absl::Status
TracedFunction::setArgumentNames(const std::vector<std::string> &names) {
  mlir::func::FuncOp entry = entryOf(*impl_);
  if (names.size() != entry.getNumArguments())
    return absl::InvalidArgumentError(fmt::format(
        "setArgumentNames: @{} takes {} arguments but {} names were given",
        impl_->name, entry.getNumArguments(), names.size()));
  for (auto [i, name] : llvm::enumerate(names)) {
    if (!mlir::torus::isValidArgumentName(name))
      return absl::InvalidArgumentError(fmt::format(
          "setArgumentNames: name {} '{}' is not [A-Za-z_][A-Za-z0-9_.-]*", i,
          name));
    for (size_t j = 0; j < i; ++j)
      if (names[j] == name)
        return absl::InvalidArgumentError(fmt::format(
            "setArgumentNames: arguments {} and {} are both named '{}'", j, i,
            name));
  }
  for (auto [arg, name] : llvm::zip(entry.getArguments(), names))
    mlir::torus::setArgumentName(arg, name, entry.getLoc());
  return absl::OkStatus();
}

absl::StatusOr<TracedFunction> trace(const std::string &name,
                                     const std::vector<TensorSpec> &inputs,
                                     const TraceFn &fn, Loc loc) {
  return detail::traceFlat(name, inputs, fn, /*arity=*/-1, loc);
}

absl::StatusOr<TracedFunction>
detail::traceFlat(const std::string &name,
                  const std::vector<TensorSpec> &inputs, const TraceFn &fn,
                  int64_t arity, Loc callSite) {
  if (name.empty())
    return absl::InvalidArgumentError("trace: the function needs a name");
  if (arity >= 0 && arity != static_cast<int64_t>(inputs.size()))
    return absl::InvalidArgumentError(fmt::format(
        "trace '{}': the function takes {} tensors but {} input specs were "
        "given",
        name, arity, inputs.size()));
  auto context = createTorusContext();
  mlir::MLIRContext *ctx = context.get();
  mlir::OpBuilder builder(ctx);
  auto loc = mlir::NameLoc::get(builder.getStringAttr(name));
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(loc);

  llvm::SmallVector<mlir::Type> argTypes;
  for (const TensorSpec &spec : inputs) {
    for (int64_t d : spec.shape)
      if (d < 0)
        return absl::InvalidArgumentError(
            fmt::format("trace '{}': input {} has a negative dimension", name,
                        spec.toString()));
    argTypes.push_back(toMlirType(ctx, spec));
  }
  builder.setInsertionPointToEnd(module->getBody());
  // The function (and so its arguments) is where trace() was called.
  mlir::Location funcLoc =
      callSite.line() ? mlir::Location(mlir::FileLineColLoc::get(
                            builder.getStringAttr(callSite.file_name()),
                            callSite.line(), callSite.column()))
                      : mlir::Location(loc);
  auto func = builder.create<mlir::func::FuncOp>(
      funcLoc, name, builder.getFunctionType(argTypes, {}));
  mlir::Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);

  std::vector<Tensor> outputs;
  std::optional<std::string> error;
  llvm::SmallVector<mlir::Value> results;
  {
    TraceContext trace(builder, name);
    std::vector<Tensor> args;
    for (mlir::Value arg : body->getArguments())
      args.push_back(trace.wrap(arg));
    outputs = fn(args);
    error = trace.error();
    if (!error) {
      for (auto [i, out] : llvm::enumerate(outputs)) {
        if (out.context() != &trace || !out.valid()) {
          error = fmt::format("while tracing '{}': output {} is not a tensor "
                              "of this trace",
                              name, i);
          break;
        }
        results.push_back(trace.value(out));
      }
    }
  }
  if (error)
    return absl::InvalidArgumentError(*error);
  builder.create<mlir::func::ReturnOp>(loc, results);
  func.setFunctionType(
      builder.getFunctionType(argTypes, mlir::ValueRange(results).getTypes()));
  return makeTracedFunction(std::move(context), std::move(module));
}

absl::StatusOr<TracedFunction> parseModule(const std::string &text,
                                           const std::string &sourceName) {
  auto context = createTorusContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    // The collector must go before the context does: makeTracedFunction
    // destroys the context when it fails.
    DiagnosticCollector diags(context.get());
    if (mlir::failed(mlir::torus::checkSourceNesting(sourceMgr, context.get())))
      return absl::InvalidArgumentError(diags.take());
    module = mlir::torus::parseNamingArguments(
        sourceMgr, mlir::ParserConfig(context.get()));
    if (!module)
      return absl::InvalidArgumentError(diags.take());
  }
  return makeTracedFunction(std::move(context), std::move(module));
}

} // namespace torus
