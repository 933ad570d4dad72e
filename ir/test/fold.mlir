// Tests the folds XLA also makes: x+0, x*1, no-op broadcasts and converts,
// reshape∘reshape, transpose∘transpose and broadcasts of splat constants;
// and transpose∘dot_general as the swapped product (XLA's algebraic
// simplifier does the same).
// RUN: torus-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = torus.constant dense<0.0> : tensor<4xf32>
  %one = torus.constant dense<1.0> : tensor<4xf32>
  %0 = torus.add %x, %zero : tensor<4xf32>
  %1 = torus.multiply %one, %x : tensor<4xf32>
  %2 = torus.convert %x : (tensor<4xf32>) -> tensor<4xf32>
  %3 = torus.transpose %x, permutation = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = torus.reshape %[[X]] : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[T:.*]] = torus.transpose %[[X]], permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @chains(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<4x2x3xf32>) {
  %0 = torus.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = torus.reshape %0 : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = torus.transpose %x, permutation = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = torus.transpose %2, permutation = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1, %3 : tensor<4x6xf32>, tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @splat_broadcast
// CHECK-NEXT: %[[C:.*]] = torus.constant dense<2.500000e+00> : tensor<3x5xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_broadcast() -> tensor<3x5xf32> {
  %c = torus.constant dense<2.5> : tensor<f32>
  %0 = torus.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Constant folding evaluates elementwise ops on constants with the
// lowering's semantics.
// CHECK-LABEL: func.func @constant_elementwise
// CHECK-DAG: %[[F:.*]] = torus.constant dense<[3.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[E:.*]] = torus.constant dense<[2.71828175, 1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[I:.*]] = torus.constant dense<[-1, -2147483648, 2, 1]> : tensor<4xi32>
// CHECK-DAG: %[[R:.*]] = torus.constant dense<[7, 0, 1, 3]> : tensor<4xi32>
// CHECK-DAG: %[[P:.*]] = torus.constant dense<[9, 0, 0, 1]> : tensor<4xi32>
// CHECK-DAG: %[[C:.*]] = torus.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG: %[[V:.*]] = torus.constant dense<[2147483647, 0, -3]> : tensor<3xi32>
// CHECK-DAG: %[[S:.*]] = torus.constant dense<[-1.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK: return %[[F]], %[[E]], %[[I]], %[[R]], %[[P]], %[[C]], %[[V]], %[[S]]
func.func @constant_elementwise() -> (tensor<2xf32>, tensor<2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2xi1>, tensor<3xi32>, tensor<2xf32>) {
  %a = torus.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = torus.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %0 = torus.add %a, %b : tensor<2xf32>
  %z = torus.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %1 = torus.exp %z : tensor<2xf32>
  // XLA's integer division: x/0 = -1, INT_MIN/-1 = INT_MIN.
  %x = torus.constant dense<[7, -2147483648, 7, 7]> : tensor<4xi32>
  %y = torus.constant dense<[0, -1, 3, 4]> : tensor<4xi32>
  %2 = torus.divide %x, %y : tensor<4xi32>
  %3 = torus.remainder %x, %y : tensor<4xi32>
  %base = torus.constant dense<[3, 2, 2, -1]> : tensor<4xi32>
  %exp = torus.constant dense<[2, -1, 40, 4]> : tensor<4xi32>
  %4 = torus.power %base, %exp : tensor<4xi32>
  %5 = torus.compare LT, %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  // Saturating float-to-int conversion; NaN becomes 0.
  %big = torus.constant dense<[1.0e10, 0x7FC00000, -3.7]> : tensor<3xf32>
  %6 = torus.convert %big : (tensor<3xf32>) -> tensor<3xi32>
  %7 = torus.sign %b : tensor<2xf32>
  %8 = torus.negate %7 : tensor<2xf32>
  %9 = torus.negate %8 : tensor<2xf32>
  %10 = torus.negate %9 : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %10 : tensor<2xf32>, tensor<2xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2xi1>, tensor<3xi32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @more_identities
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>, %[[P:.*]]: tensor<4xi1>, %[[Q:.*]]: tensor<i1>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[I]], %[[P]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @more_identities(%x: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>, %q: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = torus.constant dense<0.0> : tensor<4xf32>
  %one = torus.constant dense<1.0> : tensor<4xf32>
  %ones = torus.constant dense<-1> : tensor<4xi32>
  %false = torus.constant dense<false> : tensor<4xi1>
  %true = torus.constant dense<true> : tensor<i1>
  %0 = torus.subtract %x, %zero : tensor<4xf32>
  %1 = torus.divide %x, %one : tensor<4xf32>
  %2 = torus.and %i, %ones : tensor<4xi32>
  %3 = torus.or %p, %false : tensor<4xi1>
  %4 = torus.select %true, %x, %zero : tensor<i1>, tensor<4xf32>
  %5 = torus.select %q, %x, %x : tensor<i1>, tensor<4xf32>
  %r = torus.reverse %x, dims = [0] : tensor<4xf32>
  %6 = torus.reverse %r, dims = [0] : tensor<4xf32>
  %7 = torus.concatenate(%x), dimension = 0 : (tensor<4xf32>) -> tensor<4xf32>
  %z = torus.constant dense<0.0> : tensor<f32>
  %8 = torus.pad %x, %z, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %s = torus.constant dense<0> : tensor<i32>
  %9 = torus.dynamic_slice %x[%s], sizes = [4] : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @splat_shapes
// CHECK-DAG: %[[A:.*]] = torus.constant dense<2.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = torus.constant dense<2.500000e+00> : tensor<3x2xf32>
// CHECK: return %[[A]], %[[B]]
func.func @splat_shapes() -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %c = torus.constant dense<2.5> : tensor<4x4xf32>
  %0 = torus.slice %c, start_indices = [0, 0], limit_indices = [2, 3], strides = [1, 1] : (tensor<4x4xf32>) -> tensor<2x3xf32>
  %1 = torus.transpose %0, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xf32>
}

// The weight gradient's form: the product with its operands swapped.
// CHECK-LABEL: func.func @transpose_of_dot
// CHECK-SAME: (%[[DY:.*]]: tensor<8x5xf32>, %[[X:.*]]: tensor<8x3xf32>, %[[A:.*]]: tensor<2x4x6xf32>, %[[B:.*]]: tensor<2x6x7xf32>)
// CHECK-NEXT: %[[W:.*]] = torus.dot_general %[[X]], %[[DY]], batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<8x3xf32>, tensor<8x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %[[C:.*]] = torus.dot_general %[[B]], %[[A]], batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x6x7xf32>, tensor<2x4x6xf32>) -> tensor<2x7x4xf32>
// CHECK-NEXT: return %[[W]], %[[C]]
func.func @transpose_of_dot(%dy: tensor<8x5xf32>, %x: tensor<8x3xf32>, %a: tensor<2x4x6xf32>, %b: tensor<2x6x7xf32>) -> (tensor<3x5xf32>, tensor<2x7x4xf32>) {
  %0 = torus.dot_general %dy, %x, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<8x5xf32>, tensor<8x3xf32>) -> tensor<5x3xf32>
  %1 = torus.transpose %0, permutation = [1, 0] : (tensor<5x3xf32>) -> tensor<3x5xf32>
  %2 = torus.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x6xf32>, tensor<2x6x7xf32>) -> tensor<2x4x7xf32>
  %3 = torus.transpose %2, permutation = [0, 2, 1] : (tensor<2x4x7xf32>) -> tensor<2x7x4xf32>
  return %1, %3 : tensor<3x5xf32>, tensor<2x7x4xf32>
}

