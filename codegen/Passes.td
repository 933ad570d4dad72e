//===- Passes.td - Lowering passes of the torus dialect ----*- tablegen -*-===//
#ifndef TORUS_CODEGEN_PASSES_TD
#define TORUS_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TorusLowerCollectives : Pass<"torus-lower-collectives", "ModuleOp"> {
  let summary = "Turn replica ids and collectives into runtime calls";
  let description = [{
    Generated code never synchronizes: every `torus.all_reduce` becomes a
    call to the runtime's `__torus_collective(index, in, out)` with pointers
    to its operand and a fresh result buffer, and `torus.replica_id` a call
    to `__torus_replica_id()`. The collective's description (kind, reduction,
    operand type, replica groups, source location) is recorded at `index` in
    the module attribute `torus.collectives`, which the compiler hands to the
    runtime next to the code.

    Before:
    ```mlir
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = torus.all_reduce sum %x : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    // The module gets the attribute
    //   torus.collectives = [ {kind = "all_reduce", loc = "f.mlir:2:8",
    //                          reduce = "sum", replica_groups = [],
    //                          type = tensor<4xf32>} ]
    module {
      func.func private @__torus_collective(i64, !llvm.ptr, !llvm.ptr)
      func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
        %in = bufferization.to_memref %x : memref<4xf32>
        %out = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
        ... extract both aligned pointers as !llvm.ptr ...
        %c0 = arith.constant 0 : i64
        call @__torus_collective(%c0, %pin, %pout) : (i64, !llvm.ptr, !llvm.ptr) -> ()
        %0 = bufferization.to_tensor %out restrict writable : memref<4xf32>
        return %0 : tensor<4xf32>
      }
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect"
  ];
}

def TorusToLinalg : Pass<"torus-to-linalg", "func::FuncOp"> {
  let summary = "Lower torus compute ops to linalg, tensor, arith and math";
  let description = [{
    Rewrites every compute op of the torus dialect as destination-passing
    linalg on tensors: elementwise ops and `broadcast_in_dim` become
    `linalg.generic` maps, `transpose` `linalg.transpose`, `reduce`
    `linalg.reduce` over a filled init, `dot_general` a `linalg.generic`
    whose iteration space is batch × lhs-free × rhs-free × contracting,
    `reshape` a collapse/expand pair, and constants `arith.constant`.
    Collectives must already be lowered (`torus-lower-collectives`).

    Before:
    ```mlir
    %0 = torus.add %a, %b : tensor<4xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel"]}
        ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // TORUS_CODEGEN_PASSES_TD
