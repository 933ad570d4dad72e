// Tests torus-vectorize-kernels: contractions on buffers become tiled,
// peeled, vectorized kernels (outer-product FMAs, the accumulator carried
// through the K loop in registers), with 512-bit vectors.
// RUN: torus-opt %s --torus-vectorize-kernels="vector-bits=512 threads=false" | FileCheck %s
// RUN: torus-opt %s --torus-vectorize-kernels="vector-bits=512" | FileCheck %s --check-prefix=THREADS
// RUN: torus-opt %s --torus-vectorize-kernels="vector-bits=512 threads=false pack=false" | FileCheck %s --check-prefix=PACKOFF
// RUN: torus-opt %s --torus-vectorize-kernels="vector-bits=256 threads=false" | FileCheck %s --check-prefix=AVX2

// A register tile is 4 rows x 64 f32: four FMAs per K step; the 4x64
// accumulator is loaded once before the K loop and stored once after it.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.
// CHECK: scf.for %[[M:.*]] = %c0 to %c8 step %c4 {
// CHECK-COUNT-4: vector.load %arg2{{.*}} : memref<8x64xf32>, vector<64xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c16 step %c1 iter_args({{.*}}) -> (vector<4x64xf32>) {
// CHECK: vector.load %arg1[%[[K]], %c0] : memref<16x64xf32>, vector<64xf32>
// CHECK-COUNT-4: vector.fma {{.*}} : vector<64xf32>
// CHECK: scf.yield
// CHECK-COUNT-4: vector.store {{.*}}, %arg2{{.*}} : memref<8x64xf32>, vector<64xf32>
// With 256-bit vectors a register tile is 6 rows x 2 vectors (12 of the
// 16 registers accumulate): rows 6 + 2, four tiles of 16 columns.
// AVX2-LABEL: func.func @matmul
// AVX2-DAG: -> (vector<6x16xf32>)
// AVX2-DAG: -> (vector<2x16xf32>)
// AVX2-NOT: vector<4x24xf32>
// AVX2: return
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x64xf32>, %c: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x64xf32>) outs(%c : memref<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// 7 x 70: remainders are peeled into static tiles, never masked: rows
// 4 + 3, columns 64 + 6, and the 6 split into 4 + 2 (rows of a power-of-
// two length: LLVM moves loop-carried vectors of other lengths lane by
// lane).
// CHECK-LABEL: func.func @odd_sizes
// CHECK-NOT: vector.mask
// CHECK-NOT: vector.transfer
// CHECK-NOT: x6xf32>
// CHECK-DAG: -> (vector<4x64xf32>)
// CHECK-DAG: -> (vector<4x4xf32>)
// CHECK-DAG: -> (vector<4x2xf32>)
// CHECK-DAG: -> (vector<3x64xf32>)
// CHECK-DAG: -> (vector<3x4xf32>)
// CHECK-DAG: -> (vector<3x2xf32>)
// CHECK-NOT: x6xf32>
// CHECK: return
func.func @odd_sizes(%a: memref<7x5xf32>, %b: memref<5x70xf32>, %c: memref<7x70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<7x5xf32>, memref<5x70xf32>) outs(%c : memref<7x70xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// Batched a^T b^T: the batch dim is an outer loop. The rhs, [N, K] with K
// contiguous, is read through a transposed view: each (N, K) tile is packed
// by a blocked 16x16 transpose (16 row loads, shuffles, 16 row stores) into
// the 256x128 stack buffer (K x N); nothing copies the whole operand. The lhs,
// [K, M], is packed one 4-row strip at a time into a [256, 4] stack buffer
// (a slice of the Goto layout [M/4][K][4]), which the register tile reads
// through a transposed view: one scalar per row and k.
// CHECK-LABEL: func.func @batched_transposed
// CHECK-NOT: memref.alloc()
// CHECK-DAG: %[[PACKA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x4xf32>
// CHECK-DAG: %[[PACKB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x128xf32>
// CHECK: %[[AT:.*]] = memref.transpose %{{.*}} (d0, d1) -> (d1, d0) : memref<16x4xf32, strided<[4, 1]>> to memref<4x16xf32, strided<[1, 4]>>
// CHECK: scf.for %[[B:.*]] = %c0 to %c2 step %c1 {
// CHECK: scf.for %[[N:.*]] = %c0 to %c64 step %c16 {
// CHECK-COUNT-16: vector.load %arg1[%[[B]], %{{.*}}, %c0] : memref<2x64x16xf32>, vector<16xf32>
// CHECK: vector.shuffle
// CHECK-COUNT-16: vector.store %{{.*}}, %[[PACKB]][%{{.*}}, %[[N]]] : memref<256x128xf32>, vector<16xf32>
// CHECK: scf.for %[[M:.*]] = %c0 to %c8 step %c4 {
// CHECK-COUNT-16: vector.store %{{.*}}, %[[PACKA]][%{{.*}}, %c0] : memref<256x4xf32>, vector<4xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c16 step %c1 iter_args
// CHECK-COUNT-4: memref.load %[[AT]][%{{.*}}, %[[K]]]
// CHECK: vector.load %[[PACKB]][%[[K]], %c0] : memref<256x128xf32>, vector<64xf32>
// CHECK-COUNT-4: vector.fma
// CHECK-NOT: memref.dealloc
// CHECK: return
// Without packing, the rhs is first transposed into a fresh buffer (a
// blocked transpose too), which the buffer plan places later.
// PACKOFF-LABEL: func.func @batched_transposed
// PACKOFF: %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x16x64xf32>
// PACKOFF-NOT: linalg.transpose
// PACKOFF: vector.store %{{.*}}, %[[COPY]][
// PACKOFF: vector.load %[[COPY]][
// PACKOFF: memref.dealloc %[[COPY]]
func.func @batched_transposed(%a: memref<2x16x8xf32>, %b: memref<2x64x16xf32>, %c: memref<2x8x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x16x8xf32>, memref<2x64x16xf32>) outs(%c : memref<2x8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A transpose on buffers: 16x16 tiles through registers (16 row loads, the
// shuffle network, 16 row stores); the last 35 - 32 = 3 columns and
// 20 - 16 = 4 rows are smaller static tiles, never masked.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: linalg.transpose
// CHECK: scf.for %[[J:.*]] = %c0 to %c32 step %c16 {
// CHECK-COUNT-16: vector.load %arg0[%{{.*}}, %[[J]]] : memref<20x35xf32>, vector<16xf32>
// CHECK: vector.shuffle
// CHECK-COUNT-16: vector.store %{{.*}}, %arg1[%{{.*}}, %c0] : memref<35x20xf32>, vector<16xf32>
// CHECK: vector.load %arg0[%c0, %c32] : memref<20x35xf32>, vector<3xf32>
// CHECK: vector.store %{{.*}}, %arg1[%c32, %c16] : memref<35x20xf32>, vector<4xf32>
// CHECK-NOT: vector.mask
// CHECK: return
func.func @transpose(%a: memref<20x35xf32>, %b: memref<35x20xf32>) {
  linalg.transpose ins(%a : memref<20x35xf32>) outs(%b : memref<35x20xf32>) permutation = [1, 0]
  return
}

// NHWC x HWIO convolution with stride 2 on H: loops over output rows and
// the window rows, a matmul [OW, KW x C] x [KW x C, O] inside. The window
// column and the 3 input features are contiguous in the input row and in
// the kernel, so K runs over both (9): the rows of A overlap (stride 3).
// CHECK-LABEL: func.func @conv_nhwc_hwio
// CHECK: %[[X:.*]], %{{.*}}, %{{.*}}:4, %{{.*}}:4 = memref.extract_strided_metadata %arg0
// CHECK: %[[W:.*]], %{{.*}}, %{{.*}}:4, %{{.*}}:4 = memref.extract_strided_metadata %arg1
// CHECK: scf.for %[[OH:.*]] = %c0 to %c4 step %c1 {
// CHECK: scf.for %[[KH:.*]] = %c0 to %c3 step %c1 {
// CHECK: %[[AT:.*]] = affine.apply #{{.*}}(%[[OH]], %[[KH]])
// CHECK: %[[A:.*]] = memref.reinterpret_cast %[[X]] to offset: [%[[AT]]], sizes: [8, 9], strides: [3, 1]
// CHECK: %[[B:.*]] = memref.reinterpret_cast %[[W]] to offset: [%{{.*}}], sizes: [9, 16], strides: [16, 1]
// CHECK: scf.for %{{.*}} = %c0 to %c9 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>) {
// CHECK: vector.load %[[B]][%{{.*}}, %c0] : memref<9x16xf32, strided<[16, 1], offset: ?>>, vector<16xf32>
// CHECK-COUNT-4: vector.fma {{.*}} : vector<16xf32>
func.func @conv_nhwc_hwio(%x: memref<1x10x10x3xf32>, %w: memref<3x3x3x16xf32>, %y: memref<1x4x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh * 2 + kh, ow + kw, c)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (kh, kw, c, o)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh, ow, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x10x10x3xf32>, memref<3x3x3x16xf32>) outs(%y : memref<1x4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// The accumulator's fill moves into the output-row loop: each row of the
// output is filled right before the window loop adds into it (in cache),
// not all of it in one pass before. A contraction whose outermost loop is
// a contracted one keeps its fill where it was.
// CHECK-LABEL: func.func @conv_fill
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[OH:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[ROW:.*]] = memref.subview %arg2[0, %[[OH]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[ROW]] : memref<1x1x8x16xf32, strided<[512, 128, 16, 1], offset: ?>>)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c3 step %c1 {
// A batch that reads its own accumulator: the fill stays before it all.
// CHECK-LABEL: func.func @fill_read_by_the_contraction
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg1 : memref<4x64x64xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-NOT: linalg.fill
// CHECK: return
// CHECK-LABEL: func.func @fill_stays
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<64x64xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @conv_fill(%x: memref<1x10x10x3xf32>, %w: memref<3x3x3x16xf32>, %y: memref<1x4x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x8x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh * 2 + kh, ow + kw, c)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (kh, kw, c, o)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh, ow, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x10x10x3xf32>, memref<3x3x3x16xf32>) outs(%y : memref<1x4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @fill_read_by_the_contraction(%b: memref<4x64x64xf32>, %c: memref<4x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(g, m, n, k) -> (g, m, k)>, affine_map<(g, m, n, k) -> (g, k, n)>, affine_map<(g, m, n, k) -> (g, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%c, %b : memref<4x64x64xf32>, memref<4x64x64xf32>) outs(%c : memref<4x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @fill_stays(%a: memref<4x64x32xf32>, %b: memref<4x32x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(g, m, n, k) -> (g, m, k)>, affine_map<(g, m, n, k) -> (g, k, n)>, affine_map<(g, m, n, k) -> (m, n)>], iterator_types = ["reduction", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x64x32xf32>, memref<4x32x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// The same convolution on an input whose batch stride is only known at run
// time: K stays C (subviews), since the joined view is built from strides.
// CHECK-LABEL: func.func @conv_dynamic_stride
// CHECK-NOT: memref.reinterpret_cast
// CHECK: vector.load %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<3x3x3x16xf32>, vector<16xf32>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: return
func.func @conv_dynamic_stride(%x: memref<1x10x10x3xf32, strided<[?, 30, 3, 1]>>, %w: memref<3x3x3x16xf32>, %y: memref<1x4x8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh * 2 + kh, ow + kw, c)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (kh, kw, c, o)>, affine_map<(n, oh, ow, o, kh, kw, c) -> (n, oh, ow, o)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x10x10x3xf32, strided<[?, 30, 3, 1]>>, memref<3x3x3x16xf32>) outs(%y : memref<1x4x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// Not a kernel: bf16 operands widened in the body, and a matrix-vector
// product (no N dim) stay linalg for the naive loops.
// CHECK-LABEL: func.func @naive
// CHECK: linalg.generic
// CHECK: arith.extf
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK: return
func.func @naive(%a: memref<4x8xbf16>, %b: memref<8x4xbf16>, %c: memref<4x4xf32>,
                 %m: memref<4x8xf32>, %v: memref<8xf32>, %r: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xbf16>, memref<8x4xbf16>) outs(%c : memref<4x4xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%m, %v : memref<4x8xf32>, memref<8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// A kernel of at least 2^24 multiply-adds with two or more M blocks: its
// main loop over M blocks of 512 rows is outlined and run through
// __torus_parallel_for (2 blocks; the 1100 - 1024 = 76 remaining rows stay
// on the calling thread). Inside, N panels of 128, then K tiles of 256;
// each B tile is packed into a 256x128 stack buffer, the thread's own (the
// alloca is rebuilt in the outlined body), once per (M, N, K) tile.
// THREADS: func.func private @__torus_parallel_for((!llvm.ptr, i64) -> (), !llvm.ptr, i64)
// THREADS-LABEL: func.func private @big__parallel_tile_0(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// THREADS: %[[PACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x128xf32>
// THREADS: scf.for %[[N:.*]] = %c0 to %c896 step %c128
// THREADS: scf.for %[[K:.*]] = %c0 to %c768 step %c256
// THREADS: linalg.copy ins(%{{.*}} : memref<256x128xf32, strided<[1000, 1], offset: ?>>) outs(%[[PACK]] : memref<256x128xf32>)
// THREADS: scf.for %{{.*}} = %c0 to %c512 step %c4
// THREADS: vector.load %[[PACK]][%{{.*}}, %{{.*}}] : memref<256x128xf32>, vector<64xf32>
// THREADS-LABEL: func.func @big
// THREADS: %[[CTX:.*]] = llvm.alloca %{{.*}} x i64
// THREADS: memref.extract_aligned_pointer_as_index %arg0
// THREADS: %[[BODY:.*]] = constant @big__parallel_tile_0
// THREADS: %[[TRIPS:.*]] = llvm.mlir.constant(2 : i64) : i64
// THREADS: call @__torus_parallel_for(%[[BODY]], %[[CTX]], %[[TRIPS]])
// THREADS: -> (vector<4x64xf32>)
// CHECK-LABEL: func.func @big
// CHECK-NOT: __torus_parallel_for
// CHECK: return
func.func @big(%a: memref<1100x1000xf32>, %b: memref<1000x1000xf32>, %c: memref<1100x1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1100x1000xf32>, memref<1000x1000xf32>) outs(%c : memref<1100x1000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// One M block (256 rows): the threads share the loop over N panels instead
// (1024 / 128 = 8 of them), each running K tiles of 256.
// (Bodies are numbered per function: <fn>__parallel_tile_<i>.)
// THREADS-LABEL: func.func private @wide__parallel_tile_0(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// THREADS: scf.for %{{.*}} = %c0 to %c512 step %c256
// THREADS-LABEL: func.func @wide
// THREADS: %[[BODY:.*]] = constant @wide__parallel_tile_0
// THREADS: %[[TRIPS:.*]] = llvm.mlir.constant(8 : i64) : i64
// THREADS: call @__torus_parallel_for(%[[BODY]], %{{.*}}, %[[TRIPS]])
// CHECK-LABEL: func.func @wide
// CHECK-NOT: __torus_parallel_for
// CHECK: return
func.func @wide(%a: memref<256x512xf32>, %b: memref<512x1024xf32>, %c: memref<256x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<256x512xf32>, memref<512x1024xf32>) outs(%c : memref<256x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// 2^21 multiply-adds, the least that goes to the threads (a recurrent
// step's 32 x 256 x 256): one M block, so its two N panels are shared.
// Half as many (32 x 256 x 128) stay on the calling thread.
// THREADS-LABEL: func.func @rnn_step
// THREADS: %[[TRIPS:.*]] = llvm.mlir.constant(2 : i64) : i64
// THREADS: call @__torus_parallel_for(%{{.*}}, %{{.*}}, %[[TRIPS]])
// THREADS-LABEL: func.func @rnn_input
// THREADS-NOT: __torus_parallel_for
// THREADS: return
func.func @rnn_step(%a: memref<32x256xf32>, %b: memref<256x256xf32>, %c: memref<32x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x256xf32>, memref<256x256xf32>) outs(%c : memref<32x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
func.func @rnn_input(%a: memref<32x128xf32>, %b: memref<128x256xf32>, %c: memref<32x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x128xf32>, memref<128x256xf32>) outs(%c : memref<32x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// 16 matmuls of 128 x 128 x 64 (2^24 multiply-adds in all, 2^20 each,
// fewer than the 2^24 a matmul needs to split its own loops): the
// batch loop is outlined, each thread taking whole matmuls (16 trips) and
// packing B's tile (its batch's 64 x 128) into its own stack buffer.
// THREADS-LABEL: func.func private @batched__parallel_tile_0(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// THREADS: memref.alloca() {alignment = 64 : i64} : memref<256x128xf32>
// THREADS: memref.subview %{{.*}}[%{{.*}}, 0, 0] [1, 64, 128] [1, 1, 1]
// THREADS-LABEL: func.func @batched
// THREADS: %[[BODY:.*]] = constant @batched__parallel_tile_0
// THREADS: %[[TRIPS:.*]] = llvm.mlir.constant(16 : i64) : i64
// THREADS: call @__torus_parallel_for(%[[BODY]], %{{.*}}, %[[TRIPS]])
// CHECK-LABEL: func.func @batched
// CHECK-NOT: __torus_parallel_for
// CHECK: return
func.func @batched(%a: memref<16x128x64xf32>, %b: memref<16x64x128xf32>, %c: memref<16x128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x128x64xf32>, memref<16x64x128xf32>) outs(%c : memref<16x128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
