//===- TorusToLinalg.cpp - torus compute ops to linalg on tensors ---------===//
//
// The torus-to-linalg pass. Its patterns live in codegen/lowering/, one file
// per op family:
//
//   ElementwiseLowering.cpp  unary/binary ops, compare, select, clamp, convert
//   ShapeLowering.cpp        constants, iota, broadcast, reshape, transpose,
//                            slices, concatenate, pad, reverse
//   ReductionLowering.cpp    reduce, argmax/argmin, reduce_window
//   ContractionLowering.cpp  dot_general, convolution
//   IndexingLowering.cpp     gather, scatter
//   ControlFlowLowering.cpp  while, if, case, call (to scf and func)
//   RandomLowering.cpp       rng_bit_generator (Threefry)
//   SortLowering.cpp         sort, top_k, select_and_scatter (to scf)
//
// Collectives and replica/partition ids are runtime calls, made earlier by
// torus-lower-collectives.
//
// The patterns build arith code on the torus ops' own element types, so an
// op's semantics read HLO's unsigned types (`ui32`) from its operands (an
// unsigned compare, division, conversion, ...). When every op is lowered,
// the function's integers become signless, as arith and LLVM want them.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/lowering/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::torus {
#define GEN_PASS_DEF_TORUSTOLINALG
#include "codegen/Passes.h.inc"

namespace {

struct TorusToLinalgPass : impl::TorusToLinalgBase<TorusToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    WalkResult early = getOperation().walk([&](Operation *op) {
      if (!isa<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
               CollectivePermuteOp, ReplicaIdOp, PartitionIdOp>(op))
        return WalkResult::advance();
      op->emitOpError("must be lowered by torus-lower-collectives before "
                      "torus-to-linalg");
      return WalkResult::interrupt();
    });
    if (early.wasInterrupted())
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, complex::ComplexDialect,
                           func::FuncDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           scf::SCFDialect, tensor::TensorDialect>();
    target.addIllegalDialect<TorusDialect>();
    RewritePatternSet patterns(ctx);
    populateElementwiseLowering(patterns);
    populateShapeLowering(patterns);
    populateReductionLowering(patterns);
    populateContractionLowering(patterns);
    populateIndexingLowering(patterns);
    populateControlFlowLowering(patterns);
    populateRandomLowering(patterns);
    populateSortLowering(patterns);
    populateLinearAlgebraLowering(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    makeIntegersSignless(getOperation());
  }

  /// Gives every integer in `func` (types, block arguments, constants, its
  /// signature) the signless type of its width.
  static void makeIntegersSignless(func::FuncOp func) {
    auto signless = [](IntegerType t) -> std::optional<Type> {
      if (t.isSignless())
        return std::nullopt;
      return IntegerType::get(t.getContext(), t.getWidth());
    };
    AttrTypeReplacer replacer;
    replacer.addReplacement(signless);
    replacer.addReplacement([&](IntegerAttr a) -> std::optional<Attribute> {
      auto t = dyn_cast<IntegerType>(a.getType());
      if (!t || t.isSignless())
        return std::nullopt;
      return IntegerAttr::get(*signless(t), a.getValue());
    });
    replacer.addReplacement(
        [&](DenseIntElementsAttr a) -> std::optional<Attribute> {
          auto t = dyn_cast<IntegerType>(a.getElementType());
          if (!t || t.isSignless())
            return std::nullopt;
          return a.bitcast(*signless(t));
        });
    replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};

} // namespace
} // namespace mlir::torus
