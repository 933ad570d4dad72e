//===- ImportLinearAlgebraOps.cpp - HLO triangular-solve, fft to torus ----===//
//
// triangular-solve is torus.triangular_solve (its options as attributes,
// the booleans false when XLA leaves them out); fft is torus.fft. The
// verifiers check the shapes and types.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::emitTriangularSolve(const Instruction &instr,
                                            Operands operands,
                                            HloValue &result) {
  auto in = arrays(instr, operands, 2);
  if (failed(in))
    return failure();
  auto leftSide = boolAttr(instr, "left_side");
  auto lower = boolAttr(instr, "lower");
  auto unitDiagonal = boolAttr(instr, "unit_diagonal");
  if (failed(leftSide) || failed(lower) || failed(unitDiagonal))
    return failure();
  TransposeKind transpose = TransposeKind::NO_TRANSPOSE;
  if (const Attr *t = instr.attr("transpose_a")) {
    llvm::StringRef text;
    if (failed(AttrParser(*t, locator_).word(text)))
      return failure();
    auto kind = symbolizeTransposeKind(text);
    if (!kind) {
      error(t->valueLoc) << "unknown transpose_a '" << text
                         << "' (NO_TRANSPOSE, TRANSPOSE or ADJOINT)";
      return failure();
    }
    transpose = *kind;
  }
  result.leaves.push_back(b_.create<TriangularSolveOp>(
      opLoc(instr), in->type, in->values[0], in->values[1], *leftSide, *lower,
      *unitDiagonal, transpose));
  return success();
}

LogicalResult Importer::emitFft(const Instruction &instr, Operands operands,
                                HloValue &result) {
  auto in = arrays(instr, operands, 1);
  const Attr *typeAttr = requireAttr(instr, "fft_type");
  auto length = listAttr(instr, "fft_length", /*required=*/true);
  if (failed(in) || !typeAttr || failed(length))
    return failure();
  llvm::StringRef text;
  if (failed(AttrParser(*typeAttr, locator_).word(text)))
    return failure();
  auto type = symbolizeFftType(text);
  if (!type) {
    error(typeAttr->valueLoc)
        << "unknown fft_type '" << text << "' (FFT, IFFT, RFFT or IRFFT)";
    return failure();
  }
  result.leaves.push_back(b_.create<FftOp>(opLoc(instr), in->type,
                                           in->values[0], *type,
                                           b_.getDenseI64ArrayAttr(*length)));
  return success();
}

} // namespace mlir::torus::hlo
