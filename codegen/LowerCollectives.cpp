//===- LowerCollectives.cpp - Collectives and ids to runtime calls --------===//

#include "codegen/Passes.h"
#include "ir/DiagnosticCollector.h"
#include "ir/TorusOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSLOWERCOLLECTIVES
#include "codegen/Passes.h.inc"

namespace {

/// Declares `name : type` as a private external function unless present.
func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                    FunctionType type) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto fn = b.create<func::FuncOp>(module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

/// `memref`'s aligned data pointer as an `!llvm.ptr`.
Value alignedPointer(OpBuilder &b, Location loc, Value memref) {
  Value index =
      b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
  Value i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
  return b.create<LLVM::IntToPtrOp>(loc,
                                    LLVM::LLVMPointerType::get(b.getContext()),
                                    i64);
}

struct LowerCollectivesPass
    : impl::TorusLowerCollectivesBase<LowerCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto ptr = LLVM::LLVMPointerType::get(ctx);

    SmallVector<Attribute> table;
    if (auto existing = module->getAttrOfType<ArrayAttr>(kCollectivesAttrName))
      table.assign(existing.begin(), existing.end());

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ReplicaIdOp, AllReduceOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;

    for (Operation *op : ops) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      if (auto id = dyn_cast<ReplicaIdOp>(op)) {
        auto fn = declareRuntimeFunction(
            module, kReplicaIdFn, b.getFunctionType({}, {b.getI32Type()}));
        Value scalar = builder.create<func::CallOp>(loc, fn).getResult(0);
        Value tensor = builder.create<tensor::FromElementsOp>(
            loc, id.getType(), ValueRange{scalar});
        id.replaceAllUsesWith(tensor);
        id.erase();
        continue;
      }
      auto allReduce = cast<AllReduceOp>(op);
      auto type = cast<RankedTensorType>(allReduce.getType());
      auto memrefType =
          MemRefType::get(type.getShape(), type.getElementType());

      NamedAttrList entry;
      entry.append("kind", b.getStringAttr("all_reduce"));
      entry.append("reduce",
                   b.getStringAttr(stringifyReduceKind(allReduce.getKind())));
      entry.append("type", TypeAttr::get(type));
      entry.append("replica_groups",
                   allReduce.getReplicaGroupsAttr()
                       ? Attribute(allReduce.getReplicaGroupsAttr())
                       : Attribute(b.getArrayAttr({})));
      entry.append("loc", b.getStringAttr(formatLocation(loc)));
      int64_t index = table.size();
      table.push_back(entry.getDictionary(ctx));

      auto fn = declareRuntimeFunction(
          module, kCollectiveFn,
          b.getFunctionType({b.getI64Type(), ptr, ptr}, {}));
      Value in = builder.create<bufferization::ToMemrefOp>(
          loc, memrefType, allReduce.getOperand(), /*read_only=*/true);
      Value out = builder.create<memref::AllocOp>(
          loc, memrefType, builder.getI64IntegerAttr(64));
      Value indexValue = builder.create<arith::ConstantOp>(
          loc, builder.getI64IntegerAttr(index));
      builder.create<func::CallOp>(
          loc, fn,
          ValueRange{indexValue, alignedPointer(builder, loc, in),
                     alignedPointer(builder, loc, out)});
      Value result = builder.create<bufferization::ToTensorOp>(
          loc, type, out, /*restrict=*/true, /*writable=*/true);
      allReduce.replaceAllUsesWith(result);
      allReduce.erase();
    }
    module->setAttr(kCollectivesAttrName, b.getArrayAttr(table));
  }
};

} // namespace
} // namespace mlir::torus
