//===- SdyOps.h - The sdy (Shardy) dialect ----------------------*- C++ -*-===//
//
// The `sdy` dialect (SdyOps.td): Shardy's meshes and shardings as Torus
// reads them in StableHLO text.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_STABLEHLO_SDYOPS_H
#define TORUS_IR_STABLEHLO_SDYOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/stablehlo/SdyDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/stablehlo/SdyAttrs.h.inc"

#define GET_OP_CLASSES
#include "ir/stablehlo/SdyOps.h.inc"

#endif // TORUS_IR_STABLEHLO_SDYOPS_H
