//===- EmptyBufferArguments.cpp - Zero-element buffers as memref<0xT> -----===//
//
// The torus-empty-buffer-arguments pass (codegen/Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSEMPTYBUFFERARGUMENTS
#include "codegen/Passes.h.inc"

namespace {

/// `memref<0xT>` for a static zero-element buffer of another shape, else null.
MemRefType flatEmptyType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || memref.getNumElements() != 0 ||
      memref.getShape() == ArrayRef<int64_t>{0})
    return {};
  return MemRefType::get({0}, memref.getElementType());
}

struct EmptyBufferArgumentsPass
    : impl::TorusEmptyBufferArgumentsBase<EmptyBufferArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Type> inputs(func.getArgumentTypes());
      bool changed = false;
      for (auto [i, type] : llvm::enumerate(inputs)) {
        MemRefType flat = flatEmptyType(type);
        if (!flat)
          continue;
        changed = true;
        if (!func.isExternal()) {
          // Nothing reads or writes a zero-element buffer: any buffer of the
          // type serves its uses.
          BlockArgument arg = func.getArgument(i);
          OpBuilder b = OpBuilder::atBlockBegin(&func.front());
          arg.replaceAllUsesWith(b.create<memref::AllocaOp>(
              arg.getLoc(), cast<MemRefType>(type)));
          arg.setType(flat);
        }
        type = flat;
      }
      if (changed)
        func.setType(FunctionType::get(&getContext(), inputs,
                                       func.getResultTypes()));
    }
    module.walk([](func::CallOp call) {
      OpBuilder b(call);
      for (OpOperand &operand : call->getOpOperands())
        if (MemRefType flat = flatEmptyType(operand.get().getType()))
          operand.set(b.create<memref::AllocaOp>(call.getLoc(), flat));
    });
  }
};

} // namespace
} // namespace mlir::torus
