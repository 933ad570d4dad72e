//===- ShapeRules.cpp - Result shapes of torus ops ------------------------===//

#include "ir/ShapeRules.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::torus {

std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::interleave(
      shape, [&](int64_t d) { s += std::to_string(d); }, [&] { s += ","; });
  return s + "]";
}

LogicalResult checkDimList(llvm::ArrayRef<int64_t> dims, int64_t rank,
                           llvm::StringRef what, std::string &error) {
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank) {
      error = llvm::formatv("{0} dimension {1} is out of range for rank {2}",
                            what, d, rank);
      return failure();
    }
    if (!seen.insert(d).second) {
      error = llvm::formatv("{0} dimension {1} appears twice", what, d);
      return failure();
    }
  }
  return success();
}

FailureOr<ShapeVec> inferDotGeneralShape(llvm::ArrayRef<int64_t> lhs,
                                         llvm::ArrayRef<int64_t> rhs,
                                         llvm::ArrayRef<int64_t> lhsBatch,
                                         llvm::ArrayRef<int64_t> rhsBatch,
                                         llvm::ArrayRef<int64_t> lhsContract,
                                         llvm::ArrayRef<int64_t> rhsContract,
                                         std::string &error) {
  int64_t lhsRank = lhs.size(), rhsRank = rhs.size();
  if (lhsBatch.size() != rhsBatch.size()) {
    error = llvm::formatv("lhs has {0} batching dimensions but rhs has {1}",
                          lhsBatch.size(), rhsBatch.size());
    return failure();
  }
  if (lhsContract.size() != rhsContract.size()) {
    error = llvm::formatv("lhs has {0} contracting dimensions but rhs has {1}",
                          lhsContract.size(), rhsContract.size());
    return failure();
  }
  llvm::SmallVector<int64_t> lhsAll(lhsBatch), rhsAll(rhsBatch);
  llvm::append_range(lhsAll, lhsContract);
  llvm::append_range(rhsAll, rhsContract);
  if (failed(checkDimList(lhsAll, lhsRank, "lhs batching/contracting", error)) ||
      failed(checkDimList(rhsAll, rhsRank, "rhs batching/contracting", error)))
    return failure();
  for (auto [l, r] : llvm::zip(lhsBatch, rhsBatch))
    if (lhs[l] != rhs[r]) {
      error = llvm::formatv(
          "batching dimension sizes differ: lhs dimension {0} is {1} but rhs "
          "dimension {2} is {3} (lhs {4}, rhs {5})",
          l, lhs[l], r, rhs[r], formatShape(lhs), formatShape(rhs));
      return failure();
    }
  for (auto [l, r] : llvm::zip(lhsContract, rhsContract))
    if (lhs[l] != rhs[r]) {
      error = llvm::formatv(
          "contracting dimension sizes differ: lhs dimension {0} is {1} but "
          "rhs dimension {2} is {3} (lhs {4}, rhs {5})",
          l, lhs[l], r, rhs[r], formatShape(lhs), formatShape(rhs));
      return failure();
    }
  ShapeVec result;
  for (int64_t l : lhsBatch)
    result.push_back(lhs[l]);
  for (int64_t d = 0; d < lhsRank; ++d)
    if (!llvm::is_contained(lhsAll, d))
      result.push_back(lhs[d]);
  for (int64_t d = 0; d < rhsRank; ++d)
    if (!llvm::is_contained(rhsAll, d))
      result.push_back(rhs[d]);
  return result;
}

FailureOr<ShapeVec> inferReduceShape(llvm::ArrayRef<int64_t> operand,
                                     llvm::ArrayRef<int64_t> dims,
                                     std::string &error) {
  if (failed(checkDimList(dims, operand.size(), "reduced", error))) {
    error += " (operand " + formatShape(operand) + ")";
    return failure();
  }
  ShapeVec result;
  for (int64_t d = 0, e = operand.size(); d < e; ++d)
    if (!llvm::is_contained(dims, d))
      result.push_back(operand[d]);
  return result;
}

FailureOr<ShapeVec> inferTransposeShape(llvm::ArrayRef<int64_t> operand,
                                        llvm::ArrayRef<int64_t> permutation,
                                        std::string &error) {
  if (permutation.size() != operand.size()) {
    error = llvm::formatv("permutation has {0} entries but the operand {1} "
                          "has rank {2}",
                          permutation.size(), formatShape(operand),
                          operand.size());
    return failure();
  }
  if (failed(checkDimList(permutation, operand.size(), "permuted", error)))
    return failure();
  ShapeVec result;
  for (int64_t p : permutation)
    result.push_back(operand[p]);
  return result;
}

