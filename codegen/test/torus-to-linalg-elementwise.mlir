// Tests the scalar bodies elementwise ops lower to: HLO semantics per
// element type, f16/bf16 computed in f32, scalar operands broadcast.
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @logistic
// CHECK: linalg.generic
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK: %[[E:.*]] = math.exp %[[NEG]]
// CHECK: %[[D:.*]] = arith.addf %[[ONE]], %[[E]]
// CHECK: arith.divf %[[ONE]], %[[D]]
func.func @logistic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.logistic %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Integer division never traps: x/0 is -1 and INT_MIN/-1 is INT_MIN.
// CHECK-LABEL: func.func @integer_divide
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[Y:.*]], %c0_i32
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %c1_i32, %[[Y]]
// CHECK: %[[Q:.*]] = arith.divsi %{{.*}}, %[[SAFE]]
// CHECK: arith.select %[[ZERO]], %c-1_i32, %{{.*}}
func.func @integer_divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = torus.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @half_in_f32
// CHECK: ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// CHECK: %[[W:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK: %[[S:.*]] = math.sqrt %[[W]] : f32
// CHECK: arith.truncf %[[S]] : f32 to bf16
func.func @half_in_f32(%h: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = torus.sqrt %h : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// A scalar predicate selects whole tensors: its map has no results.
// CHECK: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @scalar_select
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #{{.*}}, #{{.*}}, #{{.*}}]
// CHECK: arith.select
func.func @scalar_select(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.select %p, %a, %b : tensor<i1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expm1, log1p and tanh are expanded (math-to-llvm's versions lose
// precision near zero); atan2 is computed in f64 from exp-free arithmetic.
// CHECK-LABEL: func.func @expanded
// CHECK-NOT: math.expm1
// CHECK-NOT: math.log1p
// CHECK-NOT: math.tanh
// CHECK-NOT: math.atan2
// CHECK: math.exp
// CHECK: math.log
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: math.copysign
func.func @expanded(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = torus.expm1 %a : tensor<4xf32>
  %1 = torus.log1p %a : tensor<4xf32>
  %2 = torus.tanh %a : tensor<4xf32>
  %3 = torus.atan2 %a, %b : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Integer power by squaring in a loop; negative exponents by XLA's rule.
// CHECK-LABEL: func.func @integer_power
// CHECK: scf.for
// CHECK: arith.muli
// CHECK: arith.shrui
// CHECK: scf.yield
// CHECK: arith.cmpi slt
func.func @integer_power(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = torus.power %a, %b : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Float-to-int conversion saturates and maps NaN to 0.
// CHECK-LABEL: func.func @saturating_convert
// CHECK: arith.cmpf oge, %{{.*}}, %cst
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf uno
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.select %{{.*}}, %c2147483647_i32
// CHECK: arith.select %{{.*}}, %c-2147483648_i32
func.func @saturating_convert(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = torus.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @pred_ops
// CHECK: arith.ori
// CHECK: arith.andi
// CHECK: arith.xori
// CHECK: arith.cmpi ult
func.func @pred_ops(%a: tensor<4xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = torus.add %a, %b : tensor<4xi1>
  %1 = torus.minimum %0, %b : tensor<4xi1>
  %2 = torus.not %1 : tensor<4xi1>
  %3 = torus.compare LT, %2, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %3 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @clamp_is_finite
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.absf
// CHECK: arith.cmpf olt
func.func @clamp_is_finite(%lo: tensor<f32>, %a: tensor<4xf32>, %hi: tensor<f32>) -> tensor<4xi1> {
  %0 = torus.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = torus.is_finite %0 : (tensor<4xf32>) -> tensor<4xi1>
  return %1 : tensor<4xi1>
}

// -----

// Shifts by the bit width or more shift every bit out, where arith's shifts
// are poison: the body selects 0, or shifts by width - 1 for the sign.
// CHECK-LABEL: func.func @shifts
// CHECK: %[[OUT:.*]] = arith.cmpi uge, %[[N:.*]], %c32_i32
// CHECK: %[[SHL:.*]] = arith.shli %{{.*}}, %[[N]]
// CHECK: arith.select %[[OUT]], %c0_i32, %[[SHL]]
// CHECK: linalg.generic
// CHECK: %[[OUT2:.*]] = arith.cmpi uge, %[[N2:.*]], %c32_i32
// CHECK: %[[AMT:.*]] = arith.select %[[OUT2]], %c31_i32, %[[N2]]
// CHECK: arith.shrsi %{{.*}}, %[[AMT]]
func.func @shifts(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = torus.shift_left %a, %b : tensor<4xi32>
  %1 = torus.shift_right_arithmetic %a, %b : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// reduce_precision works on the element's own bits: bf16 is not widened.
// Rounding to (5 exponent, 3 mantissa) bits: bias 0b0111 plus the last
// kept bit (bit 4), truncation, then the exponent range checks.
// CHECK-LABEL: func.func @reduce_precision_bf16
// CHECK: ^bb0(%[[IN:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NOT: arith.extf
// CHECK: %[[BITS:.*]] = arith.bitcast %[[IN]] : bf16 to i16
// CHECK: arith.andi %[[BITS]], %c16_i16
// CHECK: arith.cmpi ugt
// CHECK: arith.cmpi ule
// CHECK: %[[R:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[IN]], %[[IN]]
// CHECK: arith.select %[[NAN]], %[[IN]], %[[R]]
func.func @reduce_precision_bf16(%h: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = torus.reduce_precision %h, exponent_bits = 5, mantissa_bits = 3 : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}
