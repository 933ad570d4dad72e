//===- BoolVectorsAsBytes.cpp - Vectors of i1 in memory as bytes ----------===//
//
// torus-bool-vectors-as-bytes: a buffer of i1 holds a byte per element, and
// scalar code reads and writes it so; LLVM lays `<N x i1>` out in memory as
// packed bits. Every vector access of i1 becomes an access of i8 lanes.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSBOOLVECTORSASBYTES
#include "codegen/Passes.h.inc"

namespace {

/// `vector<... x i1>` as `vector<... x i8>`, or null for other types.
VectorType asBytes(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !vector.getElementType().isInteger(1))
    return {};
  return vector.clone(IntegerType::get(type.getContext(), 8));
}

/// The operands that hold stored or passed-through data (not masks, not
/// addresses): a store's value, a masked load's or gather's pass-through.
SmallVector<OpOperand *> dataOperands(Operation *op) {
  SmallVector<OpOperand *> data;
  if (isa<LLVM::StoreOp, LLVM::MaskedStoreOp, LLVM::masked_scatter>(op))
    data.push_back(&op->getOpOperand(0));
  if (auto load = dyn_cast<LLVM::MaskedLoadOp>(op))
    for (OpOperand &o : load.getPassThruMutable())
      data.push_back(&o);
  if (auto gather = dyn_cast<LLVM::masked_gather>(op))
    for (OpOperand &o : gather.getPassThruMutable())
      data.push_back(&o);
  return data;
}

struct BoolVectorsAsBytesPass
    : impl::TorusBoolVectorsAsBytesBase<BoolVectorsAsBytesPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (!isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MaskedLoadOp,
               LLVM::MaskedStoreOp, LLVM::masked_gather, LLVM::masked_scatter>(
              op))
        return;
      OpBuilder b(op);
      for (OpOperand *data : dataOperands(op))
        if (VectorType bytes = asBytes(data->get().getType()))
          data->set(b.create<LLVM::ZExtOp>(op->getLoc(), bytes, data->get()));
      if (op->getNumResults() != 1)
        return;
      Value result = op->getResult(0);
      VectorType bytes = asBytes(result.getType());
      if (!bytes)
        return;
      Type bools = result.getType();
      result.setType(bytes);
      b.setInsertionPointAfter(op);
      auto trunc = b.create<LLVM::TruncOp>(op->getLoc(), bools, result);
      result.replaceAllUsesExcept(trunc, trunc);
    });
  }
};

} // namespace
} // namespace mlir::torus