LogicalResult checkBroadcastInDim(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> result,
                                  llvm::ArrayRef<int64_t> dims,
                                  std::string &error) {
  if (dims.size() != operand.size()) {
    error = llvm::formatv("broadcast_dimensions has {0} entries but the "
                          "operand {1} has rank {2}",
                          dims.size(), formatShape(operand), operand.size());
    return failure();
  }
  if (failed(checkDimList(dims, result.size(), "broadcast", error)))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims))
    if (operand[i] != 1 && operand[i] != result[d]) {
      error = llvm::formatv("operand dimension {0} of size {1} cannot "
                            "broadcast to result dimension {2} of size {3} "
                            "(operand {4}, result {5})",
                            i, operand[i], d, result[d], formatShape(operand),
                            formatShape(result));
      return failure();
    }
  return success();
}

LogicalResult checkReplicaGroups(llvm::ArrayRef<int64_t> flatGroups,
                                 int64_t groupSize, std::string &error) {
  llvm::SmallDenseSet<int64_t> seen;
  for (auto [i, id] : llvm::enumerate(flatGroups)) {
    if (id < 0) {
      error = llvm::formatv("replica id {0} in group {1} is negative", id,
                            i / groupSize);
      return failure();
    }
    if (!seen.insert(id).second) {
      error = llvm::formatv("replica {0} appears in more than one place in "
                            "replica_groups",
                            id);
      return failure();
    }
  }
  return success();
}

namespace {
/// Checks that `what` has one entry per dimension of `shape` (or is empty
/// when `emptyOk`).
LogicalResult checkPerDim(llvm::ArrayRef<int64_t> shape, size_t count,
                          llvm::StringRef what, bool emptyOk,
                          std::string &error) {
  if ((emptyOk && count == 0) || count == shape.size())
    return success();
  error = llvm::formatv("{0} has {1} entries but the operand {2} has rank {3}",
                        what, count, formatShape(shape), shape.size());
  return failure();
}

/// Checks every entry of `values` is at least `min`.
LogicalResult checkAtLeast(llvm::ArrayRef<int64_t> values, int64_t min,
                           llvm::StringRef what, std::string &error) {
  for (auto [i, v] : llvm::enumerate(values))
    if (v < min) {
      error = llvm::formatv("{0} {1} is {2}; it must be at least {3}", what, i,
                            v, min);
      return failure();
    }
  return success();
}

/// Checks `dims` is sorted ascending (HLO requires it of several lists).
LogicalResult checkSorted(llvm::ArrayRef<int64_t> dims, llvm::StringRef what,
                          std::string &error) {
  if (llvm::is_sorted(dims))
    return success();
  error = llvm::formatv("{0} [{1}] must be sorted", what,
                        llvm::make_range(dims.begin(), dims.end()));
  return failure();
}

/// (in - 1) * dilation + 1, or 0 for an empty dimension.
int64_t dilatedSize(int64_t size, int64_t dilation) {
  return size == 0 ? 0 : (size - 1) * dilation + 1;
}

/// Number of window positions: floor((padded - window) / stride) + 1, or 0.
int64_t windowCount(int64_t padded, int64_t window, int64_t stride) {
  if (padded < window)
    return 0;
  return (padded - window) / stride + 1;
}
} // namespace

FailureOr<ShapeVec> inferSliceShape(llvm::ArrayRef<int64_t> operand,
                                    llvm::ArrayRef<int64_t> start,
                                    llvm::ArrayRef<int64_t> limit,
                                    llvm::ArrayRef<int64_t> strides,
                                    std::string &error) {
  if (failed(checkPerDim(operand, start.size(), "start_indices", false,
                         error)) ||
      failed(checkPerDim(operand, limit.size(), "limit_indices", false,
                         error)) ||
      failed(checkPerDim(operand, strides.size(), "strides", false, error)))
    return failure();
  ShapeVec result;
  for (size_t d = 0; d < operand.size(); ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > operand[d]) {
      error = llvm::formatv(
          "dimension {0}: slice [{1}, {2}) is not within [0, {3}] "
          "(operand {4})",
          d, start[d], limit[d], operand[d], formatShape(operand));
      return failure();
    }
    if (strides[d] <= 0) {
      error = llvm::formatv("dimension {0}: stride {1} must be positive", d,
                            strides[d]);
      return failure();
    }
    result.push_back(llvm::divideCeil(limit[d] - start[d], strides[d]));
  }
  return result;
}

