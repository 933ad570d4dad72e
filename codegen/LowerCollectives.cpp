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

/// The table entry describing collective `op` (everything but its index).
DictionaryAttr describe(Operation *op) {
  MLIRContext *ctx = op->getContext();
  Builder b(ctx);
  NamedAttrList entry;
  auto groups = [&](Attribute attr) {
    return attr ? attr : Attribute(b.getArrayAttr({}));
  };
  Type operand = op->getOperand(0).getType();
  Type result = op->getResult(0).getType();
  entry.append("type", TypeAttr::get(operand));
  entry.append("loc", b.getStringAttr(formatLocation(op->getLoc())));
  if (auto ar = dyn_cast<AllReduceOp>(op)) {
    entry.append("kind", b.getStringAttr("all_reduce"));
    entry.append("reduce", b.getStringAttr(stringifyReduceKind(ar.getKind())));
    entry.append("replica_groups", groups(ar.getReplicaGroupsAttr()));
    return entry.getDictionary(ctx);
  }
  entry.append("result_type", TypeAttr::get(result));
  if (auto ag = dyn_cast<AllGatherOp>(op)) {
    entry.append("kind", b.getStringAttr("all_gather"));
    entry.append("dimension", b.getI64IntegerAttr(ag.getAllGatherDim()));
    entry.append("replica_groups", groups(ag.getReplicaGroupsAttr()));
  } else if (auto rs = dyn_cast<ReduceScatterOp>(op)) {
    entry.append("kind", b.getStringAttr("reduce_scatter"));
    entry.append("reduce", b.getStringAttr(stringifyReduceKind(rs.getKind())));
    entry.append("dimension", b.getI64IntegerAttr(rs.getScatterDimension()));
    entry.append("replica_groups", groups(rs.getReplicaGroupsAttr()));
  } else if (auto a2a = dyn_cast<AllToAllOp>(op)) {
    entry.append("kind", b.getStringAttr("all_to_all"));
    entry.append("split_dimension",
                 b.getI64IntegerAttr(a2a.getSplitDimension()));
    entry.append("concat_dimension",
                 b.getI64IntegerAttr(a2a.getConcatDimension()));
    entry.append("split_count", b.getI64IntegerAttr(a2a.getSplitCount()));
    entry.append("replica_groups", groups(a2a.getReplicaGroupsAttr()));
  } else if (auto cp = dyn_cast<CollectivePermuteOp>(op)) {
    entry.append("kind", b.getStringAttr("collective_permute"));
    entry.append("source_target_pairs", cp.getSourceTargetPairs());
  }
  return entry.getDictionary(ctx);
}

struct LowerCollectivesPass
    : impl::TorusLowerCollectivesBase<LowerCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    auto ptr = LLVM::LLVMPointerType::get(ctx);

    TorusDialect::CollectivesAttrHelper collectives(ctx);
    SmallVector<Attribute> table;
    if (ArrayAttr existing = collectives.getAttr(module))
      table.assign(existing.begin(), existing.end());

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<ReplicaIdOp, PartitionIdOp, AllReduceOp, AllGatherOp,
              ReduceScatterOp, AllToAllOp, CollectivePermuteOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;

    for (Operation *op : ops) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      if (isa<ReplicaIdOp, PartitionIdOp>(op)) {
        StringRef name =
            isa<ReplicaIdOp>(op) ? kReplicaIdFn : kPartitionIdFn;
        auto fn = declareRuntimeFunction(
            module, name, b.getFunctionType({}, {b.getI32Type()}));
        Value scalar = builder.create<func::CallOp>(loc, fn).getResult(0);
        Value tensor = builder.create<tensor::FromElementsOp>(
            loc, RankedTensorType::get({}, b.getI32Type()), ValueRange{scalar});
        Type type = op->getResult(0).getType();
        if (tensor.getType() != type) // HLO's u32 id: the same bits
          tensor = builder.create<ConvertOp>(loc, type, tensor);
        op->getResult(0).replaceAllUsesWith(tensor);
        op->erase();
        continue;
      }
      auto inType = cast<RankedTensorType>(op->getOperand(0).getType());
      auto outType = cast<RankedTensorType>(op->getResult(0).getType());
      int64_t index = table.size();
      table.push_back(describe(op));

      auto fn = declareRuntimeFunction(
          module, kCollectiveFn,
          b.getFunctionType({b.getI64Type(), ptr, ptr}, {}));
      Value in = builder.create<bufferization::ToMemrefOp>(
          loc, MemRefType::get(inType.getShape(), inType.getElementType()),
          op->getOperand(0), /*read_only=*/true);
      Value out = builder.create<memref::AllocOp>(
          loc, MemRefType::get(outType.getShape(), outType.getElementType()),
          builder.getI64IntegerAttr(64));
      Value indexValue = builder.create<arith::ConstantOp>(
          loc, builder.getI64IntegerAttr(index));
      builder.create<func::CallOp>(
          loc, fn,
          ValueRange{indexValue, alignedPointer(builder, loc, in),
                     alignedPointer(builder, loc, out)});
      Value result = builder.create<bufferization::ToTensorOp>(
          loc, outType, out, /*restrict=*/true, /*writable=*/true);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
    collectives.setAttr(module, b.getArrayAttr(table));
  }
};

} // namespace
} // namespace mlir::torus
