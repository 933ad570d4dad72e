//===- FuseRows.cpp - Row-local kernels in one loop over rows -------------===//
//
// torus-fuse-rows (Passes.td): consecutive kernels that each touch the
// buffers they write only at the row they are on (a layer norm's mean,
// variance and normalization; a softmax's max, sum and division) become one
// loop over rows, so each row is read from memory once and reused from the
// cache by every kernel, instead of once per kernel.
//
//===----------------------------------------------------------------------===//

#include "codegen/BufferOverlap.h"
#include "codegen/Markers.h"
#include "codegen/ParallelLoop.h"
#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSFUSEROWS
#include "codegen/Passes.h.inc"

namespace {

using ParallelTile = TorusDialect::ParallelTileAttrHelper;

/// How one kernel touches a buffer: only at its row (the buffer's first
/// dimension indexed by the row), and whether it writes it.
struct Access {
  bool rowLocal = true;
  bool written = false;
};

/// A kernel that may join a loop over rows: its rows and the buffers it
/// touches.
struct Member {
  Operation *op = nullptr;
  int64_t rows = 0;
  llvm::MapVector<Value, Access> buffers;
  bool isRowLoop = false;
};

void note(Member &m, Value buffer, bool rowLocal, bool written) {
  Access &a = m.buffers[buffer];
  a.rowLocal &= rowLocal;
  a.written |= written;
}

/// A linalg.generic or linalg.fill on static buffers whose first loop is
/// parallel, and in which that loop indexes operands only as a whole
/// dimension (so one row of it is a rank-preserving slice of each) and is
/// not read as a value (`linalg.index 0` would count from the row).
std::optional<Member> linalgMember(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::FillOp>(op) ||
      !op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getIteratorTypesArray()[0] != utils::IteratorType::parallel)
    return std::nullopt;
  bool readsRow = false;
  op->walk([&](linalg::IndexOp index) { readsRow |= index.getDim() == 0; });
  if (readsRow)
    return std::nullopt;
  Member m;
  m.op = op;
  m.rows = op.getStaticLoopRanges()[0];
  if (ShapedType::isDynamic(m.rows))
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue; // a fill's value
    if (!type.hasStaticShape())
      return std::nullopt;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (AffineExpr e : map.getResults())
      if (e.isFunctionOfDim(0) && !isa<AffineDimExpr>(e))
        return std::nullopt;
    bool rowLocal = map.getNumResults() > 0 &&
                    map.getResult(0) == getAffineDimExpr(0, op.getContext());
    note(m, operand.get(), rowLocal, op.isDpsInit(&operand));
  }
  return m;
}

/// The memref a write through `v` lands in, outside `loop`: `v` through
/// view ops up to a value defined above the loop; null when it is the
/// loop's own.
Value outerBuffer(Value v, scf::ForOp loop) {
  while (!loop.isDefinedOutsideOfLoop(v)) {
    auto view = v.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return nullptr;
    v = view.getViewSource();
  }
  return v;
}

/// A row loop as torus-vectorize-reductions leaves a large reduction's:
/// `scf.for %r = 0 to rows step 1` marked torus.parallel_tile, without
/// results, whose body reaches buffers from above only through subviews at
/// `[%r, ...]` of one row (row-local) or reads them otherwise, and writes
/// only through stores it can see.
std::optional<Member> rowLoopMember(scf::ForOp loop) {
  if (!hasMarker<ParallelTile>(loop) || loop.getNumResults() != 0)
    return std::nullopt;
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *lb != 0 || *step != 1)
    return std::nullopt;
  Member m;
  m.op = loop;
  m.rows = *ub;
  m.isRowLoop = true;
  Value row = loop.getInductionVar();
  bool ok = true;
  loop.getBody()->walk([&](Operation *op) {
    // Buffers from above, and how they are reached.
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) ||
          !loop.isDefinedOutsideOfLoop(operand))
        continue;
      auto sub = dyn_cast<memref::SubViewOp>(op);
      bool rowLocal = sub && sub.getSource() == operand &&
                      !sub.getMixedOffsets().empty() &&
                      sub.getMixedOffsets()[0] == OpFoldResult(row) &&
                      isConstantIntValue(sub.getMixedSizes()[0], 1);
      note(m, operand, rowLocal, false);
    }
    // Writes, traced to the buffer from above they land in.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        ok = false;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const auto &e : list) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      Value target = e.getValue();
      if (!target) {
        ok = false; // writes it cannot name
        continue;
      }
      if (Value outer = outerBuffer(target, loop))
        note(m, outer, m.buffers.lookup(outer).rowLocal, true);
    }
  });
  if (!ok)
    return std::nullopt;
  return m;
}

