//===- ShapeRules.h - Result shapes of torus ops ----------------*- C++ -*-===//
//
// The shape rules of the ops that change shape, in one place: op verifiers
// use them to check a result type, op builders and the tracer to compute
// one. Each returns failure() and sets `error` to a message naming the
// offending dimension and the shapes involved. No MLIR types: shapes are
// plain integer lists, so the tracer can call these before building IR.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_SHAPERULES_H
#define TORUS_IR_SHAPERULES_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>

namespace mlir::torus {

using ShapeVec = llvm::SmallVector<int64_t>;
using PaddingPairs = llvm::ArrayRef<std::pair<int64_t, int64_t>>;

/// `[2,3]` for error messages.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Checks `dims` are in `[0, rank)` and distinct; `what` names them in the
/// message ("reduced dimension 3 is out of range for rank 2").
LogicalResult checkDimList(llvm::ArrayRef<int64_t> dims, int64_t rank,
                           llvm::StringRef what, std::string &error);

FailureOr<ShapeVec> inferDotGeneralShape(llvm::ArrayRef<int64_t> lhs,
                                         llvm::ArrayRef<int64_t> rhs,
                                         llvm::ArrayRef<int64_t> lhsBatch,
                                         llvm::ArrayRef<int64_t> rhsBatch,
                                         llvm::ArrayRef<int64_t> lhsContract,
                                         llvm::ArrayRef<int64_t> rhsContract,
                                         std::string &error);

FailureOr<ShapeVec> inferReduceShape(llvm::ArrayRef<int64_t> operand,
                                     llvm::ArrayRef<int64_t> dims,
                                     std::string &error);

FailureOr<ShapeVec> inferTransposeShape(llvm::ArrayRef<int64_t> operand,
                                        llvm::ArrayRef<int64_t> permutation,
                                        std::string &error);

LogicalResult checkBroadcastInDim(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> result,
                                  llvm::ArrayRef<int64_t> dims,
                                  std::string &error);

/// HLO `slice`: `0 <= start <= limit <= size`, strides > 0.
FailureOr<ShapeVec> inferSliceShape(llvm::ArrayRef<int64_t> operand,
                                    llvm::ArrayRef<int64_t> start,
                                    llvm::ArrayRef<int64_t> limit,
                                    llvm::ArrayRef<int64_t> strides,
                                    std::string &error);

/// HLO `dynamic-slice`: one start index per dimension, `0 <= size <= dim`.
FailureOr<ShapeVec> inferDynamicSliceShape(llvm::ArrayRef<int64_t> operand,
                                           int64_t numStartIndices,
                                           llvm::ArrayRef<int64_t> sliceSizes,
                                           std::string &error);

/// HLO `dynamic-update-slice`: same rank, update no larger than operand.
LogicalResult checkDynamicUpdateSlice(llvm::ArrayRef<int64_t> operand,
                                      llvm::ArrayRef<int64_t> update,
                                      int64_t numStartIndices,
                                      std::string &error);

FailureOr<ShapeVec> inferConcatenateShape(llvm::ArrayRef<ShapeVec> inputs,
                                          int64_t dimension,
                                          std::string &error);

/// HLO `pad`; edge padding may be negative, interior padding may not.
FailureOr<ShapeVec> inferPadShape(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> low,
                                  llvm::ArrayRef<int64_t> high,
                                  llvm::ArrayRef<int64_t> interior,
                                  std::string &error);

LogicalResult checkIota(llvm::ArrayRef<int64_t> shape, int64_t dimension,
                        std::string &error);

/// HLO `reduce-window`; empty strides/dilations mean 1s, empty padding 0s.
FailureOr<ShapeVec> inferReduceWindowShape(
    llvm::ArrayRef<int64_t> operand, llvm::ArrayRef<int64_t> window,
    llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> baseDilations,
    llvm::ArrayRef<int64_t> windowDilations, PaddingPairs padding,
    std::string &error);

/// HLO ConvDimensionNumbers, as plain integers.
struct ConvDims {
  int64_t inputBatch = 0, inputFeature = 0;
  ShapeVec inputSpatial;
  int64_t kernelInputFeature = 0, kernelOutputFeature = 0;
  ShapeVec kernelSpatial;
  int64_t outputBatch = 0, outputFeature = 0;
  ShapeVec outputSpatial;
};

/// HLO `convolution`; empty strides/dilations mean 1s, empty padding 0s.
FailureOr<ShapeVec> inferConvolutionShape(
    llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
    const ConvDims &dims, llvm::ArrayRef<int64_t> strides,
    PaddingPairs padding, llvm::ArrayRef<int64_t> lhsDilation,
    llvm::ArrayRef<int64_t> rhsDilation, int64_t featureGroupCount,
    int64_t batchGroupCount, std::string &error);

/// HLO GatherDimensionNumbers (without the batching dimensions).
struct GatherDims {
  ShapeVec offsetDims, collapsedSliceDims, startIndexMap;
  int64_t indexVectorDim = 0;
};

FailureOr<ShapeVec> inferGatherShape(llvm::ArrayRef<int64_t> operand,
                                     llvm::ArrayRef<int64_t> indices,
                                     const GatherDims &dims,
                                     llvm::ArrayRef<int64_t> sliceSizes,
                                     std::string &error);

/// HLO ScatterDimensionNumbers (without the batching dimensions).
struct ScatterDims {
  ShapeVec updateWindowDims, insertedWindowDims, scatterDimsToOperandDims;
  int64_t indexVectorDim = 0;
};

LogicalResult checkScatter(llvm::ArrayRef<int64_t> operand,
                           llvm::ArrayRef<int64_t> indices,
                           llvm::ArrayRef<int64_t> updates,
                           const ScatterDims &dims, std::string &error);

/// Checks that `groups` (rows of replica ids) are non-negative and disjoint.
LogicalResult checkReplicaGroups(llvm::ArrayRef<int64_t> flatGroups,
                                 int64_t groupSize, std::string &error);

/// `operand` with dimension `dim` multiplied by `groupSize`.
FailureOr<ShapeVec> inferAllGatherShape(llvm::ArrayRef<int64_t> operand,
                                        int64_t dim, int64_t groupSize,
                                        std::string &error);
/// `operand` with dimension `dim` divided by `groupSize` (exactly).
FailureOr<ShapeVec> inferReduceScatterShape(llvm::ArrayRef<int64_t> operand,
                                            int64_t dim, int64_t groupSize,
                                            std::string &error);
FailureOr<ShapeVec> inferAllToAllShape(llvm::ArrayRef<int64_t> operand,
                                       int64_t splitDimension,
                                       int64_t concatDimension,
                                       int64_t splitCount, std::string &error);
/// HLO `triangular-solve`: `a` is `[..., m, m]`, `b` `[..., m, n]`
/// (`leftSide`) or `[..., n, m]` with `a`'s batch dimensions; the result
/// has `b`'s shape.
LogicalResult checkTriangularSolveShapes(llvm::ArrayRef<int64_t> a,
                                         llvm::ArrayRef<int64_t> b,
                                         bool leftSide, std::string &error);

/// What an HLO `fft` reads and writes: complex to complex (FFT, IFFT), real
/// to complex (RFFT) or complex to real (IRFFT).
enum class FftShapeKind { Complex, RealToComplex, ComplexToReal };
/// HLO `fft` over the last `length.size()` (1 to 3) dimensions: the
/// result's shape. RFFT keeps `n / 2 + 1` of the last dimension's `n`
/// frequencies, and IRFFT reads that many.
FailureOr<ShapeVec> inferFftShape(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> length,
                                  FftShapeKind kind, std::string &error);

/// Rows `[source, target]`: non-negative, no source or target twice.
LogicalResult checkSourceTargetPairs(llvm::ArrayRef<int64_t> flatPairs,
                                     std::string &error);

} // namespace mlir::torus

#endif // TORUS_IR_SHAPERULES_H
