//===- Passes.h - Lowering passes of the torus dialect ----------*- C++ -*-===//
#ifndef TORUS_CODEGEN_PASSES_H
#define TORUS_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::torus {

#define GEN_PASS_DECL
#include "codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "codegen/Passes.h.inc"

/// Runtime functions generated code calls (see runtime/RuntimeAbi.h).
inline constexpr llvm::StringLiteral kReplicaIdFn = "__torus_replica_id";
inline constexpr llvm::StringLiteral kPartitionIdFn = "__torus_partition_id";
inline constexpr llvm::StringLiteral kCollectiveFn = "__torus_collective";
inline constexpr llvm::StringLiteral kWorkspaceFn = "__torus_workspace";

} // namespace mlir::torus

#endif // TORUS_CODEGEN_PASSES_H
