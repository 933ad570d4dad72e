// Tests torus-fuse-rows: consecutive kernels over the same rows, one of
// them a reduction's row loop, whose written buffers are touched only at
// their row, become one loop over the rows; a buffer read across rows, a
// different row count, an op with effects between them, overlapping
// buffers, or no row loop at all leave the kernels as they are.
// RUN: torus-opt %s --torus-fuse-rows --split-input-file | FileCheck %s

#row = affine_map<(i, j) -> (i, j)>
#rowOf = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#vec = affine_map<(i) -> (i)>

// A layer norm's shape: zero the sums, sum each row, divide, normalize.
// CHECK-LABEL: func.func @norm
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[S0:.*]] = memref.subview %[[SUM:.*]][%[[R]]] [1] [1]
// CHECK:   linalg.fill ins(%{{.*}} : f32) outs(%[[S0]] : memref<1xf32, strided<[1], offset: ?>>)
// CHECK:   memref.subview %{{.*}}[%[[R]], 0] [1, 16] [1, 1]
// CHECK:   memref.store
// CHECK:   memref.subview %{{.*}}[%[[R]]] [1] [1]
// CHECK:   linalg.generic
// CHECK-SAME: outs(%{{.*}} : memref<1xf32
// CHECK:   %[[Y:.*]] = memref.subview %arg4[%[[R]], 0] [1, 16] [1, 1]
// CHECK:   linalg.generic
// CHECK-SAME: outs(%[[Y]] : memref<1x16xf32
// CHECK: } {torus.parallel_tile}
// CHECK-NEXT: return
func.func @norm(%x: memref<8x16xf32>, %gamma: memref<16xf32>,
                %sum: memref<8xf32>, %mean: memref<8xf32>,
                %y: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 16.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  linalg.fill ins(%zero : f32) outs(%sum : memref<8xf32>)
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 16] [1, 1]
        : memref<8x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    %sr = memref.subview %sum[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %t = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %xr[%c0, %k] : memref<1x16xf32, strided<[16, 1], offset: ?>>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    %old = memref.load %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
    %new = arith.addf %old, %t : f32
    memref.store %new, %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sum : memref<8xf32>) outs(%mean : memref<8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#row, #rowOf, #col, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %gamma : memref<8x16xf32>, memref<8xf32>, memref<16xf32>)
      outs(%y : memref<8x16xf32>) {
  ^bb0(%a: f32, %m: f32, %g: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %p = arith.mulf %d, %g : f32
    linalg.yield %p : f32
  }
  return
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#colOf = affine_map<(i, j) -> (j)>

// The second kernel reads the sums along its columns (another row's sum):
// not row-local, nothing fuses.
// CHECK-LABEL: func.func @across_rows
// CHECK: scf.for
// CHECK: } {torus.parallel_tile}
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK: return
func.func @across_rows(%x: memref<8x8xf32>, %sum: memref<8xf32>,
                       %y: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %sr = memref.subview %sum[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  linalg.generic {indexing_maps = [#row, #colOf, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>)
      outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %p = arith.mulf %a, %s : f32
    linalg.yield %p : f32
  }
  return
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#rowOf = affine_map<(i, j) -> (i)>

// Different row counts, a call between kernels, a kernel that reads its
// row number (linalg.index 0: it would count from each row), and a run
// without a row loop: each stays.
// CHECK-LABEL: func.func @apart
// CHECK: scf.for
// CHECK: } {torus.parallel_tile}
// CHECK: call @touch
// CHECK: scf.for
// CHECK: } {torus.parallel_tile}
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK: return
func.func private @touch(memref<8xf32>)
func.func @apart(%x: memref<8x8xf32>, %sum: memref<8xf32>,
                 %y: memref<8x8xf32>, %z: memref<4x8xf32>,
                 %w: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %sr = memref.subview %sum[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  call @touch(%sum) : (memref<8xf32>) -> ()
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %sr = memref.subview %sum[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  linalg.generic {indexing_maps = [#row, #rowOf, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>)
      outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %fi, %s : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [#row, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<8x8xf32>) outs(%x : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#row, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%z : memref<4x8xf32>) outs(%w : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#rowOf = affine_map<(i, j) -> (i)>

// The sums and the output are views of one workspace that overlap: a
// row's output could overwrite another row's sum, nothing fuses.
// CHECK-LABEL: func.func @overlap
// CHECK: scf.for
// CHECK: } {torus.parallel_tile}
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK: return
func.func @overlap(%x: memref<8x8xf32>, %ws: memref<256xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %sum = memref.view %ws[%c0][] : memref<256xi8> to memref<8xf32>
  %y = memref.view %ws[%c16][] : memref<256xi8> to memref<8x8xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %sr = memref.subview %sum[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %sr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  linalg.generic {indexing_maps = [#row, #rowOf, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>)
      outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %p = arith.mulf %a, %s : f32
    linalg.yield %p : f32
  }
  return
}

// -----

#row = affine_map<(i, j) -> (i, j)>
#rowOf1 = affine_map<(i, j) -> (i, 0)>

// The row maxima as a workspace view and as its [8, 1] reshape (a
// keepdims operand): row r of both is the same bytes, so the rows are
// still independent and the kernels fuse. A view whose row r is another
// row of the buffer the row loop writes: nothing fuses.
// CHECK-LABEL: func.func @reshaped
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK: } {torus.parallel_tile}
// CHECK-NEXT: return
// CHECK-LABEL: func.func @moved_rows
// CHECK: scf.for
// CHECK: } {torus.parallel_tile}
// CHECK: linalg.generic
// CHECK-NOT: scf.for
// CHECK: return
func.func @reshaped(%x: memref<8x8xf32>, %ws: memref<256xi8>,
                    %y: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %top = memref.view %ws[%c0][] : memref<256xi8> to memref<8xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %tr = memref.subview %top[%r] [1] [1]
        : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %tr[%c0] : memref<1xf32, strided<[1], offset: ?>>
  } {torus.parallel_tile}
  %top2 = memref.expand_shape %top [[0, 1]] output_shape [8, 1]
      : memref<8xf32> into memref<8x1xf32>
  linalg.generic {indexing_maps = [#row, #rowOf1, #row],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %top2 : memref<8x8xf32>, memref<8x1xf32>)
      outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %p = arith.subf %a, %t : f32
    linalg.yield %p : f32
  }
  return
}
func.func @moved_rows(%x: memref<8x8xf32>, %ws: memref<256xi8>,
                      %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %top = memref.view %ws[%c0][] : memref<256xi8> to memref<9x2xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 8] [1, 1]
        : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %tr = memref.subview %top[%r, 0] [1, 2] [1, 1]
        : memref<9x2xf32> to memref<1x2xf32, strided<[2, 1], offset: ?>>
    %v = memref.load %xr[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>>
    memref.store %v, %tr[%c0, %c0] : memref<1x2xf32, strided<[2, 1], offset: ?>>
  } {torus.parallel_tile}
  // Row r of the cast is row r + 1 of %top.
  %next = memref.reinterpret_cast %top to offset: [2], sizes: [8], strides: [2]
      : memref<9x2xf32> to memref<8xf32, strided<[2], offset: 2>>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%next : memref<8xf32, strided<[2], offset: 2>>)
      outs(%y : memref<8xf32>) {
  ^bb0(%t: f32, %o: f32):
    linalg.yield %t : f32
  }
  return
}
