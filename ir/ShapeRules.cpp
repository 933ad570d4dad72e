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

namespace {
/// Checks `dims` are in range for `rank` and distinct; `what` names them.
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
} // namespace

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

} // namespace mlir::torus
