//===- ConvLayoutSyntax.h - `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` -*- C++ -*-===//
//
// The text form of a convolution's dimension numbers, which #torus.conv and
// #stablehlo.conv share (StableHLO's syntax): three layouts, one entry per
// tensor dimension, batch/feature letters and spatial dimension numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_CONVLAYOUTSYNTAX_H
#define TORUS_IR_CONVLAYOUTSYNTAX_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::torus {

/// Prints one layout: `[b, 0, 1, f]`, one entry per tensor dimension.
void printConvLayout(llvm::raw_ostream &os, int64_t batch, int64_t feature,
                     ArrayRef<int64_t> spatial, char batchChar,
                     char featureChar);

/// Parses one layout; `batchKw`/`featureKw` are its two letters.
ParseResult parseConvLayout(AsmParser &parser, StringRef batchKw,
                            StringRef featureKw, int64_t &batch,
                            int64_t &feature, SmallVectorImpl<int64_t> &spatial);

/// Parses the three layouts into `AttrT` (an attribute with
/// ConvDimensionNumbers' parameters: #torus.conv, #stablehlo.conv).
template <typename AttrT>
ParseResult parseConvDims(AsmParser &parser, AttrT &attr) {
  int64_t ib, ifeat, ki, ko, ob, of;
  SmallVector<int64_t> is, ks, os;
  if (parseConvLayout(parser, "b", "f", ib, ifeat, is) ||
      parser.parseKeyword("x") ||
      parseConvLayout(parser, "i", "o", ki, ko, ks) || parser.parseArrow() ||
      parseConvLayout(parser, "b", "f", ob, of, os))
    return failure();
  attr = AttrT::get(parser.getContext(), ib, ifeat, is, ki, ko, ks, ob, of,
                    os);
  return success();
}

/// Prints `attr`'s three layouts.
template <typename AttrT>
void printConvDims(llvm::raw_ostream &os, AttrT attr) {
  printConvLayout(os, attr.getInputBatchDimension(),
                  attr.getInputFeatureDimension(),
                  attr.getInputSpatialDimensions(), 'b', 'f');
  os << 'x';
  printConvLayout(os, attr.getKernelInputFeatureDimension(),
                  attr.getKernelOutputFeatureDimension(),
                  attr.getKernelSpatialDimensions(), 'i', 'o');
  os << "->";
  printConvLayout(os, attr.getOutputBatchDimension(),
                  attr.getOutputFeatureDimension(),
                  attr.getOutputSpatialDimensions(), 'b', 'f');
}

} // namespace mlir::torus

#endif // TORUS_IR_CONVLAYOUTSYNTAX_H
