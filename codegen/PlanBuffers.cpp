//===- PlanBuffers.cpp - One workspace for the entry's temporaries --------===//
//
// The torus-plan-buffers pass (Passes.td): liveness of every static
// temporary of the entry function, interval colouring into one workspace,
// and every such `memref.alloc` rewritten to a `memref.view` of it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/TorusDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSPLANBUFFERS
#include "codegen/Passes.h.inc"

namespace {

constexpr int64_t kAlignment = 64;

int64_t alignUp(int64_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

struct Planned {
  Operation *op = nullptr; // the memref.alloc, or a view already planned
  bool fixed = false;      // already in the workspace at `offset`
  int64_t bytes = 0;
  int64_t from = 0, to = 0; // top-level op positions, inclusive
  int64_t offset = -1;
  int64_t order = 0;
  SmallVector<Operation *> deallocs;
};

/// The results through which `op` aliases its memref operand: views,
/// casts, reshapes.
bool forwardsAlias(Operation *op) {
  return isa<ViewLikeOpInterface, memref::CastOp, memref::ReinterpretCastOp,
             memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::ExtractStridedMetadataOp>(op);
}

/// Ops whose results are the address of their operand's buffer, or derived
/// from it: the aligned pointer generated code passes to runtime calls.
bool forwardsAddress(Operation *op) {
  return isa<memref::ExtractAlignedPointerAsIndexOp, arith::IndexCastOp,
             arith::IndexCastUIOp, LLVM::IntToPtrOp, LLVM::PtrToIntOp,
             LLVM::GEPOp, UnrealizedConversionCastOp>(op);
}

/// The last top-level position where the buffer `root` is used, or nullopt
/// when it escapes (returned, yielded out of a region, stored). Frees
/// (`memref.dealloc`, from a kernel stage after deallocation) are not uses;
/// they are collected in `deallocs`.
std::optional<int64_t>
lastUse(Value root, Block &body,
        const llvm::DenseMap<Operation *, int64_t> &position,
        SmallVector<Operation *> &deallocs) {
  int64_t last = position.lookup(root.getDefiningOp());
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user)) {
        deallocs.push_back(user);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          (isa<memref::StoreOp>(user) && use.getOperandNumber() == 0))
        return std::nullopt;
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return std::nullopt;
      last = std::max(last, position.lookup(top));
      if (forwardsAddress(user)) {
        // A pointer into the buffer (a runtime call's operand): its uses
        // are the buffer's.
        for (Value r : user->getResults())
          worklist.push_back(r);
      } else {
        // Any buffer an op returns may be this one: a view, a cast, or a
        // loop's iter_arg result (scatter's loops carry their buffer).
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
      }
    }
  }
  return last;
}

/// Makes every aligned pointer taken from `view` (or a view of it) the
/// workspace's plus `offset`. MLIR 19's expand-strided-metadata folds
/// `extract_aligned_pointer_as_index(memref.view(ws, shift))` to the
/// pointer of `ws`, dropping the shift; the runtime calls that take such
/// pointers (`__torus_collective`) would read and write the wrong bytes.
void rewritePointers(Value view, int64_t offset, Value ws) {
  SmallVector<Value> worklist{view};
  SmallVector<memref::ExtractAlignedPointerAsIndexOp> pointers;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user))
        pointers.push_back(pointer);
      else if (!isa<memref::ExtractStridedMetadataOp>(user))
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
    }
  }
  for (auto pointer : pointers) {
    OpBuilder b(pointer);
    Location loc = pointer.getLoc();
    Value base = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, ws);
    Value shifted = b.create<arith::AddIOp>(
        loc, base, b.create<arith::ConstantIndexOp>(loc, offset));
    pointer.getResult().replaceAllUsesWith(shifted);
    pointer.erase();
  }
}

