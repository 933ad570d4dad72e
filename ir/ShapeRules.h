//===- ShapeRules.h - Result shapes of torus ops ----------------*- C++ -*-===//
//
// The shape rules of the ops that change shape, in one place: op verifiers
// use them to check a result type, and the tracer to compute one. Each
// returns failure() and sets `error` to a message naming the offending
// dimension and both shapes.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_SHAPERULES_H
#define TORUS_IR_SHAPERULES_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::torus {

using ShapeVec = llvm::SmallVector<int64_t>;

/// `[2,3]` for error messages.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

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

/// Checks that `groups` (rows of replica ids) are non-negative and disjoint.
LogicalResult checkReplicaGroups(llvm::ArrayRef<int64_t> flatGroups,
                                 int64_t groupSize, std::string &error);

} // namespace mlir::torus

#endif // TORUS_IR_SHAPERULES_H
