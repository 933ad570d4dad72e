//===- Passes.td - Lowering passes of the torus dialect ----*- tablegen -*-===//
#ifndef TORUS_CODEGEN_PASSES_TD
#define TORUS_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TorusLowerCollectives : Pass<"torus-lower-collectives", "ModuleOp"> {
  let summary = "Turn replica ids and collectives into runtime calls";
  let description = [{
    Generated code never synchronizes: every collective (`all_reduce`,
    `all_gather`, `reduce_scatter`, `all_to_all`, `collective_permute`)
    becomes a call to the runtime's `__torus_collective(index, in, out)`
    with pointers to its operand and a fresh result buffer, and
    `torus.replica_id` / `torus.partition_id` calls to
    `__torus_replica_id()` / `__torus_partition_id()`. The collective's
    description is recorded at `index` in the module attribute
    `torus.collectives`, which the compiler reads into
    `ProgramSpec::collectives`: always `kind`, `type` (the operand's) and
    `loc`; `reduce` and `replica_groups` for all_reduce; `result_type` for
    the others, plus `dimension` (all_gather's `all_gather_dim`,
    reduce_scatter's `scatter_dimension`), `reduce`, `split_dimension`,
    `concat_dimension`, `split_count`, `source_target_pairs` and
    `replica_groups` as the op has them.

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
  let summary = "Lower torus compute ops to linalg, tensor, arith, math and scf";
  let description = [{
    Rewrites every compute op of the torus dialect as destination-passing
    linalg on tensors, with HLO semantics per element type:

    - elementwise ops, `broadcast_in_dim`, `iota`, `reverse`: parallel
      `linalg.generic` maps (f16/bf16 computed in f32); `expm1`, `log1p`,
      `tanh` and `atan2` are expanded into accurate arith/math sequences;
    - `transpose`: `linalg.transpose`; `reshape`: a collapse/expand pair;
    - `slice`, `dynamic_slice`, `dynamic_update_slice`, `concatenate`,
      `pad`: `tensor.extract_slice`/`insert_slice` into filled tensors;
    - `reduce`: `linalg.reduce` over a filled init; `argmax`/`argmin` and
      `reduce_window`: `linalg.generic` with reduction loops;
    - `dot_general`, `convolution`: one `linalg.generic` each, parallel over
      the result, reducing over the contracted dimensions;
    - `gather`: a `linalg.generic` reading with `tensor.extract`;
      `scatter`: an `scf.for` nest with `tensor.insert`;
    - `while`, `if`, `case`, `call`: `scf.while`, `scf.if`,
      `scf.index_switch`, `func.call`;
    - `rng_bit_generator`: Threefry-2x32 in a `linalg.generic`;
    - constants: `arith.constant`.

    Collectives and ids must already be lowered (`torus-lower-collectives`).

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
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
}

def TorusUniqueResultBuffers : Pass<"torus-unique-result-buffers", "func::FuncOp"> {
  let summary = "Give every returned buffer an allocation of its own";
  let description = [{
    After bufferization a function may return one of its arguments, or the
    same buffer twice (`return %x` when a step passes a value through, or the
    gradient of `add`). Upstream `buffer-results-to-out-params` with
    `hoist-static-allocs`, which writes results straight into the caller's
    buffers, needs each result to be an allocation of its own (MLIR 19
    crashes otherwise). This pass copies every such result into a fresh
    allocation, which hoisting then turns into the out-parameter itself: one
    copy for exactly those results, none for the others.

    Before:
    ```mlir
    func.func @f(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
      return %a, %a : memref<4xf32>, memref<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%a: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
      %0 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      memref.copy %a, %0 : memref<4xf32> to memref<4xf32>
      %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      memref.copy %a, %1 : memref<4xf32> to memref<4xf32>
      return %0, %1 : memref<4xf32>, memref<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TorusStridedCopiesToLinalg
    : Pass<"torus-strided-copies-to-linalg", "func::FuncOp"> {
  let summary = "Lower copies between strided buffers to linalg.copy";
  let description = [{
    Bufferizing slices, pads and updates yields `memref.copy` between
    strided views. MemRef-to-LLVM lowers those to a call to `memrefCopy` from
    MLIR's C runner library, which generated code must not depend on (it runs
    without the compiler's libraries). This pass rewrites every copy whose
    operands are not both contiguous into `linalg.copy`, which becomes loops
    with the rest of linalg; contiguous copies stay and become `memcpy`.

    Before:
    ```mlir
    memref.copy %a, %view : memref<2x3xf32> to memref<2x3xf32, strided<[8, 2], offset: 1>>
    ```
    After:
    ```mlir
    linalg.copy ins(%a : memref<2x3xf32>) outs(%view : memref<2x3xf32, strided<[8, 2], offset: 1>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // TORUS_CODEGEN_PASSES_TD