// Not when the product has another use, or the permutation moves a batch
// dimension.
// CHECK-LABEL: func.func @transpose_of_dot_kept
// CHECK-COUNT-2: torus.transpose
func.func @transpose_of_dot_kept(%a: tensor<4x6xf32>, %b: tensor<6x7xf32>, %c: tensor<2x4x6xf32>, %d: tensor<2x6x7xf32>) -> (tensor<4x7xf32>, tensor<7x4xf32>, tensor<4x2x7xf32>) {
  %0 = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x7xf32>) -> tensor<4x7xf32>
  %1 = torus.transpose %0, permutation = [1, 0] : (tensor<4x7xf32>) -> tensor<7x4xf32>
  %2 = torus.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x6xf32>, tensor<2x6x7xf32>) -> tensor<2x4x7xf32>
  %3 = torus.transpose %2, permutation = [1, 0, 2] : (tensor<2x4x7xf32>) -> tensor<4x2x7xf32>
  return %0, %1, %3 : tensor<4x7xf32>, tensor<7x4xf32>, tensor<4x2x7xf32>
}

// Constant folds of the bit operations, by hand: the shift amount is read
// as unsigned (-1 and 32 shift every bit out); -8 is 0xFFFFFFF8.
// CHECK-LABEL: func.func @constant_bits
// CHECK-DAG: %[[SHL:.*]] = torus.constant dense<[8, -16, 0, 0]> : tensor<4xi32>
// CHECK-DAG: %[[SRA:.*]] = torus.constant dense<[0, -4, -1, -1]> : tensor<4xi32>
// CHECK-DAG: %[[SRL:.*]] = torus.constant dense<[0, 2147483644, 0, 0]> : tensor<4xi32>
// CHECK-DAG: %[[POP:.*]] = torus.constant dense<[1, 29, 29, 29]> : tensor<4xi32>
// CHECK-DAG: %[[CLZ:.*]] = torus.constant dense<[31, 0, 0, 0]> : tensor<4xi32>
// CHECK-DAG: %[[BITS:.*]] = torus.constant dense<[1065353216, -1073741824]> : tensor<2xi32>
// CHECK-DAG: %[[AFZ:.*]] = torus.constant dense<[3.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[CBRT:.*]] = torus.constant dense<[2.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK: return %[[SHL]], %[[SRA]], %[[SRL]], %[[POP]], %[[CLZ]], %[[BITS]], %[[AFZ]], %[[CBRT]]
func.func @constant_bits() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) {
  %a = torus.constant dense<[1, -8, -8, -8]> : tensor<4xi32>
  %n = torus.constant dense<[3, 1, 32, -1]> : tensor<4xi32>
  %0 = torus.shift_left %a, %n : tensor<4xi32>
  %1 = torus.shift_right_arithmetic %a, %n : tensor<4xi32>
  %2 = torus.shift_right_logical %a, %n : tensor<4xi32>
  %3 = torus.popcnt %a : tensor<4xi32>
  %4 = torus.count_leading_zeros %a : tensor<4xi32>
  %f = torus.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %5 = torus.bitcast_convert %f : (tensor<2xf32>) -> tensor<2xi32>
  %h = torus.constant dense<[2.5, -2.5]> : tensor<2xf32>
  %6 = torus.round_nearest_afz %h : tensor<2xf32>
  %c = torus.constant dense<[8.0, -27.0]> : tensor<2xf32>
  %7 = torus.cbrt %c : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>
}

// A shift by zero is its operand.
// CHECK-LABEL: func.func @shift_by_zero
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]]
func.func @shift_by_zero(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %zero = torus.constant dense<0> : tensor<4xi32>
  %0 = torus.shift_left %x, %zero : tensor<4xi32>
  %1 = torus.shift_right_arithmetic %x, %zero : tensor<4xi32>
  %2 = torus.shift_right_logical %x, %zero : tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
