//===- Markers.h - Unit markers through their typed helpers -----*- C++ -*-===//
//
// The markers passes exchange (discardable attributes) are declared once,
// with their types, in ir/TorusDialect.td; ODS generates a helper for each,
// `TorusDialect::<Name>AttrHelper`, with getAttr/setAttr/isAttrPresent/
// removeAttr. These wrap a helper for the common cases: setting a unit
// marker, testing one, and clearing one that may be absent.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_MARKERS_H
#define TORUS_CODEGEN_MARKERS_H

#include "ir/TorusDialect.h"

namespace mlir::torus {

/// Sets the unit marker `Helper` (e.g. TorusDialect::ParallelTileAttrHelper)
/// on `op`.
template <typename Helper>
void setMarker(Operation *op) {
  Helper(op->getContext()).setAttr(op, UnitAttr::get(op->getContext()));
}

/// Whether `op` carries the marker `Helper`, of its declared type.
template <typename Helper>
bool hasMarker(Operation *op) {
  return Helper(op->getContext()).isAttrPresent(op);
}

/// Removes the marker `Helper` from `op` if it is there.
template <typename Helper>
void clearMarker(Operation *op) {
  Helper helper(op->getContext());
  if (helper.isAttrPresent(op))
    helper.removeAttr(op);
}

} // namespace mlir::torus

#endif // TORUS_CODEGEN_MARKERS_H
