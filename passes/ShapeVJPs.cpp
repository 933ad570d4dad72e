//===- ShapeVJPs.cpp - VJPs of slicing, padding and concatenation ---------===//

#include "passes/VJPFamilies.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::torus {

LogicalResult shapeVJP(GradBuilder &gb, Operation *op, Value ct,
                       SmallVectorImpl<Value> &cts) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](SliceOp s) {
        // Put every sliced element back where it came from; zeros elsewhere.
        auto in = GradBuilder::typeOf(s.getOperand()).getShape();
        auto out = GradBuilder::typeOf(s.getResult()).getShape();
        SmallVector<int64_t> low, high, interior;
        for (size_t d = 0; d < in.size(); ++d) {
          int64_t stride = s.getStrides()[d];
          int64_t last = s.getStartIndices()[d] + (out[d] - 1) * stride;
          low.push_back(s.getStartIndices()[d]);
          interior.push_back(stride - 1);
          high.push_back(out[d] == 0 ? in[d] - low.back() : in[d] - 1 - last);
        }
        cts[0] = gb.padZeros(ct, low, high, interior);
        return success();
      })
      .Case([&](PadOp p) -> LogicalResult {
        ArrayRef<int64_t> low = p.getEdgePaddingLow(),
                          high = p.getEdgePaddingHigh(),
                          interior = p.getInteriorPadding();
        if (llvm::any_of(low, [](int64_t v) { return v < 0; }) ||
            llvm::any_of(high, [](int64_t v) { return v < 0; }))
          return p.emitOpError("has no gradient rule for negative padding");
        auto in = GradBuilder::typeOf(p.getOperand()).getShape();
        SmallVector<int64_t> start, limit, strides;
        for (size_t d = 0; d < in.size(); ++d) {
          start.push_back(low[d]);
          strides.push_back(interior[d] + 1);
          limit.push_back(in[d] == 0 ? low[d]
                                     : low[d] + (in[d] - 1) * strides[d] + 1);
        }
        Value operandGrad = gb.slice(ct, start, limit, strides);
        cts[0] = operandGrad;
        // The padding value fills every element that is not the operand's.
        cts[1] = gb.sub(gb.sumAll(ct), gb.sumAll(operandGrad));
        return success();
      })
      .Case([&](ConcatenateOp c) {
        int64_t dim = c.getDimension();
        auto shape = GradBuilder::typeOf(ct).getShape();
        int64_t offset = 0;
        for (auto [i, input] : llvm::enumerate(c.getInputs())) {
          auto inShape = GradBuilder::typeOf(input).getShape();
          SmallVector<int64_t> start(shape.size(), 0), limit(shape),
              strides(shape.size(), 1);
          start[dim] = offset;
          limit[dim] = offset + inShape[dim];
          offset += inShape[dim];
          cts[i] = gb.slice(ct, start, limit, strides);
        }
        return success();
      })
      .Case([&](ReverseOp r) {
        cts[0] = gb.builder().create<ReverseOp>(gb.location(), ct.getType(),
                                                ct, r.getDimensions());
        return success();
      })
      .Case([&](DynamicSliceOp s) {
        // Scatter the slice into zeros at the same (clamped) start.
        Value zeros = gb.zerosLike(s.getOperand());
        cts[0] = gb.builder().create<DynamicUpdateSliceOp>(
            gb.location(), zeros.getType(), zeros, ct, s.getStartIndices());
        return success();
      })
      .Case([&](DynamicUpdateSliceOp u) {
        auto updateShape = GradBuilder::typeOf(u.getUpdate()).getShape();
        Value zeros = gb.zerosLike(u.getUpdate());
        cts[0] = gb.builder().create<DynamicUpdateSliceOp>(
            gb.location(), ct.getType(), ct, zeros, u.getStartIndices());
        cts[1] = gb.builder().create<DynamicSliceOp>(
            gb.location(), ct, u.getStartIndices(), updateShape);
        return success();
      })
      .Default([](Operation *other) {
        return other->emitOpError("cannot be differentiated: no gradient "
                                  "rule for this op");
      });
}

} // namespace mlir::torus
