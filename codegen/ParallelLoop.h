//===- ParallelLoop.h - Outer kernel loops over host threads ----*- C++ -*-===//
//
// A loop of generated code whose iterations are independent (they write
// disjoint tiles) may run on host threads: its body is outlined into
// `void @<fn>__parallel_tile_<i>(!llvm.ptr ctx, i64 i)` and the loop
// replaced by `__torus_parallel_for(body, ctx, trips)` (runtime/
// ParallelFor.h). The kernel passes mark such loops `torus.parallel_tile`
// (codegen/Markers.h) and outline them once their bodies are final:
//
//   setMarker<TorusDialect::ParallelTileAttrHelper>(loop);  // when tiling
//   ...
//   outlineMarkedLoops(rw, fn, /*outline=*/threads);        // when final
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_PARALLELLOOP_H
#define TORUS_CODEGEN_PARALLELLOOP_H

#include <cstdint>

namespace mlir {
class RewriterBase;
namespace scf {
class ForOp;
} // namespace scf
namespace func {
class FuncOp;
} // namespace func
namespace linalg {
class LinalgOp;
} // namespace linalg
} // namespace mlir

namespace mlir::torus {

/// Kernels with fewer multiply-adds (contractions) stay on one thread: 2M
/// take about 20 us on one thread, where a parallel loop costs 2 us to
/// start and join (BM_ParallelFor).
constexpr int64_t kMinParallelWork = int64_t(1) << 21;
/// A batch of matmuls each smaller than this shares its batch loop between
/// the threads; a larger one splits its own tile loops.
constexpr int64_t kMinSelfParallelMatmul = int64_t(1) << 24;
/// Loop kernels (elementwise ops, row reductions) over fewer elements stay
/// on one thread.
constexpr int64_t kMinParallelElements = int64_t(1) << 16;

/// The most calls of an outlined body a parallel loop makes: enough blocks
/// for dynamic scheduling to even out the threads, few enough that claiming
/// one (an atomic increment every thread contends for) costs nothing beside
/// its work.
constexpr int64_t kMaxParallelBlocks = 64;

/// Replaces `loop` (constant bounds, no results, independent iterations)
/// with `__torus_parallel_for(body, ctx, calls)`: its body is outlined into
/// `void @<fn>__parallel_tile_<i>(!llvm.ptr ctx, i64 i)`, `<i>` the first
/// unused, and call i runs iteration i, or, when the loop has more than
/// kMaxParallelBlocks iterations, the i-th of that many blocks of adjacent
/// iterations (so a thread's rows of a reduction write adjacent results,
/// not every other one). Values from above are rebuilt in the body: constants, stack
/// buffers and view ops (subview, cast, ...) are cloned; identity layout
/// memrefs are passed as aligned pointers and index values as i64 in
/// `ctx`, an array on the stack. False (nothing changed) when a value from
/// above is of another kind or the loop has fewer than 2 iterations.
bool outlineParallelLoop(RewriterBase &rw, scf::ForOp loop);

/// Every loop of `fn` marked `torus.parallel_tile` through
/// outlineParallelLoop (when `outline`), its marker removed either way.
void outlineMarkedLoops(RewriterBase &rw, func::FuncOp fn, bool outline);

/// The iterations of `op`'s loop nest: the product of its static loop
/// ranges (the elements of an elementwise op, the multiply-adds of a
/// contraction), what the thresholds above are compared with.
int64_t staticIterations(linalg::LinalgOp op);

/// Whether `fn` is an outlined parallel loop body.
bool isParallelBody(func::FuncOp fn);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_PARALLELLOOP_H
