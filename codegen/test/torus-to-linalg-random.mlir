// Tests rng_bit_generator's Threefry-2x32 lowering and its state update.
// RUN: torus-opt %s --split-input-file --torus-to-linalg --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @bits
// CHECK: %[[KEY:.*]] = tensor.extract %{{.*}}[%c0] : tensor<2xi64>
// CHECK: %[[CTR:.*]] = tensor.extract %{{.*}}[%c1] : tensor<2xi64>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3xi32>)
// CHECK: arith.constant 466688986 : i32
// CHECK-COUNT-20: arith.xori %{{.*}}, %{{.*}} : i32
// 9 32-bit words take 5 blocks: the counter advances by 5.
// CHECK: %[[FIVE:.*]] = arith.constant 5 : i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[CTR]], %[[FIVE]] : i64
// CHECK: tensor.from_elements %[[KEY]], %[[NEXT]] : tensor<2xi64>
func.func @bits(%s: tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>) {
  %s1, %bits = torus.rng_bit_generator THREE_FRY %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>)
  return %s1, %bits : tensor<2xi64>, tensor<3x3xi32>
}

// -----

func.func @philox(%s: tensor<2xi64>) -> tensor<4xi32> {
  // expected-error @+2 {{PHILOX is not implemented; use THREE_FRY or DEFAULT}}
  // expected-error @+1 {{failed to legalize operation 'torus.rng_bit_generator'}}
  %s1, %bits = torus.rng_bit_generator PHILOX %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<4xi32>)
  return %bits : tensor<4xi32>
}