FailureOr<ShapeVec> inferDynamicSliceShape(llvm::ArrayRef<int64_t> operand,
                                           int64_t numStartIndices,
                                           llvm::ArrayRef<int64_t> sliceSizes,
                                           std::string &error) {
  if (numStartIndices != static_cast<int64_t>(operand.size())) {
    error = llvm::formatv("{0} start indices for the operand {1} of rank {2}",
                          numStartIndices, formatShape(operand),
                          operand.size());
    return failure();
  }
  if (failed(checkPerDim(operand, sliceSizes.size(), "slice_sizes", false,
                         error)))
    return failure();
  for (size_t d = 0; d < operand.size(); ++d)
    if (sliceSizes[d] < 0 || sliceSizes[d] > operand[d]) {
      error = llvm::formatv("dimension {0}: slice size {1} is not within "
                            "[0, {2}] (operand {3})",
                            d, sliceSizes[d], operand[d],
                            formatShape(operand));
      return failure();
    }
  return ShapeVec(sliceSizes.begin(), sliceSizes.end());
}

LogicalResult checkDynamicUpdateSlice(llvm::ArrayRef<int64_t> operand,
                                      llvm::ArrayRef<int64_t> update,
                                      int64_t numStartIndices,
                                      std::string &error) {
  if (update.size() != operand.size()) {
    error = llvm::formatv("update {0} and operand {1} differ in rank",
                          formatShape(update), formatShape(operand));
    return failure();
  }
  if (numStartIndices != static_cast<int64_t>(operand.size())) {
    error = llvm::formatv("{0} start indices for the operand {1} of rank {2}",
                          numStartIndices, formatShape(operand),
                          operand.size());
    return failure();
  }
  for (size_t d = 0; d < operand.size(); ++d)
    if (update[d] > operand[d]) {
      error = llvm::formatv("dimension {0}: update {1} is larger than the "
                            "operand {2}",
                            d, formatShape(update), formatShape(operand));
      return failure();
    }
  return success();
}

FailureOr<ShapeVec> inferConcatenateShape(llvm::ArrayRef<ShapeVec> inputs,
                                          int64_t dimension,
                                          std::string &error) {
  if (inputs.empty()) {
    error = "needs at least one input";
    return failure();
  }
  ShapeVec result = inputs[0];
  int64_t rank = result.size();
  if (dimension < 0 || dimension >= rank) {
    error = llvm::formatv("dimension {0} is out of range for rank {1}",
                          dimension, rank);
    return failure();
  }
  for (size_t i = 1; i < inputs.size(); ++i) {
    const ShapeVec &s = inputs[i];
    if (static_cast<int64_t>(s.size()) != rank) {
      error = llvm::formatv("input {0} {1} differs in rank from input 0 {2}",
                            i, formatShape(s), formatShape(inputs[0]));
      return failure();
    }
    for (int64_t d = 0; d < rank; ++d)
      if (d != dimension && s[d] != inputs[0][d]) {
        error = llvm::formatv("dimension {0}: input {1} {2} differs from "
                              "input 0 {3}",
                              d, i, formatShape(s), formatShape(inputs[0]));
        return failure();
      }
    result[dimension] += s[dimension];
  }
  return result;
}

FailureOr<ShapeVec> inferPadShape(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> low,
                                  llvm::ArrayRef<int64_t> high,
                                  llvm::ArrayRef<int64_t> interior,
                                  std::string &error) {
  if (failed(checkPerDim(operand, low.size(), "edge_padding_low", false,
                         error)) ||
      failed(checkPerDim(operand, high.size(), "edge_padding_high", false,
                         error)) ||
      failed(checkPerDim(operand, interior.size(), "interior_padding", false,
                         error)) ||
      failed(checkAtLeast(interior, 0, "interior padding of dimension",
                          error)))
    return failure();
  ShapeVec result;
  for (size_t d = 0; d < operand.size(); ++d) {
    int64_t size = low[d] + dilatedSize(operand[d], interior[d] + 1) + high[d];
    if (size < 0) {
      error = llvm::formatv("dimension {0}: padding ({1}, {2}, interior {3}) "
                            "leaves a negative size {4} (operand {5})",
                            d, low[d], high[d], interior[d], size,
                            formatShape(operand));
      return failure();
    }
    result.push_back(size);
  }
  return result;
}

