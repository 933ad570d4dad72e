//===- TorusDialect.h - The torus dialect -----------------------*- C++ -*-===//
#ifndef TORUS_IR_TORUSDIALECT_H
#define TORUS_IR_TORUSDIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "ir/TorusDialect.h.inc"

#endif // TORUS_IR_TORUSDIALECT_H
