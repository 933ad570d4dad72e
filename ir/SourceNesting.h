//===- SourceNesting.h - Bounding the bracket nesting of text ---*- C++ -*-===//
//
// MLIR's parser recurses at every nesting level of a type, attribute or
// region: some 30,000 nested `(` or `tuple<` overflow an 8 MiB stack
// (SIGSEGV). Every reader of MLIR text (parseModule, the StableHLO reader,
// torusc and torus-run) first checks that brackets nest at most
// kMaxSourceNesting deep, far below what the stack can take and far above
// what programs use, and otherwise reports the first bracket too deep as
// `file:line:col: error: ...`.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_IR_SOURCENESTING_H
#define TORUS_IR_SOURCENESTING_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::torus {

/// The deepest nesting of `(`, `[`, `{` and `<` the readers accept.
inline constexpr int kMaxSourceNesting = 1000;

/// Checks the main buffer of `sourceMgr`: outside string literals and `//`
/// comments, brackets nest at most kMaxSourceNesting deep. Emits the error
/// on `context` at the first bracket past the limit.
LogicalResult checkSourceNesting(const llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context);

} // namespace mlir::torus

#endif // TORUS_IR_SOURCENESTING_H
