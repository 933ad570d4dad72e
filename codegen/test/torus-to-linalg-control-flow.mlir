// Tests while/if/case/call lowering to scf and func: regions move over,
// torus.return becomes scf.condition or scf.yield.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @loop
// CHECK: %{{.*}}:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
// CHECK:   %[[C:.*]] = linalg.generic
// CHECK:   %[[P:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK:   scf.condition(%[[P]]) %[[I]], %[[V]] : tensor<i32>, tensor<4xf32>
// CHECK: } do {
// CHECK: ^bb0(%[[I2:.*]]: tensor<i32>, %[[V2:.*]]: tensor<4xf32>):
// The next values are copied into the loop-carried buffers.
// CHECK:   %[[NI:.*]] = linalg.copy ins(%{{.*}} : tensor<i32>) outs(%[[I2]] : tensor<i32>)
// CHECK:   %[[NV:.*]] = linalg.copy ins(%{{.*}} : tensor<4xf32>) outs(%[[V2]] : tensor<4xf32>)
// CHECK:   scf.yield %[[NI]], %[[NV]]
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<4xf32>) {
  %zero = torus.constant dense<0> : tensor<i32>
  %one = torus.constant dense<1> : tensor<i32>
  %r:2 = torus.while(%i = %zero, %v = %x) : tensor<i32>, tensor<4xf32> cond {
    %c = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    torus.return %c : tensor<i1>
  } do {
    %i1 = torus.add %i, %one : tensor<i32>
    %v1 = torus.multiply %v, %v : tensor<4xf32>
    torus.return %i1, %v1 : tensor<i32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<4xf32>
}

// -----

// A loop that swaps its state: each value is copied aside first, so that
// the copy into one buffer does not clobber what the other copy reads.
// CHECK-LABEL: func.func @swap
// CHECK: } do {
// CHECK: ^bb0(%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK:   %[[TB:.*]] = linalg.copy ins(%[[B]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:   %[[TA:.*]] = linalg.copy ins(%[[A]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:   %[[NA:.*]] = linalg.copy ins(%[[TB]] : tensor<4xf32>) outs(%[[A]] : tensor<4xf32>)
// CHECK:   %[[NB:.*]] = linalg.copy ins(%[[TA]] : tensor<4xf32>) outs(%[[B]] : tensor<4xf32>)
// CHECK:   scf.yield %[[NA]], %[[NB]]
func.func @swap(%x: tensor<4xf32>, %y: tensor<4xf32>, %p: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = torus.while(%a = %x, %b = %y) : tensor<4xf32>, tensor<4xf32> cond {
    torus.return %p : tensor<i1>
  } do {
    torus.return %b, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @conditionals
// CHECK: %[[P:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.if %[[P]] -> (tensor<4xf32>) {
// CHECK:   linalg.copy
// CHECK:   scf.yield
// CHECK: } else {
// CHECK:   linalg.generic
// CHECK:   arith.negf
// CHECK:   scf.yield
// CHECK: %[[I:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK: %[[X:.*]] = arith.index_cast %[[I]] : i32 to index
// The last branch is the default: HLO runs it for an out-of-range index.
// CHECK: scf.index_switch %[[X]] -> tensor<4xf32>
// CHECK: case 0 {
// CHECK: default {
// CHECK: math.exp
func.func @conditionals(%x: tensor<4xf32>, %p: tensor<i1>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = torus.if %p -> (tensor<4xf32>) {
    torus.return %x : tensor<4xf32>
  } else {
    %neg = torus.negate %x : tensor<4xf32>
    torus.return %neg : tensor<4xf32>
  }
  %g = torus.case %n -> (tensor<4xf32>) {
    torus.return %x : tensor<4xf32>
  }, {
    %e = torus.exp %x : tensor<4xf32>
    torus.return %e : tensor<4xf32>
  }
  return %f, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func private @square(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.multiply %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller
// CHECK: call @square(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.call @square(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
