//===- UniqueResultBuffers.cpp - One fresh allocation per returned buffer -===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSUNIQUERESULTBUFFERS
#include "codegen/Passes.h.inc"

namespace {

struct UniqueResultBuffersPass
    : impl::TorusUniqueResultBuffersBase<UniqueResultBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallDenseSet<Value> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
          continue;
        bool ownAllocation = v.getDefiningOp<memref::AllocOp>() != nullptr;
        if (ownAllocation && seen.insert(v).second)
          continue;
        Value copy = b.create<memref::AllocOp>(ret.getLoc(), type,
                                               b.getI64IntegerAttr(64));
        b.create<memref::CopyOp>(ret.getLoc(), v, copy);
        operand.set(copy);
      }
    });
  }
};

} // namespace
} // namespace mlir::torus