LogicalResult checkIota(llvm::ArrayRef<int64_t> shape, int64_t dimension,
                        std::string &error) {
  if (dimension >= 0 && dimension < static_cast<int64_t>(shape.size()))
    return success();
  error = llvm::formatv("iota_dimension {0} is out of range for the result "
                        "{1} of rank {2}",
                        dimension, formatShape(shape), shape.size());
  return failure();
}

FailureOr<ShapeVec> inferReduceWindowShape(
    llvm::ArrayRef<int64_t> operand, llvm::ArrayRef<int64_t> window,
    llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> baseDilations,
    llvm::ArrayRef<int64_t> windowDilations, PaddingPairs padding,
    std::string &error) {
  if (failed(checkPerDim(operand, window.size(), "window_dimensions", false,
                         error)) ||
      failed(checkPerDim(operand, strides.size(), "window_strides", true,
                         error)) ||
      failed(checkPerDim(operand, baseDilations.size(), "base_dilations", true,
                         error)) ||
      failed(checkPerDim(operand, windowDilations.size(), "window_dilations",
                         true, error)) ||
      failed(checkPerDim(operand, padding.size(), "padding", true, error)) ||
      failed(checkAtLeast(window, 1, "window dimension", error)) ||
      failed(checkAtLeast(strides, 1, "window stride", error)) ||
      failed(checkAtLeast(baseDilations, 1, "base dilation", error)) ||
      failed(checkAtLeast(windowDilations, 1, "window dilation", error)))
    return failure();
  ShapeVec result;
  for (size_t d = 0; d < operand.size(); ++d) {
    int64_t stride = strides.empty() ? 1 : strides[d];
    int64_t base = baseDilations.empty() ? 1 : baseDilations[d];
    int64_t wdil = windowDilations.empty() ? 1 : windowDilations[d];
    auto [lo, hi] = padding.empty() ? std::pair<int64_t, int64_t>{0, 0}
                                    : padding[d];
    int64_t padded = lo + dilatedSize(operand[d], base) + hi;
    if (padded < 0) {
      error = llvm::formatv("dimension {0}: padding ({1}, {2}) leaves a "
                            "negative size (operand {3})",
                            d, lo, hi, formatShape(operand));
      return failure();
    }
    result.push_back(windowCount(padded, dilatedSize(window[d], wdil),
                                 stride));
  }
  return result;
}

namespace {
/// Checks that the batch, feature and spatial dimensions of one convolution
/// operand name each of its `rank` dimensions exactly once.
LogicalResult checkConvLayout(llvm::StringRef what, int64_t rank,
                              int64_t batch, int64_t feature,
                              llvm::ArrayRef<int64_t> spatial,
                              std::string &error) {
  ShapeVec all = {batch, feature};
  llvm::append_range(all, spatial);
  if (static_cast<int64_t>(all.size()) != rank) {
    error = llvm::formatv("dimension_numbers name {0} {1} dimensions but it "
                          "has rank {2}",
                          all.size(), what, rank);
    return failure();
  }
  return checkDimList(all, rank, (what + " layout").str(), error);
}
} // namespace

