// Tests that every elementwise torus op exports to its HLO opcode in the
// long form, and that importing that text and exporting it again gives the
// same text.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// CHECK-LABEL: HloModule elementwise, entry_computation_layout={(f32[2,3]{1,0}, f32[2,3]{1,0}, s32[2,3]{1,0}, pred[2,3]{1,0})->(f32[2,3]{1,0}, s32[2,3]{1,0}, pred[2,3]{1,0}, pred[2,3]{1,0}, f64[2,3]{1,0})}
// CHECK: ENTRY %elementwise (a: f32[2,3], b: f32[2,3], i: s32[2,3], p: pred[2,3]) -> (f32[2,3], s32[2,3], pred[2,3], pred[2,3], f64[2,3]) {
// CHECK-NEXT: %a = f32[2,3]{1,0} parameter(0)
// CHECK-NEXT: %b = f32[2,3]{1,0} parameter(1)
// CHECK-NEXT: %i = s32[2,3]{1,0} parameter(2)
// CHECK-NEXT: %p = pred[2,3]{1,0} parameter(3)
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<2x3xi32>, %p: tensor<2x3xi1>)
    -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf64>) {
  // CHECK-NEXT: %abs.1 = f32[2,3]{1,0} abs(f32[2,3]{1,0} %a), metadata={source_file="{{.*}}export-elementwise.mlir" source_line=[[@LINE+2]]}
  // TORUS: torus.abs
  %0 = torus.abs %a : tensor<2x3xf32>
  // CHECK-NEXT: negate(f32[2,3]{1,0} %abs.1)
  // TORUS-NEXT: torus.negate
  %1 = torus.negate %0 : tensor<2x3xf32>
  // CHECK-NEXT: sign(
  // TORUS-NEXT: torus.sign
  %2 = torus.sign %1 : tensor<2x3xf32>
  // CHECK-NEXT: exponential(
  // TORUS-NEXT: torus.exp
  %3 = torus.exp %2 : tensor<2x3xf32>
  // CHECK-NEXT: exponential-minus-one(
  // TORUS-NEXT: torus.expm1
  %4 = torus.expm1 %3 : tensor<2x3xf32>
  // CHECK-NEXT: log(
  // TORUS-NEXT: torus.log
  %5 = torus.log %4 : tensor<2x3xf32>
  // CHECK-NEXT: log-plus-one(
  // TORUS-NEXT: torus.log1p
  %6 = torus.log1p %5 : tensor<2x3xf32>
  // CHECK-NEXT: sqrt(
  // TORUS-NEXT: torus.sqrt
  %7 = torus.sqrt %6 : tensor<2x3xf32>
  // CHECK-NEXT: rsqrt(
  // TORUS-NEXT: torus.rsqrt
  %8 = torus.rsqrt %7 : tensor<2x3xf32>
  // CHECK-NEXT: tanh(
  // TORUS-NEXT: torus.tanh
  %9 = torus.tanh %8 : tensor<2x3xf32>
  // CHECK-NEXT: logistic(
  // TORUS-NEXT: torus.logistic
  %10 = torus.logistic %9 : tensor<2x3xf32>
  // CHECK-NEXT: sine(
  // TORUS-NEXT: torus.sin
  %11 = torus.sin %10 : tensor<2x3xf32>
  // CHECK-NEXT: cosine(
  // TORUS-NEXT: torus.cos
  %12 = torus.cos %11 : tensor<2x3xf32>
  // CHECK-NEXT: floor(
  // TORUS-NEXT: torus.floor
  %13 = torus.floor %12 : tensor<2x3xf32>
  // CHECK-NEXT: ceil(
  // TORUS-NEXT: torus.ceil
  %14 = torus.ceil %13 : tensor<2x3xf32>
  // CHECK-NEXT: round-nearest-even(
  // TORUS-NEXT: torus.round_nearest_even
  %15 = torus.round_nearest_even %14 : tensor<2x3xf32>
  // CHECK-NEXT: add(f32[2,3]{1,0} %round-nearest-even.16, f32[2,3]{1,0} %b)
  // TORUS-NEXT: torus.add
  %16 = torus.add %15, %b : tensor<2x3xf32>
  // CHECK-NEXT: subtract(
  // TORUS-NEXT: torus.subtract
  %17 = torus.subtract %16, %b : tensor<2x3xf32>
  // CHECK-NEXT: multiply(
  // TORUS-NEXT: torus.multiply
  %18 = torus.multiply %17, %b : tensor<2x3xf32>
  // CHECK-NEXT: divide(
  // TORUS-NEXT: torus.divide
  %19 = torus.divide %18, %b : tensor<2x3xf32>
  // CHECK-NEXT: remainder(
  // TORUS-NEXT: torus.remainder
  %20 = torus.remainder %19, %b : tensor<2x3xf32>
  // CHECK-NEXT: power(
  // TORUS-NEXT: torus.power
  %21 = torus.power %20, %b : tensor<2x3xf32>
  // CHECK-NEXT: maximum(
  // TORUS-NEXT: torus.maximum
  %22 = torus.maximum %21, %b : tensor<2x3xf32>
  // CHECK-NEXT: minimum(
  // TORUS-NEXT: torus.minimum
  %23 = torus.minimum %22, %b : tensor<2x3xf32>
  // CHECK-NEXT: atan2(
  // TORUS-NEXT: torus.atan2
  %24 = torus.atan2 %23, %b : tensor<2x3xf32>
  // CHECK-NEXT: %and.26 = s32[2,3]{1,0} and(s32[2,3]{1,0} %i, s32[2,3]{1,0} %i)
  // TORUS-NEXT: torus.and
  %25 = torus.and %i, %i : tensor<2x3xi32>
  // CHECK-NEXT: or(
  // TORUS-NEXT: torus.or
  %26 = torus.or %25, %i : tensor<2x3xi32>
  // CHECK-NEXT: xor(
  // TORUS-NEXT: torus.xor
  %27 = torus.xor %26, %i : tensor<2x3xi32>
  // CHECK-NEXT: %not.29 = s32[2,3]{1,0} not(s32[2,3]{1,0} %xor.28)
  // TORUS-NEXT: torus.not
  %28 = torus.not %27 : tensor<2x3xi32>
  // CHECK-NEXT: %not.30 = pred[2,3]{1,0} not(pred[2,3]{1,0} %p)
  // TORUS-NEXT: torus.not
  %29 = torus.not %p : tensor<2x3xi1>
  // CHECK-NEXT: %is-finite.31 = pred[2,3]{1,0} is-finite(f32[2,3]{1,0} %atan2.25)
  // TORUS-NEXT: torus.is_finite
  %30 = torus.is_finite %24 : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %compare.32 = pred[2,3]{1,0} compare(f32[2,3]{1,0} %atan2.25, f32[2,3]{1,0} %a), direction=GE
  // TORUS-NEXT: torus.compare GE
  %31 = torus.compare GE, %24, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: direction=NE
  // TORUS-NEXT: torus.compare NE
  %32 = torus.compare NE, %i, %28 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %and.34 = pred[2,3]{1,0} and(pred[2,3]{1,0} %compare.32, pred[2,3]{1,0} %compare.33)
  // TORUS-NEXT: torus.and
  %33 = torus.and %31, %32 : tensor<2x3xi1>
  // CHECK-NEXT: %select.35 = f32[2,3]{1,0} select(pred[2,3]{1,0} %and.34, f32[2,3]{1,0} %atan2.25, f32[2,3]{1,0} %b)
  // TORUS-NEXT: torus.select
  %34 = torus.select %33, %24, %b : tensor<2x3xi1>, tensor<2x3xf32>
  // A scalar bound: clamp(min, x, max).
  // CHECK-NEXT: %constant.36 = f32[] constant(-0.5)
  // CHECK-NEXT: %clamp.37 = f32[2,3]{1,0} clamp(f32[] %constant.36, f32[2,3]{1,0} %select.35, f32[2,3]{1,0} %b)
  // TORUS-NEXT: torus.constant dense<-5.000000e-01> : tensor<f32>
  // TORUS-NEXT: torus.clamp
  %lo = torus.constant dense<-0.5> : tensor<f32>
  %35 = torus.clamp %lo, %34, %b : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %convert.38 = f64[2,3]{1,0} convert(f32[2,3]{1,0} %clamp.37)
  // TORUS-NEXT: torus.convert
  %36 = torus.convert %35 : (tensor<2x3xf32>) -> tensor<2x3xf64>
  // CHECK-NEXT: ROOT %tuple.39 = (f32[2,3]{1,0}, s32[2,3]{1,0}, pred[2,3]{1,0}, pred[2,3]{1,0}, f64[2,3]{1,0}) tuple(f32[2,3]{1,0} %clamp.37, s32[2,3]{1,0} %not.29, pred[2,3]{1,0} %not.30, pred[2,3]{1,0} %is-finite.31, f64[2,3]{1,0} %convert.38)
  // CHECK-NEXT: }
  return %35, %28, %29, %30, %36 : tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf64>
}
