//===- TorusAttrs.h - torus dialect enums and attributes --------*- C++ -*-===//
//
// The enums and attributes ODS declares for the torus dialect (the sharding
// attribute among them), without the ops: what op interfaces need in their
// signatures. Include ir/TorusOps.h for the whole dialect.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_TORUSATTRS_H
#define TORUS_IR_TORUSATTRS_H

#include "ir/ShapeRules.h"
#include "ir/TorusDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

#include "ir/TorusEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/TorusAttrs.h.inc"

#endif // TORUS_IR_TORUSATTRS_H
