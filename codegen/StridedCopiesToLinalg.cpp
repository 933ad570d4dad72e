//===- StridedCopiesToLinalg.cpp - memref.copy between views to linalg ----===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSTRIDEDCOPIESTOLINALG
#include "codegen/Passes.h.inc"

namespace {

bool isContiguous(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

struct StridedCopiesToLinalgPass
    : impl::TorusStridedCopiesToLinalgBase<StridedCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      b.create<linalg::CopyOp>(copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
} // namespace mlir::torus
