//===- ParallelLoop.cpp - Outer kernel loops over host threads ------------===//

#include "codegen/ParallelLoop.h"

#include "codegen/Markers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace mlir::torus {

namespace {

constexpr llvm::StringLiteral kParallelForFn = "__torus_parallel_for";
constexpr llvm::StringLiteral kBodyInfix = "__parallel_tile_";

/// What an outlined loop body needs from above: `leaves`, passed in its
/// context (identity layout memrefs as aligned pointers, index values as
/// i64), and `clones`, ops rebuilt in the body in def-before-use order
/// (constants, stack buffers, view ops and affine.apply).
struct Captures {
  SmallVector<Value> leaves;
  SmallVector<Operation *> clones;
};

/// The values `loop`'s body uses from above as Captures, or nullopt when
/// one is of another kind.
std::optional<Captures> collectCaptures(scf::ForOp loop) {
  SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  Captures captures;
  SmallVector<Value> &leaves = captures.leaves;
  SmallVector<Operation *> &clones = captures.clones;
  DenseSet<Value> seen;
  std::function<bool(Value)> collect = [&](Value v) -> bool {
    if (!seen.insert(v).second)
      return true;
    Operation *def = v.getDefiningOp();
    // A stack buffer (the packed B tile) is each thread's own.
    if (def && isa<memref::AllocaOp>(def) && def->getNumOperands() == 0) {
      clones.push_back(def);
      return true;
    }
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      clones.push_back(def);
      return true;
    }
    if (auto mem = dyn_cast<MemRefType>(v.getType())) {
      // Views are rebuilt, not passed: a memref.view's aligned pointer
      // loses its byte shift in MLIR 19 (expand-strided-metadata), so a
      // planned temporary must be re-derived from its workspace.
      if (def &&
          (isa<ViewLikeOpInterface, memref::TransposeOp>(def)) &&
          isMemoryEffectFree(def) && def->getNumRegions() == 0) {
        for (Value operand : def->getOperands())
          if (!collect(operand))
            return false;
        clones.push_back(def);
        return true;
      }
      if (mem.hasStaticShape() && mem.getLayout().isIdentity()) {
        leaves.push_back(v);
        return true;
      }
      return false;
    }
    if (v.getType().isIndex()) {
      if (def && isa<affine::AffineApplyOp>(def)) {
        for (Value operand : def->getOperands())
          if (!collect(operand))
            return false;
        clones.push_back(def);
        return true;
      }
      leaves.push_back(v);
      return true;
    }
    return false;
  };
  for (Value v : above)
    if (!collect(v))
      return std::nullopt;
  // `clones` is in def-before-use order: each op after its operands.
  return captures;
}

/// A memref of static shape and identity layout `type` around the pointer
/// `word` (an i64): its LLVM descriptor, cast back to the memref.
Value memrefAtAddress(OpBuilder &b, Location loc, Value word,
                      MemRefType type) {
  MLIRContext *ctx = b.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type();
  Value ptr = b.create<LLVM::IntToPtrOp>(loc, ptrType, word);
  int64_t rank = type.getRank();
  auto arrayType = LLVM::LLVMArrayType::get(i64, rank);
  SmallVector<Type> fields = {ptrType, ptrType, i64};
  if (rank > 0) {
    fields.push_back(arrayType);
    fields.push_back(arrayType);
  }
  auto descType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  Value desc = b.create<LLVM::UndefOp>(loc, descType);
  desc = b.create<LLVM::InsertValueOp>(loc, desc, ptr, 0);
  desc = b.create<LLVM::InsertValueOp>(loc, desc, ptr, 1);
  auto constant = [&](int64_t x) {
    return b.create<LLVM::ConstantOp>(loc, i64, b.getI64IntegerAttr(x));
  };
  desc = b.create<LLVM::InsertValueOp>(loc, desc, constant(0), 2);
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)getStridesAndOffset(type, strides, offset);
  for (int64_t d = 0; d < rank; ++d) {
    desc = b.create<LLVM::InsertValueOp>(
        loc, desc, constant(type.getDimSize(d)), ArrayRef<int64_t>{3, d});
    desc = b.create<LLVM::InsertValueOp>(loc, desc, constant(strides[d]),
                                         ArrayRef<int64_t>{4, d});
  }
  return b.create<UnrealizedConversionCastOp>(loc, type, desc).getResult(0);
}