std::optional<Member> member(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return rowLoopMember(loop);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgMember(linalgOp);
  return std::nullopt;
}

/// Whether `a` and `b` are views of one workspace at the same offset with
/// the same type (the buffer plan gives a temporary the place of one that
/// died, through a view of its own).
bool sameView(Value a, Value b) {
  auto va = a.getDefiningOp<memref::ViewOp>();
  auto vb = b.getDefiningOp<memref::ViewOp>();
  if (!va || !vb || va.getSource() != vb.getSource() ||
      va.getType() != vb.getType() || !va.getSizes().empty() ||
      !vb.getSizes().empty())
    return false;
  std::optional<int64_t> oa = getConstantIntValue(va.getByteShift());
  std::optional<int64_t> ob = getConstantIntValue(vb.getByteShift());
  return oa && ob && *oa == *ob;
}

/// Where the rows of `v` lie: the buffer it reshapes (through
/// expand_shape and collapse_shape), the first row's byte offset in it,
/// the bytes from one row to the next and the bytes a row spans.
struct RowBytes {
  Value base;
  int64_t offset = 0, stride = 0, span = 0;
};

std::optional<RowBytes> rowBytes(Value v) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 || !type.hasStaticShape() ||
      failed(getStridesAndOffset(type, strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  const int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
  RowBytes r;
  r.base = v;
  while (Operation *def = r.base.getDefiningOp()) {
    if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      break;
    r.base = def->getOperand(0);
  }
  r.offset = offset * bytes;
  r.stride = strides[0] * bytes;
  int64_t last = 0;
  for (int64_t d = 1; d < type.getRank(); ++d)
    last += (type.getDimSize(d) - 1) * strides[d];
  r.span = (last + 1) * bytes;
  return r;
}

/// Whether row r of `a` is row r of `b`, byte for byte, for every r: the
/// same buffer or workspace view, reshaped without moving the rows.
bool sameRows(Value a, Value b) {
  std::optional<RowBytes> ra = rowBytes(a), rb = rowBytes(b);
  return ra && rb &&
         (ra->base == rb->base || sameView(ra->base, rb->base)) &&
         ra->offset == rb->offset && ra->stride == rb->stride &&
         ra->span == rb->span;
}

/// Whether the kernels of `run` may run one row at a time, each row through
/// all of them in order: every buffer one of them writes is touched by
/// every one only at its row, and shares no bytes with another buffer they
/// touch (but for another view whose rows are its rows, touched only at its
/// row too).
bool rowsAreIndependent(ArrayRef<Member> run) {
  llvm::MapVector<Value, Access> all;
  for (const Member &m : run)
    for (const auto &[buffer, a] : m.buffers) {
      Access &acc = all[buffer];
      acc.rowLocal &= a.rowLocal;
      acc.written |= a.written;
    }
  for (const auto &[buffer, a] : all) {
    if (!a.written)
      continue;
    if (!a.rowLocal)
      return false;
    for (const auto &[other, b] : all)
      if (other != buffer && mayOverlap(buffer, other) &&
          !(b.rowLocal && sameRows(buffer, other)))
        return false;
  }
  return true;
}

/// `op`'s row `row`: a clone over rank-preserving slices of its operands
/// (the dimensions its first loop indexes, at `row`, of size 1).
void cloneRow(RewriterBase &rw, linalg::LinalgOp op, Value row) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type) {
      operands.push_back(v);
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<OpFoldResult> offsets(type.getRank(), rw.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                             rw.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(rw.getIndexAttr(size));
    bool sliced = false;
    for (auto [k, e] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e); dim && dim.getPosition() == 0) {
        offsets[k] = row;
        sizes[k] = rw.getIndexAttr(1);
        sliced = true;
      }
    operands.push_back(
        sliced ? rw.create<memref::SubViewOp>(loc, v, offsets, sizes, strides)
                     .getResult()
               : v);
  }
  Operation *clone = rw.clone(*op);
  clone->setOperands(operands);
}

