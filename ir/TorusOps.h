//===- TorusOps.h - torus dialect operations --------------------*- C++ -*-===//
#ifndef TORUS_IR_TORUSOPS_H
#define TORUS_IR_TORUSOPS_H

#include "ir/TorusDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ir/TorusEnums.h.inc"

#define GET_OP_CLASSES
#include "ir/TorusOps.h.inc"

#endif // TORUS_IR_TORUSOPS_H