/// `void name(!llvm.ptr ctx, i64 i)`, before `loop`'s function: iterations
/// `lb + (i * rows + k) * step` for k in [0, rows) of `loop`'s body (those
/// below `ub`), its captures unpacked from `ctx` or rebuilt.
func::FuncOp outlineBody(RewriterBase &rw, scf::ForOp loop, StringRef name,
                         const Captures &captures, int64_t lb, int64_t ub,
                         int64_t step, int64_t rows) {
  Location loc = loop.getLoc();
  auto fn = loop->getParentOfType<func::FuncOp>();
  auto ptrType = LLVM::LLVMPointerType::get(rw.getContext());
  Type i64 = rw.getI64Type();
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPoint(fn);
  auto body = rw.create<func::FuncOp>(loc, name,
                                      rw.getFunctionType({ptrType, i64}, {}));
  body.setPrivate();
  Block *entry = body.addEntryBlock();
  rw.setInsertionPointToStart(entry);
  IRMapping map;
  Value ctxArg = entry->getArgument(0), iArg = entry->getArgument(1);
  for (auto [j, leaf] : llvm::enumerate(captures.leaves)) {
    Value slot = rw.create<LLVM::GEPOp>(
        loc, ptrType, i64, ctxArg,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(j)});
    Value word = rw.create<LLVM::LoadOp>(loc, i64, slot);
    if (leaf.getType().isIndex())
      map.map(leaf,
              rw.create<arith::IndexCastOp>(loc, rw.getIndexType(), word));
    else
      map.map(leaf, memrefAtAddress(rw, loc, word,
                                    cast<MemRefType>(leaf.getType())));
  }
  for (Operation *op : captures.clones)
    rw.clone(*op, map);
  auto index = [&](int64_t v) -> Value {
    return rw.create<arith::ConstantIndexOp>(loc, v);
  };
  auto cloneBody = [&](OpBuilder &b, Value iv) {
    map.map(loop.getInductionVar(), iv);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, map);
  };
  // first = lb + i * rows * step
  Value i = rw.create<arith::IndexCastOp>(loc, rw.getIndexType(), iArg);
  Value first = rw.create<arith::AddIOp>(
      loc, index(lb), rw.create<arith::MulIOp>(loc, i, index(rows * step)));
  if (rows == 1) {
    cloneBody(rw, first);
  } else {
    Value last = rw.create<arith::MinSIOp>(
        loc, rw.create<arith::AddIOp>(loc, first, index(rows * step)),
        index(ub));
    rw.create<scf::ForOp>(loc, first, last, index(step), ValueRange{},
                          [&](OpBuilder &b, Location l, Value iv, ValueRange) {
                            cloneBody(b, iv);
                            b.create<scf::YieldOp>(l);
                          });
  }
  rw.create<func::ReturnOp>(loc);
  return body;
}

/// The runtime's parallel loop `__torus_parallel_for(body, ctx, trips)`,
/// declared once in `module`.
func::FuncOp declareParallelFor(RewriterBase &rw, ModuleOp module,
                                Location loc, FunctionType bodyType) {
  auto parallelFor = module.lookupSymbol<func::FuncOp>(kParallelForFn);
  if (parallelFor)
    return parallelFor;
  OpBuilder::InsertionGuard guard(rw);
  rw.setInsertionPointToStart(module.getBody());
  auto ptrType = LLVM::LLVMPointerType::get(rw.getContext());
  parallelFor = rw.create<func::FuncOp>(
      loc, kParallelForFn,
      rw.getFunctionType({bodyType, ptrType, rw.getI64Type()}, {}));
  parallelFor.setPrivate();
  return parallelFor;
}

