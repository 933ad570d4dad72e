//===- SplatsToFills.cpp - Large splat constants to linalg.fill -----------===//

#include "codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSSPLATSTOFILLS
#include "codegen/Passes.h.inc"

namespace {

struct SplatsToFillsPass
    : impl::TorusSplatsToFillsBase<SplatsToFillsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> splats;
    getOperation().walk([&](arith::ConstantOp constant) {
      auto type = dyn_cast<RankedTensorType>(constant.getType());
      auto value = dyn_cast<SplatElementsAttr>(constant.getValue());
      if (type && value && type.hasStaticShape() &&
          type.getNumElements() > maxElements &&
          // Scalars linalg.fill can write (complex constants stay).
          (isa<FloatType, IntegerType, IndexType>(type.getElementType())))
        splats.push_back(constant);
    });
    for (arith::ConstantOp constant : splats) {
      OpBuilder b(constant);
      auto type = cast<RankedTensorType>(constant.getType());
      auto value = cast<SplatElementsAttr>(constant.getValue());
      Location loc = constant.getLoc();
      Value scalar = b.create<arith::ConstantOp>(
          loc, cast<TypedAttr>(value.getSplatValue<Attribute>()));
      Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(),
                                              type.getElementType());
      Value filled =
          b.create<linalg::FillOp>(loc, scalar, empty).getResult(0);
      constant.replaceAllUsesWith(filled);
      constant.erase();
    }
  }
};

} // namespace
} // namespace mlir::torus
