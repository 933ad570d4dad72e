//===- TraceKernels.cpp - Kernel begin/end calls for run traces -----------===//
//
// The torus-trace-kernels pass (codegen/Passes.td says what it does).
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <string>

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSTRACEKERNELS
#include "codegen/Passes.h.inc"

namespace {

constexpr llvm::StringLiteral kKernelAttr = "torus.kernel";
constexpr llvm::StringLiteral kBegin = "__torus_kernel_begin";
constexpr llvm::StringLiteral kEnd = "__torus_kernel_end";

/// `file:line:col` (the file's base name) of the first file location in
/// `loc`, or empty.
std::string sourceOf(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = fmt::format("{}:{}:{}",
                         llvm::sys::path::filename(file.getFilename().getValue())
                             .str(),
                         file.getLine(), file.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// Declares `name` with `type` in `module` unless it is there.
void declare(ModuleOp module, StringRef name, FunctionType type) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = b.create<func::FuncOp>(module.getLoc(), name, type);
  fn.setPrivate();
}

struct TraceKernelsPass : impl::TorusTraceKernelsBase<TraceKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    bool any = false;
    int64_t nextName = 0;
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      for (Block &block : func.getBody()) {
        // Runs of consecutive ops of one kernel (ops without a kernel name,
        // such as views, stay where they are: outside, or inside a run
        // when between two ops of the kernel).
        Operation *first = nullptr, *last = nullptr;
        StringRef current;
        auto close = [&] {
          if (!first)
            return;
          any = true;
          OpBuilder b(first);
          std::string text = current.str();
          if (std::string at = sourceOf(first->getLoc()); !at.empty())
            text += " at " + at;
          text.push_back('\0'); // a C string for the runtime
          Value name = LLVM::createGlobalString(
              first->getLoc(), b,
              fmt::format("__torus_kernel_name_{}", nextName++),
              StringRef(text.data(), text.size()), LLVM::Linkage::Internal);
          b.create<func::CallOp>(first->getLoc(), kBegin, TypeRange{},
                                 ValueRange{name});
          b.setInsertionPointAfter(last);
          b.create<func::CallOp>(last->getLoc(), kEnd, TypeRange{},
                                 ValueRange{});
          first = last = nullptr;
        };
        for (Operation &op : llvm::make_early_inc_range(block)) {
          auto kernel = op.getAttrOfType<StringAttr>(kKernelAttr);
          if (!kernel) {
            // Control flow or a call between kernels ends the run.
            if (op.getNumRegions() > 0 || isa<func::CallOp>(op) ||
                op.hasTrait<OpTrait::IsTerminator>())
              close();
            continue;
          }
          if (first && kernel.getValue() != current)
            close();
          if (!first) {
            first = &op;
            current = kernel.getValue();
          }
          last = &op;
        }
        close();
      }
    }
    if (any) {
      declare(module, kBegin, FunctionType::get(ctx, {ptr}, {}));
      declare(module, kEnd, FunctionType::get(ctx, {}, {}));
    }
  }
};

} // namespace
} // namespace mlir::torus