int64_t byteSize(MemRefType type) {
  unsigned bits = type.getElementTypeBitWidth();
  return type.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

/// The module's one public function with a body, when it has one block;
/// null when there is none or more than one (nothing to plan).
func::FuncOp findEntry(ModuleOp module) {
  func::FuncOp entry;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (entry)
      return nullptr; // No single entry: nothing to plan.
    entry = fn;
  }
  if (!entry || !entry.getBody().hasOneBlock())
    return nullptr;
  return entry;
}

/// The entry's static temporaries in program order: the views of an
/// earlier plan (`fixed`, at their offsets, from workspace `ws`) and every
/// `memref.alloc` that can live in a workspace and does not escape. New
/// buffers are numbered after the planned ones.
std::vector<Planned>
collectBuffers(Block &body,
               const llvm::DenseMap<Operation *, int64_t> &position,
               Value ws) {
  std::vector<Planned> buffers;
  MLIRContext *ctx = body.getParentOp()->getContext();
  TorusDialect::BufferAttrHelper bufferAttr(ctx);
  TorusDialect::OffsetAttrHelper offsetAttr(ctx);
  int64_t end = body.getOperations().size();
  int64_t order = 0;
  for (Operation &op : body) {
    if (auto view = dyn_cast<memref::ViewOp>(&op)) {
      IntegerAttr offset = offsetAttr.getAttr(view);
      if (!ws || view.getSource() != ws || !offset)
        continue;
      Planned p;
      p.op = view;
      p.fixed = true;
      p.offset = offset.getInt();
      p.bytes = byteSize(view.getType());
      p.from = position.lookup(view);
      SmallVector<Operation *> ignored;
      p.to = lastUse(view.getResult(), body, position, ignored).value_or(end);
      if (IntegerAttr o = bufferAttr.getAttr(view))
        order = std::max(order, o.getInt() + 1);
      buffers.push_back(p);
      continue;
    }
    auto alloc = dyn_cast<memref::AllocOp>(&op);
    if (!alloc)
      continue;
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !alloc.getDynamicSizes().empty() ||
        !alloc.getSymbolOperands().empty() || type.getMemorySpace() ||
        static_cast<int64_t>(alloc.getAlignment().value_or(kAlignment)) >
            kAlignment ||
        !type.getElementType().isIntOrIndexOrFloat() ||
        type.getElementType().isIndex())
      continue;
    Planned p;
    std::optional<int64_t> last =
        lastUse(alloc.getResult(), body, position, p.deallocs);
    if (!last)
      continue;
    p.op = alloc;
    p.bytes = byteSize(type);
    p.from = position.lookup(alloc);
    p.to = *last;
    buffers.push_back(p);
  }
  // Allocation order numbers the new buffers after the planned ones.
  for (Planned &p : buffers)
    if (!p.fixed)
      p.order = order++;
  return buffers;
}

/// Interval colouring: largest first, lowest aligned offset that fits
/// between the live neighbours already placed (the first plan's buffers
/// are placed already). Sets each new buffer's offset; returns the
/// workspace size, at least `existing`.
int64_t placeBuffers(std::vector<Planned> &buffers, int64_t existing) {
  std::vector<Planned *> placed, toPlace;
  for (Planned &p : buffers)
    (p.fixed ? placed : toPlace).push_back(&p);
  std::stable_sort(toPlace.begin(), toPlace.end(),
                   [](Planned *a, Planned *b) {
                     if (a->bytes != b->bytes)
                       return a->bytes > b->bytes;
                     return a->from < b->from;
                   });
  int64_t workspace = existing;
  for (Planned *p : toPlace) {
    std::vector<std::pair<int64_t, int64_t>> taken; // [begin, end)
    for (Planned *q : placed)
      if (q->from <= p->to && p->from <= q->to)
        taken.push_back({q->offset, q->offset + alignUp(q->bytes)});
    std::sort(taken.begin(), taken.end());
    int64_t offset = 0;
    const int64_t size = alignUp(p->bytes);
    for (auto [begin, end] : taken) {
      if (offset + size <= begin)
        break;
      offset = std::max(offset, end);
    }
    p->offset = offset;
    workspace = std::max(workspace, offset + size);
    placed.push_back(p);
  }
  return workspace;
}

