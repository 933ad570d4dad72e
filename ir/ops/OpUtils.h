//===- OpUtils.h - Helpers shared by the op verifiers and folders -*- C++ -*-===//
#ifndef TORUS_IR_OPS_OPUTILS_H
#define TORUS_IR_OPS_OPUTILS_H

#include "ir/ShapeRules.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <variant>

namespace mlir::torus {

inline RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Checks that `op`'s result has `expected` shape and `elementType`.
LogicalResult checkResult(Operation *op, RankedTensorType result,
                          ArrayRef<int64_t> expected, Type elementType);

/// Checks that `a` and `b` (named in the message) share an element type.
LogicalResult checkSameElementType(Operation *op, Value a, StringRef aName,
                                   Value b, StringRef bName);

/// True if `v` is a constant whose every element equals `value`.
bool isSplatOf(Value v, double value);
/// True if `v` is an integer or i1 constant with every bit set.
bool isAllOnes(Value v);

/// `[[lo, hi], ...]` of a `[n, 2]` padding attribute; empty if absent.
SmallVector<std::pair<int64_t, int64_t>> paddingPairs(Attribute attr);
/// A `[n, 2]` i64 tensor attribute of `pairs` (null if `pairs` is empty).
DenseIntElementsAttr paddingAttr(MLIRContext *ctx,
                                 ArrayRef<std::pair<int64_t, int64_t>> pairs);

/// Verifies an optional `replica_groups` attribute: 2-D, non-negative,
/// disjoint. Returns the group size, or 0 when absent or empty.
FailureOr<int64_t> verifyReplicaGroups(Operation *op, Attribute groups);

/// Verifies the scalar computation `region` (named `name` in errors) of
/// `op`: block arguments `tensor<args[i]>`, only constants and elementwise
/// ops (ScalarOpInterface) on 0-d tensors, and `tensor<results[i]>`
/// returned (ir/ops/SortOps.cpp).
LogicalResult verifyScalarComputation(Operation *op, Region &region,
                                      StringRef name, ArrayRef<Type> args,
                                      ArrayRef<Type> results);

/// One element of a constant, for folding: an integer or a float.
using Scalar = std::variant<APInt, APFloat>;
using ScalarFn = function_ref<std::optional<Scalar>(ArrayRef<Scalar>)>;

/// Folds an elementwise op whose operands are all constants, by applying
/// `fn` per element; null if an operand is not a dense constant, the
/// result is large and not a splat, or `fn` declines.
Attribute foldElementwise(ArrayRef<Attribute> operands,
                          RankedTensorType resultType, ScalarFn fn);

/// Folds a one-operand float op by computing `fn` in double on each element
/// and rounding to the element type (the FoldsViaDouble trait).
Attribute foldUnaryViaDouble(ArrayRef<Attribute> operands, Type resultType,
                             double (*fn)(double));

} // namespace mlir::torus

#endif // TORUS_IR_OPS_OPUTILS_H
