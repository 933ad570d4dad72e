// Tests torus-fuse-epilogues: a contraction, the fill before it and its
// output-fusion epilogue run in one loop over 128-column panels of the
// result, peeled into static panels.
// RUN: torus-opt %s --torus-fuse-epilogues --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK: %[[C:.*]] = memref.view
// CHECK: scf.for %[[N:.*]] = %c0 to %c256 step %c128 {
// CHECK-NEXT: %[[Z:.*]] = memref.subview %[[C]][0, %[[N]]] [8, 128] [1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[Z]] :
// CHECK: %[[W:.*]] = memref.subview %arg1[0, %[[N]]] [16, 128] [1, 1]
// CHECK: %[[CN:.*]] = memref.subview %[[C]][0, %[[N]]] [8, 128] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[W]] : {{.*}}) outs(%[[CN]] : {{.*}}) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"}
// CHECK: %[[B:.*]] = memref.subview %arg2[%[[N]]] [128] [1]
// CHECK: %[[D:.*]] = memref.subview %arg4[0, %[[N]]] [8, 128] [1, 1]
// CHECK: linalg.generic {{.*}} outs(%[[D]] : {{.*}}) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"}
// CHECK: arith.maximumf
// CHECK: }
// The last 44 columns, static.
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8x44xf32, strided<[300, 1], offset: 256>>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<8x44xf32, strided<[300, 1], offset: 256>>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<8x44xf32, strided<[300, 1], offset: 256>>)
// CHECK-NOT: linalg.generic
// CHECK: return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @dense(%a: memref<8x16xf32>, %w: memref<16x300xf32>, %bias: memref<300xf32>, %ws: memref<19200xi8>, %d: memref<8x300xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.view %ws[%c0][] : memref<19200xi8> to memref<8x300xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x300xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<8x16xf32>, memref<16x300xf32>) outs(%c : memref<8x300xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %d2 = memref.subview %d[0, 0] [8, 300] [1, 1] : memref<8x300xf32> to memref<8x300xf32, strided<[300, 1]>>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x300xf32>, memref<300xf32>) outs(%d2 : memref<8x300xf32, strided<[300, 1]>>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// Not fused: the epilogue reads the result transposed, and a store lies
// between a contraction and its epilogue.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: scf.for
// CHECK: return
func.func @kept(%a: memref<8x16xf32>, %w: memref<16x256xf32>, %c: memref<8x256xf32>, %d: memref<256x8xf32>, %e: memref<8x256xf32>, %f: memref<8x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<8x16xf32>, memref<16x256xf32>) outs(%c : memref<8x256xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (n, m)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<8x256xf32>) outs(%d : memref<256x8xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<8x16xf32>, memref<16x256xf32>) outs(%e : memref<8x256xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.2"} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.store %zero, %e[%c0, %c0] : memref<8x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e : memref<8x256xf32>) outs(%f : memref<8x256xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.2"} {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// Not fused: the plan put the epilogue's result where the contraction's
// input was (bytes [0, 9600) of both), which later panels still read.
// CHECK-LABEL: func.func @result_where_input_was
// CHECK-NOT: scf.for
// CHECK: return
func.func @result_where_input_was(%w: memref<16x300xf32>, %bias: memref<300xf32>, %ws: memref<40000xi8>) {
  %c0 = arith.constant 0 : index
  %c20000 = arith.constant 20000 : index
  %a = memref.view %ws[%c0][] {torus.buffer = 0 : i64, torus.offset = 0 : i64} : memref<40000xi8> to memref<8x16xf32>
  %c = memref.view %ws[%c20000][] {torus.buffer = 1 : i64, torus.offset = 20000 : i64} : memref<40000xi8> to memref<8x300xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<8x16xf32>, memref<16x300xf32>) outs(%c : memref<8x300xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %d = memref.view %ws[%c0][] {torus.buffer = 2 : i64, torus.offset = 0 : i64} : memref<40000xi8> to memref<8x300xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<8x300xf32>, memref<300xf32>) outs(%d : memref<8x300xf32>) attrs = {torus.fusion = "output", torus.kernel = "fusion.1"} {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  return
}
