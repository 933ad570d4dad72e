// Tests rng_bit_generator's lowering (XLA's Threefry-2x32 and Philox-4x32)
// and its state update, which is XLA's.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @threefry
// CHECK: %[[KEY:.*]] = tensor.extract %{{.*}}[%c0] : tensor<2xi64>
// CHECK: %[[CTR:.*]] = tensor.extract %{{.*}}[%c1] : tensor<2xi64>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3xi32>)
// CHECK: arith.constant 466688986 : i32
// CHECK-COUNT-20: arith.xori %{{.*}}, %{{.*}} : i32
// XLA halves 3x3 along dim 0 into 2x3 blocks: the counter advances by 6.
// CHECK: %[[SIX:.*]] = arith.constant 6 : i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[CTR]], %[[SIX]] : i64
// CHECK: tensor.from_elements %[[KEY]], %[[NEXT]] : tensor<2xi64>
func.func @threefry(%s: tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>) {
  %s1, %bits = torus.rng_bit_generator THREE_FRY %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<3x3xi32>)
  return %s1, %bits : tensor<2xi64>, tensor<3x3xi32>
}

// -----

// 64-bit elements take a block each: the counter advances by 5.
// CHECK-LABEL: func.func @threefry64
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<5xi64>)
// CHECK: arith.constant 5 : i64
func.func @threefry64(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui64>) {
  %s1, %bits = torus.rng_bit_generator THREE_FRY %s : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui64>)
  return %s1, %bits : tensor<2xui64>, tensor<5xui64>
}

// -----

// DEFAULT is PHILOX, as XLA expands it. 9 words take 3 blocks of 4; the
// 128-bit counter's high half is the key, and the new state keeps the low
// half.
// CHECK-LABEL: func.func @philox
// CHECK: %[[KEY:.*]] = tensor.extract %{{.*}}[%c0] : tensor<2xi64>
// CHECK: %[[CTR:.*]] = tensor.extract %{{.*}}[%c1] : tensor<2xi64>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<9xi16>)
// CHECK-COUNT-20: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[CTR]], %[[THREE]] : i64
// CHECK: tensor.from_elements %[[KEY]], %[[NEXT]] : tensor<2xi64>
func.func @philox(%s: tensor<2xi64>) -> (tensor<2xi64>, tensor<9xi16>) {
  %s1, %bits = torus.rng_bit_generator DEFAULT %s : (tensor<2xi64>) -> (tensor<2xi64>, tensor<9xi16>)
  return %s1, %bits : tensor<2xi64>, tensor<9xi16>
}

// -----

// A 3-element state holds the whole 128-bit counter, and gets it back.
// CHECK-LABEL: func.func @philox3
// CHECK: %[[KEY:.*]] = tensor.extract %{{.*}}[%c0] : tensor<3xi64>
// CHECK: %[[LOW:.*]] = tensor.extract %{{.*}}[%c1] : tensor<3xi64>
// CHECK: %[[HIGH:.*]] = tensor.extract %{{.*}}[%c2] : tensor<3xi64>
// CHECK: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[LOW]], %[[TWO]] : i64
// CHECK: %[[CARRY:.*]] = arith.cmpi ult, %[[NEXT]], %[[LOW]] : i64
// CHECK: %[[C:.*]] = arith.extui %[[CARRY]] : i1 to i64
// CHECK: %[[NEXTHIGH:.*]] = arith.addi %[[HIGH]], %[[C]] : i64
// CHECK: tensor.from_elements %[[KEY]], %[[NEXT]], %[[NEXTHIGH]] : tensor<3xi64>
func.func @philox3(%s: tensor<3xi64>) -> (tensor<3xi64>, tensor<4xi64>) {
  %s1, %bits = torus.rng_bit_generator PHILOX %s : (tensor<3xi64>) -> (tensor<3xi64>, tensor<4xi64>)
  return %s1, %bits : tensor<3xi64>, tensor<4xi64>
}
