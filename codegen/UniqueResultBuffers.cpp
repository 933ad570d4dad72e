//===- UniqueResultBuffers.cpp - One fresh allocation per returned buffer -===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSUNIQUERESULTBUFFERS
#include "codegen/Passes.h.inc"

namespace {

/// When `v` is an expand_shape or collapse_shape of an allocation `%a` that
/// `ret` returns in no other way, allocates the result's shape instead and
/// makes `%a` the inverse reshape of it, so the function returns an
/// allocation of its own with no copy: a replica's updated weights
/// (f32[784, 512]) returned as its shard f32[1, 784, 512] were computed in
/// a temporary and copied into the caller's buffer every step. Returns the
/// new allocation, or null when `v` is not such a reshape.
Value allocateInResultShape(func::ReturnOp ret, Value v) {
  Operation *reshape = v.getDefiningOp();
  if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
          reshape))
    return nullptr;
  auto alloc = reshape->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getDynamicSizes().empty() ||
      !alloc.getType().getLayout().isIdentity() ||
      llvm::any_of(alloc->getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user); // a view cannot be freed
      }))
    return nullptr;
  // Returned once, through this reshape only.
  int returned = 0;
  for (Value r : ret.getOperands()) {
    Operation *def = r.getDefiningOp();
    returned += r == alloc.getResult() ||
                (def && isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(
                            def) &&
                 def->getOperand(0) == alloc.getResult());
  }
  if (returned != 1)
    return nullptr;
  OpBuilder b(alloc);
  auto type = cast<MemRefType>(v.getType());
  Value whole = b.create<memref::AllocOp>(alloc.getLoc(), type,
                                          alloc.getAlignmentAttr());
  Value view;
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(reshape))
    view = b.create<memref::CollapseShapeOp>(
        alloc.getLoc(), whole, expand.getReassociationIndices());
  else
    view = b.create<memref::ExpandShapeOp>(
        alloc.getLoc(), alloc.getType().getShape(), whole,
        cast<memref::CollapseShapeOp>(reshape).getReassociationIndices());
  if (view.getType() != alloc.getType()) {
    view.getDefiningOp()->erase();
    whole.getDefiningOp()->erase();
    return nullptr;
  }
  v.replaceAllUsesWith(whole);
  reshape->erase();
  alloc.getResult().replaceAllUsesWith(view);
  alloc.erase();
  return whole;
}

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
        if (v.hasOneUse())
          if (Value whole = allocateInResultShape(ret, v))
            v = whole;
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
