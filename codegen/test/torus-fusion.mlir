// Tests torus-fusion on torus programs lowered to linalg: loop fusion of an
// elementwise chain with a broadcast and a convert, input fusion of
// elementwise producers into a reduction, output fusion of a contraction
// with its bias-and-relu epilogue, unit dimensions of row statistics
// dropped before fusing, no fusion into a contraction or of a
// producer with two uses, and fuse=false (every op its own kernel).
// RUN: torus-opt %s --torus-lower-to-linalg | FileCheck %s
// RUN: torus-opt %s --pass-pipeline="builtin.module(torus-lower-collectives,func.func(torus-to-linalg),canonicalize,func.func(torus-fusion{fuse=false}))" | FileCheck %s --check-prefix=NAIVE

// relu(a * b + c) with b broadcast and c converted: one loop nest.
// CHECK-LABEL: func.func @chain
// CHECK:       linalg.generic
// CHECK-SAME:    ins(%arg0, %arg1, %arg2 : tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xbf16>)
// CHECK-SAME:    attrs = {torus.fused_ops = 4 : i64, torus.fusion = "loop", torus.kernel = "fusion.0"}
// CHECK:         arith.extf
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:         arith.maximumf
// CHECK:       } -> tensor<8x16xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return
// NAIVE-LABEL: func.func @chain
// NAIVE-COUNT-5: torus.fusion = "loop"
// NAIVE-NOT:   linalg.generic
// NAIVE:       return
func.func @chain(%a: tensor<8x16xf32>, %b: tensor<16xf32>, %c: tensor<8x16xbf16>) -> tensor<8x16xf32> {
  %bb = torus.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %cc = torus.convert %c : (tensor<8x16xbf16>) -> tensor<8x16xf32>
  %0 = torus.multiply %a, %bb : tensor<8x16xf32>
  %1 = torus.add %0, %cc : tensor<8x16xf32>
  %z = torus.constant dense<0.0> : tensor<8x16xf32>
  %2 = torus.maximum %1, %z : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// sum(a * b, dims = [1]): the multiply is computed inside the reduction.
// CHECK-LABEL: func.func @reduce_of_product
// CHECK:       linalg.fill {torus.fused_ops = 0 : i64, torus.fusion = "loop", torus.kernel = "fusion.0"}
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "reduction"]
// CHECK-SAME:    ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-SAME:    attrs = {torus.fused_ops = 2 : i64, torus.fusion = "input", torus.kernel = "fusion.1"}
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK-NOT:   linalg.generic
// CHECK:       return
// NAIVE-LABEL: func.func @reduce_of_product
// NAIVE:       torus.fusion = "loop"
// NAIVE:       linalg.reduce
// NAIVE-SAME:  torus.fusion = "input"
func.func @reduce_of_product(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = torus.multiply %a, %b : tensor<8x16xf32>
  %1 = torus.reduce sum %0, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// relu(x @ w + bias): the matmul and its epilogue form one output fusion,
// the epilogue moved right after the matmul; relu(x) feeding the matmul is
// not fused into it.
// CHECK-LABEL: func.func @dense
// CHECK:       %[[RX:.*]] = linalg.generic
// CHECK-SAME:    attrs = {torus.fused_ops = 1 : i64, torus.fusion = "loop", torus.kernel = "fusion.0"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:    arith.maximumf
// CHECK:       %[[MM:.*]] = linalg.generic
// CHECK-SAME:    ins(%[[RX]], %arg1
// CHECK-SAME:    attrs = {torus.fused_ops = 2 : i64, torus.fusion = "output", torus.kernel = "fusion.2"}
// CHECK:       } -> tensor<8x16xf32>
// CHECK-NEXT:  linalg.generic
// CHECK-SAME:    ins(%[[MM]], %arg2
// CHECK-SAME:    attrs = {torus.fused_ops = 2 : i64, torus.fusion = "output", torus.kernel = "fusion.2"}
// CHECK:         arith.addf
// CHECK:         arith.maximumf
// Unfused, the bias is broadcast by a loop nest of its own between the two:
// the matmul stays alone.
// NAIVE-LABEL: func.func @dense
// NAIVE:       torus.fusion = "none"
// NAIVE-COUNT-3: torus.fusion = "loop"
func.func @dense(%x: tensor<8x4xf32>, %w: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %zx = torus.constant dense<0.0> : tensor<8x4xf32>
  %rx = torus.maximum %x, %zx : tensor<8x4xf32>
  %0 = torus.dot_general %rx, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %1 = torus.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %2 = torus.add %0, %1 : tensor<8x16xf32>
  %z = torus.constant dense<0.0> : tensor<8x16xf32>
  %3 = torus.maximum %2, %z : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// exp(a) has two users: computed once, not duplicated into both.
// CHECK-LABEL: func.func @two_uses
// CHECK:       math.exp
// CHECK-NOT:   math.exp
// CHECK:       return
func.func @two_uses(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = torus.exp %a : tensor<16xf32>
  %1 = torus.add %0, %a : tensor<16xf32>
  %2 = torus.multiply %0, %a : tensor<16xf32>
  return %1, %2 : tensor<16xf32>, tensor<16xf32>
}

// A row statistic kept as [8, 1] between reshapes, as JAX's layer norm
// writes it (keepdims): the unit dimension is dropped before fusing, so the
// subtract-and-square fuses into the second reduction and the normalizing
// kernel is rank 2, the result's own shape (no [8, 1, 16] space and no copy
// into the result).
// CHECK-LABEL: func.func @row_statistic
// CHECK-NOT:   8x1x16
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME:    torus.fusion = "input"
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK-SAME:    torus.fusion = "loop"
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME:    torus.fusion = "input"
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:    arith.subf
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK-NOT:   8x1x16
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK-SAME:    outs(%{{.*}} : tensor<8x16xf32>)
// CHECK-SAME:    torus.fusion = "loop"
// CHECK:       return %{{.*}} : tensor<8x16xf32>
func.func @row_statistic(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %n = torus.constant dense<16.0> : tensor<8x1xf32>
  %s = torus.reduce sum %x, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
  %s1 = torus.reshape %s : (tensor<8xf32>) -> tensor<8x1xf32>
  %mean = torus.divide %s1, %n : tensor<8x1xf32>
  %m0 = torus.reshape %mean : (tensor<8x1xf32>) -> tensor<8xf32>
  %mb = torus.broadcast_in_dim %m0, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %d = torus.subtract %x, %mb : tensor<8x16xf32>
  %m1 = torus.reshape %mean : (tensor<8x1xf32>) -> tensor<8xf32>
  %mb1 = torus.broadcast_in_dim %m1, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %d1 = torus.subtract %x, %mb1 : tensor<8x16xf32>
  %sq = torus.multiply %d1, %d1 : tensor<8x16xf32>
  %v = torus.reduce sum %sq, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
  %v1 = torus.reshape %v : (tensor<8xf32>) -> tensor<8x1xf32>
  %var = torus.divide %v1, %n : tensor<8x1xf32>
  %r = torus.rsqrt %var : tensor<8x1xf32>
  %r0 = torus.reshape %r : (tensor<8x1xf32>) -> tensor<8xf32>
  %rb = torus.broadcast_in_dim %r0, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %y = torus.multiply %d, %rb : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