FailureOr<ShapeVec> inferConvolutionShape(
    llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
    const ConvDims &dims, llvm::ArrayRef<int64_t> strides,
    PaddingPairs padding, llvm::ArrayRef<int64_t> lhsDilation,
    llvm::ArrayRef<int64_t> rhsDilation, int64_t featureGroupCount,
    int64_t batchGroupCount, std::string &error) {
  int64_t rank = lhs.size();
  int64_t numSpatial = dims.inputSpatial.size();
  if (static_cast<int64_t>(rhs.size()) != rank) {
    error = llvm::formatv("input {0} and kernel {1} differ in rank",
                          formatShape(lhs), formatShape(rhs));
    return failure();
  }
  if (static_cast<int64_t>(dims.kernelSpatial.size()) != numSpatial ||
      static_cast<int64_t>(dims.outputSpatial.size()) != numSpatial) {
    error = "dimension_numbers give input, kernel and output different "
            "numbers of spatial dimensions";
    return failure();
  }
  if (failed(checkConvLayout("input", rank, dims.inputBatch,
                             dims.inputFeature, dims.inputSpatial, error)) ||
      failed(checkConvLayout("kernel", rank, dims.kernelInputFeature,
                             dims.kernelOutputFeature, dims.kernelSpatial,
                             error)) ||
      failed(checkConvLayout("output", rank, dims.outputBatch,
                             dims.outputFeature, dims.outputSpatial, error)))
    return failure();
  auto perSpatial = [&](size_t count, llvm::StringRef what) {
    if (count == 0 || static_cast<int64_t>(count) == numSpatial)
      return success();
    error = llvm::formatv("{0} has {1} entries for {2} spatial dimensions",
                          what, count, numSpatial);
    return failure();
  };
  if (failed(perSpatial(strides.size(), "window_strides")) ||
      failed(perSpatial(padding.size(), "padding")) ||
      failed(perSpatial(lhsDilation.size(), "lhs_dilation")) ||
      failed(perSpatial(rhsDilation.size(), "rhs_dilation")) ||
      failed(checkAtLeast(strides, 1, "window stride", error)) ||
      failed(checkAtLeast(lhsDilation, 1, "lhs dilation", error)) ||
      failed(checkAtLeast(rhsDilation, 1, "rhs dilation", error)))
    return failure();
  if (featureGroupCount < 1 || batchGroupCount < 1) {
    error = llvm::formatv("feature_group_count {0} and batch_group_count {1} "
                          "must be positive",
                          featureGroupCount, batchGroupCount);
    return failure();
  }
  if (featureGroupCount > 1 && batchGroupCount > 1) {
    error = "feature_group_count and batch_group_count cannot both exceed 1";
    return failure();
  }
  int64_t batch = lhs[dims.inputBatch];
  int64_t inFeatures = lhs[dims.inputFeature];
  int64_t kernelIn = rhs[dims.kernelInputFeature];
  int64_t outFeatures = rhs[dims.kernelOutputFeature];
  if (inFeatures % featureGroupCount != 0 ||
      inFeatures / featureGroupCount != kernelIn) {
    error = llvm::formatv(
        "input feature dimension {0} has size {1}, which is not the kernel's "
        "input feature size {2} times feature_group_count {3} (input {4}, "
        "kernel {5})",
        dims.inputFeature, inFeatures, kernelIn, featureGroupCount,
        formatShape(lhs), formatShape(rhs));
    return failure();
  }
  if (outFeatures % featureGroupCount != 0) {
    error = llvm::formatv("kernel output feature size {0} is not a multiple "
                          "of feature_group_count {1} (kernel {2})",
                          outFeatures, featureGroupCount, formatShape(rhs));
    return failure();
  }
  if (batch % batchGroupCount != 0 || outFeatures % batchGroupCount != 0) {
    error = llvm::formatv("input batch size {0} and kernel output feature "
                          "size {1} must be multiples of batch_group_count "
                          "{2} (input {3}, kernel {4})",
                          batch, outFeatures, batchGroupCount,
                          formatShape(lhs), formatShape(rhs));
    return failure();
  }
  ShapeVec result(rank, 0);
  result[dims.outputBatch] = batch / batchGroupCount;
  result[dims.outputFeature] = outFeatures;
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t in = lhs[dims.inputSpatial[i]];
    int64_t k = rhs[dims.kernelSpatial[i]];
    int64_t stride = strides.empty() ? 1 : strides[i];
    int64_t ld = lhsDilation.empty() ? 1 : lhsDilation[i];
    int64_t rd = rhsDilation.empty() ? 1 : rhsDilation[i];
    auto [lo, hi] = padding.empty() ? std::pair<int64_t, int64_t>{0, 0}
                                    : padding[i];
    int64_t padded = lo + dilatedSize(in, ld) + hi;
    if (padded < 0) {
      error = llvm::formatv("spatial dimension {0}: padding ({1}, {2}) "
                            "leaves a negative input size (input {3})",
                            i, lo, hi, formatShape(lhs));
      return failure();
    }
    result[dims.outputSpatial[i]] =
        windowCount(padded, dilatedSize(k, rd), stride);
  }
  return result;
}

namespace {
/// Batch dimensions of gather/scatter indices: every dimension but
/// `indexVectorDim` (which may equal the rank, meaning an implicit 1).
ShapeVec indexBatchShape(llvm::ArrayRef<int64_t> indices,
                         int64_t indexVectorDim) {
  ShapeVec batch;
  for (int64_t d = 0, e = indices.size(); d < e; ++d)
    if (d != indexVectorDim)
      batch.push_back(indices[d]);
  return batch;
}

LogicalResult checkIndexVectorDim(llvm::ArrayRef<int64_t> indices,
                                  int64_t indexVectorDim,
                                  std::string &error) {
  if (indexVectorDim >= 0 &&
      indexVectorDim <= static_cast<int64_t>(indices.size()))
    return success();
  error = llvm::formatv("index_vector_dim {0} is out of range for the "
                        "indices {1} (0 to {2})",
                        indexVectorDim, formatShape(indices), indices.size());
  return failure();
}

int64_t indexVectorSize(llvm::ArrayRef<int64_t> indices,
                        int64_t indexVectorDim) {
  return indexVectorDim == static_cast<int64_t>(indices.size())
             ? 1
             : indices[indexVectorDim];
}
} // namespace