/// The entry's workspace argument, `bytes` long: appended as its last
/// argument, or the existing one `ws` (`existing` bytes) grown.
Value sizeWorkspace(func::FuncOp entry, Value ws, int64_t existing,
                    int64_t bytes) {
  MLIRContext *ctx = entry.getContext();
  auto wsType = MemRefType::get({bytes}, IntegerType::get(ctx, 8));
  if (!ws) {
    (void)entry.insertArgument(entry.getNumArguments(), wsType,
                               DictionaryAttr::get(ctx), entry.getLoc());
    return entry.getArgument(entry.getNumArguments() - 1);
  }
  if (bytes != existing) {
    ws.setType(wsType);
    SmallVector<Type> inputs(entry.getArgumentTypes());
    inputs.back() = wsType;
    entry.setFunctionType(
        FunctionType::get(ctx, inputs, entry.getResultTypes()));
  }
  return ws;
}

/// Replaces the new buffers' allocs (and frees) by views of `ws` at their
/// offsets, and re-derives the aligned pointers taken from every planned
/// buffer (see rewritePointers).
void rewriteAsViews(ArrayRef<Planned> buffers, Value ws) {
  TorusDialect::BufferAttrHelper bufferAttr(ws.getContext());
  TorusDialect::OffsetAttrHelper offsetAttr(ws.getContext());
  for (const Planned &p : buffers) {
    if (p.fixed) {
      // Pointers a kernel stage took since the first plan.
      rewritePointers(p.op->getResult(0), p.offset, ws);
      continue;
    }
    auto alloc = cast<memref::AllocOp>(p.op);
    OpBuilder builder(alloc);
    Location loc = alloc.getLoc();
    Value offset = builder.create<arith::ConstantIndexOp>(loc, p.offset);
    auto view = builder.create<memref::ViewOp>(loc, alloc.getType(), ws,
                                               offset, ValueRange{});
    bufferAttr.setAttr(view, builder.getI64IntegerAttr(p.order));
    offsetAttr.setAttr(view, builder.getI64IntegerAttr(p.offset));
    for (Operation *dealloc : p.deallocs)
      dealloc->erase();
    alloc.getResult().replaceAllUsesWith(view.getResult());
    alloc.erase();
    rewritePointers(view.getResult(), p.offset, ws);
  }
}

struct PlanBuffersPass : impl::TorusPlanBuffersBase<PlanBuffersPass> {
  using TorusPlanBuffersBase::TorusPlanBuffersBase;

  void runOnOperation() override {
    func::FuncOp entry = findEntry(getOperation());
    if (!entry)
      return;
    Block &body = entry.getBody().front();
    llvm::DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : body)
      position[&op] = index++;

    // A second run (after a kernel stage added temporaries) keeps the first
    // plan and grows its workspace.
    Value ws;
    int64_t existing = 0;
    TorusDialect::WorkspaceBytesAttrHelper workspaceBytes(&getContext());
    IntegerAttr planned = workspaceBytes.getAttr(entry);
    if (onlyGrow && !planned)
      return; // The naive lowering: no plan to extend.
    if (planned && planned.getInt() > 0 && entry.getNumArguments() > 0) {
      ws = entry.getArgument(entry.getNumArguments() - 1);
      existing = planned.getInt();
    }
    Builder b(&getContext());
    // Planned, even if nothing is: a later run may extend the plan.
    if (!planned)
      workspaceBytes.setAttr(entry, b.getI64IntegerAttr(0));

    std::vector<Planned> buffers = collectBuffers(body, position, ws);
    if (llvm::all_of(buffers, [](const Planned &p) { return p.fixed; }))
      return;
    int64_t workspace = placeBuffers(buffers, existing);
    if (workspace == 0)
      return;
    ws = sizeWorkspace(entry, ws, existing, workspace);
    workspaceBytes.setAttr(entry, b.getI64IntegerAttr(workspace));
    rewriteAsViews(buffers, ws);
  }
};

} // namespace
} // namespace mlir::torus
