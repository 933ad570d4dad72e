//===- TraceContext.h - State of one trace in progress ----------*- C++ -*-===//
#ifndef TORUS_IR_TRACE_TRACECONTEXT_H
#define TORUS_IR_TRACE_TRACECONTEXT_H

#include "torus/Tensor.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace torus {

/// The function being traced: an insertion point, the values Tensors refer
/// to, and the first error. One per trace() call; the innermost one is
/// current on its thread while the user's function runs.
class TraceContext {
public:
  TraceContext(mlir::OpBuilder builder, std::string functionName);
  ~TraceContext();
  TraceContext(const TraceContext &) = delete;
  TraceContext &operator=(const TraceContext &) = delete;

  /// The trace running on this thread, or null.
  static TraceContext *current();

  mlir::OpBuilder &builder() { return builder_; }
  mlir::MLIRContext *mlirContext() { return builder_.getContext(); }
  mlir::Location location(const Loc &loc);

  Tensor wrap(mlir::Value value);
  mlir::Value value(const Tensor &t) const { return values_[t.id()]; }
  const TensorSpec &spec(int64_t id) const { return specs_[id]; }
  /// False if `t` was made in a region (loop body, branch, called function)
  /// that does not enclose the insertion point.
  bool visible(const Tensor &t);

  /// Functions traced by torus::call, by the name the user gave: the
  /// symbol and argument types of each signature traced so far.
  struct Callee {
    std::string symbol;
    mlir::FunctionType type;
  };
  std::map<std::string, std::vector<Callee>> &callees() { return callees_; }

  /// Records `message` (about op `opName` at `loc`) if it is the first error,
  /// and returns an invalid Tensor for the failed op to return.
  Tensor fail(const Loc &loc, const std::string &opName,
              const std::string &message);
  const std::optional<std::string> &error() const { return error_; }

private:
  mlir::OpBuilder builder_;
  std::string functionName_;
  std::vector<mlir::Value> values_;
  std::vector<TensorSpec> specs_;
  std::optional<std::string> error_;
  std::map<std::string, std::vector<Callee>> callees_;
  TraceContext *previous_;
};

} // namespace torus

#endif // TORUS_IR_TRACE_TRACECONTEXT_H