FailureOr<ShapeVec> inferGatherShape(llvm::ArrayRef<int64_t> operand,
                                     llvm::ArrayRef<int64_t> indices,
                                     const GatherDims &dims,
                                     llvm::ArrayRef<int64_t> sliceSizes,
                                     std::string &error) {
  int64_t rank = operand.size();
  if (failed(checkIndexVectorDim(indices, dims.indexVectorDim, error)) ||
      failed(checkPerDim(operand, sliceSizes.size(), "slice_sizes", false,
                         error)) ||
      failed(checkDimList(dims.collapsedSliceDims, rank,
                          "collapsed_slice_dims", error)) ||
      failed(checkSorted(dims.collapsedSliceDims, "collapsed_slice_dims",
                         error)) ||
      failed(checkDimList(dims.startIndexMap, rank, "start_index_map",
                          error)) ||
      failed(checkSorted(dims.offsetDims, "offset_dims", error)))
    return failure();
  int64_t vectorSize = indexVectorSize(indices, dims.indexVectorDim);
  if (static_cast<int64_t>(dims.startIndexMap.size()) != vectorSize) {
    error = llvm::formatv("start_index_map has {0} entries but the index "
                          "vectors of the indices {1} (index_vector_dim {2}) "
                          "have {3}",
                          dims.startIndexMap.size(), formatShape(indices),
                          dims.indexVectorDim, vectorSize);
    return failure();
  }
  for (int64_t d = 0; d < rank; ++d)
    if (sliceSizes[d] < 0 || sliceSizes[d] > operand[d]) {
      error = llvm::formatv("slice size {0} of dimension {1} is not within "
                            "[0, {2}] (operand {3})",
                            sliceSizes[d], d, operand[d], formatShape(operand));
      return failure();
    }
  for (int64_t d : dims.collapsedSliceDims)
    if (sliceSizes[d] > 1) {
      error = llvm::formatv("collapsed slice dimension {0} has slice size "
                            "{1}; it must be at most 1",
                            d, sliceSizes[d]);
      return failure();
    }
  ShapeVec window;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims.collapsedSliceDims, d))
      window.push_back(sliceSizes[d]);
  if (dims.offsetDims.size() != window.size()) {
    error = llvm::formatv("offset_dims has {0} entries but the slice keeps "
                          "{1} dimensions (operand rank {2} minus {3} "
                          "collapsed)",
                          dims.offsetDims.size(), window.size(), rank,
                          dims.collapsedSliceDims.size());
    return failure();
  }
  ShapeVec batch = indexBatchShape(indices, dims.indexVectorDim);
  int64_t outRank = batch.size() + window.size();
  if (failed(checkDimList(dims.offsetDims, outRank, "offset", error)))
    return failure();
  ShapeVec result;
  size_t nextBatch = 0, nextWindow = 0;
  for (int64_t d = 0; d < outRank; ++d)
    result.push_back(llvm::is_contained(dims.offsetDims, d)
                         ? window[nextWindow++]
                         : batch[nextBatch++]);
  return result;
}

