// Tests torus-parallel-loops: large loop kernels split their outermost
// parallel loop into blocks run through __torus_parallel_for; small ones,
// ones whose outer loop is a reduction and ones inside loops stay whole;
// loops marked torus.parallel_tile (a reduction's rows) are outlined.
// RUN: torus-opt %s --torus-parallel-loops | FileCheck %s
// RUN: torus-opt %s --torus-parallel-loops=threads=false | FileCheck %s --check-prefix=SERIAL

// 1024 x 512 = 2^19 elements: 8 blocks of 128 rows (2^16 elements each),
// the body a generic on the block's rows.
// CHECK: func.func private @__torus_parallel_for((!llvm.ptr, i64) -> (), !llvm.ptr, i64)
// CHECK-LABEL: func.func private @double__parallel_tile_0(%{{.*}}: !llvm.ptr, %{{.*}}: i64)
// CHECK: memref.subview %{{.*}}[%{{.*}}, 0] [128, 512] [1, 1]
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK-LABEL: func.func @double
// CHECK: %[[BODY:.*]] = constant @double__parallel_tile_0
// CHECK: %[[TRIPS:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: call @__torus_parallel_for(%[[BODY]], %{{.*}}, %[[TRIPS]])
// CHECK-NOT: linalg.generic
// CHECK: return
// SERIAL-LABEL: func.func @double
// SERIAL-NOT: scf.for
// SERIAL: linalg.generic
func.func @double(%x: memref<1024x512xf32>, %y: memref<1024x512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x512xf32>) outs(%y : memref<1024x512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  return
}

// 1001 x 300: 4 blocks of 251 rows; the three whole ones go to the
// threads, the last 248 rows run after them on the calling thread.
// CHECK-LABEL: func.func private @uneven__parallel_tile_0
// CHECK: memref.subview %{{.*}}[%{{.*}}, 0] [251, 300] [1, 1]
// CHECK-LABEL: func.func @uneven
// CHECK: %[[TRIPS:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: call @__torus_parallel_for(%{{.*}}, %{{.*}}, %[[TRIPS]])
// CHECK: memref.subview %{{.*}}[753, 0] [248, 300] [1, 1]
// CHECK: linalg.generic
func.func @uneven(%x: memref<1001x300xf32>, %y: memref<1001x300xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1001x300xf32>) outs(%y : memref<1001x300xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  }
  return
}

// Fewer than 2^16 elements; a reduction over the outer loop (a column
// sum: every row adds into the same outputs); an output the outer loop
// does not index: all stay whole.
// CHECK-LABEL: func.func @whole
// CHECK-NOT: __torus_parallel_for
// CHECK-NOT: scf.for
// CHECK: return
func.func @whole(%x: memref<64x1023xf32>, %big: memref<1024x512xf32>, %col: memref<512xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x1023xf32>) outs(%x : memref<64x1023xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%big : memref<1024x512xf32>) outs(%col : memref<512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["parallel", "parallel"]}
      ins(%big : memref<1024x512xf32>) outs(%col : memref<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// An output that is a view of the input, read one row ahead of where it is
// written: iterations depend on each other, so it stays whole.
// CHECK-LABEL: func.func @shifted
// CHECK-NOT: __torus_parallel_for
// CHECK: return
func.func @shifted(%x: memref<1025x512xf32>) {
  %in = memref.subview %x[1, 0] [1024, 512] [1, 1] : memref<1025x512xf32> to memref<1024x512xf32, strided<[512, 1], offset: 512>>
  %out = memref.subview %x[0, 0] [1024, 512] [1, 1] : memref<1025x512xf32> to memref<1024x512xf32, strided<[512, 1]>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<1024x512xf32, strided<[512, 1], offset: 512>>) outs(%out : memref<1024x512xf32, strided<[512, 1]>>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// A marked row loop (as torus-vectorize-reductions leaves a large
// reduction's): its 4096 rows run as 64 calls of 64 adjacent rows (call i
// rows 64i .. min(64i + 64, 4096)); without threads the marker is dropped
// and the loop stays.
// CHECK-LABEL: func.func private @rows__parallel_tile_0
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: arith.muli %[[I]], %c64
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c64
// CHECK: %[[LAST:.*]] = arith.minsi %[[END]], %c4096
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[LAST]]
// CHECK: memref.load
// CHECK-LABEL: func.func @rows
// CHECK: llvm.mlir.constant(64 : i64) : i64
// CHECK: call @__torus_parallel_for
// SERIAL-LABEL: func.func @rows
// SERIAL: scf.for
// SERIAL-NOT: torus.parallel_tile
// SERIAL: return
func.func @rows(%x: memref<4096x64xf32>, %out: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  scf.for %i = %c0 to %c4096 step %c1 {
    %v = memref.load %x[%i, %c0] : memref<4096x64xf32>
    memref.store %v, %out[%i] : memref<4096xf32>
  } {torus.parallel_tile}
  return
}
