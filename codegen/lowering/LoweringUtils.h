//===- LoweringUtils.h - Shared pieces of torus-to-linalg -------*- C++ -*-===//
//
// torus-to-linalg is one pass whose patterns live in one file per op family
// (ElementwiseLowering.cpp, ShapeLowering.cpp, ...). This header declares
// what they share: the per-family pattern lists and small IR builders.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CODEGEN_LOWERING_LOWERINGUTILS_H
#define TORUS_CODEGEN_LOWERING_LOWERINGUTILS_H

#include "ir/TorusOps.h"
#include "ir/ops/ScalarMath.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torus {

//===--- Pattern lists, one per family ------------------------------------===//

void populateElementwiseLowering(RewritePatternSet &patterns);
void populateShapeLowering(RewritePatternSet &patterns);
void populateReductionLowering(RewritePatternSet &patterns);
void populateContractionLowering(RewritePatternSet &patterns);
void populateIndexingLowering(RewritePatternSet &patterns);
void populateControlFlowLowering(RewritePatternSet &patterns);
void populateRandomLowering(RewritePatternSet &patterns);
void populateSortLowering(RewritePatternSet &patterns);
void populateLinearAlgebraLowering(RewritePatternSet &patterns);

//===--- Builders ---------------------------------------------------------===//
//
// Scalar builders (scalarConstant, widenHalf, combine, ...) are in
// ir/ops/ScalarMath.h.

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type);
/// A tensor of `type` filled with the scalar `value`.
Value filled(OpBuilder &b, Location loc, RankedTensorType type, Value value);
Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             TypedAttr value);

/// The element of a 0-d tensor.
Value extractScalar(OpBuilder &b, Location loc, Value tensor0d);
/// The scalar identity of `kind` on `t` (reduceIdentity), also for complex
/// numbers (sum and product), which have no TypedAttr scalar.
Value identityValue(OpBuilder &b, Location loc, ReduceKind kind, Type t);
/// An integer scalar (any width) as an `index`.
Value toIndex(OpBuilder &b, Location loc, Value integer);
/// The indices (`index` values) of the element `linear` (row-major) of
/// `shape`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape);

using ScalarBodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// A parallel linalg.generic producing `resultType` from `inputs`, each of
/// the result's shape or 0-d (broadcast), with the scalar body `body`.
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarBodyFn body);


/// The results of `region` (scalar block arguments, elementwise ops and
/// constants on 0-d tensors, one torus.return: a scalar computation such
/// as sort's comparator or a reducer) for the scalars `args`, built as
/// scalar code at `b`'s insertion point.
SmallVector<Value> inlineScalarComputation(OpBuilder &b, Location loc,
                                           Region &region, ValueRange args);

/// HLO `pad` of `operand` with the scalar `value`: negative edge padding
/// crops, interior padding inserts `interior[d]` values between elements.
Value buildPad(OpBuilder &b, Location loc, Value operand, Value value,
               ArrayRef<int64_t> low, ArrayRef<int64_t> high,
               ArrayRef<int64_t> interior);

} // namespace mlir::torus

#endif // TORUS_CODEGEN_LOWERING_LOWERINGUTILS_H
