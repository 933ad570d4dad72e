//===- PassTracing.h - Every pass as a span of a trace ----------*- C++ -*-===//
//
// A PassInstrumentation recording one span per pass run (named after the
// pass's argument, e.g. `torus-fusion`, with the operation it ran on in its
// args) into the trace of the calling thread's track (runtime/trace). The
// pass manager runs function passes on worker threads: their spans go to
// tracks of their own ("compile worker N") in the same process, so spans
// on each track nest.
//
// lowerToStage adds it to every pass manager it runs while the compiling
// thread has a track (TraceTrack::current()): torusc --trace, torus-run
// --trace and CompileOptions::traceFile make one.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_PASSTRACING_H
#define TORUS_CODEGEN_PASSTRACING_H

#include "runtime/trace/TraceRecorder.h"

#include "mlir/Pass/PassInstrumentation.h"

#include <memory>

namespace mlir::torus {

/// Records the passes run under it on `track`'s recorder: on `track` itself
/// for the thread that made it, else on a worker track of the same process.
std::unique_ptr<PassInstrumentation>
createPassTracing(const ::torus::rt::TraceTrack &track);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_PASSTRACING_H
