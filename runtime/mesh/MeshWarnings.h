//===- MeshWarnings.h - Where the mesh unit's warnings go -------*- C++ -*-===//
//
// TensorFlow logs a few warnings that its tests look for ("TPU system local
// has already been initialized...", "Odd dimension"). The mesh unit sends
// them through one replaceable handler so callers and tests can capture them;
// by default they go to stderr prefixed with "torus warning: ".
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MESH_MESHWARNINGS_H
#define TORUS_RUNTIME_MESH_MESHWARNINGS_H

#include <functional>
#include <string_view>

namespace torus::rt {

using MeshWarningHandler = std::function<void(std::string_view message)>;

/// Installs `handler` (an empty function restores the stderr default) and
/// returns the previous one. Thread-safe.
MeshWarningHandler setMeshWarningHandler(MeshWarningHandler handler);

/// Sends `message` to the current handler. Thread-safe.
void emitMeshWarning(std::string_view message);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MESH_MESHWARNINGS_H
