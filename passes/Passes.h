//===- Passes.h - Graph-level passes of the torus dialect -------*- C++ -*-===//
#ifndef TORUS_PASSES_PASSES_H
#define TORUS_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::torus {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::torus

#endif // TORUS_PASSES_PASSES_H
