//===- Torus.h - The whole public API ---------------------------*- C++ -*-===//
//
// Torus compiles C++ training-step functions through an XLA-like IR to host
// code and runs them on an emulated TPU mesh. Include this header and link
// Torus::torus. No MLIR or LLVM types appear in the public API.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TORUS_H
#define TORUS_TORUS_H

#include "torus/Autodiff.h"
#include "torus/Compile.h"
#include "torus/CompileCache.h"
#include "torus/EmulatedMesh.h"
#include "torus/HostTensor.h"
#include "torus/Reports.h"
#include "torus/Status.h"
#include "torus/Tensor.h"
#include "torus/Trace.h"
#include "torus/Types.h"

/// \namespace torus
/// Tracing (trace(), Tensor and the ops on it), autodiff (grad(),
/// valueAndGrad()), the JIT (compile(), Executable) and the emulated TPU mesh
/// (EmulatedMesh) that runs compiled steps. Fallible calls return
/// absl::Status or absl::StatusOr.

#endif // TORUS_TORUS_H
