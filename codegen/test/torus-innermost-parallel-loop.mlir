// Tests torus-innermost-parallel-loop: a reduction whose reduced loops come
// last but whose output rows are a parallel loop runs with that loop
// innermost, the others in their order; other reductions are left alone.
// RUN: torus-opt %s --torus-innermost-parallel-loop | FileCheck %s

// The average pool's gradient: a 2 x 2 window summed over the padded,
// dilated gradient. The channel loop (d3) moves innermost.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d3, d1 + d4, d2 + d5, d7 + d6)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d4, d5, d6)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d7)>
// CHECK-LABEL: func.func @pool_gradient
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction", "parallel"]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32, %[[O:.*]]: f32):
// CHECK-NEXT: arith.addf %[[O]], %[[A]] : f32
func.func @pool_gradient(%padded: memref<4x9x9x32xf32>, %window: memref<1x2x2x1xf32>, %out: memref<4x8x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, d1 + d5, d2 + d6, d3 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%padded, %window : memref<4x9x9x32xf32>, memref<1x2x2x1xf32>) outs(%out : memref<4x8x8x32xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// A sum over the leading axis: the columns move innermost.
// CHECK-LABEL: func.func @column_sums
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction", "parallel"]}
func.func @column_sums(%x: memref<64x256xf32>, %sums: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%sums : memref<256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// Row sums reduce along the row itself: left to
// torus-vectorize-reductions.
// CHECK-LABEL: func.func @row_sums
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @row_sums(%x: memref<64x256xf32>, %sums: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%sums : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// An input read across rows along the output's row loop (a transposed
// operand): moving that loop innermost would not make its reads
// contiguous. Left alone.
// CHECK-LABEL: func.func @transposed_input
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
func.func @transposed_input(%x: memref<32x16x8xf32>, %out: memref<16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (j, i, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<32x16x8xf32>) outs(%out : memref<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// A strided output row (every other column of a buffer): left alone.
// CHECK-LABEL: func.func @strided_output
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @strided_output(%x: memref<64x128xf32>, %sums: memref<128xf32, strided<[2]>>) {
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%sums : memref<128xf32, strided<[2]>>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}

// A window scaled along the row (2 x j): not unit steps. Left alone.
// CHECK-LABEL: func.func @strided_read
// CHECK: iterator_types = ["parallel", "reduction"]
func.func @strided_read(%x: memref<4x256xf32>, %out: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j * 2)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x256xf32>) outs(%out : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  }
  return
}
