//===- NoAliasArguments.cpp - Entry buffers do not overlap ----------------===//
//
// The torus-noalias-arguments pass (codegen/Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSNOALIASARGUMENTS
#include "codegen/Passes.h.inc"

namespace {

struct NoAliasArgumentsPass
    : impl::TorusNoAliasArgumentsBase<NoAliasArgumentsPass> {
  void runOnOperation() override {
    StringRef noalias = LLVM::LLVMDialect::getNoAliasAttrName();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate())
        continue;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<MemRefType>(type))
          func.setArgAttr(i, noalias, UnitAttr::get(&getContext()));
    }
  }
};

} // namespace
} // namespace mlir::torus
