//===- DotGraph.h - A torus-level program as a Graphviz graph ---*- C++ -*-===//
//
// `torusc --dump-dot` writes the program's graph: arguments, ops and results
// are nodes, tensors are edges labelled with their types (`f32[2,3]`). When
// ops, arguments or results carry a sharding (an attribute named
// `torus.sharding` or `sharding`), each distinct sharding gets a fill colour,
// listed in a legend, so how a tensor is split over the mesh can be seen at a
// glance. Render with `dot -Tsvg file.dot -o file.svg`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_DOTGRAPH_H
#define TORUS_CODEGEN_DOTGRAPH_H

#include "torus/Status.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::torus {

/// The public function of `module` as a Graphviz `digraph`.
absl::StatusOr<std::string> dotGraph(ModuleOp module);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_DOTGRAPH_H
