//===- PerfMap.h - Names of JIT-compiled functions for perf -----*- C++ -*-===//
//
// Linux `perf` attributes samples in code it cannot find in a file on disk
// through /tmp/perf-<pid>.map: one line per function, "<start> <size>
// <name>" in hex. With TORUS_PERF_MAP set (to anything), every JIT the
// runtime creates appends the functions of each object it links there,
// generated kernels and outlined parallel tiles included, so
//
//   TORUS_PERF_MAP=1 perf record -e cpu-clock -g ./my_training_program
//   perf report
//
// names the kernels instead of showing bare addresses.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_PERFMAP_H
#define TORUS_RUNTIME_JIT_PERFMAP_H

#include <string>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace torus::rt {

/// Whether TORUS_PERF_MAP is set.
bool perfMapRequested();

/// /tmp/perf-<this process's pid>.map.
std::string perfMapPath();

/// Makes `jit` append every function it links from now on to
/// perfMapPath(). False when its object layer is not JITLink's (RuntimeDyld
/// has no link graph to read the functions from), in which case nothing is
/// written.
bool writePerfMapFor(llvm::orc::LLJIT &jit);

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_PERFMAP_H