/// Replaces the kernels of `run` by one loop over their rows, where the
/// last one was; each row runs every kernel's row in order.
void fuse(RewriterBase &rw, ArrayRef<Member> run) {
  Operation *last = run.back().op;
  Location loc = last->getLoc();
  rw.setInsertionPoint(last);
  const int64_t rows = run.front().rows;
  auto loop = rw.create<scf::ForOp>(
      loc, rw.create<arith::ConstantIndexOp>(loc, 0),
      rw.create<arith::ConstantIndexOp>(loc, rows),
      rw.create<arith::ConstantIndexOp>(loc, 1));
  rw.setInsertionPoint(loop.getBody()->getTerminator());
  Value row = loop.getInductionVar();
  int64_t elements = 0;
  for (const Member &m : run) {
    if (auto rowLoop = dyn_cast<scf::ForOp>(m.op)) {
      IRMapping map;
      map.map(rowLoop.getInductionVar(), row);
      for (Operation &op : rowLoop.getBody()->without_terminator())
        rw.clone(op, map);
    } else {
      auto linalgOp = cast<linalg::LinalgOp>(m.op);
      elements = std::max(elements, staticIterations(linalgOp));
      cloneRow(rw, linalgOp, row);
    }
  }
  // Rows on host threads when a kernel of it was large enough for them,
  // or a reduction's rows already were.
  if (elements >= kMinParallelElements ||
      llvm::any_of(run, [](const Member &m) { return m.isRowLoop; }))
    setMarker<ParallelTile>(loop);
  for (const Member &m : run)
    rw.eraseOp(m.op);
}

/// Ops that may sit between the kernels of a run: they touch no memory
/// (constants, views and reshapes of buffers), so the kernels may move past
/// them.
bool isInert(Operation *op) {
  return op->getNumRegions() == 0 &&
         (isMemoryEffectFree(op) || isa<ViewLikeOpInterface>(op));
}

struct FuseRowsPass : impl::TorusFuseRowsBase<FuseRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (fn.isExternal())
      return;
    // Runs of consecutive kernels (inert ops between them) with the same
    // rows whose rows are independent, at least one a reduction's rows.
    SmallVector<SmallVector<Member>> runs;
    SmallVector<Member> run;
    auto close = [&] {
      if (run.size() >= 2 &&
          llvm::any_of(run, [](const Member &m) { return m.isRowLoop; }))
        runs.push_back(run);
      run.clear();
    };
    for (Operation &op : fn.getBody().front()) {
      std::optional<Member> m = member(&op);
      if (!m) {
        if (!isInert(&op))
          close();
        continue;
      }
      if (m->rows < 2) {
        close();
        continue;
      }
      if (!run.empty() && run.front().rows == m->rows) {
        run.push_back(*m);
        if (rowsAreIndependent(run))
          continue;
        run.pop_back();
      }
      close();
      run.push_back(*m);
    }
    close();
    IRRewriter rw(&getContext());
    for (ArrayRef<Member> r : runs)
      fuse(rw, r);
  }
};

} // namespace
} // namespace mlir::torus