LogicalResult checkScatter(llvm::ArrayRef<int64_t> operand,
                           llvm::ArrayRef<int64_t> indices,
                           llvm::ArrayRef<int64_t> updates,
                           const ScatterDims &dims, std::string &error) {
  int64_t rank = operand.size();
  if (failed(checkIndexVectorDim(indices, dims.indexVectorDim, error)))
    return failure();
  ShapeVec batch = indexBatchShape(indices, dims.indexVectorDim);
  if (updates.size() != batch.size() + dims.updateWindowDims.size()) {
    error = llvm::formatv("updates {0} should have rank {1}: {2} scatter "
                          "dimensions of the indices {3} plus {4} window "
                          "dimensions",
                          formatShape(updates),
                          batch.size() + dims.updateWindowDims.size(),
                          batch.size(), formatShape(indices),
                          dims.updateWindowDims.size());
    return failure();
  }
  if (failed(checkDimList(dims.updateWindowDims, updates.size(),
                          "update_window_dims", error)) ||
      failed(checkSorted(dims.updateWindowDims, "update_window_dims",
                         error)) ||
      failed(checkDimList(dims.insertedWindowDims, rank,
                          "inserted_window_dims", error)) ||
      failed(checkSorted(dims.insertedWindowDims, "inserted_window_dims",
                         error)) ||
      failed(checkDimList(dims.scatterDimsToOperandDims, rank,
                          "scatter_dims_to_operand_dims", error)))
    return failure();
  int64_t vectorSize = indexVectorSize(indices, dims.indexVectorDim);
  if (static_cast<int64_t>(dims.scatterDimsToOperandDims.size()) !=
      vectorSize) {
    error = llvm::formatv("scatter_dims_to_operand_dims has {0} entries but "
                          "the index vectors of the indices {1} "
                          "(index_vector_dim {2}) have {3}",
                          dims.scatterDimsToOperandDims.size(),
                          formatShape(indices), dims.indexVectorDim,
                          vectorSize);
    return failure();
  }
  if (static_cast<int64_t>(dims.updateWindowDims.size() +
                           dims.insertedWindowDims.size()) != rank) {
    error = llvm::formatv("update_window_dims ({0}) and inserted_window_dims "
                          "({1}) must together cover the operand {2} of rank "
                          "{3}",
                          dims.updateWindowDims.size(),
                          dims.insertedWindowDims.size(), formatShape(operand),
                          rank);
    return failure();
  }
  size_t nextBatch = 0, nextWindow = 0;
  ShapeVec windowOperandDims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims.insertedWindowDims, d))
      windowOperandDims.push_back(d);
  for (int64_t d = 0, e = updates.size(); d < e; ++d) {
    if (llvm::is_contained(dims.updateWindowDims, d)) {
      int64_t od = windowOperandDims[nextWindow++];
      if (updates[d] > operand[od]) {
        error = llvm::formatv("update window dimension {0} of size {1} is "
                              "larger than operand dimension {2} of size {3} "
                              "(updates {4}, operand {5})",
                              d, updates[d], od, operand[od],
                              formatShape(updates), formatShape(operand));
        return failure();
      }
    } else if (updates[d] != batch[nextBatch++]) {
      error = llvm::formatv("update scatter dimension {0} of size {1} differs "
                            "from the indices' batch dimension of size {2} "
                            "(updates {3}, indices {4})",
                            d, updates[d], batch[nextBatch - 1],
                            formatShape(updates), formatShape(indices));
      return failure();
    }
  }
  return success();
}

FailureOr<ShapeVec> inferAllGatherShape(llvm::ArrayRef<int64_t> operand,
                                        int64_t dim, int64_t groupSize,
                                        std::string &error) {
  if (dim < 0 || dim >= static_cast<int64_t>(operand.size())) {
    error = llvm::formatv("all_gather_dim {0} is out of range for the "
                          "operand {1}",
                          dim, formatShape(operand));
    return failure();
  }
  ShapeVec result(operand.begin(), operand.end());
  result[dim] *= groupSize;
  return result;
}

FailureOr<ShapeVec> inferReduceScatterShape(llvm::ArrayRef<int64_t> operand,
                                            int64_t dim, int64_t groupSize,
                                            std::string &error) {
  if (dim < 0 || dim >= static_cast<int64_t>(operand.size())) {
    error = llvm::formatv("scatter_dimension {0} is out of range for the "
                          "operand {1}",
                          dim, formatShape(operand));
    return failure();
  }
  if (groupSize < 1 || operand[dim] % groupSize != 0) {
    error = llvm::formatv("scatter dimension {0} of size {1} does not split "
                          "into {2} equal blocks (operand {3})",
                          dim, operand[dim], groupSize, formatShape(operand));
    return failure();
  }
  ShapeVec result(operand.begin(), operand.end());
  result[dim] /= groupSize;
  return result;
}

