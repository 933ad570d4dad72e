//===- ChloOps.cpp - The chlo dialect -------------------------------------===//

#include "ir/stablehlo/ChloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::chlo;

#include "ir/stablehlo/ChloDialect.cpp.inc"

void CHLODialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/stablehlo/ChloOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "ir/stablehlo/ChloOps.cpp.inc"
