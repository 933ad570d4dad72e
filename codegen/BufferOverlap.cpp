//===- BufferOverlap.cpp - Whether two buffers may share bytes ------------===//

#include "codegen/BufferOverlap.h"
#include "ir/TorusDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::torus {
namespace {

/// The planned view `v` is, or null.
memref::ViewOp plannedView(Value v) {
  auto view = v.getDefiningOp<memref::ViewOp>();
  return view && TorusDialect::BufferAttrHelper(view.getContext())
                             .isAttrPresent(view)
             ? view
             : nullptr;
}

/// [first, last) bytes of a planned view in its workspace, when known.
std::optional<std::pair<int64_t, int64_t>> byteRange(memref::ViewOp view) {
  IntegerAttr offset =
      TorusDialect::OffsetAttrHelper(view.getContext()).getAttr(view);
  MemRefType type = view.getType();
  if (!offset || !type.hasStaticShape())
    return std::nullopt;
  int64_t bytes =
      type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
  return std::make_pair(offset.getInt(), offset.getInt() + bytes);
}

} // namespace

Value bufferOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (plannedView(v))
      return v;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return v;
    v = view.getViewSource();
  }
  return v;
}

bool mayOverlap(Value a, Value b) {
  Value ra = bufferOf(a), rb = bufferOf(b);
  if (ra == rb)
    return true;
  memref::ViewOp va = plannedView(ra), vb = plannedView(rb);
  if (va && vb) {
    if (bufferOf(va.getSource()) != bufferOf(vb.getSource()))
      return false;
    auto x = byteRange(va), y = byteRange(vb);

    return !x || !y || (x->first < y->second && y->first < x->second);
  }
  // A planned view and the workspace it is carved from.
  if (va)
    return bufferOf(va.getSource()) == rb;
  if (vb)
    return bufferOf(vb.getSource()) == ra;
  return false;
}

} // namespace mlir::torus
