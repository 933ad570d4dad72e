//===- BoolMemoryAsBytes.h - i1 loads and stores as bytes -------*- C++ -*-===//
//
// A pred buffer (memref<...xi1>) holds one byte per element, and the
// generated code reads it with `load i1`. LLVM's loop vectorizer cannot
// turn consecutive `load i1` into one vector load (a <16 x i1> is 16 bits
// in memory, not 16 bytes), so it loaded each byte alone and inserted it
// into a mask: attention's causal-mask kernel ran 16 scalar loads and 16
// inserts per 16 floats. This pass, run at the start of the -O pipeline,
// reads every i1 as its byte (`load i8`, then `icmp ne 0`) and writes it
// as one (`zext` to i8, `store i8`), which the vectorizer loads 64 at a
// time. Bytes other than 0 and 1 read as true, as a C++ bool or NumPy's
// would be taken.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_BOOLMEMORYASBYTES_H
#define TORUS_RUNTIME_JIT_BOOLMEMORYASBYTES_H

#include "llvm/IR/PassManager.h"

namespace torus::rt {

struct BoolMemoryAsBytesPass
    : public llvm::PassInfoMixin<BoolMemoryAsBytesPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_BOOLMEMORYASBYTES_H