FailureOr<ShapeVec> inferAllToAllShape(llvm::ArrayRef<int64_t> operand,
                                       int64_t splitDimension,
                                       int64_t concatDimension,
                                       int64_t splitCount, std::string &error) {
  int64_t rank = operand.size();
  for (auto [name, d] : {std::pair<const char *, int64_t>{"split_dimension",
                                                          splitDimension},
                         {"concat_dimension", concatDimension}})
    if (d < 0 || d >= rank) {
      error = llvm::formatv("{0} {1} is out of range for the operand {2}",
                            name, d, formatShape(operand));
      return failure();
    }
  if (splitCount < 1 || operand[splitDimension] % splitCount != 0) {
    error = llvm::formatv("split dimension {0} of size {1} does not split "
                          "into split_count {2} equal blocks (operand {3})",
                          splitDimension, operand[splitDimension], splitCount,
                          formatShape(operand));
    return failure();
  }
  ShapeVec result(operand.begin(), operand.end());
  result[splitDimension] /= splitCount;
  result[concatDimension] *= splitCount;
  return result;
}

LogicalResult checkSourceTargetPairs(llvm::ArrayRef<int64_t> flatPairs,
                                     std::string &error) {
  llvm::SmallDenseSet<int64_t> sources, targets;
  for (size_t i = 0; i + 1 < flatPairs.size(); i += 2) {
    int64_t s = flatPairs[i], t = flatPairs[i + 1];
    if (s < 0 || t < 0) {
      error = llvm::formatv("source_target_pairs row {0} [{1}, {2}] has a "
                            "negative replica id",
                            i / 2, s, t);
      return failure();
    }
    if (!sources.insert(s).second) {
      error = llvm::formatv("replica {0} is a source twice in "
                            "source_target_pairs",
                            s);
      return failure();
    }
    if (!targets.insert(t).second) {
      error = llvm::formatv("replica {0} is a target twice in "
                            "source_target_pairs",
                            t);
      return failure();
    }
  }
  return success();
}

LogicalResult checkTriangularSolveShapes(llvm::ArrayRef<int64_t> a,
                                         llvm::ArrayRef<int64_t> b,
                                         bool leftSide, std::string &error) {
  if (a.size() < 2 || a.size() != b.size()) {
    error = llvm::formatv("a {0} and b {1} must have one rank, at least 2",
                          formatShape(a), formatShape(b));
    return failure();
  }
  int64_t rank = a.size();
  if (a[rank - 1] != a[rank - 2]) {
    error = llvm::formatv("a {0} is not square in its last two dimensions",
                          formatShape(a));
    return failure();
  }
  if (a.drop_back(2) != b.drop_back(2)) {
    error = llvm::formatv("batch dimensions of a {0} and b {1} differ",
                          formatShape(a), formatShape(b));
    return failure();
  }
  int64_t solved = leftSide ? rank - 2 : rank - 1;
  if (b[solved] != a[rank - 1]) {
    error = llvm::formatv(
        "b {0} must have {1} {2} (a is {3}) to be solved from the {4}",
        formatShape(b), a[rank - 1], leftSide ? "rows" : "columns",
        formatShape(a), leftSide ? "left" : "right");
    return failure();
  }
  return success();
}

FailureOr<ShapeVec> inferFftShape(llvm::ArrayRef<int64_t> operand,
                                  llvm::ArrayRef<int64_t> length,
                                  FftShapeKind kind, std::string &error) {
  int64_t k = length.size(), rank = operand.size();
  if (k < 1 || k > 3) {
    error = llvm::formatv("fft_length has {0} entries; an fft transforms 1 "
                          "to 3 dimensions",
                          k);
    return failure();
  }
  if (rank < k) {
    error = llvm::formatv("operand {0} has fewer than the {1} dimensions of "
                          "fft_length {2}",
                          formatShape(operand), k, formatShape(length));
    return failure();
  }
  for (int64_t n : length)
    if (n < 0) {
      error = llvm::formatv("fft_length {0} is negative", formatShape(length));
      return failure();
    }
  // The last dimension of the complex side of RFFT and IRFFT.
  int64_t last = length.back(), half = last == 0 ? 0 : last / 2 + 1;
  ShapeVec result(operand);
  for (int64_t i = 0; i < k; ++i) {
    int64_t d = rank - k + i;
    int64_t want =
        kind == FftShapeKind::ComplexToReal && i == k - 1 ? half : length[i];
    if (operand[d] != want) {
      error = llvm::formatv(
          "operand {0} dimension {1} is {2} but fft_length {3} needs {4}",
          formatShape(operand), d, operand[d], formatShape(length), want);
      return failure();
    }
  }
  if (kind == FftShapeKind::RealToComplex)
    result.back() = half;
  if (kind == FftShapeKind::ComplexToReal)
    result.back() = last;
  return result;
}

} // namespace mlir::torus
