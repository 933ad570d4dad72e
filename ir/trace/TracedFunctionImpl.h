//===- TracedFunctionImpl.h - What a TracedFunction holds -------*- C++ -*-===//
//
// Internal: shared by the tracer, the compiler and the tools. A traced
// function owns its MLIRContext, so independent traces share no state.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_TRACE_TRACEDFUNCTIONIMPL_H
#define TORUS_IR_TRACE_TRACEDFUNCTIONIMPL_H

#include "ir/TensorTypes.h"
#include "torus/Trace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

namespace torus {

struct TracedFunction::Impl {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

/// A context with the dialects a traced or parsed torus module uses, and
/// multithreading off (compiling one step needs no thread pool).
std::unique_ptr<mlir::MLIRContext> createTorusContext();

/// Builds a TracedFunction around `module`, whose public function `name`
/// is the entry point; fails if the module does not verify or holds no such
/// function.
absl::StatusOr<TracedFunction>
makeTracedFunction(std::unique_ptr<mlir::MLIRContext> context,
                   mlir::OwningOpRef<mlir::ModuleOp> module);

} // namespace torus

#endif // TORUS_IR_TRACE_TRACEDFUNCTIONIMPL_H
