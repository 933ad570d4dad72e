//===- TraceFiles.h - Where the API writes its traces -----------*- C++ -*-===//
//
// compile() and EmulatedMesh::run() write a trace when their options name a
// file, or, with none named, into the directory in the environment variable
// TORUS_TRACE_TO (like TORUS_DUMP_TO for dumps): `module_<NNNN>.<name>.
// compile.trace.json` per compile, `run_<NNNN>.<name>.trace.json` per run,
// numbered per process.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_API_TRACEFILES_H
#define TORUS_API_TRACEFILES_H

#include <string>
#include <string_view>

namespace torus {

/// What a trace is of: its file name's prefix and suffix.
enum class TraceKind { Compile, Run };

/// `explicitPath` if not empty; else a new numbered file of `kind` for
/// `name` in $TORUS_TRACE_TO when it is set; else empty (no trace).
std::string traceFileFor(const std::string &explicitPath, TraceKind kind,
                         std::string_view name);

/// Whether TORUS_TRACE_TO is set (and not empty).
bool traceToIsSet();

} // namespace torus

#endif // TORUS_API_TRACEFILES_H
