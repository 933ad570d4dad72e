//===- ChloOps.h - The chlo dialect -----------------------------*- C++ -*-===//
//
// The `chlo` dialect (ChloOps.td): the CHLO ops Torus reads.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_STABLEHLO_CHLOOPS_H
#define TORUS_IR_STABLEHLO_CHLOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/stablehlo/ChloDialect.h.inc"

#define GET_OP_CLASSES
#include "ir/stablehlo/ChloOps.h.inc"

#endif // TORUS_IR_STABLEHLO_CHLOOPS_H
