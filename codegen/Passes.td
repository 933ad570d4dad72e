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
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::complex::ComplexDialect"
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

    A result that is a reshape (`expand_shape`, `collapse_shape`) of an
    allocation the function returns in no other way needs no copy: the
    allocation takes the result's shape, and what wrote it writes the
    inverse reshape of it (a replica's updated weights f32[784, 512],
    returned as its shard f32[1, 784, 512]):

    ```mlir
    %a = memref.alloc() {alignment = 64 : i64} : memref<4x2xf32>
    memref.copy %x, %a : memref<4x2xf32> to memref<4x2xf32>
    %e = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 2]
        : memref<4x2xf32> into memref<1x4x2xf32>
    return %e : memref<1x4x2xf32>
    // becomes
    %w = memref.alloc() {alignment = 64 : i64} : memref<1x4x2xf32>
    %a = memref.collapse_shape %w [[0, 1], [2]]
        : memref<1x4x2xf32> into memref<4x2xf32>
    memref.copy %x, %a : memref<4x2xf32> to memref<4x2xf32>
    return %w : memref<1x4x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TorusTraceKernels : Pass<"torus-trace-kernels", "ModuleOp"> {
  let summary = "Mark where every kernel starts and ends, for run traces";
  let description = [{
    For `torus-run --trace` (and CompileOptions::kernelSpans): the ops of
    one kernel (consecutive top-level ops of a function body with the same
    `torus.kernel` name, as torus-fusion names them) are bracketed by calls
    to the runtime's `__torus_kernel_begin(name)` and
    `__torus_kernel_end()`, which record a span on the calling core's trace
    track (a test of one thread-local pointer when the run is not traced).
    The name is a constant string: the kernel's name and its first op's
    source location. Runs on bufferized code, before the kernel stage;
    nothing else changes.

    Before:
    ```mlir
    linalg.fill {torus.kernel = "fusion.0"} ins(%c : f32) outs(%v : memref<8x32xf32>)
    linalg.generic {..., torus.kernel = "fusion.1"} ...
    ```
    After:
    ```mlir
    call @__torus_kernel_begin(%name0) : (!llvm.ptr) -> ()
    linalg.fill {torus.kernel = "fusion.0"} ins(%c : f32) outs(%v : memref<8x32xf32>)
    call @__torus_kernel_end() : () -> ()
    call @__torus_kernel_begin(%name1) : (!llvm.ptr) -> ()
    linalg.generic {..., torus.kernel = "fusion.1"} ...
    call @__torus_kernel_end() : () -> ()
    ```
    where `%name0` points to the constant `"fusion.0 at step.mlir:3:8"`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TorusEmptyBufferArguments
    : Pass<"torus-empty-buffer-arguments", "ModuleOp"> {
  let summary = "Pass zero-element buffers as memref<0xT>";
  let description = [{
    A value with a zero-sized dimension (`f32[2,0]`, which HLO and JAX
    produce from empty slices, pads and convolutions) holds no data, but
    after bufferization it is still a function argument or out-parameter.
    MLIR 19's bare-pointer calling convention refuses some such types
    (`memref<2x0xf32>`, though not `memref<0x2xf32>`), which left the
    function unconverted and LLVM translation failing. Every zero-element
    argument becomes `memref<0xT>` (the same bare pointer); inside the
    function a zero-element `memref.alloca` of the original type serves its
    uses, since nothing can read or write it. Calls pass such a buffer too.

    Before:
    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<2x0xf32>) {
      memref.copy %c, %out : memref<2x0xf32> to memref<2x0xf32>
      return
    }
    ```
    After:
    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<0xf32>) {
      %0 = memref.alloca() : memref<2x0xf32>
      memref.copy %c, %0 : memref<2x0xf32> to memref<2x0xf32>
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TorusNoAliasArguments
    : Pass<"torus-noalias-arguments", "ModuleOp"> {
  let summary = "Tell LLVM that an entry's buffers do not overlap";
  let description = [{
    The runtime gives a program's entry function distinct buffers: each
    input, each output and the workspace are allocations of their own
    (inputs are only read, so even two equal inputs could share one).
    LLVM cannot know this, so a loop writing an output while reading an
    input or the workspace keeps every load inside the loop and is not
    vectorized without runtime checks: a layer norm's last kernel recomputed
    `rsqrt(var + eps)` for every element, in scalar code. This pass marks
    every buffer argument of every public function `llvm.noalias` (LLVM's
    `noalias`, kept as scoped alias metadata when the function is inlined
    into its packed entry). Private functions (torus.call's callees) keep
    their arguments as they are: a caller may pass one buffer twice.

    Before:
    ```mlir
    func.func @main(%x: memref<4x8xf32>, %out: memref<4x8xf32>,
                    %ws: memref<128xi8>) {...}
    ```
    After:
    ```mlir
    func.func @main(%x: memref<4x8xf32> {llvm.noalias},
                    %out: memref<4x8xf32> {llvm.noalias},
                    %ws: memref<128xi8> {llvm.noalias}) {...}
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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

def TorusSplatsToFills : Pass<"torus-splats-to-fills", "func::FuncOp"> {
  let summary = "Large splat tensor constants become a fill, not a global";
  let description = [{
    Bufferization turns a tensor constant into a `memref.global`, and LLVM
    translation writes its initializer element by element: a splat of
    12 GiB (a constant broadcast to a big shape, which folds into one)
    makes a 12 GiB LLVM constant and the compiler never finishes. Compile
    time must not depend on data size, so every splat constant of more than
    `max-elements` elements becomes `linalg.fill` of a `tensor.empty`: a
    loop at run time, a few instructions in the code.

    Before:
    ```mlir
    %c = arith.constant dense<1.0> : tensor<1024x1024xf32>
    ```
    After:
    ```mlir
    %s = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<1024x1024xf32>
    %c = linalg.fill ins(%s : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "1024",
           "Largest splat kept as a constant (in elements)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def TorusExpandExp : Pass<"torus-expand-exp", "func::FuncOp"> {
  let summary = "f32 exp as inline arithmetic, so vectorized kernels stay vectors";
  let description = [{
    LLVM lowers `math.exp` to a libm call per element: a vectorized softmax
    kernel unrolls its `vector<8xf32>` exp into eight calls, and a third of
    an attention step went to them. This pass computes `math.exp` of f32
    (scalar or vector) inline with Cephes' expf: x = m ln2 + r (Cody-Waite
    reduction), e^r = 1 + r + r^2 P(r) with P of degree 5, times 2^m built
    from its bits; within 1 ulp of the exact value, the same bits on every
    host (the FMAs are `math.fma`). Edges as XLA:CPU: NaN stays NaN, x past
    ln(FLT_MAX) gives +inf, subnormal results are flushed to zero. f64, f16
    and bf16 keep LLVM's lowering.

    Before:
    ```mlir
    %e = math.exp %x : vector<8xf32>
    ```
    After (abridged):
    ```mlir
    %xc = arith.minnumf (arith.maxnumf %x, -88.0), 88.8 : vector<8xf32>
    %m = math.floor (math.fma %xc, 1.442695, 0.5) : vector<8xf32>
    %r = math.fma %m, 2.12194440e-04, (math.fma %m, -0.693359375, %xc)
    %p = math.fma ... (the polynomial in %r)
    %y = arith.addf (math.fma %p, %r2, %r), 1.0
    %e = %y * 2^(m/2) * 2^(m - m/2), then the edges selected
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TorusBoolVectorsAsBytes
    : Pass<"torus-bool-vectors-as-bytes", "LLVM::LLVMFuncOp"> {
  let summary = "Access vectors of i1 in memory as vectors of bytes";
  let description = [{
    A buffer of `i1` holds one byte per element, 0 or 1: scalar loads and
    stores of `i1` read and write a byte, and element `k` is at byte `k`.
    LLVM's `<N x i1>` in memory is N packed bits instead, so a vector load of
    4 booleans from such a buffer read the low 4 bits of its first byte:
    vectorized code (torus-vectorize-reductions, transposes) saw wrong
    masks. This pass, on the LLVM dialect, makes every vector memory access
    of `i1` one of `i8` lanes: loads (plain and masked) read bytes and
    truncate, stores widen and write bytes, so vector and scalar code agree
    on the layout.

    Before:
    ```mlir
    %m = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<4xi1>
    llvm.store %m, %q {alignment = 1 : i64} : vector<4xi1>, !llvm.ptr
    ```
    After:
    ```mlir
    %0 = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<4xi8>
    %m = llvm.trunc %0 : vector<4xi8> to vector<4xi1>
    %1 = llvm.zext %m : vector<4xi1> to vector<4xi8>
    llvm.store %1, %q {alignment = 1 : i64} : vector<4xi8>, !llvm.ptr
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TorusComplexToStandard
    : Pass<"torus-complex-to-standard", "func::FuncOp"> {
  let summary = "Lower complex arithmetic to arith and accurate math";
  let description = [{
    MLIR's complex-to-standard conversion computes each `complex` op (c64,
    c128) on its parts with `arith` and `math`; only `complex.create`,
    `complex.re`, `complex.im` and `complex.constant` remain, for
    `convert-complex-to-llvm`. The `math` functions it uses that
    `convert-math-to-llvm` lacks or computes inaccurately (`atan2`, `tanh`,
    `tan`, `expm1`, `log1p`) become the accurate sequences of
    ir/ops/ScalarMath.h, so the generated code calls nothing beyond what the
    real ops' code calls. Multiplication is XLA:CPU's: `(a*c - b*d,
    b*c + a*d)` with one product of each part fused (`math.fma`), the bits
    XLA gives on hosts with FMA, without C99's recovery of infinities.
    `pow` of `complex<f32>` is computed on `complex<f64>` and rounded once.

    Before:
    ```mlir
    %r = complex.log %z : complex<f32>
    ```
    After (abbreviated):
    ```mlir
    %re = complex.re %z : complex<f32>
    %im = complex.im %z : complex<f32>
    ... arith, math.log, the expansion of atan2 ...
    %r = complex.create %a, %b : complex<f32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::complex::ComplexDialect", "::mlir::scf::SCFDialect"
  ];
}

def TorusSplitDilatedConvolutions
    : Pass<"torus-split-dilated-convolutions", "func::FuncOp"> {
  let summary = "A convolution of a dilated input as an undilated one with its phases as features";
  let description = [{
    Part of the linalg stage (buildLowerToLinalgPipeline), on torus ops,
    before `torus-to-linalg`. A convolution whose input is dilated by D
    (`lhs_dilation`: the gradient of a stride-D convolution with respect to
    its input, a transposed convolution) is lowered as a convolution of
    the dilated input, in which D - 1 of every D input positions are
    inserted zeros: along two dimensions three quarters of its
    multiply-adds add nothing. In a conv net's training step that one
    convolution took a quarter of the step.

    Output `s = D q + r` (phase r) reads only the kernel taps `k0, k0 + D,
    ...` with `k0 = (low - r) mod D`, at input offsets from `q - c_r` on
    (`c_r = (low - r - k0) / D`). One window covers the offsets of every
    phase; each phase's taps (a strided slice of the kernel) are padded
    with zeros to their place in it, and the phases are concatenated along
    the kernel's output features, phase-major (a phase that no tap reaches
    is zeros). One undilated convolution with that kernel computes every
    phase, `ceil(S / D)` outputs each; its result `[.., Q, .., P x O]` is
    reshaped to `[.., Q, .., D, O]`, transposed to put each phase after its
    spatial dimension, reshaped to `[.., Q x D, .., O]` and sliced to S.

    Only convolutions with static shapes, unit window strides and kernel
    dilation and no feature or batch groups are rewritten. The inserted
    zeros are no longer multiplied: where the kernel holds an infinity or
    a NaN, the dilated form gives NaN (0 x inf) at outputs whose window
    covers a hole, the rewritten one does not (as XLA's GPU backend and
    cuDNN's backward-data convolution do not).

    Before (the input gradient of a stride-2 3 x 3 convolution):
    ```mlir
    %dx = torus.convolution %dy, %w, dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]
          {lhs_dilation = array<i64: 2, 2>,
           padding = dense<[[2, 1], [2, 1]]> : tensor<2x2xi64>}
          : (tensor<64x8x8x64xf32>, tensor<3x3x32x64xf32>) -> tensor<64x16x16x32xf32>
    ```
    After (per dimension, phase 0 has taps 0 and 2, phase 1 tap 1 moved
    to the second place of a 2-tap window):
    ```mlir
    %w00 = torus.slice %w, start_indices = [0, 0, 0, 0],
           limit_indices = [3, 3, 32, 64], strides = [2, 2, 1, 1]
           : (tensor<3x3x32x64xf32>) -> tensor<2x2x32x64xf32>
    %t01 = torus.slice %w, start_indices = [0, 1, 0, 0], ...
           : (tensor<3x3x32x64xf32>) -> tensor<2x1x32x64xf32>
    %w01 = torus.pad %t01, %zero, low = [0, 1, 0, 0], high = [0, 0, 0, 0], ...
           -> tensor<2x2x32x64xf32>
    ... %w10, %w11
    %w4 = torus.concatenate(%w00, %w01, %w10, %w11), dimension = 2
          : ... -> tensor<2x2x128x64xf32>
    %all = torus.convolution %dy, %w4, dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]
           {padding = dense<[[1, 0], [1, 0]]> : tensor<2x2xi64>}
           : (tensor<64x8x8x64xf32>, tensor<2x2x128x64xf32>) -> tensor<64x8x8x128xf32>
    %e = torus.reshape %all : (tensor<64x8x8x128xf32>) -> tensor<64x8x8x2x2x32xf32>
    %t = torus.transpose %e, permutation = [0, 1, 3, 2, 4, 5]
         : (tensor<64x8x8x2x2x32xf32>) -> tensor<64x8x2x8x2x32xf32>
    %dx = torus.reshape %t : (tensor<64x8x2x8x2x32xf32>) -> tensor<64x16x16x32xf32>
    ```
  }];
}

def TorusFusion : Pass<"torus-fusion", "func::FuncOp"> {
  let summary = "Fuse elementwise ops into kernels and name every kernel";
  let description = [{
    Decides which linalg ops on tensors become one loop nest (a kernel) and
    records the decision on every kernel, so the IR dumps show it:

    - *loop* fusion: elementwise producers and consumers, broadcasts
      (`broadcast_in_dim`'s generic) and converts become one
      `linalg.generic` (upstream's elementwise fusion patterns, which this
      pass runs);
    - *input* fusion: a reduction (`linalg.reduce`, generalized first) takes
      in the elementwise producers of its operand when it reads every
      element of that operand once (the operand's indexing map is a
      permutation), so `reduce(x * y)` reads `x` and `y` and writes only the
      reduced result;
    - *output* fusion: a contraction (`dot_general`'s generic with a
      reduction loop) whose result's only user is an elementwise generic
      (bias add, activation) is kept next to it and both get the same
      kernel name: the kernel stage tiles the contraction and runs the
      epilogue on each tile while it is in cache.

    First, unit dimensions of generics indexed by projected permutations
    are dropped (upstream's unit-extent folding): a row statistic that HLO
    keeps as `[N, 1]` between reshapes becomes `[N]`, so the reshapes
    cancel instead of being expanded into every consumer (which would give
    a `[N, 1, M]` kernel whose result must then be copied to the output).

    Elementwise producers are never fused into a contraction (each element
    would be recomputed once per output column), and a producer with more
    than one use is never duplicated. Each kernel gets `torus.fusion`
    (`"loop"`, `"input"` or `"output"`), `torus.kernel` (`"fusion.N"`,
    numbered in program order, shared by the ops of an output fusion) and
    `torus.fused_ops` (how many arithmetic ops its body computes). With
    `fuse=false` nothing is fused and every op is its own kernel (the naive
    lowering, for comparisons); the annotations are still made.

    Before:
    ```mlir
    %m = linalg.generic {...} ins(%a, %b) outs(%e) { mulf }
    %s = linalg.generic {...} ins(%m, %c) outs(%e) { addf }
    %r = linalg.generic {...} ins(%s) outs(%e) { maximumf }
    ```
    After:
    ```mlir
    %r = linalg.generic {...} ins(%a, %b, %c) outs(%e) { mulf; addf; maximumf }
        {torus.fusion = "loop", torus.fused_ops = 3 : i64,
         torus.kernel = "fusion.0"}
    ```
  }];
  let options = [
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse elementwise ops (false: only annotate, one op per kernel)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def TorusPlanBuffers : Pass<"torus-plan-buffers", "ModuleOp"> {
  let summary = "Carve every static temporary of the entry from one workspace";
  let description = [{
    A buffer plan like XLA's buffer assignment, after bufferization and
    before deallocation. Every `memref.alloc` with a static shape in the
    top-level block of the public entry function becomes a `memref.view`
    into one workspace, a new last argument `memref<Nxi8>` of the entry.
    A temporary is live from its allocation to its last use (through views,
    casts, reshapes and the pointers taken from it for runtime calls such as
    `__torus_collective`; a use inside a loop or branch counts at that op);
    temporaries whose lives do not overlap share bytes. Offsets are chosen
    at compile time, largest buffer first, each at the lowest 64-byte
    aligned offset that does not overlap a live neighbour (interval
    colouring); N is the resulting peak. The entry gets
    `torus.workspace_bytes = N`, and each view `torus.buffer = i` (its
    allocation order) and `torus.offset`. Allocations with dynamic shapes,
    inside regions, or that escape (returned) stay as they are; the memory
    report lists them.

    With `only-grow`, the pass runs again after the kernel stage: it keeps
    the views already planned where they are, places the temporaries the
    kernels allocated (a transposed operand) around them, erases their
    `memref.dealloc`s and grows the workspace; an entry without a plan (the
    naive lowering) is left alone.

    The runtime allocates the workspace once per core from the core's memory
    (its capacity is checked there) and the packed entry passes it
    (`__torus_workspace`, runtime/RuntimeAbi.h), so no temporary is
    allocated or freed per call.

    Before:
    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>) {
      %0 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      linalg.generic ... ins(%a) outs(%0)
      %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      linalg.generic ... ins(%0) outs(%1)
      linalg.generic ... ins(%1) outs(%out)
      return
    }
    ```
    After:
    ```mlir
    func.func @f(%a: memref<4xf32>, %out: memref<4xf32>, %ws: memref<128xi8>)
        attributes {torus.workspace_bytes = 128 : i64} {
      %c0 = arith.constant 0 : index
      %0 = memref.view %ws[%c0][] {torus.buffer = 0 : i64, torus.offset = 0 : i64}
          : memref<128xi8> to memref<4xf32>
      linalg.generic ... ins(%a) outs(%0)
      %c64 = arith.constant 64 : index
      %1 = memref.view %ws[%c64][] {torus.buffer = 1 : i64, torus.offset = 64 : i64}
          : memref<128xi8> to memref<4xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"onlyGrow", "only-grow", "bool", /*default=*/"false",
           "Only extend the plan the entry already has (after the kernel "
           "stage)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def TorusFuseEpilogues
    : Pass<"torus-fuse-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Run a contraction's elementwise epilogue panel by panel";
  let description = [{
    The first step of the kernel stage (docs/codegen.md), on buffers.
    `torus-fusion` names a contraction and the elementwise op that consumes
    its result (a bias add, an activation) as one output fusion
    (`torus.fusion = "output"`, one `torus.kernel`). After bufferization
    they are two loop nests, and the epilogue reads the whole result back
    after the contraction wrote it. This pass tiles both along the result's
    innermost dimension in panels of 128 (the kernel stage's N tile) and
    fuses the two loops: each iteration runs the contraction on one panel,
    then the epilogue on that panel while it is in cache. The loop is
    peeled (static panels once canonicalized), and when the contraction has at least 2^21
    multiply-adds it is marked `torus.parallel_tile` for host threads
    (torus-vectorize-kernels outlines it). Only static contractions whose
    result is 2 or more panels wide, with an all-parallel epilogue that
    reads the result with the identity map, writes nothing the contraction
    reads, and has only memory-effect-free ops between it and the
    contraction, are fused. Results are bit-identical: every element sees
    the same operations in the same order.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (k, n),
                                     (m, n, k) -> (m, n)], ...}
        ins(%a, %w : memref<8x16xf32>, memref<16x300xf32>)
        outs(%c : memref<8x300xf32>) attrs = {torus.kernel = "fusion.1", ...} {...}
    linalg.generic {indexing_maps = [(m, n) -> (m, n), (m, n) -> (n),
                                     (m, n) -> (m, n)], ...}
        ins(%c, %bias : memref<8x300xf32>, memref<300xf32>)
        outs(%d : memref<8x300xf32>) attrs = {torus.kernel = "fusion.1", ...} {...}
    ```
    After:
    ```mlir
    scf.for %n = %c0 to %c256 step %c128 {
      %wn = memref.subview %w[0, %n] [16, 128] [1, 1] ...
      %cn = memref.subview %c[0, %n] [8, 128] [1, 1] ...
      linalg.generic ... ins(%a, %wn ...) outs(%cn ...)   // all of K
      %bn = memref.subview %bias[%n] [128] [1] ...
      %dn = memref.subview %d[0, %n] [8, 128] [1, 1] ...
      linalg.generic ... ins(%cn, %bn ...) outs(%dn ...)  // bias add
    }
    ...                                 // the 44-column panel, as above
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def TorusVectorizeReductions
    : Pass<"torus-vectorize-reductions", "::mlir::func::FuncOp"> {
  let summary = "Vectorize reductions along the innermost, contiguous loop";
  let description = [{
    Part of the kernel stage (docs/codegen.md), on buffers. A
    `linalg.generic` or `linalg.reduce` whose innermost loop is a reduction
    runs, as loops, one dependent scalar operation per element, and LLVM
    does not reorder floating-point operations to vectorize it. This pass
    does, for every such op with static shapes whose inputs are read along
    their innermost unit-stride dimension (or not at all) by that loop, and
    whose body is elementwise ops ending in `result (+) value` (`+`, `*`,
    min, max, and, or, xor): the other loops are tiled by 1, and each row
    keeps four vector accumulators across the row, reduces them once
    horizontally, runs the last (length mod lanes) elements as a peeled
    scalar loop, and combines the row's value into the result. The body's
    elementwise ops run on vectors. Floating-point results are reassociated
    (within the bound docs/codegen.md states; the tests check it).

    `vector-bits` is the vector width; 0 takes this host CPU's. The
    pipelines (codegen/Pipelines.h) pass the target's: TORUS_TARGET's when
    it is set; the pass reads no environment variable.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(i, k) -> (i, k), (i, k) -> (i, k),
                                     (i, k) -> (i)],
                    iterator_types = ["parallel", "reduction"]}
        ins(%x, %y : memref<8x100xf32>, memref<8x100xf32>)
        outs(%out : memref<8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    }
    ```
    After (`vector-bits=512`: 16 lanes, 100 = 4 x 16 + 2 x 16 + 4):
    ```mlir
    scf.for %i = %c0 to %c8 step %c1 {
      %xi = memref.subview %x[%i, 0] [1, 100] [1, 1] ...
      ...
      %acc:4 = scf.for %k = %c0 to %c64 step %c64 iter_args(%a0 = %id, ...) {
        %v0 = vector.load %xi[%c0, %k] : ..., vector<16xf32>
        %w0 = vector.load %yi[%c0, %k] : ..., vector<16xf32>
        %p0 = arith.mulf %v0, %w0 : vector<16xf32>
        %n0 = arith.addf %p0, %a0 : vector<16xf32>
        ...                                   // 3 more accumulators
      }
      ...                                     // elements 64..95 into %acc#0, #1
      %r = vector.reduction <add>, %t : vector<16xf32> into f32
      %s = scf.for %k = %c96 to %c100 step %c1 iter_args(%s0 = %r) -> (f32) {
        ...                                   // scalar body
      }
      %o = memref.load %outi[%c0] : memref<1xf32, strided<[1], offset: ?>>
      %n = arith.addf %s, %o : f32
      memref.store %n, %outi[%c0] : ...
    }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: this host's)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def TorusVectorizeKernels : Pass<"torus-vectorize-kernels", "ModuleOp"> {
  let summary = "Tile and vectorize contractions and convolutions for the host CPU";
  let description = [{
    The kernel stage (docs/codegen.md), on buffers. Every contraction
    `linalg.generic` from `dot_general` or `convolution` (body
    `out + lhs * rhs` in f32 or f64, affine operand maps) becomes scf.for
    loops around one `linalg.matmul` (`matmul_transpose_a` when the M and K
    dims of the left operand are the other way round) on rank-reducing
    subviews: N is the result's innermost dim, M the result's next free dim,
    K a contracted dim; batch dims, further free or contracted dims, a
    convolution's window and output rows are outer loops, and a strided
    convolution reads a strided view. When N is not the right operand's
    innermost dim but K is (`a · bᵀ`), the matmul reads B through a
    transposed view (`memref.transpose`) and packing copies its tiles
    (with `pack=false`, or when neither is innermost, B is first transposed
    into a fresh buffer). A fill of the result just before the contraction
    moves into its leading outer loops that index the result, so each part
    is filled right before it is accumulated:

    ```mlir
    linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x16xf32>)
    linalg.generic {...} ins(%x, %w) outs(%y)   // a 3 x 3 convolution
    // becomes
    scf.for %oh = %c0 to %c4 step %c1 {
      %row = memref.subview %y[0, %oh, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
      linalg.fill ins(%zero : f32) outs(%row : memref<1x1x8x16xf32, ...>)
      scf.for %kh = %c0 to %c3 step %c1 { ... matmul into %row ... }
    }
    ```

    Every static f32/f64 matmul whose result has unit-stride rows is then
    tiled for the cache: loops over M tiles of 512, then N tiles of 128,
    then K tiles of 256 with 512-bit vectors (M 256, N 128, K 128 with
    narrower ones), and for registers, (4, 4 x lanes, 1) with 512-bit
    vectors ((6, 2 x lanes, 1) with 256-bit ones; lanes = vector bits /
    element bits); every tile loop is peeled, so remainders are static
    tiles, never masked, and a remainder tile whose row is not a power of
    two long is split until it is (70 columns: 64 + 4 + 2; LLVM moves
    loop-carried vectors of other lengths lane by lane). With `pack` (codegen/PackOperands.cpp), each
    (M, N, K) tile of B is copied into a dense K x N (256 x 128) stack buffer
    (always for a transposed B, by a blocked transpose; otherwise for tiles
    of at least 32 x 32 used by at least 64 rows of A), and a transposed A
    (`matmul_transpose_a`) is copied one 4-row strip at a time into a
    [K, 4] stack buffer, a slice of the Goto layout [M/4][K][4], so a k
    step of the register tile reads 4 consecutive values. No packing
    buffer is on the heap. Register tiles are vectorized; the contraction
    is lowered to outer products (one FMA per row), memref alias ops are
    folded into the transfers before the accumulator's transfers are
    hoisted out of the K loop, and transfers become 1-D loads and stores.

    Every static `linalg.transpose` on buffers that moves the innermost
    dim (codegen/Transposes.cpp) becomes outer loops around a blocked
    transpose: 16 x 16 f32 tiles (one register edge) read as 16 vectors,
    transposed by a shuffle network and written as 16 vectors; edge tiles
    are smaller static tiles.

    With `threads` (the default), the main cache-tile loop over M of a
    kernel of at least 2^21 multiply-adds (two or more M blocks; with one, the
    loop over N when N >= 256) is outlined into
    `@<fn>__parallel_tile_<i>(!llvm.ptr ctx, i64 i)` and replaced by a call
    `__torus_parallel_for(body, ctx, trips)` (runtime/ParallelFor.h), which
    runs the tiles on host threads when the run has fewer emulated cores
    than the host has threads; `ctx` holds the aligned pointers and indices
    the body needs; the packing buffers are re-created in the body, so each
    thread has its own. A contraction of at least 2^21 multiply-adds made
    of matmuls of fewer than 2^24 (attention's batch of 128 x 128 x 64
    ones) has its
    outermost loop outlined instead when that loop alone indexes a dim of
    the result (a batch, a convolution's output rows).

    `vector-bits` is the vector width (512 with AVX-512F, 256 with AVX2
    and FMA, else 128); 0 takes this host CPU's. The pipelines
    (codegen/Pipelines.h, `--torus-kernels`) pass the target's:
    TORUS_TARGET's when it is set; the pass reads no environment variable.

    Before:
    ```mlir
    func.func @mm(%a: memref<8x16xf32>, %b: memref<16x64xf32>,
                  %c: memref<8x64xf32>) {
      linalg.generic {indexing_maps = [(m, n, k) -> (m, k),
                                       (m, n, k) -> (k, n),
                                       (m, n, k) -> (m, n)],
                      iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : ...) outs(%c : ...) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      }
      return
    }
    ```
    After (`vector-bits=512`):
    ```mlir
    scf.for %m = %c0 to %c8 step %c4 {
      %acc0 = vector.load %c[%m, %c0] : memref<8x64xf32>, vector<64xf32>
      ...                                    // 4 rows of the accumulator
      %r:4 = scf.for %k = %c0 to %c16 step %c1 iter_args(...) {
        %row = vector.load %b[%k, %c0] : memref<16x64xf32>, vector<64xf32>
        %x0 = memref.load %a[%m, %k] : memref<8x16xf32>
        %bx0 = vector.broadcast %x0 : f32 to vector<64xf32>
        %f0 = vector.fma %bx0, %row, %acc0 : vector<64xf32>
        ...                                  // one FMA per row
      }
      vector.store %r#0, %c[%m, %c0] : memref<8x64xf32>, vector<64xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Vector register width in bits (0: this host's)">,
    Option<"threads", "threads", "bool", /*default=*/"true",
           "Outline large kernels' outer tile loops for host threads">,
    Option<"pack", "pack", "bool", /*default=*/"true",
           "Copy B's cache tiles (and a transposed A's strips) into stack buffers laid out for the register tile">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
}

def TorusInnermostParallelLoop
    : Pass<"torus-innermost-parallel-loop", "func::FuncOp"> {
  let summary = "Run a reduction over windows with its unit-stride parallel loop innermost";
  let description = [{
    Part of the kernel stage (docs/codegen.md), on buffers, after
    `torus-fuse-rows` and before `torus-parallel-loops`. A reduction whose
    reduced loops come last but whose output's innermost dimension is a
    parallel loop (reduce_window's pooling and its gradient, a reduction
    over a leading axis) becomes loops that add one to four elements
    per output, one output at a time: LLVM cannot vectorize the size-2 and
    size-1 window loops innermost. The average pool gradient of a conv net
    (a 2 x 2 window over f32[64, 33, 33, 32]) took a fifth of its step.

    This pass moves that parallel loop innermost, keeping the other loops
    in their order, when it indexes the output's innermost dimension with
    unit stride, and every input either in its own innermost dimension
    (with unit stride; `d + k` for a window) or not at all. Each output
    element still sums its window in the same order: the results are the
    same bit for bit. Only static buffers and at least 2 iterations of that
    loop; a reduction along the innermost dimension is left to
    `torus-vectorize-reductions`.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [
        (b, i, j, c, wb, wi, wj, wc) -> (b + wb, i + wi, j + wj, c + wc),
        (b, i, j, c, wb, wi, wj, wc) -> (wb, wi, wj, wc),
        (b, i, j, c, wb, wi, wj, wc) -> (b, i, j, c)],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction", "reduction", "reduction"]}
        ins(%padded, %window : memref<64x33x33x32xf32>, memref<1x2x2x1xf32>)
        outs(%out : memref<64x32x32x32xf32>) {...}
    ```
    After (loop order b, i, j, wb, wi, wj, wc, c):
    ```mlir
    linalg.generic {indexing_maps = [
        (b, i, j, wb, wi, wj, wc, c) -> (b + wb, i + wi, j + wj, c + wc),
        (b, i, j, wb, wi, wj, wc, c) -> (wb, wi, wj, wc),
        (b, i, j, wb, wi, wj, wc, c) -> (b, i, j, c)],
        iterator_types = ["parallel", "parallel", "parallel", "reduction",
                          "reduction", "reduction", "reduction", "parallel"]}
        ...
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TorusFuseRows : Pass<"torus-fuse-rows", "func::FuncOp"> {
  let summary = "Run consecutive row-local kernels as one loop over rows";
  let description = [{
    Part of the kernel stage (docs/codegen.md), on buffers, after
    `torus-vectorize-reductions` and before `torus-parallel-loops`. A layer
    norm is three kernels over the same rows: the row sums (the mean), the
    sums of squared differences from it (the variance), and the normalized
    rows. Run one after the other, each reads every row from memory; a row
    of a few KiB read by all three in turn is read from memory once and
    then from the cache.

    A run of consecutive kernels of the entry block (only ops without
    memory effects, such as constants and views, between them), at least
    one of them a reduction's row loop, becomes one `scf.for` over the rows
    when they have the same number of rows and their rows are independent:
    - a kernel is a row loop of `torus-vectorize-reductions` (marked
      `torus.parallel_tile`, `0 .. rows step 1`), or a `linalg.generic` or
      `linalg.fill` of static buffers whose first loop is parallel (the
      rows), indexes operands only as whole dimensions and is not read as
      a value (`linalg.index 0`);
    - every buffer a kernel of the run writes is touched by every kernel of
      it only at its row (first dimension indexed by the row: a row loop's
      subview `[%r, ...] [1, ...]`, a linalg operand whose first result is
      the row loop), and shares no bytes with another buffer they touch,
      unless that one's row r is the same bytes (a reshape of it, or a view
      of the workspace at the same place).
    Each row then runs every kernel's row in order: a row loop's body, a
    linalg op on rank-preserving slices at the row. The loop is marked
    `torus.parallel_tile` (rows on host threads) when a row loop was or a
    kernel has at least 2^16 elements.

    Before:
    ```mlir
    linalg.fill ins(%zero : f32) outs(%sum : memref<4096xf32>)
    scf.for %r = %c0 to %c4096 step %c1 {       // the row sums
      %row = memref.subview %x[%r, 0] [1, 1024] [1, 1] ...
      %s = memref.subview %sum[%r] [1] [1] ...
      ... vector.load %row ..., memref.store ..., %s[%c0]
    } {torus.parallel_tile}
    linalg.generic {indexing_maps = [(i, j) -> (i, j), (i, j) -> (i),
                                     (i, j) -> (i, j)], ...}
        ins(%x, %sum : ...) outs(%y : memref<4096x1024xf32>) {...}
    ```
    After:
    ```mlir
    scf.for %r = %c0 to %c4096 step %c1 {
      %s0 = memref.subview %sum[%r] [1] [1] ...
      linalg.fill ins(%zero : f32) outs(%s0 : memref<1xf32, ...>)
      %row = memref.subview %x[%r, 0] [1, 1024] [1, 1] ...
      ... the row sum into %sum[%r]
      %xr = memref.subview %x[%r, 0] [1, 1024] [1, 1] ...
      %sr = memref.subview %sum[%r] [1] [1] ...
      %yr = memref.subview %y[%r, 0] [1, 1024] [1, 1] ...
      linalg.generic {...} ins(%xr, %sr : ...) outs(%yr : ...) {...}
    } {torus.parallel_tile}
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def TorusParallelLoops : Pass<"torus-parallel-loops", "ModuleOp"> {
  let summary = "Split large loop kernels over host threads";
  let description = [{
    Part of the kernel stage (docs/codegen.md, "Host threads"), on buffers,
    after `torus-vectorize-reductions` and before the remaining linalg ops
    become loops. The contractions' cache tiles already go to host threads
    (`torus-vectorize-kernels`); this pass does the same for the other
    large kernels, which are memory-bound loops:

    - every `linalg.generic` of static shapes over at least 2^16 elements
      whose outermost loop is parallel (each output indexed by it, no
      output a view of an input's buffer read elsewhere) is tiled along
      that loop into blocks of at least 2^16 elements (2 to 64 of them);
      the loop over whole blocks is marked `torus.parallel_tile` and a
      last, partial block is peeled off and runs after it;
    - every loop marked `torus.parallel_tile` (those, and the row loops of
      large reductions marked by `torus-vectorize-reductions`) is outlined
      into `@<fn>__parallel_tile_<i>(!llvm.ptr ctx, i64 i)` and replaced by
      `__torus_parallel_for(body, ctx, trips)` (codegen/ParallelLoop.h).

    Without `threads`, and inside outlined bodies (already on one of the
    threads), the markers are removed and nothing else changes.

    Before:
    ```mlir
    func.func @scale(%x: memref<1024x512xf32>, %y: memref<1024x512xf32>) {
      linalg.generic {indexing_maps = [(i, j) -> (i, j), (i, j) -> (i, j)],
                      iterator_types = ["parallel", "parallel"]}
          ins(%x : memref<1024x512xf32>) outs(%y : memref<1024x512xf32>) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %a : f32
        linalg.yield %s : f32
      }
      return
    }
    ```
    After (8 blocks of 128 rows):
    ```mlir
    func.func private @scale__parallel_tile_0(%ctx: !llvm.ptr, %i: i64) {
      // %x and %y from ctx; %row = %i * 128
      %xs = memref.subview %x[%row, 0] [128, 512] [1, 1] ...
      %ys = memref.subview %y[%row, 0] [128, 512] [1, 1] ...
      linalg.generic ... ins(%xs ...) outs(%ys ...)
      return
    }
    func.func @scale(%x: memref<1024x512xf32>, %y: memref<1024x512xf32>) {
      %ctx = llvm.alloca ...                   // the addresses of %x, %y
      %body = constant @scale__parallel_tile_0 : (!llvm.ptr, i64) -> ()
      call @__torus_parallel_for(%body, %ctx, %c8) : ...
      return
    }
    ```
  }];
  let options = [
    Option<"threads", "threads", "bool", /*default=*/"true",
           "Split large loop kernels for host threads">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TorusRowInvariants : Pass<"torus-row-invariants", "func::FuncOp"> {
  let summary = "Read an elementwise kernel's row-invariant operands once per row";
  let description = [{
    Part of the kernel stage (docs/codegen.md), on buffers, after
    `torus-parallel-loops`. An elementwise kernel that reads an operand the
    same along its innermost loop (softmax's `exp(x - max)` reads the row's
    max for every element) loads it inside the row loop once the kernel is
    loops. When that operand and the output are views of one workspace
    (torus-plan-buffers), LLVM cannot tell the store of the output from the
    load ("unknown data dependence") and leaves the row scalar: attention's
    exp kernel ran one element at a time, a third of its step.

    This pass tiles every loop of such a kernel (static shapes, all loops
    parallel, a row of at least 2, no output sharing bytes with such an
    operand) but the innermost by 1 and loads each
    row-invariant operand before the row's kernel, which uses the value
    instead of its block argument; the row then reads and writes only
    along itself, and LLVM vectorizes it.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [(i, j) -> (i, j), (i, j) -> (i),
                                     (i, j) -> (i, j)],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x, %max : memref<8x128xf32>, memref<8xf32>)
        outs(%x : memref<8x128xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c8 step %c1 {
      %xi = memref.subview %x[%i, 0] [1, 128] [1, 1] ...
      %mi = memref.subview %max[%i] [1] [1] ...
      %m = memref.load %mi[%c0] : memref<1xf32, strided<[1], offset: ?>>
      linalg.generic ... ins(%xi, %mi ...) outs(%xi ...) {
      ^bb0(%a: f32, %unused: f32, %o: f32):
        %d = arith.subf %a, %m : f32
        %e = math.exp %d : f32
        linalg.yield %e : f32
      }
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // TORUS_CODEGEN_PASSES_TD