/// Before `loop`: the context array on the stack filled with `leaves`, and
/// the call of `parallelFor` on `body` for `trips` iterations.
void emitParallelCall(RewriterBase &rw, scf::ForOp loop, func::FuncOp body,
                      func::FuncOp parallelFor, ArrayRef<Value> leaves,
                      int64_t trips) {
  Location loc = loop.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(rw.getContext());
  Type i64 = rw.getI64Type();
  rw.setInsertionPoint(loop);
  Value one = rw.create<LLVM::ConstantOp>(loc, i64, rw.getI64IntegerAttr(1));
  Value count = rw.create<LLVM::ConstantOp>(
      loc, i64, rw.getI64IntegerAttr(std::max<int64_t>(1, leaves.size())));
  (void)one;
  Value ctxPtr = rw.create<LLVM::AllocaOp>(loc, ptrType, i64, count, 8);
  for (auto [j, leaf] : llvm::enumerate(leaves)) {
    Value word;
    if (leaf.getType().isIndex()) {
      word = rw.create<arith::IndexCastOp>(loc, i64, leaf);
    } else {
      Value address =
          rw.create<memref::ExtractAlignedPointerAsIndexOp>(loc, leaf);
      word = rw.create<arith::IndexCastOp>(loc, i64, address);
    }
    Value slot = rw.create<LLVM::GEPOp>(
        loc, ptrType, i64, ctxPtr,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(j)});
    rw.create<LLVM::StoreOp>(loc, word, slot);
  }
  Value callee = rw.create<func::ConstantOp>(loc, body.getFunctionType(),
                                             SymbolRefAttr::get(body));
  Value n = rw.create<LLVM::ConstantOp>(loc, i64, rw.getI64IntegerAttr(trips));
  rw.create<func::CallOp>(loc, parallelFor, ValueRange{callee, ctxPtr, n});
}

} // namespace

bool outlineParallelLoop(RewriterBase &rw, scf::ForOp loop) {
  auto lbC = getConstantIntValue(loop.getLowerBound());
  auto ubC = getConstantIntValue(loop.getUpperBound());
  auto stepC = getConstantIntValue(loop.getStep());
  if (!lbC || !ubC || !stepC || *stepC <= 0 || loop.getNumResults() != 0)
    return false;
  int64_t trips = (*ubC - *lbC + *stepC - 1) / *stepC;
  if (trips < 2)
    return false;
  std::optional<Captures> captures = collectCaptures(loop);
  if (!captures)
    return false;
  auto fn = loop->getParentOfType<func::FuncOp>();
  auto module = fn->getParentOfType<ModuleOp>();
  std::string name;
  for (int i = 0;; ++i) {
    name = (fn.getName() + kBodyInfix + Twine(i)).str();
    if (!module.lookupSymbol(name))
      break;
  }
  const int64_t rows = (trips + kMaxParallelBlocks - 1) / kMaxParallelBlocks;
  func::FuncOp body =
      outlineBody(rw, loop, name, *captures, *lbC, *ubC, *stepC, rows);
  func::FuncOp parallelFor =
      declareParallelFor(rw, module, loop.getLoc(), body.getFunctionType());
  emitParallelCall(rw, loop, body, parallelFor, captures->leaves,
                   (trips + rows - 1) / rows);
  rw.eraseOp(loop);
  return true;
}

void outlineMarkedLoops(RewriterBase &rw, func::FuncOp fn, bool outline) {
  using ParallelTile = TorusDialect::ParallelTileAttrHelper;
  SmallVector<scf::ForOp> marked;
  fn.walk([&](scf::ForOp loop) {
    if (hasMarker<ParallelTile>(loop))
      marked.push_back(loop);
  });
  for (scf::ForOp loop : marked) {
    clearMarker<ParallelTile>(loop);
    if (outline)
      (void)outlineParallelLoop(rw, loop);
  }
}

int64_t staticIterations(linalg::LinalgOp op) {
  int64_t iterations = 1;
  for (int64_t range : op.getStaticLoopRanges())
    iterations *= range;
  return iterations;
}

bool isParallelBody(func::FuncOp fn) {
  return fn.isPrivate() && fn.getName().contains(kBodyInfix);
}

} // namespace mlir::torus
