//===- TorusOps.h - torus dialect operations --------------------*- C++ -*-===//
#ifndef TORUS_IR_TORUSOPS_H
#define TORUS_IR_TORUSOPS_H

#include "ir/ShapeRules.h"
#include "ir/ShardingRuleOpInterface.h"
#include "ir/TorusAttrs.h"
#include "ir/TorusDialect.h"
#include "ir/VJPOpInterface.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::torus {
/// Carries an op's HLO opcode (HloOpcode<...> in ODS) into its class.
template <typename ConcreteOp>
class HloOpcodeTrait : public OpTrait::TraitBase<ConcreteOp, HloOpcodeTrait> {};

/// Carries an op's ScalarBody (ODS) into its class.
template <typename ConcreteOp>
class ScalarBodyTrait : public OpTrait::TraitBase<ConcreteOp, ScalarBodyTrait> {};
/// Carries an op's FoldsViaDouble folder (ODS) into its class.
template <typename ConcreteOp>
class FoldsViaDoubleTrait
    : public OpTrait::TraitBase<ConcreteOp, FoldsViaDoubleTrait> {};
} // namespace mlir::torus

#include "ir/HloOpInterface.h.inc"
#include "ir/ScalarOpInterface.h.inc"

#define GET_OP_CLASSES
#include "ir/TorusOps.h.inc"

namespace mlir::torus {

/// The HLO ConvDimensionNumbers of `attr` as plain integers.
ConvDims toConvDims(ConvDimensionNumbersAttr attr);

/// The identity of `kind` for element type `type`: 0, 1, -inf/INT_MIN,
/// +inf/INT_MAX, all ones, 0 (for i1: false, true, false, true, true, false).
TypedAttr reduceIdentity(ReduceKind kind, Type type);

} // namespace mlir::torus

#endif // TORUS_IR_TORUSOPS_H
