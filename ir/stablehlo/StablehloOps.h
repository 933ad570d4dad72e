//===- StablehloOps.h - The stablehlo dialect -------------------*- C++ -*-===//
//
// The `stablehlo` dialect (StablehloDialect.td, StablehloOps.td): StableHLO
// as Torus reads it. ConvertToTorus.h turns it into the torus dialect.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_STABLEHLO_STABLEHLOOPS_H
#define TORUS_IR_STABLEHLO_STABLEHLOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/stablehlo/StablehloDialect.h.inc"
#include "ir/stablehlo/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/stablehlo/StablehloAttrs.h.inc"

#define GET_OP_CLASSES
#include "ir/stablehlo/StablehloOps.h.inc"

#endif // TORUS_IR_STABLEHLO_STABLEHLOOPS_H
