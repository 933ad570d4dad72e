//===- ImportContractionOps.cpp - HLO dot and convolution to torus --------===//
//
// dot (torus.dot_general; operands of another element type are converted
// to the result's first) and convolution (dim_labels and window into the
// torus op's dimension numbers and window attributes).
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::emitDot(const Instruction &instr, Operands operands,
                                HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 2, n)))
    return failure();
  auto x = array(instr, operands, 0), y = array(instr, operands, 1);
  auto lb = listAttr(instr, "lhs_batch_dims", false);
  auto rb = listAttr(instr, "rhs_batch_dims", false);
  auto lc = listAttr(instr, "lhs_contracting_dims", false);
  auto rc = listAttr(instr, "rhs_contracting_dims", false);
  if (failed(x) || failed(y) || failed(lb) || failed(rb) || failed(lc) ||
      failed(rc))
    return failure();
  // Mixed precision (`f32 dot(bf16, bf16)`): Torus contracts in the
  // result type, so the operands are converted to it first.
  Type et = type->getElementType();
  auto toResult = [&](Value v) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() == et)
      return v;
    return b_.create<ConvertOp>(loc, t.clone(et), v);
  };
  result.leaves.push_back(b_.create<DotGeneralOp>(
      loc, *type, toResult(*x), toResult(*y), b_.getDenseI64ArrayAttr(*lb),
      b_.getDenseI64ArrayAttr(*rb), b_.getDenseI64ArrayAttr(*lc),
      b_.getDenseI64ArrayAttr(*rc)));
  return success();
}

LogicalResult Importer::emitConvolution(const Instruction &instr,
                                        Operands operands, HloValue &result) {
  if (failed(checkOperandCount(instr, 2, operands.size())))
    return failure();
  auto x = array(instr, operands, 0), w = array(instr, operands, 1);
  auto type = resultType(instr);
  if (failed(x) || failed(w) || failed(type))
    return failure();
  auto lhsType = cast<RankedTensorType>(x->getType());
  auto rhsType = cast<RankedTensorType>(w->getType());
  int64_t rank = lhsType.getRank();
  DimLabels labels;
  if (const Attr *d = instr.attr("dim_labels")) {
    if (failed(AttrParser(*d, locator_).dimLabels(labels)))
      return failure();
  } else {
    // XLA's default: bf01_oi01->bf01.
    labels.inputBatch = labels.outputBatch = 0;
    labels.inputFeature = labels.outputFeature = 1;
    labels.kernelOutput = 0;
    labels.kernelInput = 1;
    for (int64_t i = 2; i < rank; ++i) {
      labels.inputSpatial.push_back(i);
      labels.kernelSpatial.push_back(i);
      labels.outputSpatial.push_back(i);
    }
  }
  size_t spatial = labels.inputSpatial.size();
  if (labels.kernelSpatial.size() != spatial ||
      labels.outputSpatial.size() != spatial ||
      static_cast<int64_t>(spatial + 2) != rank || rhsType.getRank() != rank ||
      type->getRank() != rank) {
    error(instr.opcodeLoc) << "dim_labels do not match the ranks of the "
                              "convolution's operands and result";
    return failure();
  }
  llvm::SmallVector<WindowDim> window;
  if (const Attr *wa = instr.attr("window")) {
    if (failed(AttrParser(*wa, locator_).window(window)))
      return failure();
  } else {
    for (size_t i = 0; i < spatial; ++i) {
      WindowDim d;
      d.size = rhsType.getDimSize(labels.kernelSpatial[i]);
      window.push_back(d);
    }
  }
  if (window.size() != spatial) {
    error(instr.attr("window")->valueLoc)
        << "the window has " << window.size() << " dimensions, the "
        << "convolution " << spatial << " spatial ones";
    return failure();
  }
  for (size_t i = 0; i < spatial; ++i) {
    const WindowDim &d = window[i];
    int64_t kernel = rhsType.getDimSize(labels.kernelSpatial[i]);
    if (d.size != kernel) {
      error(instr.attr("window")->valueLoc)
          << "window size " << d.size << " in spatial dimension " << i
          << " differs from the kernel's " << kernel;
      return failure();
    }
  }
  // rhs_reversal flips the kernel along a spatial dimension (XLA's
  // optimized HLO writes it for a convolution's input gradient).
  llvm::SmallVector<int64_t> reversed;
  for (size_t i = 0; i < spatial; ++i)
    if (window[i].reversal)
      reversed.push_back(labels.kernelSpatial[i]);
  auto fgc = intAttr(instr, "feature_group_count", 1);
  auto bgc = intAttr(instr, "batch_group_count", 1);
  if (failed(fgc) || failed(bgc))
    return failure();
  auto dims = ConvDimensionNumbersAttr::get(
      ctx_, labels.inputBatch, labels.inputFeature, labels.inputSpatial,
      labels.kernelInput, labels.kernelOutput, labels.kernelSpatial,
      labels.outputBatch, labels.outputFeature, labels.outputSpatial);
  WindowAttrs win = windowAttrs(b_, window);
  Value kernel = *w;
  if (!reversed.empty())
    kernel = b_.create<ReverseOp>(opLoc(instr), rhsType, kernel,
                                  b_.getDenseI64ArrayAttr(reversed));
  result.leaves.push_back(b_.create<ConvolutionOp>(
      opLoc(instr), *type, *x, kernel, dims, win.strides, win.padding,
      win.lhsDilation, win.rhsDilation, b_.getI64IntegerAttr(*fgc),
      b_.getI64IntegerAttr(*bgc)));
  return success();
}

} // namespace mlir::torus::hlo
